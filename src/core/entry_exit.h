// How a mapping entry leaves: the one home for the end of a mapping (exit
// data, the end of `target data` and of a target region, the undoing of a
// failed map). The OpenMP layer states the rule of each exiting list item
// (ExitRule: drop a reference or not, `delete`, copy back never / if last /
// always) and calls EntryExits::leave; this file carries the rule out the
// way the device's policy (CopyPolicy and stream-ordered allocation, both
// decided at device initialization) requires, keeping rule 5 of the entry
// protocol (entry_copies.h).
//
// How, per device (the choice is dropWhen() in entry_exit.cpp):
// - a device that orders allocation on the queue: an entry whose last
//   reference goes leaves the table at once, and its copy back and the
//   release of its memory are queued on the construct's queue (except for an
//   `always` copy back, which is made first, as below);
// - otherwise, while nothing of the construct can be in flight (it has
//   queued nothing yet, or the device is Immediate: everything is done when
//   issued), a reference is dropped at once, after the last one's copy back
//   (on an Immediate device a small one is made under the table lock,
//   during the lookup);
// - otherwise every drop waits for the construct's synchronize (registered
//   in order by EntryExits::finish), so queued work never outlives the
//   storage it uses.
//
// Locks: each leave takes the device's table lock (MappingTable::Mutex)
// once, and again after the synchronize for a deferred drop; copies back
// under it follow entry_copies.h's lock order. No call returns with a lock
// held. Not thread safe itself: an EntryExits belongs to one construct.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "device.h"
#include "error.h"
#include "small_array.h"

namespace omptarget::core {

// The OpenMP rule of one exiting list item.
struct ExitRule {
  void *HstBegin = nullptr;
  int64_t Size = 0;
  map_var_info_t Name = nullptr;
  // Drop one of the construct's references (false: a struct member, whose
  // entry rides on its parent's count).
  bool Decrement = false;
  bool Hold = false;        // the hold count (ompx_hold), not the dynamic one
  bool Delete = false;      // `delete`: the count is reset first
  bool MustContain = true;  // false: an implicit map may only overlap its entry
  enum class CopyBack : uint8_t {
    Never,   // no `from`
    IfLast,  // `from`: when this drop removes the entry
    Always,  // `always, from`
  };
  CopyBack Copy = CopyBack::Never;
};

// One reference drop, as carried out at once or after the construct's
// synchronize (EntryExits defers them).
struct DropRequest {
  void *HstBegin = nullptr;
  int64_t Size = 0;
  bool Hold = false;
  bool Delete = false;          // `delete`: reset the count first
  bool CopyBackIfLast = false;  // `from`: copy back if this drop frees the entry
  bool AlreadyCopied = false;   // the construct already issued that copy
};

// The exits of one construct's end phase, on its AsyncInfo.
class EntryExits {
 public:
  EntryExits(Device &D, AsyncInfo &Async) : D_(D), Async_(Async) {}
  EntryExits(const EntryExits &) = delete;
  EntryExits &operator=(const EntryExits &) = delete;

  // Carries out R. False: the range is not mapped (OpenMP 5.1: the list
  // item is ignored; the caller reports a `present` modifier). An error
  // says which copy or release failed; the entry then keeps its data.
  Expected<bool> leave(const ExitRule &R);
  // Registers the drops that wait for the construct's synchronize, in the
  // order leave() met them (after every copy back's host-pointer restore).
  void finish();

 private:
  Status dropOrDefer(const ExitRule &R, bool Copied);

  Device &D_;
  AsyncInfo &Async_;
  SmallArray<DropRequest, 8> Deferred_;
};

// After a device-to-host copy into [HstBegin, +Size) issued on Async (an
// exit's copy back, `target update from`): the host pointer values that it
// overwrote with device addresses are put back once it has landed (at once
// when nothing of the construct can be in flight).
void restoreAfterCopyBack(Device &D, void *HstBegin, int64_t Size, AsyncInfo &Async);

// Gives back a reference that was taken but whose data was never used
// (undoing a failed map, or an entry whose copy failed); an entry whose last
// reference it was goes, with nothing copied back.
Status dropUnusedReference(Device &D, void *HstBegin, int64_t Size, bool Hold);

}  // namespace omptarget::core
