#include "map_ops.h"

#include <cinttypes>
#include <utility>
#include <vector>

#include "debug.h"
#include "entry_copies.h"
#include "entry_exit.h"
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
    // The caller says which map failed; this names the mapping it collides with.
    std::string Existing = E.Name ? nameOf(E.Name) + " " : std::string();
    return makeError("it extends the existing mapping %s(host %p, %" PRId64
                     " bytes): map a section within that one, or unmap it first",
                     Existing.c_str(), reinterpret_cast<void *>(E.HstBegin), E.size());
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
    auto Alloc = D.allocate(Req.Size + Req.Padding, Req.HstBegin, abi::kAllocDefault, Async.raw());
    if (!Alloc) return Alloc.takeError();
    auto Tgt = reinterpret_cast<uintptr_t>(*Alloc) + static_cast<uintptr_t>(Req.Padding);
    MapEntry &E = T.insert(reinterpret_cast<uintptr_t>(Req.HstBase), Begin, Begin + Req.Size, Tgt,
                           Req.Hold, Req.Name);
    E.TgtPadding = static_cast<uintptr_t>(Req.Padding);
    Result.IsNew = true;
    Created = true;
    Result.Entry = &E;
    Result.TgtPtr = reinterpret_cast<void *>(Tgt);
    if (D.lockMappedMinBytes() && Req.Size >= D.lockMappedMinBytes()) lockForEntry(D, E);
    if (info::enabled(abi::kInfoMappingChanged)) reportCreated(D, Req, E, Result.TgtPtr);
  } else {
    // Size 0 and not mapped: nothing to do (a zero-length section).
    return Result;
  }

  // The data: a new entry's (or an `always` map's) copy, else a wait for the
  // copy that filled the entry, if it may still be in flight.
  MapEntry &E = *Result.Entry;
  if (!Req.To || !(Result.IsNew || Req.Always)) {
    if (Status Waited = useEntryWithoutCopy(D, E, Created, Lock, Async); !Waited) {
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
  // A copy over an entry that was already mapped (`always`) overwrote the
  // device pointers attached inside it: they are written again after it.
  if (!Result.IsNew)
    if (Status S = reattachPointers(D, Req.HstBegin, Req.Size, Async); !S) return S.takeError();
  // If the queued copy fails later, the construct's synchronize drops the
  // entry it created rather than leave it claiming data that never arrived.
  if (Created && Async.rollbackEnabled()) {
    void *HstBegin = Req.HstBegin;
    int64_t Size = Req.Size;
    bool Hold = Req.Hold;
    Async.onFailure(
        [&D, HstBegin, Size, Hold] { return dropUnusedReference(D, HstBegin, Size, Hold); });
  }
  return Result;
}

Status reattachPointers(Device &D, void *HstBegin, int64_t Size, AsyncInfo &Async) {
  MappingTable &T = D.mappings();
  if (!T.hasShadows()) return Status::success();
  auto Begin = reinterpret_cast<uintptr_t>(HstBegin);
  Status Result;
  T.forEachShadow(Begin, Begin + static_cast<uintptr_t>(Size), false,
                  [&](void **, const ShadowPointer &Shadow) {
                    if (Status S = Async.writePointer(Shadow.TgtPtrAddr, Shadow.TgtPtrValue);
                        !S && Result)
                      Result = std::move(S);
                  });
  return Result;
}

void *translate(Device &D, void *HstPtr, int64_t Size, bool *IsHostPtr, bool MustContain) {
  auto Begin = reinterpret_cast<uintptr_t>(HstPtr);
  MappingTable &T = D.mappings();
  {
    ScopedLock Lock(T.Mutex);
    LookupResult LR = T.lookup(Begin, Size);
    if (LR.IsContained || (!MustContain && LR.found()))
      return reinterpret_cast<void *>(LR.Entry->TgtBegin + (Begin - LR.Entry->HstBegin));
  }
  if (!D.unifiedSharedMemory()) return nullptr;
  if (IsHostPtr) *IsHostPtr = true;
  return HstPtr;
}

}  // namespace omptarget::core
