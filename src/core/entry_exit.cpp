#include "entry_exit.h"

#include <cinttypes>
#include <utility>

#include "debug.h"
#include "entry_copies.h"
#include "info.h"

namespace omptarget::core {

namespace {

// When the construct's reference is dropped; chosen by dropWhen() alone.
// Dropping it during the lookup, under its lock, saves a second lookup; it
// is allowed only when nothing the construct queued uses the entry.
enum class DropWhen : uint8_t {
  // After the construct's synchronize (a deferred drop); the lookup leaves
  // the counts alone and IsLast is a prediction.
  AfterSync,
  // Now; an entry that goes is removed and freed here (no copy back).
  Now,
  // Now, unless it is the last (its data must first be copied back on the
  // construct's queue: then after that copy).
  NowUnlessLast,
  // Now; the last one's data is first copied back during the lookup, on
  // the construct's AsyncInfo of an Immediate device (a short memcpy).
  NowCopyingBackIfLast,
  // On a device that orders allocation on the queue: the last reference is
  // dropped now and the entry leaves the table (its copy back and release
  // go on the construct's queue); any other reference is dropped now
  // (...OthersNow: the construct has queued nothing yet) or after the
  // synchronize (...OthersAfterSync).
  LastReleasedOnQueueOthersNow,
  LastReleasedOnQueueOthersAfterSync,
};

// The device's policy for R's exit, given what the construct has queued.
DropWhen dropWhen(const Device &D, const AsyncInfo &Async, const ExitRule &R) {
  const bool CopyAlways = R.Copy == ExitRule::CopyBack::Always;
  const bool Settled = Async.nothingInFlight();
  if (D.ordersAllocationOnQueue() && !CopyAlways)
    return Settled ? DropWhen::LastReleasedOnQueueOthersNow
                   : DropWhen::LastReleasedOnQueueOthersAfterSync;
  if (!Settled || CopyAlways) return DropWhen::AfterSync;
  if (R.Copy == ExitRule::CopyBack::Never) return DropWhen::Now;
  if (D.completesSynchronously() && R.Size <= kSyncCopyUnderTableLockBytes)
    return DropWhen::NowCopyingBackIfLast;
  return DropWhen::NowUnlessLast;
}

bool dropsNow(DropWhen When, bool IsLast) {
  switch (When) {
    case DropWhen::AfterSync: return false;
    case DropWhen::NowUnlessLast: return !IsLast;
    case DropWhen::LastReleasedOnQueueOthersAfterSync: return IsLast;
    case DropWhen::Now:
    case DropWhen::NowCopyingBackIfLast:
    case DropWhen::LastReleasedOnQueueOthersNow: return true;
  }
  return false;
}

bool releasesOnQueue(DropWhen When) {
  return When == DropWhen::LastReleasedOnQueueOthersNow ||
         When == DropWhen::LastReleasedOnQueueOthersAfterSync;
}

// An entry whose last reference went and that left the table, with what is
// left to do for it outside the table lock: forget the shadow pointers
// inside it, give back its event, unlock its host range, free its memory.
struct Removal {
  void *Tgt = nullptr;  // the device allocation; null: no entry left
  void *Event = nullptr;
  uintptr_t HstBegin = 0, HstEnd = 0;
  bool HostLocked = false;
  // Released on the queue: the entry itself, out of the table but alive
  // until the construct's synchronize (its queue-done actions refer to
  // it), and the reference it had.
  MapEntry *Entry = nullptr;
  bool Hold = false;
};

Removal removalOf(const MapEntry &E) {
  return Removal{reinterpret_cast<void *>(E.allocationBegin()), E.eventOfUnreferenced(), E.HstBegin,
                 E.HstEnd, E.HostLocked};
}

void reportRemoval(Device &D, const MapEntry &E) {
  if (info::enabled(abi::kInfoMappingChanged))
    info::print(D.id(),
                "Removing map entry with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
                ", Size=%" PRId64 ", Name=%s",
                E.HstBegin, E.TgtBegin, E.size(), info::varName(E.Name).c_str());
}

// E's count reached zero (T.Mutex held): unlink it.
Removal unlinkLocked(Device &D, MappingTable &T, MapEntry &E) REQUIRES(T.Mutex) {
  reportRemoval(D, E);
  Removal R = removalOf(E);
  T.erase(E);
  return R;
}

// The entry's copies are done: its locked host range may be unpinned.
void unlockLeavingHost(Device &D, uintptr_t HstBegin, bool HostLocked) {
  if (HostLocked)
    if (Status S = D.unlockHost(reinterpret_cast<void *>(HstBegin)); !S)
      debug::warning("%s; the host memory stays locked", S.error().message().c_str());
}

Status finishRemoval(Device &D, const Removal &R) {
  MappingTable &T = D.mappings();
  // Pointers attached inside the freed storage are forgotten with it.
  if (T.hasShadows())
    T.forEachShadow(R.HstBegin, R.HstEnd, true, [](void **, const ShadowPointer &) {});
  destroyEntryEvent(D, R.Event);
  unlockLeavingHost(D, R.HstBegin, R.HostLocked);
  return D.freeMemory(R.Tgt);
}

// What the lookup of an exiting list item found and did.
struct Found {
  void *TgtPtr = nullptr;  // null: not mapped
  bool IsLast = false;
  bool IsHostPtr = false;
  bool Dropped = false;     // the reference was dropped during the lookup
  bool DropError = false;   // and freeing the entry it removed failed (reported)
  bool CopiedBack = false;  // NowCopyingBackIfLast copied: the data is back
  bool CopyError = false;   // that copy failed (reported): nothing was dropped
  Removal Leaving;          // released on the queue (Tgt null: not)
};

// The messages stay LLVM 14's: a surviving entry is "decremented", the last
// reference a "deferred final decrement" (then it goes).
const char *exitAction(const ExitRule &R, bool DropsNow, bool IsLast) {
  if (!R.Decrement) return " (update suppressed)";
  if (DropsNow && !IsLast) return R.Delete ? " (reset, decremented)" : " (decremented)";
  if (R.Delete) return " (reset, deferred final decrement)";
  return IsLast ? " (deferred final decrement)" : " (deferred decrement)";
}

[[gnu::cold]] void reportExit(Device &D, const ExitRule &R, const MapEntry &E, void *Tgt,
                              const char *Action) {
  info::print(D.id(),
              "Mapping exists with HstPtrBegin=" OMPT_PTR_FMT ", TgtPtrBegin=" OMPT_PTR_FMT
              ", Size=%" PRId64 ", DynRefCount=%s%s, HoldRefCount=%s%s",
              OMPT_PTR(R.HstBegin), OMPT_PTR(Tgt), R.Size, E.refToString(false).c_str(),
              R.Hold ? "" : Action, E.refToString(true).c_str(), R.Hold ? Action : "");
}

// The construct's last reference to E goes during the lookup (T.Mutex
// held). Returns the removal to finish outside the lock (Tgt null: none).
Removal dropLastLocked(Device &D, MappingTable &T, MapEntry &E, const ExitRule &R, DropWhen When,
                       AsyncInfo &Async, Found &F) REQUIRES(T.Mutex) {
  if (When == DropWhen::NowCopyingBackIfLast) {
    if (Status S = copyBackLeavingEntry(D, E, R.HstBegin, R.Size, R.Name, &Async); !S) {
      // The entry keeps its last reference: data is never dropped unseen,
      // and a later exit can retry the copy.
      debug::error("%s", S.error().message().c_str());
      F.CopyError = true;
      return {};
    }
    F.CopiedBack = true;
  }
  E.dropRef(R.Hold, R.Delete);
  F.Dropped = true;
  if (E.totalRef() != 0) return {};
  if (!releasesOnQueue(When)) return unlinkLocked(D, T, E);
  // (Reported by releaseOnQueue: after the copy back's line.)
  F.Leaving = removalOf(E);
  F.Leaving.Entry = &E;
  F.Leaving.Hold = R.Hold;
  T.unlink(E);
  return {};
}

// Finds R's entry, predicts whether dropping the reference removes it, and
// drops it now where When says so.
Found findMapping(Device &D, const ExitRule &R, DropWhen When, AsyncInfo &Async) {
  Found F;
  auto Begin = reinterpret_cast<uintptr_t>(R.HstBegin);
  MappingTable &T = D.mappings();
  Removal Removed;
  {
    ScopedLock Lock(T.Mutex);
    LookupResult LR = T.lookup(Begin, R.Size);
    if (!LR.IsContained && (R.MustContain || !LR.found())) {
      if (D.unifiedSharedMemory()) {
        F.IsHostPtr = true;
        F.TgtPtr = R.HstBegin;
      }
      return F;
    }
    MapEntry &E = *LR.Entry;
    F.IsLast = E.decShouldRemove(R.Hold, R.Delete);
    F.TgtPtr = reinterpret_cast<void *>(E.TgtBegin + (Begin - E.HstBegin));
    const bool DropsNow = R.Decrement && dropsNow(When, F.IsLast);
    if (DropsNow && !F.IsLast) {
      E.dropRef(R.Hold, R.Delete);
      F.Dropped = true;
    }
    if (info::enabled(abi::kInfoMappingExists))
      reportExit(D, R, E, F.TgtPtr, exitAction(R, DropsNow, F.IsLast));
    if (DropsNow && F.IsLast) Removed = dropLastLocked(D, T, E, R, When, Async, F);
  }
  if (F.CopiedBack && T.hasShadows()) T.restoreShadows(Begin, R.Size);
  if (Removed.Tgt)
    if (Status S = finishRemoval(D, Removed); !S) {
      debug::error("%s", S.error().message().c_str());
      F.DropError = true;
    }
  return F;
}

// The rest of a removal that findMapping left to the queue (after the copy
// back, if Copied): the release of its memory on Async's queue, then, after
// the synchronize, the host pointers the copy overwrote put back (shadow
// pointers, taken out of the table now), the event given back and the host
// range unlocked.
Status releaseOnQueue(Device &D, const Removal &L, bool Copied, AsyncInfo &Async) {
  reportRemoval(D, *L.Entry);
  Status Freed = Async.release(L.Tgt);  // on the queue: the device orders releases there
  // The shadow pointers inside the storage leave the table with it, after
  // the synchronize: the copies back queued into the range (this entry's,
  // and its members' issued before it) have landed, and the post-sync
  // actions registered for them have run. A copy back of this entry's own
  // puts the host values back first.
  if (D.mappings().hasShadows())
    Async.afterSync([&D, Begin = L.HstBegin, End = L.HstEnd, Copied] {
      D.mappings().forEachShadow(Begin, End, true,
                                 [Copied](void **HstAddr, const ShadowPointer &S) {
                                   if (Copied) *HstAddr = S.HstPtrValue;
                                 });
      return Status::success();
    });
  Async.afterSync(
      [&D, Entry = L.Entry, Event = L.Event, HstBegin = L.HstBegin, HostLocked = L.HostLocked] {
        destroyEntryEvent(D, Event);
        unlockLeavingHost(D, HstBegin, HostLocked);
        MappingTable &Table = D.mappings();
        ScopedLock Lock(Table.Mutex);
        Table.destroyUnlinked(*Entry);
        return Status::success();
      });
  return Freed;
}

// Instead of releaseOnQueue when the copy back could not be issued: the
// entry goes back into the table with its last reference (its data is never
// dropped unseen; a later exit can retry). When its range was mapped anew
// meanwhile it is released, and its data is lost (reported).
void keepLeavingEntry(Device &D, const Removal &L, AsyncInfo &Async) {
  {
    MappingTable &T = D.mappings();
    ScopedLock Lock(T.Mutex);
    if (T.relink(*L.Entry)) {
      L.Entry->incRef(L.Hold);
      return;
    }
  }
  debug::error("device %d: the device copy of host " OMPT_PTR_FMT
               " could not be copied back, and the range was mapped anew meanwhile: it is "
               "released",
               D.id(), L.HstBegin);
  (void)releaseOnQueue(D, L, false, Async);
}

// Drops one reference of the entry holding [HstBegin, +Size) (after the
// construct synchronized, or when nothing of it can be in flight); at zero
// the entry goes: copy back if asked and not yet done, forget its shadow
// pointers, free its event and device memory.
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
    E.dropRef(R.Hold, R.Delete);
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
  if (CopiedBack && T.hasShadows()) T.restoreShadows(Begin, R.Size);
  if (Status S = finishRemoval(D, Removed); !S && Result) Result = std::move(S);
  return Result;
}

}  // namespace

