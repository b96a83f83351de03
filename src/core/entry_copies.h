// The entry-event protocol: how the storage and the data of a mapping entry
// become visible to the other constructs that find the entry, and how data
// leaves an entry whose last reference goes. Every fill of a mapping entry
// (its allocation on a construct's queue, a copy into it) goes through this
// file, and every copy out of a leaving entry through this file or
// entry_exit.h (which carries out how entries leave). mapHostRange
// (map_ops.h) and the data constructs decide the OpenMP side (which entry,
// which reference counts, whether to copy at all) and call them.
//
// The rules, for each device's copy policy (CopyPolicy, device.h, decided
// once at device initialization):
//
// 1. An entry is in the table, and can be found by other threads, from the
//    moment it is inserted: before its memory (when the device allocates on
//    the construct's queue, Device::ordersAllocationOnQueue) and its data
//    are there. (Enforced by mapHostRange, which inserts under the table
//    lock and hands the entry to rule 2 before releasing it.)
// 2. The thread that fills an entry (a new entry allocated on its queue, a
//    copy into a new entry or an `always` copy) issues the fill holding the
//    entry's TransferMutex, with TransferBusy set; it takes TransferMutex
//    before it releases the table lock, so no other thread can find the
//    entry in between without seeing TransferBusy. (publishAllocation and
//    copyIntoEntry, below.)
// 3. A fill is ordered after every earlier fill still in flight: while
//    FillsInFlight is non-zero the filler first makes its queue wait for
//    the entry's event (rule 4's wait). It then makes its fill waitable:
//    - Immediate: the copy is complete already. Moreover a copy of at most
//      kSyncCopyUnderTableLockBytes is done under the table lock itself (no
//      other thread can find the entry before the data is there: no entry
//      lock, nothing in flight).
//    - RecordEvent: records the entry's event on the issuing queue.
//    - RecordWhenNeeded: remembers the issuing queue in E.CopyQueue; a
//      waiter records the event there later (the queue persists).
//    - FinishUnderEntryLock: synchronizes the issuing queue.
//    and, for the two event policies, counts itself in FillsInFlight until
//    the issuing construct's queue is done (an AsyncInfo whenQueueDone
//    action takes it back).
//    So the entry's event means exactly one thing: the end of every fill
//    in flight (the latest one, which each fill re-records after ordering
//    itself behind the earlier ones). Once FillsInFlight is zero it means
//    nothing and nobody waits for it: an event recorded for an allocation
//    is never taken for the end of a later copy, because that copy records
//    it anew, under TransferMutex, before anyone can see the copy counted.
//    (makeFillWaitable and orderAfterFills in entry_copies.cpp.)
// 4. A thread that finds an entry it does not fill, and sees TransferBusy
//    or a fill in flight, releases the table lock, takes TransferMutex
//    (once free, every fill so far has at least been issued and made
//    waitable) and, while FillsInFlight is non-zero, makes its own queue
//    wait for the entry's event. Seeing neither, it needs no lock and no
//    wait. (waitForEntryData, through useEntryWithoutCopy.)
// 5. An entry whose last reference goes leaves the table at once, and
//    - on a device that orders allocation on the queue, its copy back and
//      the release of its memory are queued on the construct's queue, which
//      synchronizes once at the end (the construct owns the storage alone:
//      nobody can find it any more; a construct that maps the same host
//      range anew meanwhile is not ordered with this one by the program);
//    - otherwise its copy back is complete before it leaves the table
//      (copyBackLeavingEntry) and its memory is freed after that.
//    (EntryExits, entry_exit.h: the one place that drops references and
//    removes entries.)
//
// Locks: the table lock (MappingTable::Mutex) before an entry's
// TransferMutex, never the reverse. E.Event and E.CopyQueue are guarded by
// TransferMutex; TransferBusy and FillsInFlight are atomics, read without it.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "device.h"
#include "error.h"
#include "info.h"
#include "mapping_table.h"
#include "scoped_lock.h"

namespace omptarget::core {

// On an Immediate device, copies of at most this many bytes into a new entry
// and back from a leaving one are done under the mapping table's lock
// (rule 3 above, and EntryExits's copy back of a leaving entry).
constexpr int64_t kSyncCopyUnderTableLockBytes = 64 * 1024;

// The table lock is handed in held and released inside (rule 2's hand-over),
// which Clang's thread-safety analysis cannot follow across a call: the two
// functions that hand one over are excluded from it (their entry-lock helpers are
// checked).
using TableLock = UniqueLock;

struct EntryCopy {
  void *Tgt = nullptr;  // inside the entry
  void *Hst = nullptr;
  int64_t Size = 0;
  map_var_info_t Name = nullptr;  // for the LIBOMPTARGET_INFO line
};

// Rules 2 and 3 for a new entry whose memory was allocated on Async's queue
// and that gets no copy (map(alloc:), map(from:)): publishes the allocation
// as the entry's fill. Called with Lock (the table lock) held; returns with
// it released.
Status publishAllocation(Device &D, MapEntry &E, TableLock &Lock, AsyncInfo &Async);

// Copies C into E on Async's queue by rules 2 and 3. Called with Lock (the
// table lock) held; returns with it released. On failure nothing of the copy
// is left in flight (the queue was drained), so the caller may drop the
// reference it took and free the entry.
Status copyIntoEntry(Device &D, MapEntry &E, TableLock &Lock, const EntryCopy &C, AsyncInfo &Async);

// Rule 4: orders Async's later work after E's data, for a construct that
// found E and copies nothing into it. Called with Lock held; returns with it
// released.
Status waitForEntryData(Device &D, MapEntry &E, TableLock &Lock, AsyncInfo &Async);

// For a construct that maps E and copies nothing into it (Created: it has
// just inserted E): a new entry allocated on Async's queue is published as
// filled by its allocation (rules 2 and 3), any other waits for the fills
// in flight (rule 4). Called with Lock held; returns with it released.
Status useEntryWithoutCopy(Device &D, MapEntry &E, bool Created, TableLock &Lock, AsyncInfo &Async);

// Rule 5: the `from` copy of [HstBegin, +Size) out of E, whose last reference
// is going (table lock held, E still linked), complete when this returns.
// Issued on Sync, an AsyncInfo of an Immediate device, when given; else on an
// AsyncInfo of its own that it synchronizes.
Status copyBackLeavingEntry(Device &D, const MapEntry &E, void *HstBegin, int64_t Size,
                            map_var_info_t Name, AsyncInfo *Sync = nullptr);

// Gives back an entry's event once the entry is gone.
void destroyEntryEvent(Device &D, void *Event);

// The device-to-host copy of a mapped range on Async, with its
// LIBOMPTARGET_INFO line ("Copying data from device to host ..."). Inline:
// it is on every construct's path; the line is printed out of line.
[[gnu::cold]] void reportCopyToHost(Device &D, void *HstBegin, void *Tgt, int64_t Size,
                                    map_var_info_t Name);
inline Status copyToHost(Device &D, void *HstBegin, void *Tgt, int64_t Size, map_var_info_t Name,
                         AsyncInfo &Async) {
  if (info::enabled(abi::kInfoDataTransfer)) reportCopyToHost(D, HstBegin, Tgt, Size, Name);
  return D.retrieve(HstBegin, Tgt, Size, *Async.raw());
}

}  // namespace omptarget::core
