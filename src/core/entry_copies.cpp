#include "entry_copies.h"

#include <cinttypes>

#include "debug.h"

namespace omptarget::core {

using abi::kOffloadSuccess;

namespace {

[[gnu::cold]] void reportCopyToDevice(Device &D, const EntryCopy &C) {
  info::print(D.id(),
              "Copying data from host to device, HstPtr=" OMPT_PTR_FMT ", TgtPtr=" OMPT_PTR_FMT
              ", Size=%" PRId64 ", Name=%s",
              OMPT_PTR(C.Hst), OMPT_PTR(C.Tgt), C.Size, info::varName(C.Name).c_str());
}

Status submitReported(Device &D, const EntryCopy &C, AsyncInfo &Async) {
  if (info::enabled(abi::kInfoDataTransfer)) reportCopyToDevice(D, C);
  return D.submit(C.Tgt, C.Hst, C.Size, *Async.raw());
}

// E's event recorded on Queue (created on first use, reused for every copy).
// Requires E.TransferMutex.
Status recordEntryEvent(Device &D, MapEntry &E, __tgt_async_info *Queue) REQUIRES(E.TransferMutex) {
  const PluginFunctions &F = D.plugin().fn();
  if (!E.Event && F.create_event(D.pluginDeviceId(), &E.Event) != kOffloadSuccess) {
    E.Event = nullptr;
    return makeError("device %d: creating an event failed", D.id());
  }
  if (F.record_event(D.pluginDeviceId(), E.Event, Queue) != kOffloadSuccess)
    return makeError("device %d: recording an event failed", D.id());
  return Status::success();
}

// Rule 4's wait, with TransferMutex held: orders Async's later work after
// every fill of E in flight (none: nothing to do).
Status orderAfterFills(Device &D, MapEntry &E, AsyncInfo &Async) REQUIRES(E.TransferMutex) {
  if (E.FillsInFlight.load(std::memory_order_acquire) == 0) return Status::success();
  if (D.copyPolicy() == CopyPolicy::RecordWhenNeeded) {
    // Recorded now on the latest filler's queue: after its fill (issued
    // before TransferMutex was released), perhaps after later work of that
    // queue too, which only makes the wait longer. The queue may already be
    // back in its pool; it persists, so the record is still valid.
    __tgt_async_info Issuer;
    Issuer.Queue = E.CopyQueue;
    if (!Issuer.Queue) return Status::success();
    if (Status S = recordEntryEvent(D, E, &Issuer); !S) return S;
  }
  if (!E.Event) return Status::success();
  if (D.plugin().fn().wait_event(D.pluginDeviceId(), E.Event, Async.raw()) != kOffloadSuccess)
    return makeError("device %d: waiting for the copy of host " OMPT_PTR_FMT " failed", D.id(),
                     E.HstBegin);
  return Status::success();
}

// Rule 3: after issuing a fill of E on Async's queue, holding
// E.TransferMutex.
Status makeFillWaitable(Device &D, MapEntry &E, AsyncInfo &Async) REQUIRES(E.TransferMutex) {
  switch (D.copyPolicy()) {
    case CopyPolicy::Immediate: return Status::success();
    case CopyPolicy::FinishUnderEntryLock: return D.synchronize(*Async.raw());
    case CopyPolicy::RecordWhenNeeded:
      // Nothing to record unless someone reuses the entry before Async's
      // synchronize (orderAfterFills records then, on this queue).
      E.CopyQueue = Async.queue();
      break;
    case CopyPolicy::RecordEvent:
      if (Status S = recordEntryEvent(D, E, Async.raw()); !S) return S;
      break;
  }
  // The construct holds a reference to E until after its synchronization;
  // this runs before any release it schedules, a failure rollback included.
  E.FillsInFlight.fetch_add(1, std::memory_order_release);
  Async.whenQueueDone([&E] {
    E.FillsInFlight.fetch_sub(1, std::memory_order_release);
    return Status::success();
  });
  return Status::success();
}

// After a fill failed: whatever was queued must finish before the storage
// can go (the caller drops its reference and may free the entry).
void drainAfterFailedFill(Device &D, AsyncInfo &Async) {
  if (Status Drain = D.synchronize(*Async.raw()); !Drain)
    debug::error("%s", Drain.error().message().c_str());
}

}  // namespace

Status publishAllocation(Device &D, MapEntry &E, TableLock &Lock,
                         AsyncInfo &Async) NO_THREAD_SAFETY_ANALYSIS {
  UniqueLock EntryLock(E.TransferMutex);
  E.TransferBusy.store(true, std::memory_order_relaxed);
  Lock.unlock();
  Status Published = makeFillWaitable(D, E, Async);
  E.TransferBusy.store(false, std::memory_order_release);
  if (!Published) {
    EntryLock.unlock();
    drainAfterFailedFill(D, Async);
  }
  return Published;
}

Status copyIntoEntry(Device &D, MapEntry &E, TableLock &Lock, const EntryCopy &C,
                     AsyncInfo &Async) NO_THREAD_SAFETY_ANALYSIS {
  // (An `always` copy into an entry that another thread is still filling
  // outside the table lock waits for it the usual way.)
  if (D.copyPolicy() == CopyPolicy::Immediate && C.Size <= kSyncCopyUnderTableLockBytes &&
      !E.TransferBusy.load(std::memory_order_acquire)) {
    Status Copied = submitReported(D, C, Async);
    Lock.unlock();
    return Copied;
  }
  UniqueLock EntryLock(E.TransferMutex);
  E.TransferBusy.store(true, std::memory_order_relaxed);
  Lock.unlock();
  Status Copied = orderAfterFills(D, E, Async);
  if (Copied) Copied = submitReported(D, C, Async);
  if (Copied) Copied = makeFillWaitable(D, E, Async);
  E.TransferBusy.store(false, std::memory_order_release);
  if (!Copied) {
    EntryLock.unlock();
    drainAfterFailedFill(D, Async);
  }
  return Copied;
}

Status useEntryWithoutCopy(Device &D, MapEntry &E, bool Created, TableLock &Lock,
                           AsyncInfo &Async) {
  // A new entry allocated on the queue is filled by its allocation.
  if (Created && D.ordersAllocationOnQueue() && Async.hasQueue())
    return publishAllocation(D, E, Lock, Async);
  return waitForEntryData(D, E, Lock, Async);
}

Status waitForEntryData(Device &D, MapEntry &E, TableLock &Lock,
                        AsyncInfo &Async) NO_THREAD_SAFETY_ANALYSIS {
  bool Busy = E.TransferBusy.load(std::memory_order_acquire) ||
              E.FillsInFlight.load(std::memory_order_acquire) != 0;
  Lock.unlock();
  if (!Busy) return Status::success();
  ScopedLock Wait(E.TransferMutex);
  return orderAfterFills(D, E, Async);
}

Status copyBackLeavingEntry(Device &D, const MapEntry &E, void *HstBegin, int64_t Size,
                            map_var_info_t Name, AsyncInfo *Sync) {
  void *Tgt =
      reinterpret_cast<void *>(E.TgtBegin + (reinterpret_cast<uintptr_t>(HstBegin) - E.HstBegin));
  if (Sync) return copyToHost(D, HstBegin, Tgt, Size, Name, *Sync);
  AsyncInfo Async(D);
  Status Result = copyToHost(D, HstBegin, Tgt, Size, Name, Async);
  if (Status S = Async.synchronize(); !S && Result) Result = std::move(S);
  return Result;
}

void destroyEntryEvent(Device &D, void *Event) {
  const PluginFunctions &F = D.plugin().fn();
  if (Event && F.destroy_event) F.destroy_event(D.pluginDeviceId(), Event);
}

void reportCopyToHost(Device &D, void *HstBegin, void *Tgt, int64_t Size, map_var_info_t Name) {
  info::print(D.id(),
              "Copying data from device to host, TgtPtr=" OMPT_PTR_FMT ", HstPtr=" OMPT_PTR_FMT
              ", Size=%" PRId64 ", Name=%s",
              OMPT_PTR(Tgt), OMPT_PTR(HstBegin), Size, info::varName(Name).c_str());
}

}  // namespace omptarget::core
