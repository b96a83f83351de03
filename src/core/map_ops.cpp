#include "map_ops.h"

#include <cinttypes>

#include "debug.h"
#include "info.h"
#include "runtime.h"

namespace omptarget::core {

namespace {
std::string nameOf(map_var_info_t Name) { return info::varName(Name); }

}  // namespace

Expected<MappedPointer> mapHostRange(Device &D, const MapRequest &Req, AsyncInfo &Async) {
  MappedPointer Result;
  bool Created = false;
  auto Begin = reinterpret_cast<uintptr_t>(Req.HstBegin);
  MappingTable &T = D.mappings();
  UniqueLock TableLock(T.Mutex);
  LookupResult LR = T.lookup(Begin, Req.Size);

  if (LR.IsContained || ((LR.ExtendsBefore || LR.ExtendsAfter) && Req.Implicit)) {
    MapEntry &E = *LR.Entry;
    const char *Action;
    if (Req.UpdateRef) {
      E.incRef(Req.Hold);
      Action = " (incremented)";
    } else {
      // Allocated with its parent struct in this same construct: still new.
      Result.IsNew = E.totalRef() == 1;
      Action = " (update suppressed)";
    }
    Result.Entry = &E;
    Result.TgtPtr = reinterpret_cast<void *>(E.TgtBegin + (Begin - E.HstBegin));
    if (info::enabled(abi::kInfoMappingExists))
      info::print(D.id(),
                  "Mapping exists%s with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
                  ", Size=%" PRId64 ", DynRefCount=%s%s, HoldRefCount=%s%s, Name=%s",
                  Req.Implicit ? " (implicit)" : "", Begin, OMPT_PTR(Result.TgtPtr), Req.Size,
                  E.refToString(false).c_str(), Req.Hold ? "" : Action,
                  E.refToString(true).c_str(), Req.Hold ? Action : "", nameOf(Req.Name).c_str());
  } else if (LR.ExtendsBefore || LR.ExtendsAfter) {
    const MapEntry &E = *LR.Entry;
    debug::message("explicit extension not allowed: host address specified is " OMPT_PTR_FMT
                   " (%" PRId64 " bytes), but device allocation maps to host at " OMPT_PTR_FMT
                   " (%" PRId64 " bytes)",
                   Begin, Req.Size, E.HstBegin, E.size());
    if (Req.Present)
      debug::message("device mapping required by 'present' map type modifier does not exist for "
                     "host address " OMPT_PTR_FMT " (%" PRId64 " bytes)",
                     Begin, Req.Size);
    return makeError("mapping %s failed: it extends an existing mapping", nameOf(Req.Name).c_str());
  } else if (Runtime::get().unifiedSharedMemory() && !Req.Close) {
    // Unified shared memory: the device uses the host address directly.
    if (Req.Size) {
      Result.IsHostPtr = true;
      Result.TgtPtr = Req.HstBegin;
    }
    return Result;
  } else if (Req.Present) {
    debug::message("device mapping required by 'present' map type modifier does not exist for "
                   "host address " OMPT_PTR_FMT " (%" PRId64 " bytes)",
                   Begin, Req.Size);
    return makeError("'present' map type modifier");
  } else if (Req.Size) {
    auto Tgt = D.allocate(Req.Size, Req.HstBegin, abi::kAllocDefault);
    if (!Tgt) return Tgt.takeError();
    MapEntry &E = T.insert(reinterpret_cast<uintptr_t>(Req.HstBase), Begin, Begin + Req.Size,
                           reinterpret_cast<uintptr_t>(*Tgt), Req.Hold, Req.Name);
    Result.IsNew = true;
    Created = true;
    Result.Entry = &E;
    Result.TgtPtr = *Tgt;
    if (info::enabled(abi::kInfoMappingChanged))
      info::print(D.id(),
                  "Creating new map entry with HstPtrBegin=" OMPT_PTR_FMT
                  ", TgtPtrBegin=" OMPT_PTR_FMT ", Size=%" PRId64
                  ", DynRefCount=%s, HoldRefCount=%s, Name=%s",
                  Begin, OMPT_PTR(*Tgt), Req.Size, E.refToString(false).c_str(),
                  E.refToString(true).c_str(), nameOf(Req.Name).c_str());
  } else {
    // Size 0 and not mapped: nothing to do (a zero-length section).
    return Result;
  }

  MapEntry &E = *Result.Entry;
  if (Req.To && (Result.IsNew || Req.Always)) {
    // Never leave an entry that claims data which did not arrive: undo the
    // reference this call took (removing a new entry and its memory).
    auto Undo = [&] {
      if (Created || Req.UpdateRef)
        if (Status S = releaseMapping(D, Req.HstBegin, Req.Size, Req.Hold); !S)
          debug::error("%s", S.error().message().c_str());
    };
    auto Report = [&] {
      if (info::enabled(abi::kInfoDataTransfer))
        info::print(D.id(),
                    "Copying data from host to device, HstPtr=" OMPT_PTR_FMT ", TgtPtr=" OMPT_PTR_FMT
                    ", Size=%" PRId64 ", Name=%s",
                    Begin, OMPT_PTR(Result.TgtPtr), Req.Size, nameOf(Req.Name).c_str());
    };
    // (An `always` copy into an entry that another thread is still filling
    // outside the table lock, a large copy, waits for it the usual way.)
    if (D.completesSynchronously() && Req.Size <= kSyncCopyUnderTableLockBytes &&
        !E.TransferBusy.load(std::memory_order_acquire)) {
      // A synchronous device's small copy is complete before the table lock
      // is released, so no other thread can find the entry without its data:
      // no entry lock, nothing in flight, nothing to roll back later.
      Report();
      Status Copied = D.submit(Result.TgtPtr, Req.HstBegin, Req.Size, Async);
      TableLock.unlock();
      if (!Copied) {
        Undo();
        return Copied.takeError();
      }
      return Result;
    }
    // Issue the copy holding the entry's lock so a thread that finds the
    // entry in the meantime waits for the data.
    UniqueLock EntryLock(E.TransferMutex);
    E.TransferBusy.store(true, std::memory_order_relaxed);
    TableLock.unlock();
    Report();
    Status Copied = D.submit(Result.TgtPtr, Req.HstBegin, Req.Size, Async);
    // Others may use the entry once the copy is ordered before their work:
    // make it waitable (an event on this queue, recorded now or when someone
    // needs it), or, for plugins without events, finish it under the lock.
    if (Copied && !D.completesSynchronously())
      Copied = D.hasEvents() ? D.markCopyInFlight(E, Async) : D.synchronize(*Async.raw());
    E.TransferBusy.store(false, std::memory_order_release);
    if (!Copied) {
      EntryLock.unlock();
      // Whatever was queued must finish before the storage can go.
      if (Status Drain = D.synchronize(*Async.raw()); !Drain)
        debug::error("%s", Drain.error().message().c_str());
      Undo();
      return Copied.takeError();
    }
    // If the queued copy fails later, the construct's synchronize drops the
    // entry it created rather than leave it claiming data that never arrived.
    if (Created && Async.rollbackEnabled()) {
      void *HstBegin = Req.HstBegin;
      int64_t Size = Req.Size;
      bool Hold = Req.Hold;
      Async.onFailure([&D, HstBegin, Size, Hold] { return releaseMapping(D, HstBegin, Size, Hold); });
    }
  } else {
    bool Busy = E.TransferBusy.load(std::memory_order_acquire) ||
                E.CopyInFlight.load(std::memory_order_acquire);
    TableLock.unlock();
    if (!Busy) return Result;
    // The copy that filled the entry has at least been issued once its lock
    // is free; a device-side wait orders this construct after it.
    Status Waited;
    {
      ScopedLock Wait(E.TransferMutex);
      if (E.CopyInFlight.load(std::memory_order_acquire)) Waited = D.waitEntryCopy(E, Async);
    }
    if (!Waited) {
      // Give back the reference this call took (without the entry lock: the
      // table lock is always taken first).
      if (Req.UpdateRef)
        if (Status Undo = releaseMapping(D, Req.HstBegin, Req.Size, Req.Hold); !Undo)
          debug::error("%s", Undo.error().message().c_str());
      return Waited.takeError();
    }
  }
  return Result;
}

namespace {
// What is left to do, outside the table lock, for an entry unlinked from the
// table: forget the shadow pointers inside it, give back its event and its
// device memory.
struct Removal {
  void *Tgt = nullptr;
  void *Event = nullptr;
  uintptr_t HstBegin = 0, HstEnd = 0;
};

// E's count reached zero (T.Mutex held): unlink it.
Removal unlinkLocked(Device &D, MappingTable &T, MapEntry &E) REQUIRES(T.Mutex) {
  if (info::enabled(abi::kInfoMappingChanged))
    info::print(D.id(),
                "Removing map entry with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
                ", Size=%" PRId64 ", Name=%s",
                E.HstBegin, E.TgtBegin, E.size(), nameOf(E.Name).c_str());
  Removal R{reinterpret_cast<void *>(E.TgtBegin), E.eventOfUnreferenced(), E.HstBegin, E.HstEnd};
  T.erase(E);
  return R;
}

// The `from` copy of a range whose last reference goes (T.Mutex held, the
// entry still linked), complete when this returns: nobody can map the range
// anew, and read the host memory, until the data is back. Issued on Sync,
// an AsyncInfo of a device that completes synchronously, or else on one of
// its own that it synchronizes.
Status copyBackLocked(Device &D, const MapEntry &E, void *HstBegin, int64_t Size,
                      map_var_info_t Name, AsyncInfo *Sync = nullptr) {
  void *Tgt = reinterpret_cast<void *>(E.TgtBegin + (reinterpret_cast<uintptr_t>(HstBegin) - E.HstBegin));
  if (Sync) return copyToHost(D, HstBegin, Tgt, Size, Name, *Sync);
  AsyncInfo Async(D);
  Status Result = copyToHost(D, HstBegin, Tgt, Size, Name, Async);
  if (Status S = Async.synchronize(); !S && Result) Result = std::move(S);
  return Result;
}

Status finishRemoval(Device &D, const Removal &R) {
  MappingTable &T = D.mappings();
  // Pointers attached inside the freed storage are forgotten with it.
  if (T.hasShadows()) T.forEachShadow(R.HstBegin, R.HstEnd, true, [](void **, const ShadowPointer &) {});
  if (R.Event) D.destroyEvent(R.Event);
  return D.release(R.Tgt);
}
}  // namespace

void reportCopyToHost(Device &D, void *HstBegin, void *Tgt, int64_t Size, map_var_info_t Name) {
  info::print(D.id(),
              "Copying data from device to host, TgtPtr=" OMPT_PTR_FMT ", HstPtr=" OMPT_PTR_FMT
              ", Size=%" PRId64 ", Name=%s",
              OMPT_PTR(Tgt), OMPT_PTR(HstBegin), Size, nameOf(Name).c_str());
}

void restoreShadows(MappingTable &T, void *HstBegin, int64_t Size) {
  auto Begin = reinterpret_cast<uintptr_t>(HstBegin);
  T.forEachShadow(Begin, Begin + static_cast<uintptr_t>(Size), false,
                  [](void **HstAddr, const ShadowPointer &Shadow) { *HstAddr = Shadow.HstPtrValue; });
}

FoundPointer findMapping(Device &D, const FindRequest &Req) {
  FoundPointer Result;
  auto Begin = reinterpret_cast<uintptr_t>(Req.HstBegin);
  MappingTable &T = D.mappings();
  Removal Removed;
  {
    ScopedLock TableLock(T.Mutex);
    LookupResult LR = T.lookup(Begin, Req.Size);
    if (LR.IsContained || (!Req.MustContain && (LR.ExtendsBefore || LR.ExtendsAfter))) {
      MapEntry &E = *LR.Entry;
      // Normally only a prediction: the construct drops its reference after
      // its own synchronize (dropReference), so its queued work never
      // outlives the storage it uses. Whoever then brings the count to zero
      // frees.
      Result.IsLast = E.decShouldRemove(Req.Hold, Req.ForceDelete);
      Result.TgtPtr = reinterpret_cast<void *>(E.TgtBegin + (Begin - E.HstBegin));
      const char *Action = " (update suppressed)";
      // DropNow: what dropReference would do, minus a second lookup. The
      // messages stay LLVM 14's: a surviving entry is "decremented", the
      // last reference a "deferred final decrement" (then it goes).
      bool DropNow = Req.UpdateRef && Req.DropNow &&
                     !(Result.IsLast && Req.CopyIfLast && !Req.CopyBackNow);
      if (DropNow && !Result.IsLast) {
        E.dropRef(Req.Hold, Req.ForceDelete);
        Result.Dropped = true;
        Action = Req.ForceDelete ? " (reset, decremented)" : " (decremented)";
      } else if (Req.UpdateRef) {
        if (Req.ForceDelete)
          Action = " (reset, deferred final decrement)";
        else
          Action = Result.IsLast ? " (deferred final decrement)" : " (deferred decrement)";
      }
      if (info::enabled(abi::kInfoMappingExists))
        info::print(D.id(),
                    "Mapping exists with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
                    ", Size=%" PRId64 ", DynRefCount=%s%s, HoldRefCount=%s%s",
                    Begin, OMPT_PTR(Result.TgtPtr), Req.Size, E.refToString(false).c_str(),
                    Req.Hold ? "" : Action, E.refToString(true).c_str(), Req.Hold ? Action : "");
      bool Drop = DropNow && Result.IsLast;
      if (Drop && Req.CopyIfLast) {
        if (Status S = copyBackLocked(D, E, Req.HstBegin, Req.Size, Req.Name, Req.CopyBackNow); !S) {
          // The entry keeps its last reference: data is never dropped
          // unseen, and a later exit can retry the copy.
          debug::error("%s", S.error().message().c_str());
          Result.CopyError = true;
          Drop = false;
        } else {
          Result.CopiedBack = true;
        }
      }
      if (Drop) {
        E.dropRef(Req.Hold, Req.ForceDelete);
        Result.Dropped = true;
        if (E.totalRef() == 0) Removed = unlinkLocked(D, T, E);
      }
    } else if (Runtime::get().unifiedSharedMemory()) {
      Result.IsHostPtr = true;
      Result.TgtPtr = Req.HstBegin;
    }
  }
  if (Result.CopiedBack && T.hasShadows()) restoreShadows(T, Req.HstBegin, Req.Size);
  if (Removed.Tgt) {
    if (Status S = finishRemoval(D, Removed); !S) {
      debug::error("%s", S.error().message().c_str());
      Result.DropError = true;
    }
  }
  return Result;
}

Status releaseMapping(Device &D, void *HstBegin, int64_t Size, bool Hold) {
  DropRequest R;
  R.HstBegin = HstBegin;
  R.Size = Size;
  R.Hold = Hold;
  return dropReference(D, R);
}

Status dropReference(Device &D, const DropRequest &R) {
  auto Begin = reinterpret_cast<uintptr_t>(R.HstBegin);
  MappingTable &T = D.mappings();
  Removal Removed;
  Status Result;
  bool CopiedBack = false;
  {
    ScopedLock TableLock(T.Mutex);
    LookupResult LR = T.lookup(Begin, R.Size);
    if (!LR.found())
      return makeError("device %d: section to delete (host address " OMPT_PTR_FMT
                       ", %" PRId64 " bytes) is not mapped",
                       D.id(), Begin, R.Size);
    MapEntry &E = *LR.Entry;
    E.dropRef(R.Hold, R.ForceDelete);
    if (E.totalRef() != 0) return Status::success();
    if (R.CopyBackIfLast && !R.AlreadyCopied) {
      // Another construct dropped its reference first, so this one turned
      // out to be the last: its `from` copy happens now. Rare, so holding
      // the lock is fine.
      Result = copyBackLocked(D, E, R.HstBegin, R.Size, nullptr);
      CopiedBack = true;
    }
    Removed = unlinkLocked(D, T, E);
  }
  if (CopiedBack && T.hasShadows()) restoreShadows(T, R.HstBegin, R.Size);
  if (Status S = finishRemoval(D, Removed); !S && Result) Result = std::move(S);
  return Result;
}

void *translate(Device &D, void *HstPtr, int64_t Size, bool *IsHostPtr, bool MustContain) {
  FindRequest Req;
  Req.HstBegin = HstPtr;
  Req.Size = Size;
  Req.MustContain = MustContain;
  FoundPointer F = findMapping(D, Req);
  if (IsHostPtr) *IsHostPtr = F.IsHostPtr;
  return F.TgtPtr;
}

}  // namespace omptarget::core

