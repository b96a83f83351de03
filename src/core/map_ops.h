// Entry-level mapping operations on one device, the OpenMP rules of map
// clauses on entry: map a host range (find or create its entry, take a
// reference, present / always / close / unified shared memory), and find
// the device address of a mapped range. The copies into entries and the
// waits for other constructs' copies are entry_copies.h's; how an entry
// leaves is entry_exit.h's.
//
// Locks: each call takes the device's table lock (MappingTable::Mutex) once;
// entry_copies.h says what happens to it during a copy. No call returns with
// a lock held.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "device.h"
#include "error.h"

namespace omptarget::core {

struct MapRequest {
  void *HstBegin = nullptr;
  void *HstBase = nullptr;
  int64_t Size = 0;
  // Device bytes allocated before a new entry's begin (a struct's alignment
  // padding, MapEntry::TgtPadding); not part of the mapping.
  int64_t Padding = 0;
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

// After a host-to-device copy over [HstBegin, +Size) of an entry that was
// already mapped (`always`, `target update to`): the copy overwrote the
// device pointers attached inside it with host values; this writes the
// device values back, on Async's queue after the copy.
Status reattachPointers(Device &D, void *HstBegin, int64_t Size, AsyncInfo &Async);

// Device address for a host address, or null (no refcount change).
// With MustContain false a mapping that only overlaps the range counts too
// (kernel arguments whose mapper mapped part of the object).
void *translate(Device &D, void *HstPtr, int64_t Size, bool *IsHostPtr = nullptr,
                bool MustContain = true);

}  // namespace omptarget::core
