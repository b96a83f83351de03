#include "data_constructs.h"

#include <cinttypes>
#include <vector>

#include "debug.h"
#include "info.h"
#include "map_ops.h"
#include "mappers.h"
#include "non_contig.h"
#include "small_array.h"

namespace omptarget::core {

using namespace abi;

namespace {

// Combined struct entries are padded down to this alignment, as clang
// expects when members are laid out inside the struct's device copy.
constexpr int64_t kStructAlignment = 8;
constexpr int64_t kMemberOfBits = static_cast<int64_t>(kMapMemberOfMask);

bool isCombinedEntry(const MapArgs &A, int32_t I) {
  return parentIndex(A.Types[I]) < 0 && I + 1 < A.Num && parentIndex(A.Types[I + 1]) == I;
}

// Combined struct entries start at an aligned address, as clang lays out
// their members relative to it.
void padToStructAlignment(void *&HstBegin, int64_t &Size) {
  int64_t Padding = static_cast<int64_t>(reinterpret_cast<uintptr_t>(HstBegin) % kStructAlignment);
  HstBegin = static_cast<char *>(HstBegin) - Padding;
  Size += Padding;
}

Status attachPointer(Device &D, void **PtrAddr, void *PtrTgtAddr, void *HstPtrValue,
                     void *PointeeHst, void *PointeeTgt, AsyncInfo &Async) {
  auto Delta = reinterpret_cast<uintptr_t>(PointeeHst) - reinterpret_cast<uintptr_t>(HstPtrValue);
  void *TgtValue = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(PointeeTgt) - Delta);
  if (!D.mappings().setShadow(PtrAddr, ShadowPointer{HstPtrValue, PtrTgtAddr, TgtValue}))
    return Status::success();
  OMPT_TRACE("omptarget", "Device %d: attach pointer at device %p = %p (host %p)", D.id(),
             PtrTgtAddr, TgtValue, HstPtrValue);
  return D.submitPointer(PtrTgtAddr, TgtValue, Async);
}

}  // namespace

