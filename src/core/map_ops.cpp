#include "map_ops.h"

#include <cinttypes>
#include <utility>
#include <vector>

#include "debug.h"
#include "entry_copies.h"
#include "info.h"

namespace omptarget::core {

namespace {
std::string nameOf(map_var_info_t Name) { return info::varName(Name); }

}  // namespace

namespace {

[[gnu::cold]] void reportExisting(Device &D, const MapRequest &Req, const MapEntry &E, void *Tgt,
                                  const char *Action) {
  info::print(D.id(),
              "Mapping exists%s with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
              ", Size=%" PRId64 ", DynRefCount=%s%s, HoldRefCount=%s%s, Name=%s",
              Req.Implicit ? " (implicit)" : "", OMPT_PTR(Req.HstBegin), OMPT_PTR(Tgt), Req.Size,
              E.refToString(false).c_str(), Req.Hold ? "" : Action, E.refToString(true).c_str(),
              Req.Hold ? Action : "", nameOf(Req.Name).c_str());
}

[[gnu::cold]] void reportCreated(Device &D, const MapRequest &Req, const MapEntry &E, void *Tgt) {
  info::print(D.id(),
              "Creating new map entry with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
              ", Size=%" PRId64 ", DynRefCount=%s, HoldRefCount=%s, Name=%s",
              OMPT_PTR(Req.HstBegin), OMPT_PTR(Tgt), Req.Size, E.refToString(false).c_str(),
              E.refToString(true).c_str(), nameOf(Req.Name).c_str());
}

void reportMissingPresent(uintptr_t Begin, int64_t Size) {
  debug::message(
      "device mapping required by 'present' map type modifier does not exist for "
      "host address " OMPT_PTR_FMT " (%" PRId64 " bytes)",
      Begin, Size);
}

// LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS: locks a new entry's host range for
// the entry's lifetime (finishRemoval unlocks it). A range that cannot be
// locked (it extends memory the program locked, the locked-memory limit)
// stays pageable: its copies are as correct, only slower. That is no error:
// the plugin says why in its trace (data_try_lock), not in an error line.
void lockForEntry(Device &D, MapEntry &E) {
  Expected<void *> Locked = D.tryLockHost(reinterpret_cast<void *>(E.HstBegin), E.size());
  if (Locked && *Locked) {
    E.HostLocked = true;
    return;
  }
  OMPT_TRACE("omptarget",
             "Device %d: host range " OMPT_PTR_FMT " (%" PRId64
             " bytes) of a new mapping not locked (%s); its copies take the pageable route",
             D.id(), E.HstBegin, E.size(),
             Locked ? "the plugin's trace says why" : Locked.error().message().c_str());
}

// Gives back the reference a failed mapHostRange took (removing an entry it
// created, and its memory). Without the entry lock: the table lock comes
// first.
void undoReference(Device &D, const MapRequest &Req) {
  if (Status S = dropUnusedReference(D, Req.HstBegin, Req.Size, Req.Hold); !S)
    debug::error("%s", S.error().message().c_str());
}

}  // namespace

Expected<MappedPointer> mapHostRange(Device &D, const MapRequest &Req, AsyncInfo &Async) {
  MappedPointer Result;
  auto Begin = reinterpret_cast<uintptr_t>(Req.HstBegin);
  MappingTable &T = D.mappings();
  TableLock Lock(T.Mutex);
  LookupResult LR = T.lookup(Begin, Req.Size);

  // Which entry: an existing one that holds the range (an implicit map may
  // also take one it only overlaps), or a new one.
  bool Created = false;
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
    if (info::enabled(abi::kInfoMappingExists)) reportExisting(D, Req, E, Result.TgtPtr, Action);
  } else if (LR.ExtendsBefore || LR.ExtendsAfter) {
    const MapEntry &E = *LR.Entry;
    debug::message("explicit extension not allowed: host address specified is " OMPT_PTR_FMT
                   " (%" PRId64 " bytes), but device allocation maps to host at " OMPT_PTR_FMT
                   " (%" PRId64 " bytes)",
                   Begin, Req.Size, E.HstBegin, E.size());
    if (Req.Present) reportMissingPresent(Begin, Req.Size);
    return makeError("mapping %s failed: it extends an existing mapping", nameOf(Req.Name).c_str());
  } else if (D.unifiedSharedMemory() && !Req.Close) {
    // Unified shared memory: the device uses the host address directly.
    if (Req.Size) {
      Result.IsHostPtr = true;
      Result.TgtPtr = Req.HstBegin;
    }
    return Result;
  } else if (Req.Present) {
    reportMissingPresent(Begin, Req.Size);
    return makeError("'present' map type modifier");
  } else if (Req.Size) {
    auto Tgt = D.allocate(Req.Size, Req.HstBegin, abi::kAllocDefault, &Async);
    if (!Tgt) return Tgt.takeError();
    MapEntry &E = T.insert(reinterpret_cast<uintptr_t>(Req.HstBase), Begin, Begin + Req.Size,
                           reinterpret_cast<uintptr_t>(*Tgt), Req.Hold, Req.Name);
    Result.IsNew = true;
    Created = true;
    Result.Entry = &E;
    Result.TgtPtr = *Tgt;
    if (D.lockMappedMinBytes() && Req.Size >= D.lockMappedMinBytes()) lockForEntry(D, E);
    if (info::enabled(abi::kInfoMappingChanged)) reportCreated(D, Req, E, *Tgt);
  } else {
    // Size 0 and not mapped: nothing to do (a zero-length section).
    return Result;
  }

