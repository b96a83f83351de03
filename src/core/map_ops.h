// Entry-level mapping operations on one device, the OpenMP rules of map
// clauses: map a host range (find or create its entry, take a reference,
// present / always / close / unified shared memory), find a mapped range for
// an exit or a lookup (predict or drop its reference), and drop a reference
// (removing the entry at zero). The copies into and out of entries, and the
// waits for other constructs' copies, are entry_copies.h's.
//
// Locks: each call takes the device's table lock (MappingTable::Mutex) once;
// entry_copies.h says what happens to it during a copy. No call returns with
// a lock held.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "device.h"
#include "entry_copies.h"
#include "error.h"
#include "info.h"

namespace omptarget::core {

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

// An entry whose last reference went and that left the table, with what is
// left to do for it outside the table lock: forget the shadow pointers
// inside it, give back its event, unlock its host range, free its memory.
struct LeavingEntry {
  void *Tgt = nullptr;  // null: no entry left
  void *Event = nullptr;
  uintptr_t HstBegin = 0, HstEnd = 0;
  bool HostLocked = false;
  // With a release on the queue: the entry itself, out of the table but
  // alive until the construct's synchronize (its queue-done actions refer to
  // it), and the reference it had.
  MapEntry *Entry = nullptr;
  bool Hold = false;
};

struct FoundPointer {
  void *TgtPtr = nullptr;
  bool IsLast = false;
  bool IsHostPtr = false;
  bool Dropped = false;     // the reference was dropped here (DropWhen)
  bool DropError = false;   // and freeing the entry it removed failed (reported)
  bool CopiedBack = false;  // NowCopyingBackIfLast copied: the data is back
  bool CopyError = false;   // that copy failed (reported): nothing was dropped
  // With LastReleasedOnQueue*: the entry, when this was its last reference;
  // the caller queues its copy back and releaseOnQueue.
  LeavingEntry Leaving;
};

struct FindRequest {
  void *HstBegin = nullptr;
  int64_t Size = 0;
  bool UpdateRef = false;  // the exit drops one of the construct's references
  bool Hold = false;
  bool MustContain = false;
  bool ForceDelete = false;
  // When that reference is dropped. Dropping it here, under the lookup's
  // lock, saves a second lookup; the caller may allow it only when it has
  // queued nothing that uses the entry.
  enum class DropWhen : uint8_t {
    // After the construct's synchronize (the caller's dropReference); here
    // the counts are left alone and IsLast is a prediction.
    AfterSync,
    // Now; an entry that goes is removed and freed here (no `from`).
    Now,
    // Now, unless it is the last (the entry's `from` data must first be
    // copied back on the construct's queue: then AfterSync).
    NowUnlessLast,
    // Now; when it is the last, the `from` data is first copied back here,
    // on CopyBackOn (an AsyncInfo of an Immediate device: a short memcpy),
    // and the entry removed.
    NowCopyingBackIfLast,
    // On a device that orders allocation on the queue: the last reference
    // is dropped now and the entry leaves the table (Leaving; its copy back
    // and release go on the construct's queue); any other reference is
    // dropped now (...OthersNow: the construct has queued nothing yet) or
    // after the synchronize (...OthersAfterSync).
    LastReleasedOnQueueOthersNow,
    LastReleasedOnQueueOthersAfterSync,
  };
  DropWhen When = DropWhen::AfterSync;
  AsyncInfo *CopyBackOn = nullptr;  // with NowCopyingBackIfLast
  map_var_info_t Name = nullptr;    // for the copy's info line
};

// getTgtPtrBegin: finds the mapping and predicts whether dropping a
// reference would remove it; counts are left alone (dropReference changes
// them after the construct synchronized) unless Req.When says now.
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

// The rest of an entry's removal after findMapping returned it as Leaving
// (and its copy back, if any, was queued: Copied): the release of its
// memory on Async's queue, then, after the synchronize, the host pointers
// the copy overwrote put back (shadow pointers, taken out of the table now),
// the event given back and the host range unlocked.
Status releaseOnQueue(Device &D, const LeavingEntry &L, bool Copied, AsyncInfo &Async);
// Instead of releaseOnQueue when the copy back could not be issued: the
// entry goes back into the table with its last reference (its data is never
// dropped unseen; a later exit can retry). False when its range was mapped
// anew meanwhile: then it is released (releaseOnQueue) and the data is lost.
bool keepLeavingEntry(Device &D, const LeavingEntry &L, AsyncInfo &Async);

// Drops one reference of the entry holding [HstBegin, +Size) (run after the
// construct synchronized); at zero the entry goes: copy back if asked and not
// yet done, forget its shadow pointers, free its event and device memory.
Status dropReference(Device &D, const DropRequest &R);
// dropReference with no copy-back: gives back a reference that was taken
// but whose data was never used (undoing a failed map, or an entry whose
// copy failed).
Status dropUnusedReference(Device &D, void *HstBegin, int64_t Size, bool Hold);

// After a copy back into [HstBegin, +Size): puts back the host pointer
// values that the copy overwrote with device addresses (shadow pointers).
void restoreShadows(MappingTable &T, void *HstBegin, int64_t Size);

// Device address for a host address, or null (no refcount change).
// With MustContain false a mapping that only overlaps the range counts too
// (kernel arguments whose mapper mapped part of the object).
void *translate(Device &D, void *HstPtr, int64_t Size, bool *IsHostPtr = nullptr,
                bool MustContain = true);

}  // namespace omptarget::core