Status dataBegin(Device &D, const MapArgs &A, AsyncInfo &Async) {
  for (int32_t I = 0; I < A.Num; ++I) {
    if (A.Progress) *A.Progress = I;
    int64_t Type = A.Types[I];
    if (Type & (kMapLiteral | kMapPrivate)) continue;
    if (A.Mappers && A.Mappers[I]) {
      Status S = runMapper(D, A, I, Async, dataBegin);
      if (!S) return S;
      continue;
    }
    void *HstBegin = A.Begins[I];
    void *HstBase = A.Bases[I];
    int64_t Size = A.Sizes[I];
    if (isCombinedEntry(A, I)) padToStructAlignment(HstBegin, Size);
    map_var_info_t Name = A.Names ? A.Names[I] : nullptr;
    MapRequest Req;
    Req.Implicit = Type & kMapImplicit;
    Req.Close = Type & kMapClose;
    Req.Present = Type & kMapPresent;
    Req.Hold = Type & kMapOmpxHold;
    // Members ride on their parent's reference count.
    Req.UpdateRef = !(Type & kMemberOfBits) && !A.ridesOnParent(I);

    MappedPointer Pointer;
    if (Type & kMapPtrAndObj) {
      // First the pointer itself (usually already mapped with its struct).
      MapRequest PtrReq = Req;
      PtrReq.HstBegin = HstBase;
      PtrReq.HstBase = HstBase;
      PtrReq.Size = sizeof(void *);
      auto P = mapHostRange(D, PtrReq, Async);
      if (!P) {
        debug::error("Call to getTargetPointer returned null pointer (%s).",
                     Req.Present ? "'present' map type modifier"
                                 : "device failure or illegal mapping");
        return makeError("mapping the pointer %s at host %p failed: %s",
                         info::varName(Name).c_str(), HstBase, P.error().message().c_str());
      }
      Pointer = *P;
      // The pointee counts a reference of its own (the end phase drops it),
      // unless it is a mapper's first component that rides on its parent.
      // A mapper's first component for a list item of its own does count:
      // re-mapping a present object through a mapper never re-copies it.
      Req.UpdateRef = !A.ridesOnParent(I);
    }

    Req.HstBegin = HstBegin;
    Req.HstBase = HstBase;
    Req.Size = Size;
    Req.Name = Name;
    Req.To = Type & kMapTo;
    Req.Always = Type & kMapAlways;
    auto Mapped = mapHostRange(D, Req, Async);
    if (!Mapped || (!Mapped->TgtPtr && Req.Present)) {
      debug::error("Call to getTargetPointer returned null pointer (%s).",
                   Req.Present ? "'present' map type modifier"
                               : "device failure or illegal mapping");
      return makeError("mapping %s (host %p, %" PRId64 " bytes) failed%s%s",
                       info::varName(Name).c_str(), HstBegin, Size, Mapped ? "" : ": ",
                       Mapped ? "" : Mapped.error().message().c_str());
    }
    if (A.TgtBegins && Mapped->TgtPtr)
      A.TgtBegins[I] = static_cast<char *>(Mapped->TgtPtr) +
                       (static_cast<char *>(A.Begins[I]) - static_cast<char *>(HstBegin));
    // use_device_ptr/addr: hand the device address back through the base;
    // a list item that is not present keeps its host address (OpenMP 5.1).
    if ((Type & kMapReturnParam) && Mapped->TgtPtr) {
      auto Delta = reinterpret_cast<uintptr_t>(HstBegin) - reinterpret_cast<uintptr_t>(HstBase);
      A.Bases[I] = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(Mapped->TgtPtr) - Delta);
    }
    if ((Type & kMapPtrAndObj) && !Pointer.IsHostPtr && Pointer.TgtPtr && Mapped->TgtPtr) {
      Status S = attachPointer(D, static_cast<void **>(HstBase), Pointer.TgtPtr,
                               *static_cast<void **>(HstBase), HstBegin, Mapped->TgtPtr, Async);
      if (!S) return S;
    }
  }
  if (A.Progress) *A.Progress = A.Num;
  return Status::success();
}

