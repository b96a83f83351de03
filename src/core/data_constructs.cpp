#include "data_constructs.h"

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "debug.h"
#include "entry_exit.h"
#include "info.h"
#include "map_ops.h"
#include "mappers.h"
#include "non_contig.h"

namespace omptarget::core {

using namespace abi;

namespace {

constexpr int64_t kMemberOfBits = static_cast<int64_t>(kMapMemberOfMask);
// The most alignment a struct's device copy is given (see structPadding).
constexpr uintptr_t kMaxStructAlignment = 16;

bool isCombinedEntry(const MapArgs &A, int32_t I) {
  return parentIndex(A.Types[I]) < 0 && I + 1 < A.Num && parentIndex(A.Types[I + 1]) == I;
}

// A combined struct entry (the members a clause maps, from the first to the
// last) is allocated from the struct's alignment down, as clang lays the
// members out relative to it: the bytes between that boundary and the first
// member are device padding, never part of the mapping (an unmapped member
// before it is not present). The struct's alignment is taken from its
// address (at most kMaxStructAlignment).
int64_t structPadding(const MapArgs &A, int32_t I) {
  if (!isCombinedEntry(A, I)) return 0;
  auto Base = reinterpret_cast<uintptr_t>(A.Bases[I]);
  uintptr_t Alignment =
      Base ? std::min(Base & (~Base + 1), kMaxStructAlignment) : kMaxStructAlignment;
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(A.Begins[I]) % Alignment);
}

Status attachPointer(Device &D, void **PtrAddr, void *PtrTgtAddr, void *HstPtrValue,
                     void *PointeeHst, void *PointeeTgt, AsyncInfo &Async) {
  auto Delta = reinterpret_cast<uintptr_t>(PointeeHst) - reinterpret_cast<uintptr_t>(HstPtrValue);
  void *TgtValue = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(PointeeTgt) - Delta);
  if (!D.mappings().setShadow(PtrAddr, ShadowPointer{HstPtrValue, PtrTgtAddr, TgtValue}))
    return Status::success();
  OMPT_TRACE("omptarget", "Device %d: attach pointer at device %p = %p (host %p)", D.id(),
             PtrTgtAddr, TgtValue, HstPtrValue);
  return Async.writePointer(PtrTgtAddr, TgtValue);
}

}  // namespace

namespace {

// The mapper of argument I, expanded; Phase runs on its components. A
// failing begin gives back what the components before the failing one took
// (nothing copied back): a list item is mapped whole or not at all.
Status mapThroughMapper(Device &D, const MapArgs &A, int32_t I, AsyncInfo &Async,
                        Status (*Phase)(Device &, const MapArgs &, AsyncInfo &)) {
  MapperExpansion Expansion(A, I);
  MapArgs Sub = Expansion.args();
  if (Phase != dataBegin) return Phase(D, Sub, Async);
  // The construct only knows that argument I failed, so the components
  // mapped before the failing one give their references back here (at once,
  // or after the construct's synchronize if it has work queued, like any
  // drop): the list item leaves no entry behind.
  int32_t Mapped = 0;
  Sub.Progress = &Mapped;
  Status S = dataBegin(D, Sub, Async);
  if (!S && Mapped > 0) {
    Sub.Num = Mapped;
    if (Status Undo = dataEndWithoutCopyBack(D, Sub, Async); !Undo)
      debug::error("releasing the components of a failed mapper: %s",
                   Undo.error().message().c_str());
  }
  return S;
}

[[gnu::cold]] void reportNullTarget(bool Present) {
  debug::error("Call to getTargetPointer returned null pointer (%s).",
               Present ? "'present' map type modifier" : "device failure or illegal mapping");
}

// use_device_ptr/addr of a list item with no device counterpart: it keeps
// its host address (OpenMP 5.1), and LLVM's info line says so.
[[gnu::cold]] void reportNoCounterpart(Device &D, const MapArgs &A, int32_t I) {
  if (info::enabled(kInfoEmptyMapping))
    info::print(D.id(), "variable %s does not have a valid device counterpart",
                info::varName(A.nameOf(I)).c_str());
}

// The OpenMP rule of argument I's entry.
MapRequest entryRule(const MapArgs &A, int32_t I) {
  int64_t Type = A.Types[I];
  MapRequest Req;
  Req.Implicit = Type & kMapImplicit;
  Req.Close = Type & kMapClose;
  Req.Present = Type & kMapPresent;
  Req.Hold = Type & kMapOmpxHold;
  Req.HstBegin = A.Begins[I];
  Req.Size = A.Sizes[I];
  Req.Padding = structPadding(A, I);
  Req.Name = A.nameOf(I);
  Req.To = Type & kMapTo;
  Req.Always = Type & kMapAlways;
  // Members ride on their parent's reference count; the pointee of an
  // attached pointer counts a reference of its own (the end phase drops
  // it), unless it is a mapper's first component that rides on its parent.
  // A mapper's first component for a list item of its own does count:
  // re-mapping a present object through a mapper never re-copies it.
  Req.UpdateRef = (!(Type & kMemberOfBits) || (Type & kMapPtrAndObj)) && !A.ridesOnParent(I);
  // The base of an attached pointer's pointee is the pointer's value.
  Req.HstBase =
      (Type & kMapPtrAndObj) && A.Bases[I] ? *static_cast<void **>(A.Bases[I]) : A.Bases[I];
  return Req;
}

}  // namespace

