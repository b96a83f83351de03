#include "target_launch.h"

#include <array>
#include <cinttypes>
#include <cstddef>
#include <cstring>
#include <optional>
#include <vector>

#include "debug.h"
#include "exit_mark.h"
#include "map_ops.h"
#include "runtime.h"
#include "small_array.h"

namespace omptarget::core {

using namespace abi;

namespace {

constexpr int64_t kMemberOfBits = static_cast<int64_t>(kMapMemberOfMask);
// Argument lists of up to this many entries live on the stack.
constexpr size_t kInlineArgs = 32;

// The two lines LLVM prints for a failed data step of a region, unless the
// program is exiting or the region's binary was unregistered: then the
// caller runs the region's host version without an error (failedForTeardown
// in api_target.cpp), and these lines would be the only output of an exit
// that loses nothing (threads still offloading when exit() shuts the CUDA
// driver down).
void reportFailedStep(void *HostRegion, const char *Call, const char *When) {
  if (exit_mark::begun() || Runtime::get().images().retired(HostRegion)) return;
  debug::error("%s", Call);
  debug::error("%s", When);
}

// A lambda's captured pointers show up as this combination, after the
// lambda object itself (their parent): the device copy of the lambda must
// point at the device copies of what it captured. Base is the field's host
// address inside the lambda, Begin the pointer's value.
bool isLambdaCapture(int64_t Type) {
  return (Type & kMemberOfBits) && (Type & kMapPtrAndObj) && (Type & kMapLiteral) &&
         (Type & kMapImplicit);
}

// (First-)private copies of a region's arguments. First-private values are
// packed into one host buffer and moved with one copy.
class PrivateArguments {
 public:
  PrivateArguments(Device &D, AsyncInfo &Async) : D_(D), Async_(Async) {}

  // Returns the slot in the kernel argument list that will receive the
  // device address, filled in by finalize().
  Status add(void *HstBegin, int64_t Size, bool FirstPrivate, size_t ArgSlot) {
    if (FirstPrivate) {
      size_t Offset = alignUp(Packed_.size());
      Packed_.resize(Offset + static_cast<size_t>(Size));
      std::memcpy(Packed_.data() + Offset, HstBegin, static_cast<size_t>(Size));
      Pending_.push_back({ArgSlot, Offset});
      return Status::success();
    }
    auto Tgt = D_.allocate(Size, HstBegin, kAllocDefault, Async_.raw());
    if (!Tgt) return Tgt.takeError();
    Owned_.push_back(*Tgt);
    Direct_.push_back({ArgSlot, *Tgt});
    return Status::success();
  }

  Status finalize(SmallArray<void *, kInlineArgs> &KernelArgs) {
    for (auto &[Slot, Ptr] : Direct_) KernelArgs[Slot] = Ptr;
    if (Pending_.empty()) return Status::success();
    auto Tgt = D_.allocate(static_cast<int64_t>(Packed_.size()), Packed_.data(), kAllocDefault,
                           Async_.raw());
    if (!Tgt) return Tgt.takeError();
    Owned_.push_back(*Tgt);
    for (auto &[Slot, Offset] : Pending_) KernelArgs[Slot] = static_cast<char *>(*Tgt) + Offset;
    // Packed_ lives as long as this object, past the construct's synchronize
    // (a deferred construct's: keepPackedUntilDone).
    return D_.submit(*Tgt, Packed_.data(), static_cast<int64_t>(Packed_.size()), *Async_.raw());
  }

  // The packed host copy of the first-private argument in kernel slot
  // ArgSlot, or null when that argument is not a packed first-private.
  // Valid until finalize() sends the packed copies.
  char *packedCopy(size_t ArgSlot) {
    for (auto &[Slot, Offset] : Pending_)
      if (Slot == ArgSlot) return Packed_.data() + Offset;
    return nullptr;
  }

  // A construct that completes after its call returns hands the packed copy
  // to its AsyncInfo, which keeps it until the work that reads it is done
  // (the asynchronous host device reads it when the copy runs).
  void keepPackedUntilDone() {
    if (Packed_.empty()) return;
    Async_.afterSync([Buffer = std::move(Packed_)] { return Status::success(); });
  }