Status dataEnd(Device &D, const MapArgs &A, AsyncInfo &Async) {
  // The drops deferred until after the construct's synchronize, in order.
  SmallArray<DropRequest, 8> Drops;
  for (int32_t I = A.Num - 1; I >= 0; --I) {
    int64_t Type = A.Types[I];
    if (Type & (kMapLiteral | kMapPrivate)) continue;
    if (A.Mappers && A.Mappers[I]) {
      Status S = runMapper(D, A, I, Async, dataEnd);
      if (!S) return S;
      continue;
    }
    void *HstBegin = A.Begins[I];
    int64_t Size = A.Sizes[I];
    if (isCombinedEntry(A, I)) padToStructAlignment(HstBegin, Size);
    bool IsMember = Type & kMemberOfBits;
    FindRequest Req;
    Req.HstBegin = HstBegin;
    Req.Size = Size;
    Req.UpdateRef = (!IsMember || (Type & kMapPtrAndObj)) && !A.ridesOnParent(I);
    Req.Hold = Type & kMapOmpxHold;
    Req.MustContain = !(Type & kMapImplicit);
    Req.ForceDelete = Type & kMapDelete;
    // Nothing of this construct can still be in flight when it queued no
    // work yet or the device finishes every operation before returning:
    // then restore and drop at once instead of after the synchronize.
    const bool Settled = !Async.hasQueue() || D.completesSynchronously();
    const bool From = Type & kMapFrom;
    using DropWhen = FindRequest::DropWhen;
    if (D.ordersAllocationOnQueue() && !(From && (Type & kMapAlways)))
      // The last reference's copy back and release go on the queue.
      Req.When = Settled ? DropWhen::LastReleasedOnQueueOthersNow
                         : DropWhen::LastReleasedOnQueueOthersAfterSync;
    else if (!Settled || (From && (Type & kMapAlways)))
      Req.When = DropWhen::AfterSync;
    else if (!From)
      Req.When = DropWhen::Now;
    else if (D.completesSynchronously() && Size <= kSyncCopyUnderTableLockBytes)
      // A small last `from` is copied back at once, under the lookup's lock,
      // instead of looking the entry up again to drop it.
      Req.When = DropWhen::NowCopyingBackIfLast;
    else
      Req.When = DropWhen::NowUnlessLast;
    Req.CopyBackOn = &Async;
    Req.Name = A.Names ? A.Names[I] : nullptr;
    FoundPointer Found = findMapping(D, Req);
    if (Found.DropError || Found.CopyError)
      return makeError("%s the device copy of %s failed",
                       Found.CopyError ? "copying back" : "freeing",
                       info::varName(A.Names ? A.Names[I] : nullptr).c_str());
    if (!Found.TgtPtr) {
      if ((Size || (Type & kMapPresent)) && (Type & kMapPresent)) {
        debug::message(
            "device mapping required by 'present' map type modifier does not exist "
            "for host address " OMPT_PTR_FMT " (%" PRId64 " bytes)",
            OMPT_PTR(HstBegin), Size);
        return makeError("'present' map type modifier: %s is not mapped",
                         info::varName(A.Names ? A.Names[I] : nullptr).c_str());
      }
      continue;  // OpenMP 5.1: a list item that is not present is ignored on exit.
    }
    bool Copied = false;
    if (Found.Leaving.Tgt) {
      // Its last reference went: the copy back, then the release, on the
      // construct's queue (one synchronize at the end of the construct).
      if (From) {
        if (Status S = copyToHost(D, HstBegin, Found.TgtPtr, Size, Req.Name, Async); !S) {
          // Never dropped unseen: the entry stays, with its last reference.
          keepLeavingEntry(D, Found.Leaving, Async);
          return S;
        }
        Copied = true;
      }
      if (Status S = releaseOnQueue(D, Found.Leaving, Copied, Async); !S) return S;
      continue;
    }
    if (From && (Found.IsLast || (Type & kMapAlways)) && !Found.IsHostPtr && !Found.Dropped) {
      if (Status S = copyToHost(D, HstBegin, Found.TgtPtr, Size, Req.Name, Async); !S) return S;
      Copied = true;
    }
    // The copy just issued may have given the construct a queue.
    const bool SettledNow = !Async.hasQueue() || D.completesSynchronously();
    if (Copied && D.mappings().hasShadows()) {
      // After the copy lands: put back host pointer values that the copy
      // overwrote with device addresses.
      auto Restore = [&D, HstBegin, Size] {
        restoreShadows(D.mappings(), HstBegin, Size);
        return Status::success();
      };
      if (SettledNow)
        (void)Restore();
      else
        Async.afterSync(Restore);
    }
    // Members ride on their parent's count; everything else drops its
    // reference once the construct's queued work is complete.
    if (Req.UpdateRef && !Found.IsHostPtr && !Found.Dropped) {
      DropRequest Drop;
      Drop.HstBegin = HstBegin;
      Drop.Size = Size;
      Drop.Hold = Req.Hold;
      Drop.ForceDelete = Req.ForceDelete;
      Drop.CopyBackIfLast = From;
      Drop.AlreadyCopied = Copied;
      if (!SettledNow)
        Drops.push_back(Drop);
      else if (Status S = dropReference(D, Drop); !S)
        return S;
    }
  }
  for (const DropRequest &R : Drops) Async.afterSync([&D, R] { return dropReference(D, R); });
  return Status::success();
}