Expected<bool> EntryExits::leave(const ExitRule &R) {
  Found F = findMapping(D_, R, dropWhen(D_, Async_, R), Async_);
  if (F.DropError || F.CopyError)
    return makeError("%s the device copy of %s failed", F.CopyError ? "copying back" : "freeing",
                     info::varName(R.Name).c_str());
  if (!F.TgtPtr) return false;
  const bool WantsCopy = R.Copy != ExitRule::CopyBack::Never;
  if (F.Leaving.Tgt) {
    // Its last reference went: the copy back, then the release, on the
    // construct's queue (one synchronize at the end of the construct).
    if (WantsCopy)
      if (Status S = copyToHost(D_, R.HstBegin, F.TgtPtr, R.Size, R.Name, Async_); !S) {
        keepLeavingEntry(D_, F.Leaving, Async_);
        return S.takeError();
      }
    if (Status S = releaseOnQueue(D_, F.Leaving, WantsCopy, Async_); !S) return S.takeError();
    return true;
  }
  const bool Copy =
      WantsCopy && (F.IsLast || R.Copy == ExitRule::CopyBack::Always) && !F.IsHostPtr && !F.Dropped;
  if (Copy) {
    if (Status S = copyToHost(D_, R.HstBegin, F.TgtPtr, R.Size, R.Name, Async_); !S)
      return S.takeError();
    restoreAfterCopyBack(D_, R.HstBegin, R.Size, Async_);
  }
  if (R.Decrement && !F.IsHostPtr && !F.Dropped)
    if (Status S = dropOrDefer(R, Copy); !S) return S.takeError();
  return true;
}