  // The data: a new entry's (or an `always` map's) copy, else a wait for the
  // copy that filled the entry, if it may still be in flight.
  MapEntry &E = *Result.Entry;
  if (!Req.To || !(Result.IsNew || Req.Always)) {
    // A new entry allocated on the queue is filled by its allocation.
    Status Waited = Created && D.ordersAllocationOnQueue() && Async.hasQueue()
                        ? publishAllocation(D, E, Lock, Async)
                        : waitForEntryData(D, E, Lock, Async);
    if (!Waited) {
      if (Created || Req.UpdateRef) undoReference(D, Req);
      return Waited.takeError();
    }
    return Result;
  }
  EntryCopy Copy{Result.TgtPtr, Req.HstBegin, Req.Size, Req.Name};
  if (Status Copied = copyIntoEntry(D, E, Lock, Copy, Async); !Copied) {
    // Never leave an entry that claims data which did not arrive.
    if (Created || Req.UpdateRef) undoReference(D, Req);
    return Copied.takeError();
  }
  // If the queued copy fails later, the construct's synchronize drops the
  // entry it created rather than leave it claiming data that never arrived.
  // (An Immediate device's copies cannot fail later.)
  if (Created && Async.rollbackEnabled() && !D.completesSynchronously()) {
    void *HstBegin = Req.HstBegin;
    int64_t Size = Req.Size;
    bool Hold = Req.Hold;
    Async.onFailure(
        [&D, HstBegin, Size, Hold] { return dropUnusedReference(D, HstBegin, Size, Hold); });
  }
  return Result;
}