Status dataEndWithoutCopyBack(Device &D, const MapArgs &A, AsyncInfo &Async) {
  std::vector<int64_t> NoCopyBack(A.Types, A.Types + A.Num);
  for (int64_t &T : NoCopyBack) T &= ~static_cast<int64_t>(kMapFrom);
  MapArgs Release = A;
  Release.Types = NoCopyBack.data();
  Release.Progress = nullptr;
  return dataEnd(D, Release, Async);
}

namespace {

Status updateContiguous(Device &D, void *HstBegin, int64_t Size, int64_t Type, map_var_info_t Name,
                        AsyncInfo &Async) {
  bool IsHostPtr = false;
  void *Tgt = translate(D, HstBegin, Size, &IsHostPtr);
  if (!Tgt) {
    OMPT_TRACE("omptarget", "hst data %p not found, becomes a noop", HstBegin);
    if (Type & kMapPresent) {
      debug::message(
          "device mapping required by 'present' motion modifier does not exist for "
          "host address " OMPT_PTR_FMT " (%" PRId64 " bytes)",
          OMPT_PTR(HstBegin), Size);
      return makeError("'present' motion modifier: %s is not mapped", info::varName(Name).c_str());
    }
    return Status::success();
  }
  if (IsHostPtr) return Status::success();
  auto Begin = reinterpret_cast<uintptr_t>(HstBegin);
  auto End = Begin + static_cast<uintptr_t>(Size);
  if (Type & kMapFrom) {
    if (Status S = D.retrieve(HstBegin, Tgt, Size, Async); !S) return S;
    if (D.mappings().hasShadows())
      Async.afterSync([&D, HstBegin, Size] {
        restoreShadows(D.mappings(), HstBegin, Size);
        return Status::success();
      });
  }
  if (Type & kMapTo) {
    if (Status S = D.submit(Tgt, HstBegin, Size, Async); !S) return S;
    // The copy overwrote attached pointers on the device with host values.
    Status Result;
    D.mappings().forEachShadow(Begin, End, false, [&](void **, const ShadowPointer &Shadow) {
      if (Status S = D.submitPointer(Shadow.TgtPtrAddr, Shadow.TgtPtrValue, Async); !S && Result)
        Result = std::move(S);
    });
    return Result;
  }
  return Status::success();
}

}  // namespace

Status dataUpdate(Device &D, const MapArgs &A, AsyncInfo &Async) {
  for (int32_t I = 0; I < A.Num; ++I) {
    int64_t Type = A.Types[I];
    if (Type & (kMapLiteral | kMapPrivate)) continue;
    if (A.Mappers && A.Mappers[I]) {
      Status S = runMapper(D, A, I, Async, dataUpdate);
      if (!S) return S;
      continue;
    }
    map_var_info_t Name = A.Names ? A.Names[I] : nullptr;
    Status S;
    if (Type & kMapNonContig) {
      const auto *Dims = static_cast<const __tgt_target_non_contig *>(A.Begins[I]);
      auto Count = static_cast<int32_t>(A.Sizes[I]);
      if (Count <= 0 || !Dims) continue;
      S = forEachNonContigRun(A.Bases[I], Dims, Count, [&](void *Begin, int64_t Size) {
        return updateContiguous(D, Begin, Size, Type, Name, Async);
      });
    } else {
      S = updateContiguous(D, A.Begins[I], A.Sizes[I], Type, Name, Async);
    }
    if (!S) return S;
  }
  return Status::success();
}

Status runDataConstruct(Device &D, DataConstruct Kind, const MapArgs &A) {
  AsyncInfo Async(D);
  Status S;
  switch (Kind) {
    case DataConstruct::Begin:
      Async.enableRollback();
      S = dataBegin(D, A, Async);
      break;
    case DataConstruct::End: S = dataEnd(D, A, Async); break;
    case DataConstruct::Update: S = dataUpdate(D, A, Async); break;
  }
  Status Sync = Async.synchronize();
  return !S ? S : Sync;
}

}  // namespace omptarget::core
