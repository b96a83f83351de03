// Entry-level mapping operations on one device: map a host range (creating
// or reusing an entry, issuing its H2D copy), find a mapped range for unmap
// or lookup, and drop a reference (freeing the entry at zero).
#pragma once

#include <cstdint>

#include "async_info.h"
#include "info.h"
#include "device.h"
#include "error.h"

namespace omptarget::core {

// On a device that completes every operation before returning, copies of at
// most this many bytes into a new entry (mapHostRange) and back from a
// leaving one (dataEnd) are done under the mapping table's lock: no other
// thread can find the entry while its data is in transit, so no entry lock
// or in-flight state is needed.
constexpr int64_t kSyncCopyUnderTableLockBytes = 64 * 1024;

struct MapRequest {
  void *HstBegin = nullptr;
  void *HstBase = nullptr;
  int64_t Size = 0;
  map_var_info_t Name = nullptr;
  bool To = false;
  bool Always = false;
  bool Implicit = false;
  bool UpdateRef = true;
  bool Close = false;
  bool Present = false;
  bool Hold = false;
};

struct MappedPointer {
  void *TgtPtr = nullptr;  // null: not mapped (and Size 0, or present failure)
  bool IsNew = false;
  bool IsHostPtr = false;  // unified shared memory: the host address is used
  MapEntry *Entry = nullptr;
};

// getTargetPointer: on failure the error says why (present, extension, OOM).
Expected<MappedPointer> mapHostRange(Device &D, const MapRequest &Req, AsyncInfo &Async);

struct FoundPointer {
  void *TgtPtr = nullptr;
  bool IsLast = false;
  bool IsHostPtr = false;
  bool Dropped = false;     // DropNow applied: the reference is gone
  bool DropError = false;   // and freeing the entry it removed failed (reported)
  bool CopiedBack = false;  // CopyBackNow applied: the data is back on the host
  bool CopyError = false;   // that copy failed (reported): nothing was dropped
};

struct FindRequest {
  void *HstBegin = nullptr;
  int64_t Size = 0;
  bool UpdateRef = false;
  bool Hold = false;
  bool MustContain = false;
  bool ForceDelete = false;
  // The caller has queued nothing that uses the entry: drop the reference
  // now, under the same lock, instead of in a later dropReference, unless
  // the entry would go and CopyIfLast asks for its data first. An entry
  // that goes is removed and freed here.
  bool DropNow = false;
  bool CopyIfLast = false;  // `from`: the last reference copies back
  // With DropNow and CopyIfLast: when the entry goes, copy it back here, on
  // this AsyncInfo of a device that completes synchronously, under the lock,
  // and remove it (small sizes: the copy is a short memcpy).
  AsyncInfo *CopyBackNow = nullptr;
  map_var_info_t Name = nullptr;  // for the copy's info line
};

// getTgtPtrBegin: finds the mapping and predicts whether dropping a
// reference would remove it; counts are left alone (dropReference changes
// them after the construct synchronized) unless DropNow applies.
// TgtPtr is null when not mapped.
FoundPointer findMapping(Device &D, const FindRequest &Req);

struct DropRequest {
  void *HstBegin = nullptr;
  int64_t Size = 0;
  bool Hold = false;
  bool ForceDelete = false;     // `delete`: reset the count first
  bool CopyBackIfLast = false;  // `from`: copy back if this drop frees the entry
  bool AlreadyCopied = false;   // the construct already issued that copy
};

// Drops one reference of the entry holding [HstBegin, +Size) (run after the
// construct synchronized); at zero the entry goes: copy back if asked and not
// yet done, forget its shadow pointers, free its event and device memory.
Status dropReference(Device &D, const DropRequest &R);
// dropReference with no copy-back (undoing a reference just taken).
Status releaseMapping(Device &D, void *HstBegin, int64_t Size, bool Hold);

// The device-to-host copy of a mapped range on Async, with its
// LIBOMPTARGET_INFO line ("Copying data from device to host ..."). Inline:
// it is on every construct's path; the line is printed out of line.
[[gnu::cold]] void reportCopyToHost(Device &D, void *HstBegin, void *Tgt, int64_t Size,
                                    map_var_info_t Name);
inline Status copyToHost(Device &D, void *HstBegin, void *Tgt, int64_t Size, map_var_info_t Name,
                         AsyncInfo &Async) {
  if (info::enabled(abi::kInfoDataTransfer)) reportCopyToHost(D, HstBegin, Tgt, Size, Name);
  return D.retrieve(HstBegin, Tgt, Size, Async);
}

// After a copy back into [HstBegin, +Size): puts back the host pointer
// values that the copy overwrote with device addresses (shadow pointers).
void restoreShadows(MappingTable &T, void *HstBegin, int64_t Size);

// Device address for a host address, or null (no refcount change).
// With MustContain false a mapping that only overlaps the range counts too
// (kernel arguments whose mapper mapped part of the object).
void *translate(Device &D, void *HstPtr, int64_t Size, bool *IsHostPtr = nullptr,
                bool MustContain = true);

}  // namespace omptarget::core