namespace {
using Removal = LeavingEntry;

void reportRemoval(Device &D, const MapEntry &E) {
  if (info::enabled(abi::kInfoMappingChanged))
    info::print(D.id(),
                "Removing map entry with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
                ", Size=%" PRId64 ", Name=%s",
                E.HstBegin, E.TgtBegin, E.size(), nameOf(E.Name).c_str());
}

// E's count reached zero (T.Mutex held): unlink it.
Removal unlinkLocked(Device &D, MappingTable &T, MapEntry &E) REQUIRES(T.Mutex) {
  reportRemoval(D, E);
  Removal R{reinterpret_cast<void *>(E.TgtBegin), E.eventOfUnreferenced(), E.HstBegin, E.HstEnd,
            E.HostLocked};
  T.erase(E);
  return R;
}

// The entry's copies are done: its locked host range may be unpinned.
void unlockLeavingHost(Device &D, const Removal &R) {
  if (R.HostLocked)
    if (Status S = D.unlockHost(reinterpret_cast<void *>(R.HstBegin)); !S)
      debug::warning("%s; the host memory stays locked", S.error().message().c_str());
}

Status finishRemoval(Device &D, const Removal &R) {
  MappingTable &T = D.mappings();
  // Pointers attached inside the freed storage are forgotten with it.
  if (T.hasShadows())
    T.forEachShadow(R.HstBegin, R.HstEnd, true, [](void **, const ShadowPointer &) {});
  destroyEntryEvent(D, R.Event);
  unlockLeavingHost(D, R);
  return D.freeMemory(R.Tgt);
}

// Does findMapping drop the construct's reference itself (FindRequest::When)?
bool dropsNow(FindRequest::DropWhen When, bool IsLast) {
  switch (When) {
    case FindRequest::DropWhen::AfterSync: return false;
    case FindRequest::DropWhen::Now: return true;
    case FindRequest::DropWhen::NowUnlessLast: return !IsLast;
    case FindRequest::DropWhen::NowCopyingBackIfLast: return true;
    case FindRequest::DropWhen::LastReleasedOnQueueOthersNow: return true;
    case FindRequest::DropWhen::LastReleasedOnQueueOthersAfterSync: return IsLast;
  }
  return false;
}

bool releasesOnQueue(FindRequest::DropWhen When) {
  return When == FindRequest::DropWhen::LastReleasedOnQueueOthersNow ||
         When == FindRequest::DropWhen::LastReleasedOnQueueOthersAfterSync;
}

// The messages stay LLVM 14's: a surviving entry is "decremented", the last
// reference a "deferred final decrement" (then it goes).
const char *exitAction(const FindRequest &Req, bool DropsNow, bool IsLast) {
  if (!Req.UpdateRef) return " (update suppressed)";
  if (DropsNow && !IsLast) return Req.ForceDelete ? " (reset, decremented)" : " (decremented)";
  if (Req.ForceDelete) return " (reset, deferred final decrement)";
  return IsLast ? " (deferred final decrement)" : " (deferred decrement)";
}
}  // namespace

void restoreShadows(MappingTable &T, void *HstBegin, int64_t Size) {
  auto Begin = reinterpret_cast<uintptr_t>(HstBegin);
  T.forEachShadow(Begin, Begin + static_cast<uintptr_t>(Size), false,
                  [](void **HstAddr, const ShadowPointer &Shadow) {
                    *HstAddr = Shadow.HstPtrValue;
                  });
}