void restoreAfterCopyBack(Device &D, void *HstBegin, int64_t Size, AsyncInfo &Async) {
  if (!D.mappings().hasShadows()) return;
  auto Restore = [&D, Begin = reinterpret_cast<uintptr_t>(HstBegin), Size] {
    D.mappings().restoreShadows(Begin, Size);
    return Status::success();
  };
  if (Async.nothingInFlight())
    (void)Restore();
  else
    Async.afterSync(Restore);
}

Status EntryExits::dropOrDefer(const ExitRule &R, bool Copied) {
  DropRequest Drop{R.HstBegin, R.Size, R.Hold, R.Delete, R.Copy != ExitRule::CopyBack::Never,
                   Copied};
  // (The copy just issued may have given the construct a queue.)
  if (Async_.nothingInFlight()) return dropReference(D_, Drop);
  Deferred_.push_back(Drop);
  return Status::success();
}

void EntryExits::finish() {
  for (const DropRequest &R : Deferred_)
    Async_.afterSync([&D = D_, R] { return dropReference(D, R); });
}

Status dropUnusedReference(Device &D, void *HstBegin, int64_t Size, bool Hold) {
  DropRequest R;
  R.HstBegin = HstBegin;
  R.Size = Size;
  R.Hold = Hold;
  return dropReference(D, R);
}

}  // namespace omptarget::core