Status dataBegin(Device &D, const MapArgs &A, AsyncInfo &Async) {
  for (int32_t I = 0; I < A.Num; ++I) {
    if (A.Progress) *A.Progress = I;
    int64_t Type = A.Types[I];
    if (Type & (kMapLiteral | kMapPrivate)) continue;
    if (A.Mappers && A.Mappers[I]) {
      if (Status S = mapThroughMapper(D, A, I, Async, dataBegin); !S) return S;
      continue;
    }
    MapRequest Req = entryRule(A, I);
    MappedPointer Pointer;
    if (Type & kMapPtrAndObj) {
      // First the pointer itself (usually already mapped with its struct,
      // whose count it rides on when it is a member).
      MapRequest PtrReq = Req;
      PtrReq.HstBegin = PtrReq.HstBase = A.Bases[I];
      PtrReq.Size = sizeof(void *);
      PtrReq.Padding = 0;
      PtrReq.Name = nullptr;
      PtrReq.UpdateRef = !(Type & kMemberOfBits) && !A.ridesOnParent(I);
      PtrReq.To = PtrReq.Always = false;
      auto P = mapHostRange(D, PtrReq, Async);
      if (!P) {
        reportNullTarget(Req.Present);
        return makeError("mapping the pointer %s at host %p failed: %s",
                         info::varName(Req.Name).c_str(), A.Bases[I], P.error().message().c_str());
      }
      Pointer = *P;
    }
    auto Mapped = mapHostRange(D, Req, Async);
    if (!Mapped || (!Mapped->TgtPtr && Req.Present)) {
      reportNullTarget(Req.Present);
      return makeError("mapping %s (host %p, %" PRId64 " bytes) failed%s%s",
                       info::varName(Req.Name).c_str(), Req.HstBegin, Req.Size, Mapped ? "" : ": ",
                       Mapped ? "" : Mapped.error().message().c_str());
    }
    if (A.TgtBegins && Mapped->TgtPtr) A.TgtBegins[I] = Mapped->TgtPtr;
    // use_device_ptr/addr: hand the device address back through the base.
    if (Type & kMapReturnParam) {
      if (!Mapped->TgtPtr) {
        reportNoCounterpart(D, A, I);
      } else {
        auto Delta =
            reinterpret_cast<uintptr_t>(Req.HstBegin) - reinterpret_cast<uintptr_t>(Req.HstBase);
        A.Bases[I] = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(Mapped->TgtPtr) - Delta);
      }
    }
    if ((Type & kMapPtrAndObj) && !Pointer.IsHostPtr && Pointer.TgtPtr && Mapped->TgtPtr) {
      Status S = attachPointer(D, static_cast<void **>(A.Bases[I]), Pointer.TgtPtr, Req.HstBase,
                               Req.HstBegin, Mapped->TgtPtr, Async);
      if (!S) return S;
    }
  }
  if (A.Progress) *A.Progress = A.Num;
  return Status::success();
}