FoundPointer findMapping(Device &D, const FindRequest &Req) {
  FoundPointer Result;
  auto Begin = reinterpret_cast<uintptr_t>(Req.HstBegin);
  MappingTable &T = D.mappings();
  Removal Removed;
  {
    ScopedLock Lock(T.Mutex);
    LookupResult LR = T.lookup(Begin, Req.Size);
    if (LR.IsContained || (!Req.MustContain && (LR.ExtendsBefore || LR.ExtendsAfter))) {
      MapEntry &E = *LR.Entry;
      // Whether dropping the reference would remove the entry; the drop
      // itself normally waits for the construct's synchronize
      // (dropReference), so its queued work never outlives the storage it
      // uses.
      Result.IsLast = E.decShouldRemove(Req.Hold, Req.ForceDelete);
      Result.TgtPtr = reinterpret_cast<void *>(E.TgtBegin + (Begin - E.HstBegin));
      const bool DropsNow = Req.UpdateRef && dropsNow(Req.When, Result.IsLast);
      if (DropsNow && !Result.IsLast) {
        E.dropRef(Req.Hold, Req.ForceDelete);
        Result.Dropped = true;
      }
      if (info::enabled(abi::kInfoMappingExists)) {
        const char *Action = exitAction(Req, DropsNow, Result.IsLast);
        info::print(D.id(),
                    "Mapping exists with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
                    ", Size=%" PRId64 ", DynRefCount=%s%s, HoldRefCount=%s%s",
                    Begin, OMPT_PTR(Result.TgtPtr), Req.Size, E.refToString(false).c_str(),
                    Req.Hold ? "" : Action, E.refToString(true).c_str(), Req.Hold ? Action : "");
      }
      if (DropsNow && Result.IsLast) {
        bool Drop = true;
        if (Req.When == FindRequest::DropWhen::NowCopyingBackIfLast) {
          if (Status S =
                  copyBackLeavingEntry(D, E, Req.HstBegin, Req.Size, Req.Name, Req.CopyBackOn);
              !S) {
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
          if (E.totalRef() == 0) {
            if (releasesOnQueue(Req.When)) {
              // (Reported by releaseOnQueue: after the copy back's line.)
              Result.Leaving = Removal{reinterpret_cast<void *>(E.TgtBegin),
                                       E.eventOfUnreferenced(),
                                       E.HstBegin,
                                       E.HstEnd,
                                       E.HostLocked,
                                       &E,
                                       Req.Hold};
              T.unlink(E);
            } else {
              Removed = unlinkLocked(D, T, E);
            }
          }
        }
      }
    } else if (D.unifiedSharedMemory()) {
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

Status releaseOnQueue(Device &D, const LeavingEntry &L, bool Copied, AsyncInfo &Async) {
  reportRemoval(D, *L.Entry);
  Status Freed = D.freeMemory(L.Tgt, &Async);
  // The shadow pointers inside the storage leave the table with it, after
  // the synchronize: the copies back queued into the range (this entry's,
  // and its members' issued before it) have landed, and the post-sync
  // actions registered for them (restoreShadows) have run. A copy back of
  // this entry's own puts the host values back first.
  if (D.mappings().hasShadows())
    Async.afterSync([&D, Begin = L.HstBegin, End = L.HstEnd, Copied] {
      D.mappings().forEachShadow(Begin, End, true, [Copied](void **HstAddr, const ShadowPointer &S) {
        if (Copied) *HstAddr = S.HstPtrValue;
      });
      return Status::success();
    });
  Async.afterSync([&D, Entry = L.Entry, Event = L.Event, HstBegin = L.HstBegin,
                   HostLocked = L.HostLocked] {
    destroyEntryEvent(D, Event);
    unlockLeavingHost(D, Removal{nullptr, nullptr, HstBegin, 0, HostLocked});
    MappingTable &Table = D.mappings();
    ScopedLock Lock(Table.Mutex);
    Table.destroyUnlinked(*Entry);
    return Status::success();
  });
  return Freed;
}

bool keepLeavingEntry(Device &D, const LeavingEntry &L, AsyncInfo &Async) {
  {
    MappingTable &T = D.mappings();
    ScopedLock Lock(T.Mutex);
    if (T.relink(*L.Entry)) {
      L.Entry->incRef(L.Hold);
      return true;
    }
  }
  debug::error("device %d: the device copy of host " OMPT_PTR_FMT
               " could not be copied back, and the range was mapped anew meanwhile: it is "
               "released",
               D.id(), L.HstBegin);
  (void)releaseOnQueue(D, L, false, Async);
  return false;
}

Status dropUnusedReference(Device &D, void *HstBegin, int64_t Size, bool Hold) {
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
    ScopedLock Lock(T.Mutex);
    LookupResult LR = T.lookup(Begin, R.Size);
    if (!LR.found())
      return makeError("device %d: section to delete (host address " OMPT_PTR_FMT ", %" PRId64
                       " bytes) is not mapped",
                       D.id(), Begin, R.Size);
    MapEntry &E = *LR.Entry;
    E.dropRef(R.Hold, R.ForceDelete);
    if (E.totalRef() != 0) return Status::success();
    if (R.CopyBackIfLast && !R.AlreadyCopied) {
      // Another construct dropped its reference first, so this one turned
      // out to be the last: its `from` copy happens now. Rare, so holding
      // the lock is fine.
      Result = copyBackLeavingEntry(D, E, R.HstBegin, R.Size, nullptr);
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