  // Gives the device copies back once the construct's work (the launch that
  // uses them) is done; called before its synchronize.
  Status releaseDeviceCopies() {
    Status Result;
    for (void *Ptr : Owned_)
      if (Status S = Async_.release(Ptr); !S && Result) Result = std::move(S);
    Owned_.clear();
    return Result;
  }

 private:
  static size_t alignUp(size_t N) { return (N + 15) & ~size_t(15); }
  Device &D_;
  AsyncInfo &Async_;
  std::vector<char> Packed_;
  std::vector<std::pair<size_t, size_t>> Pending_;  // (arg slot, offset in Packed_)
  std::vector<std::pair<size_t, void *>> Direct_;   // (arg slot, device buffer)
  std::vector<void *> Owned_;
};

// Kernel argument slot of argument I: the number of target parameters
// before it.
size_t kernelSlotOf(const MapArgs &A, int32_t I) {
  size_t Slot = 0;
  for (int32_t K = 0; K < I; ++K)
    if (A.Types[K] & kMapTargetParam) ++Slot;
  return Slot;
}

// Points the device copy of a lambda's captured pointer (argument I) at the
// device copy of its pointee. A lambda passed by value is a packed
// first-private: its host copy is patched before it is sent, so this costs
// no transfer. A mapped lambda gets an 8-byte write into its device copy.
// A pointee that is not mapped keeps its host address.
Status attachLambdaCapture(Device &D, const MapArgs &A, int32_t I,
                           std::optional<PrivateArguments> &Privates, AsyncInfo &Async) {
  int64_t Parent = parentIndex(A.Types[I]);
  if (Parent < 0 || Parent >= I) return Status::success();
  void *Pointee = A.Begins[I];
  void *PointeeTgt = translate(D, Pointee, A.Sizes[I], nullptr, /*MustContain=*/false);
  if (!PointeeTgt) {
    OMPT_TRACE("omptarget", "Lambda capture %p is not mapped; it keeps its host address", Pointee);
    return Status::success();
  }
  auto Delta =
      reinterpret_cast<uintptr_t>(A.Bases[I]) - reinterpret_cast<uintptr_t>(A.Begins[Parent]);
  if (A.Types[Parent] & kMapPrivate) {
    char *Copy =
        Privates ? Privates->packedCopy(kernelSlotOf(A, static_cast<int32_t>(Parent))) : nullptr;
    if (!Copy) return Status::success();  // a private without a copy: nothing to point
    std::memcpy(Copy + Delta, &PointeeTgt, sizeof(void *));
    return Status::success();
  }
  void *LambdaTgt = translate(D, A.Begins[Parent], A.Sizes[Parent]);
  if (!LambdaTgt) return Status::success();
  return Async.writePointer(static_cast<char *>(LambdaTgt) + Delta, PointeeTgt);
}

// A failed region gives back the references its arguments took, copying
// nothing back, then finishes (one synchronize) with the original error.
template <typename FinishFn>
Status dropReferencesWithoutCopyBack(Device &D, const MapArgs &A, AsyncInfo &Async,
                                     FinishFn &Finish, Status Failure) {
  if (Status E = dataEndWithoutCopyBack(D, A, Async); !E)
    debug::error("releasing the mappings of a failed target region: %s",
                 E.error().message().c_str());
  return Finish(std::move(Failure));
}

}  // namespace

Status runTargetRegion(const ident_t *Loc, Device &D, const MapArgs &A, const LaunchParams &Launch,
                       AsyncInfo *Deferrable) {
  auto Entry = Runtime::get().images().kernelFor(Launch.HostRegion, D);
  if (!Entry) return Entry.takeError();

  // A plain region's AsyncInfo is this one (an optional<AsyncInfo> made
  // only when needed cost the empty host region 200 instructions, +22%).
  AsyncInfo Local(D);
  AsyncInfo &Async = Deferrable ? *Deferrable : Local;
  // Made on the first private argument: most regions have none.
  std::optional<PrivateArguments> Privates;
  // Argument lists live on the stack for the usual handful of arguments.
  const auto NumArgs = static_cast<size_t>(A.Num);
  SmallArray<void *, kInlineArgs> KernelArgs(NumArgs);
  SmallArray<ptrdiff_t, kInlineArgs> Offsets(NumArgs);
  SmallArray<void *, kInlineArgs> TgtBegins;
  TgtBegins.assign(NumArgs, nullptr);
  // Every exit releases the private copies and synchronizes once (a
  // deferrable region that queued everything leaves that to its caller).
  auto Finish = [&](Status S) -> Status {
    Status Freed = Privates ? Privates->releaseDeviceCopies() : Status::success();
    const bool LeaveQueued = Deferrable && S && Freed;
    if (LeaveQueued && Privates) Privates->keepPackedUntilDone();
    Status Sync = LeaveQueued ? Status::success() : Async.synchronize();
    if (!S) return S;
    return !Sync ? std::move(Sync) : std::move(Freed);
  };

  int32_t Mapped = 0;
  MapArgs Begin = A;
  Begin.Progress = &Mapped;
  Begin.TgtBegins = TgtBegins.data();
  if (Status S = dataBegin(D, Begin, Async); !S) {
    reportFailedStep(Launch.HostRegion, "Call to targetDataBegin failed, abort target.",
                     "Failed to process data before launching the kernel.");
    // Give back the references of the arguments mapped before the failure.
    MapArgs Done = A;
    Done.Num = Mapped;
    return dropReferencesWithoutCopyBack(D, Done, Async, Finish, std::move(S));
  }
  // After a failure past this point the region still drops the references
  // it took, without copying anything back: no entry outlives a failed region.
  auto Abandon = [&](Status S) -> Status {
    return dropReferencesWithoutCopyBack(D, A, Async, Finish, std::move(S));
  };
  for (int32_t I = 0; I < A.Num; ++I) {
    int64_t Type = A.Types[I];
    if (!(Type & kMapTargetParam)) {
      if (isLambdaCapture(Type))
        if (Status S = attachLambdaCapture(D, A, I, Privates, Async); !S)
          return Abandon(std::move(S));
      continue;
    }
    void *HstBegin = A.Begins[I];
    void *HstBase = A.Bases[I];
    if (Type & kMapLiteral) {
      KernelArgs.push_back(HstBase);
      Offsets.push_back(0);
    } else if (Type & kMapPrivate) {
      Offsets.push_back(reinterpret_cast<intptr_t>(HstBase) - reinterpret_cast<intptr_t>(HstBegin));
      KernelArgs.push_back(nullptr);
      if (!Privates) Privates.emplace(D, Async);
      if (Status S = Privates->add(HstBegin, A.Sizes[I], Type & kMapTo, KernelArgs.size() - 1); !S)
        return Abandon(std::move(S));
    } else {
      if (Type & kMapPtrAndObj) HstBase = *static_cast<void **>(HstBase);
      void *Tgt = TgtBegins[static_cast<size_t>(I)];
      if (!Tgt) Tgt = translate(D, HstBegin, A.Sizes[I], nullptr, /*MustContain=*/false);
      // OpenMP 5.1: a pointer whose pointee is not present (a zero-length
      // section: device memory from omp_target_alloc, unmapped host memory)
      // keeps its original value instead of becoming NULL.
      if (!Tgt) Tgt = HstBegin;
      KernelArgs.push_back(Tgt);
      Offsets.push_back(reinterpret_cast<intptr_t>(HstBase) - reinterpret_cast<intptr_t>(HstBegin));
    }
  }
  if (Privates)
    if (Status S = Privates->finalize(KernelArgs); !S) return Abandon(std::move(S));

  OMPT_TRACE("omptarget", "Launching %s on device %d with %zu arguments",
             Runtime::get().images().kernelName(Launch.HostRegion), D.id(), KernelArgs.size());
  if (Status S = D.launch(*Entry, KernelArgs.data(), Offsets.data(),
                          static_cast<int32_t>(KernelArgs.size()), Launch.Kernel, *Async.raw());
      !S) {
    debug::error("Executing target region abort target.");
    const char *Name = Runtime::get().images().kernelName(Launch.HostRegion);
    return Abandon(makeError("kernel %s on device %d failed: %s", Name ? Name : "?", D.id(),
                             S.error().message().c_str()));
  }
  if (Status S = dataEnd(D, A, Async); !S) {
    reportFailedStep(Launch.HostRegion, "Call to targetDataEnd failed, abort target.",
                     "Failed to process data after launching the kernel.");
    return Finish(std::move(S));
  }
  (void)Loc;
  return Finish(Status::success());
}

}  // namespace omptarget::core