namespace {

// The OpenMP rule of argument I's exit.
ExitRule exitRule(const MapArgs &A, int32_t I) {
  int64_t Type = A.Types[I];
  ExitRule R;
  R.HstBegin = A.Begins[I];
  R.Size = A.Sizes[I];
  R.Name = A.nameOf(I);
  // Members ride on their parent's count (an attached pointee is no member).
  R.Decrement = (!(Type & kMemberOfBits) || (Type & kMapPtrAndObj)) && !A.ridesOnParent(I);
  R.Hold = Type & kMapOmpxHold;
  R.Delete = Type & kMapDelete;
  R.MustContain = !(Type & kMapImplicit);
  if (Type & kMapFrom)
    R.Copy = (Type & kMapAlways) ? ExitRule::CopyBack::Always : ExitRule::CopyBack::IfLast;
  return R;
}

[[gnu::cold]] Error missingPresent(const ExitRule &R) {
  debug::message(
      "device mapping required by 'present' map type modifier does not exist "
      "for host address " OMPT_PTR_FMT " (%" PRId64 " bytes)",
      OMPT_PTR(R.HstBegin), R.Size);
  return makeError("'present' map type modifier: %s is not mapped", info::varName(R.Name).c_str());
}

}  // namespace

Status dataEnd(Device &D, const MapArgs &A, AsyncInfo &Async) {
  EntryExits Exits(D, Async);
  for (int32_t I = A.Num - 1; I >= 0; --I) {
    int64_t Type = A.Types[I];
    if (Type & (kMapLiteral | kMapPrivate)) continue;
    if (A.Mappers && A.Mappers[I]) {
      if (Status S = mapThroughMapper(D, A, I, Async, dataEnd); !S) return S;
      continue;
    }
    ExitRule R = exitRule(A, I);
    Expected<bool> Found = Exits.leave(R);
    if (!Found) return Found.takeError();
    // OpenMP 5.1: a list item that is not present is ignored on exit.
    if (!*Found && (Type & kMapPresent)) return missingPresent(R);
  }
  Exits.finish();
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
  if (Type & kMapFrom) {
    if (Status S = D.retrieve(HstBegin, Tgt, Size, *Async.raw()); !S) return S;
    restoreAfterCopyBack(D, HstBegin, Size, Async);
  }
  if (Type & kMapTo) {
    if (Status S = D.submit(Tgt, HstBegin, Size, *Async.raw()); !S) return S;
    return reattachPointers(D, HstBegin, Size, Async);
  }
  return Status::success();
}

}  // namespace

Status dataUpdate(Device &D, const MapArgs &A, AsyncInfo &Async) {
  for (int32_t I = 0; I < A.Num; ++I) {
    int64_t Type = A.Types[I];
    if (Type & (kMapLiteral | kMapPrivate)) continue;
    if (A.Mappers && A.Mappers[I]) {
      if (Status S = mapThroughMapper(D, A, I, Async, dataUpdate); !S) return S;
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

Status runDataConstructOn(Device &D, DataConstruct Kind, const MapArgs &A, AsyncInfo &Async) {
  switch (Kind) {
    case DataConstruct::Begin: Async.enableRollback(); return dataBegin(D, A, Async);
    case DataConstruct::End: return dataEnd(D, A, Async);
    case DataConstruct::Update: return dataUpdate(D, A, Async);
  }
  return Status::success();
}

Status runDataConstruct(Device &D, DataConstruct Kind, const MapArgs &A) {
  AsyncInfo Async(D);
  Status S = runDataConstructOn(D, Kind, A, Async);
  Status Sync = Async.synchronize();
  return !S ? S : Sync;
}

}  // namespace omptarget::core
