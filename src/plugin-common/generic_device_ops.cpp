// GenericDevice: the data, launch and event operations, each as its checked
// call (section a of generic_device.h: test the arguments, trace, then the
// unchecked half) followed by its unchecked half (section b: the memory
// manager, the queue, the hook). The exported entries run the checked calls,
// the direct table an unchecked half when its arguments pass the checked
// call's own test (direct_table.h). Every error names the entry point and
// the device, and reads the same through either call.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <type_traits>

#include "debug.h"
#include "generic_device.h"
#include "generic_plugin.h"
#include "launch_arguments.h"

namespace omptarget::plugin {

namespace {
Error opError(const char *Call, int32_t Dev, const std::string &Why) {
  return makeError("%s: device %d: %s", Call, Dev, Why.c_str());
}

// A launch's num_teams or thread_limit as the info line prints it: 0 (or
// less) means the program gave none, and the device picks: the host
// device's region through libomp, the CUDA plugin by its launch sizing
// (whose own line then says how many blocks and threads it chose).
std::string launchCount(int32_t N) { return N > 0 ? std::to_string(N) : "default"; }
}  // namespace

// Inline into each half: their fast paths are a few instructions around
// the hook (and one load of the profile's switch); the errors are formatted
// out of line.
template <typename IssueFn, typename DescribeFn>
[[gnu::always_inline]] inline Status GenericDevice::onQueue(__tgt_async_info &AsyncInfo,
                                                            const char *Call, const char *Kernel,
                                                            IssueFn &&Issue,
                                                            DescribeFn &&Describe) {
  void *Q = AsyncInfo.Queue;
  if (!Q) [[unlikely]] {
    Expected<void *> Taken = queueOf(AsyncInfo);
    if (!Taken) return opFailed(Call, Taken.takeError());
    Q = *Taken;
  }
  Status S = [&] {
    if constexpr (!std::is_null_pointer_v<std::decay_t<DescribeFn>>)
      return issueTimed(Q, Issue, Describe);
    else
      return Issue(Q);
  }();
  if (!S) [[unlikely]]
    return Kernel ? kernelFailed(Call, Kernel, S.takeError()) : opFailed(Call, S.takeError());
  return S;
}

// The profiled device's way: onQueue with timing, out of the halves' fast
// paths (their closures are built only here).
template <typename IssueFn, typename DescribeFn>
[[gnu::noinline, gnu::cold]] Status GenericDevice::onQueueTimed(__tgt_async_info &AsyncInfo,
                                                                const char *Call,
                                                                const char *Kernel, IssueFn &Issue,
                                                                DescribeFn &Describe) {
  return onQueue(AsyncInfo, Call, Kernel, Issue, Describe);
}

// ---- device-side timing (profile_device) ----

template <typename IssueFn, typename DescribeFn>
Status GenericDevice::issueTimed(void *Q, IssueFn &Issue, DescribeFn &Describe) {
  auto T = std::make_unique<TimedOp>();
  const uint64_t IssueNs = steadyNowNs();
  Expected<void *> Begin = markImpl(Q, &T->BeginNs);
  if (!Begin) {
    // Timing is the profile's business: the operation goes on untimed.
    OMPT_TRACE(traceComponent(), "device %d: profile: cannot time an operation: %s", DeviceId_,
               Begin.error().message().c_str());
    return Issue(Q);
  }
  T->BeginMark = *Begin;
  Status S = Issue(Q);
  Expected<void *> End = markImpl(Q, &T->EndNs);
  if (End) T->EndMark = *End;
  const bool Timed = S && End;
  if (Timed) {
    T->Op = Describe();
    T->Op.IssueNs = IssueNs;
    T->Op.IssueThread = currentThreadId();
    T->Op.QueueKind = Q == SharedQueue_ ? __tgt_queue_inline : __tgt_queue_pooled;
    T->Op.Queue = reinterpret_cast<uintptr_t>(Q);
    if (Q != SharedQueue_) {
      Profile_.keep(Q, std::move(T));
      return S;
    }
  }
  finishTimed(*T, Timed);
  return S;
}

void GenericDevice::finishTimed(TimedOp &T, bool Ok) {
  if (!Ok) {
    (void)resolveMarksImpl(T.BeginMark, T.EndMark, nullptr, nullptr);
    return;
  }
  Status S = resolveMarksImpl(T.BeginMark, T.EndMark, &T.BeginNs, &T.EndNs);
  if (!S || T.BeginNs == 0 || T.EndNs == 0) return;  // the device did not get there
  T.Op.Begin = T.BeginNs;
  T.Op.End = std::max(T.EndNs, T.BeginNs);
  Profile_.emit(T.Op);
}

void GenericDevice::resolveTimed(void *Q, bool Ok) {
  for (std::unique_ptr<TimedOp> &T : Profile_.take(Q)) finishTimed(*T, Ok);
}

template <typename RunFn>
auto GenericDevice::timedInline(int32_t Kind, int64_t Bytes, const void *Freed, RunFn &&Run) {
  if (!Profile_.on()) [[likely]]
    return Run();
  __tgt_device_op Op{};
  Op.Kind = Kind;
  Op.QueueKind = __tgt_queue_inline;
  Op.Bytes = Bytes;
  Op.IssueThread = currentThreadId();
  Op.IssueNs = Op.Begin = steadyNowNs();
  auto Result = Run();
  Op.End = steadyNowNs();
  if (!Result) return Result;
  if constexpr (std::is_same_v<decltype(Result), Expected<void *>>) {
    Profile_.noteSize(*Result, Bytes);
  } else {
    Op.Bytes = Profile_.takeSize(Freed);
  }
  Profile_.emit(Op);
  return Result;
}

int32_t GenericDevice::copyRouteImpl(const void *HstPtr, size_t Size, bool) const {
  return Pinned_.contains(HstPtr, Size) ? __tgt_route_pinned : __tgt_route_pageable;
}

namespace {
// The description of a copy or a launch for issueTimed.
__tgt_device_op describedOp(int32_t Kind, size_t Bytes, int32_t Route) {
  __tgt_device_op Op{};
  Op.Kind = Kind;
  Op.Route = Route;
  Op.Bytes = static_cast<int64_t>(Bytes);
  return Op;
}
}  // namespace

Error GenericDevice::opFailed(const char *Call, Error Why) const {
  return opError(Call, DeviceId_, Why.message());
}

Error GenericDevice::kernelFailed(const char *Call, const char *Name, Error Why) const {
  return opError(Call, DeviceId_, formatString("kernel %s: %s", Name, Why.message().c_str()));
}

// ---- alloc ----

Expected<void *> GenericDevice::dataAlloc(int64_t Size, void *HostPtr, int32_t Kind,
                                          __tgt_async_info *AsyncInfo) {
  const char *Call = AsyncInfo ? "data_alloc_async" : "data_alloc";
  if (!allocArgsValid(Size, Kind)) [[unlikely]]
    return opError(Call, DeviceId_,
                   Size < 0 ? formatString("negative size %" PRId64, Size)
                            : formatString("invalid allocation kind %d", Kind));
  Expected<void *> Ptr = allocUnchecked(Call, static_cast<size_t>(Size), HostPtr,
                                        static_cast<abi::TargetAllocKind>(Kind), AsyncInfo);
  if (Ptr)
    OMPT_TRACE(traceComponent(), "device %d: allocated %" PRId64 " bytes (%s) at %p", DeviceId_,
               Size, abi::allocKindName(Kind), *Ptr);
  return Ptr;
}

// A cached block first: it is valid at once, for every queue.
Expected<void *> GenericDevice::allocUnchecked(const char *Call, size_t Size, void *HostPtr,
                                               abi::TargetAllocKind Kind,
                                               __tgt_async_info *AsyncInfo) {
  if (cachesKind(Kind) && MemoryManager_.handles(Size)) [[likely]]
    if (void *Cached = MemoryManager_.takeCached(Size)) return Cached;
  return allocFromDevice(Call, Size, HostPtr, Kind, AsyncInfo);
}

// The memory manager's sizes come from its backend (synchronous); other
// default-kind sizes on a queue from the device's stream-ordered allocator
// when it has one; everything else synchronously. Each retries once after
// releasing the cache and trimming the device's pool when the device is
// full (MemoryManager::retryAfterReleasing, whose trim is the device's
// trimAllocationPoolImpl).
Expected<void *> GenericDevice::allocFromDevice(const char *Call, size_t Size, void *HostPtr,
                                                abi::TargetAllocKind Kind,
                                                __tgt_async_info *AsyncInfo) {
  auto Allocate = [&]() -> Expected<void *> {
    if (cachesKind(Kind) && MemoryManager_.handles(Size)) return MemoryManager_.allocate(Size);
    if (AsyncInfo && Kind == abi::kAllocDefault && hasAsyncAllocation()) {
      Expected<void *> Q = queueOf(*AsyncInfo);
      if (!Q) return Q.takeError();
      return MemoryManager_.retryAfterReleasing(
          [&] { return allocAsyncImpl(Size, HostPtr, Kind, *Q); });
    }
    return MemoryManager_.retryAfterReleasing([&] { return allocImpl(Size, HostPtr, Kind); });
  };
  Expected<void *> Ptr = timedInline(__tgt_op_alloc, static_cast<int64_t>(Size), nullptr, Allocate);
  if (!Ptr) return allocFailed(Call, Size, Kind, Ptr.takeError());
  // Pinned host memory is locked memory for copies from the start.
  if (Kind == abi::kAllocHost) Pinned_.addAllocation(*Ptr, Size == 0 ? 1 : Size);
  return Ptr;
}

Error GenericDevice::allocFailed(const char *Call, size_t Size, abi::TargetAllocKind Kind,
                                 Error Why) {
  std::string Free;
  if (std::optional<uint64_t> Bytes = freeMemoryBytesImpl())
    Free = formatString(" (the device has %" PRIu64 " bytes free)", *Bytes);
  return opError(Call, DeviceId_,
                 formatString("cannot allocate %zu bytes (%s)%s: %s", Size,
                              abi::allocKindName(Kind), Free.c_str(), Why.message().c_str()));
}

// ---- delete ----

Status GenericDevice::dataDelete(void *TgtPtr, __tgt_async_info *AsyncInfo) {
  if (!TgtPtr) return {};  // like free(NULL)
  bool Cached = false;
  Status S =
      deleteUnchecked(AsyncInfo ? "data_delete_async" : "data_delete", TgtPtr, AsyncInfo, &Cached);
  if (S)
    OMPT_TRACE(traceComponent(), "device %d: freed %p%s", DeviceId_, TgtPtr,
               Cached ? " (cached for reuse)" : "");
  return S;
}

// A release on a queue that may still have work: in the queue's order
// (releaseOnQueue). Otherwise a live block of the cache goes back to it
// first; freeToDevice says what any other pointer is (a double free, or not
// the cache's: the device frees it).
Status GenericDevice::deleteUnchecked(const char *Call, void *TgtPtr, __tgt_async_info *AsyncInfo,
                                      bool *Cached) {
  // A release on a queue takes one if it has none yet: the caller then
  // synchronizes it, which is cheaper than a synchronous free (the CUDA
  // pool's waits for the whole device).
  if (AsyncInfo && !SharedQueue_) [[unlikely]] {
    Expected<void *> Q = queueOf(*AsyncInfo);
    if (!Q) return freeFailed(Call, TgtPtr, Q.takeError());
    return releaseOnQueue(Call, TgtPtr, *Q, Cached);
  }
  if (MemoryManager_.threshold() != 0 && MemoryManager_.tryKeep(TgtPtr)) [[likely]] {
    *Cached = true;
    return {};
  }
  return freeToDevice(Call, TgtPtr, Cached);
}

// The device's driver orders the release itself only for memory of its own
// allocator; a block of the cache (whose next owner may be on any queue),
// and any pointer of a device without stream-ordered release, waits for
// the queue's synchronize instead.
Status GenericDevice::releaseOnQueue(const char *Call, void *TgtPtr, void *Queue, bool *Cached) {
  if (hasAsyncAllocation() && !MemoryManager_.owns(TgtPtr) && !Pinned_.contains(TgtPtr, 1)) {
    if (Status S =
            timedInline(__tgt_op_free, 0, TgtPtr, [&] { return freeAsyncImpl(TgtPtr, Queue); });
        !S)
      return freeFailed(Call, TgtPtr, S.takeError());
    return {};
  }
  QueueReleases_.defer(Queue, TgtPtr);
  *Cached = MemoryManager_.threshold() != 0 && MemoryManager_.owns(TgtPtr);
  return {};
}

// After Queue's work is done (or failed: nothing of it runs any more), the
// releases kept for it happen as synchronous deletes would; a failure is
// reported (the pointer was bad: a double free) and does not stop the rest.
Status GenericDevice::releaseDeferred(void *Queue) {
  Status Result;
  QueueReleases_.releaseFor(Queue, [&](void *P) {
    bool Cached = false;
    Status S = deleteUnchecked("data_delete_async", P, nullptr, &Cached);
    if (!S && Result) Result = std::move(S);
  });
  return Result;
}

Status GenericDevice::freeToDevice(const char *Call, void *TgtPtr, bool *Cached) {
  if (MemoryManager_.threshold() != 0) {
    Expected<bool> Kept = MemoryManager_.deallocate(TgtPtr);
    if (!Kept) return freeFailed(Call, TgtPtr, Kept.takeError());
    if (*Kept) {
      *Cached = true;
      return {};
    }
  }
  // Pinned host memory leaves the pinned map before it is freed.
  Pinned_.removeAllocation(TgtPtr);
  if (Status S = timedInline(__tgt_op_free, 0, TgtPtr, [&] { return freeImpl(TgtPtr); }); !S)
    return freeFailed(Call, TgtPtr, S.takeError());
  return {};
}

Error GenericDevice::freeFailed(const char *Call, void *TgtPtr, Error Why) const {
  return opError(Call, DeviceId_,
                 formatString("cannot free %p: %s", TgtPtr, Why.message().c_str()));
}

// ---- submit ----

Status GenericDevice::dataSubmit(void *TgtPtr, const void *HstPtr, int64_t Size,
                                 __tgt_async_info *AsyncInfo) {
  if (const char *Why = transferProblem(Size, TgtPtr, HstPtr, AsyncInfo)) [[unlikely]]
    return opError("data_submit", DeviceId_,
                   formatString("%s (target %p, host %p, size %" PRId64 ", async info %p)", Why,
                                TgtPtr, HstPtr, Size, static_cast<void *>(AsyncInfo)));
  if (Size == 0) return {};
  OMPT_TRACE(traceComponent(), "device %d: submit %" PRId64 " bytes %p -> %p", DeviceId_, Size,
             HstPtr, TgtPtr);
  return submitUnchecked(TgtPtr, HstPtr, static_cast<size_t>(Size), *AsyncInfo);
}

Status GenericDevice::submitUnchecked(void *TgtPtr, const void *HstPtr, size_t Size,
                                      __tgt_async_info &AsyncInfo) {
  auto Issue = [&](void *Q) { return submitImpl(TgtPtr, HstPtr, Size, Q); };
  if (Profile_.on()) [[unlikely]] {
    auto Describe = [&] {
      return describedOp(__tgt_op_copy_to_device, Size, copyRouteImpl(HstPtr, Size, true));
    };
    return onQueueTimed(AsyncInfo, "data_submit", nullptr, Issue, Describe);
  }
  return onQueue(AsyncInfo, "data_submit", nullptr, Issue, nullptr);
}

// ---- retrieve ----

Status GenericDevice::dataRetrieve(void *HstPtr, const void *TgtPtr, int64_t Size,
                                   __tgt_async_info *AsyncInfo) {
  if (const char *Why = transferProblem(Size, HstPtr, TgtPtr, AsyncInfo)) [[unlikely]]
    return opError("data_retrieve", DeviceId_,
                   formatString("%s (host %p, target %p, size %" PRId64 ", async info %p)", Why,
                                HstPtr, TgtPtr, Size, static_cast<void *>(AsyncInfo)));
  if (Size == 0) return {};
  OMPT_TRACE(traceComponent(), "device %d: retrieve %" PRId64 " bytes %p -> %p", DeviceId_, Size,
             TgtPtr, HstPtr);
  return retrieveUnchecked(HstPtr, TgtPtr, static_cast<size_t>(Size), *AsyncInfo);
}

Status GenericDevice::retrieveUnchecked(void *HstPtr, const void *TgtPtr, size_t Size,
                                        __tgt_async_info &AsyncInfo) {
  auto Issue = [&](void *Q) { return retrieveImpl(HstPtr, TgtPtr, Size, Q); };
  if (Profile_.on()) [[unlikely]] {
    auto Describe = [&] {
      return describedOp(__tgt_op_copy_from_device, Size, copyRouteImpl(HstPtr, Size, false));
    };
    return onQueueTimed(AsyncInfo, "data_retrieve", nullptr, Issue, Describe);
  }
  return onQueue(AsyncInfo, "data_retrieve", nullptr, Issue, nullptr);
}

// ---- exchange ----

Status GenericDevice::dataExchange(const void *SrcPtr, GenericDevice &Dst, void *DstPtr,
                                   int64_t Size, __tgt_async_info *AsyncInfo) {
  if (const char *Why = transferProblem(Size, DstPtr, SrcPtr, AsyncInfo)) [[unlikely]]
    return opError("data_exchange", DeviceId_,
                   formatString("%s (source %p, destination device %d pointer %p, "
                                "size %" PRId64 ", async info %p)",
                                Why, SrcPtr, Dst.id(), DstPtr, Size,
                                static_cast<void *>(AsyncInfo)));
  if (Size == 0) return {};
  OMPT_TRACE(traceComponent(), "device %d: exchange %" PRId64 " bytes %p -> device %d %p",
             DeviceId_, Size, SrcPtr, Dst.id(), DstPtr);
  return exchangeUnchecked(SrcPtr, Dst, DstPtr, static_cast<size_t>(Size), *AsyncInfo);
}

Status GenericDevice::exchangeUnchecked(const void *SrcPtr, GenericDevice &Dst, void *DstPtr,
                                        size_t Size, __tgt_async_info &AsyncInfo) {
  auto Issue = [&](void *Q) { return exchangeImpl(SrcPtr, Dst, DstPtr, Size, Q); };
  if (Profile_.on()) [[unlikely]] {
    auto Describe = [&] { return describedOp(__tgt_op_copy_device, Size, __tgt_route_device); };
    return onQueueTimed(AsyncInfo, "data_exchange", nullptr, Issue, Describe);
  }
  return onQueue(AsyncInfo, "data_exchange", nullptr, Issue, nullptr);
}

// ---- launch ----

Status GenericDevice::launchKernel(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                                   int32_t NumTeams, int32_t ThreadLimit, uint64_t LoopTripCount,
                                   bool IsTeamRegion, __tgt_async_info *AsyncInfo) {
  __tgt_kernel_launch L{};
  L.Version = OMPTARGET_KERNEL_LAUNCH_VERSION;
  L.IsTeamRegion = IsTeamRegion ? 1 : 0;
  // LLVM 14's plugins read a negative clause value as unspecified.
  L.NumTeams[0] = NumTeams > 0 ? static_cast<uint32_t>(NumTeams) : 0;
  L.ThreadLimit[0] = ThreadLimit > 0 ? static_cast<uint32_t>(ThreadLimit) : 0;
  L.LoopTripCount = LoopTripCount;
  if (!IsTeamRegion) {
    L.NumTeams[0] = 1;
    L.ThreadLimit[0] = 0;
    L.LoopTripCount = 0;
  }
  return launchKernel(Entry, Args, Offsets, NumArgs, &L, AsyncInfo);
}

Status GenericDevice::launchKernel(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                                   const __tgt_kernel_launch *Launch, __tgt_async_info *AsyncInfo) {
  const bool Teams = Launch && Launch->IsTeamRegion;
  const char *Call = Teams ? "run_target_team_region" : "run_target_region";
  if (!Launch || Launch->Version != OMPTARGET_KERNEL_LAUNCH_VERSION) [[unlikely]]
    return opError("launch_kernel_async", DeviceId_,
                   formatString("unknown launch description (%p, version %u; this plugin reads "
                                "version %u): the core and the plugin are of different releases",
                                static_cast<const void *>(Launch), Launch ? Launch->Version : 0u,
                                OMPTARGET_KERNEL_LAUNCH_VERSION));
  const char *Name = kernelToLaunch(Entry, Args, Offsets, NumArgs, AsyncInfo);
  if (!Name) [[unlikely]] {
    // Which half of the test failed: the arguments' shape, or the entry.
    if (!launchArgsWellFormed(Entry, Args, Offsets, NumArgs, AsyncInfo))
      return opError(
          Call, DeviceId_,
          formatString("invalid arguments (entry %p, args %p, offsets %p, %d argument(s), "
                       "async info %p)",
                       Entry, static_cast<void *>(Args), static_cast<void *>(Offsets), NumArgs,
                       static_cast<void *>(AsyncInfo)));
    return opError(Call, DeviceId_,
                   formatString("%p is not a kernel loaded on this device", Entry));
  }
  const auto NumTeams = static_cast<int32_t>(Launch->NumTeams[0]);
  const auto ThreadLimit = static_cast<int32_t>(Launch->ThreadLimit[0]);
  if (Plugin_.infoEnabled(abi::kInfoPluginKernel))
    std::fprintf(stderr,
                 "Libomptarget device %d info: Launching kernel %s with %s teams and %s threads "
                 "(%d argument(s), trip count %" PRIu64 ")\n",
                 DeviceId_, Name, launchCount(NumTeams).c_str(), launchCount(ThreadLimit).c_str(),
                 NumArgs, Launch->LoopTripCount);
  OMPT_TRACE(traceComponent(), "device %d: launch %s (%d args, %d teams, %d threads)", DeviceId_,
             Name, NumArgs, NumTeams, ThreadLimit);
  return launchUnchecked(Call, kernelLaunch(Entry, Args, Offsets, NumArgs, *Launch, Name),
                         *AsyncInfo);
}

KernelLaunch kernelLaunch(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                          const __tgt_kernel_launch &In, const char *Name) {
  const bool Teams = In.IsTeamRegion != 0;
  KernelLaunch L{Entry,
                 Args,
                 Offsets,
                 NumArgs,
                 Teams ? static_cast<int32_t>(In.NumTeams[0]) : 1,
                 static_cast<int32_t>(In.ThreadLimit[0]),
                 Teams ? In.LoopTripCount : 0,
                 Teams,
                 Name};
  L.KernelArgsVersion = In.KernelArgsVersion;
  L.DynCGroupMem = In.DynCGroupMem;
  L.TeamsYZ[0] = In.NumTeams[1];
  L.TeamsYZ[1] = In.NumTeams[2];
  L.ThreadsYZ[0] = In.ThreadLimit[1];
  L.ThreadsYZ[1] = In.ThreadLimit[2];
  return L;
}

Expected<void *> GenericDevice::launchEnvironmentImpl(const KernelLaunch &, void *) {
  return nullptr;
}

Status GenericDevice::launchUnchecked(const char *Call, const KernelLaunch &L,
                                      __tgt_async_info &AsyncInfo) {
  if (L.KernelArgsVersion >= abi::kKernelArgsMinVersionWithLaunchEnv) [[unlikely]]
    return launchWithEnvironment(Call, L, AsyncInfo);
  auto Issue = [&](void *Q) { return launchImpl(L, Q); };
  return launchOnQueue(Call, L, AsyncInfo, Issue);
}

// Ran is the launch Issue makes: its shape, which launchImpl records, is
// what the profile shows.
template <typename IssueFn>
Status GenericDevice::launchOnQueue(const char *Call, const KernelLaunch &Ran,
                                    __tgt_async_info &AsyncInfo, IssueFn &Issue) {
  if (Profile_.on()) [[unlikely]] {
    auto Describe = [&] {
      __tgt_device_op Op = describedOp(__tgt_op_kernel, 0, 0);
      Op.Name = Ran.Name;
      Op.Teams = Ran.RanTeams ? Ran.RanTeams : Ran.NumTeams;
      Op.Threads = Ran.RanThreads ? Ran.RanThreads : Ran.ThreadLimit;
      return Op;
    };
    return onQueueTimed(AsyncInfo, Call, Ran.Name, Issue, Describe);
  }
  return onQueue(AsyncInfo, Call, Ran.Name, Issue, nullptr);
}

// The kernels of KernelArgs version 3 and later take the launch environment
// as an implicit first argument: the launch goes with one argument more,
// whose value the device makes on the construct's queue (launchImpl reads
// the arrays before it returns, so they may live on this stack).
Status GenericDevice::launchWithEnvironment(const char *Call, const KernelLaunch &L,
                                            __tgt_async_info &AsyncInfo) {
  ArgsWithEnvironment Lists(L.Args, L.Offsets, L.NumArgs);
  KernelLaunch WithEnv = L;
  WithEnv.Args = Lists.args();
  WithEnv.Offsets = Lists.offsets();
  WithEnv.NumArgs = Lists.numArgs();
  WithEnv.KernelArgsVersion = 0;  // Args[0] is in place
  auto Issue = [&](void *Q) -> Status {
    Expected<void *> Env = launchEnvironmentImpl(L, Q);
    if (!Env) return Env.takeError();
    Lists.setEnvironment(*Env);
    return launchImpl(WithEnv, Q);
  };
  Status S = launchOnQueue(Call, WithEnv, AsyncInfo, Issue);
  L.RanTeams = WithEnv.RanTeams;
  L.RanThreads = WithEnv.RanThreads;
  return S;
}

// ---- events ----

Expected<void *> GenericDevice::createEvent() {
  Expected<void *> E = EventPool_.acquire();
  if (!E) return opError("create_event", DeviceId_, E.error().message());
  return E;
}

Status GenericDevice::destroyEvent(void *Event) {
  if (Status S = EventPool_.giveBack(Event); !S)
    return opError("destroy_event", DeviceId_, S.error().message());
  return {};
}

Error GenericDevice::eventArgsFailed(const char *Call, void *Event,
                                     const __tgt_async_info *AsyncInfo) const {
  return opError(Call, DeviceId_,
                 formatString("invalid arguments (event %p is %s, async info %p)", Event,
                              EventPool_.isInUse(Event) ? "live" : "unknown",
                              static_cast<const void *>(AsyncInfo)));
}

Status GenericDevice::recordEvent(void *Event, __tgt_async_info *AsyncInfo) {
  if (!EventPool_.isInUse(Event) || !AsyncInfo) [[unlikely]]
    return eventArgsFailed("record_event", Event, AsyncInfo);
  return recordEventUnchecked(Event, *AsyncInfo);
}

Status GenericDevice::recordEventUnchecked(void *Event, __tgt_async_info &AsyncInfo) {
  return onQueue(
      AsyncInfo, "record_event", nullptr, [&](void *Q) { return recordEventImpl(Event, Q); },
      nullptr);
}

Status GenericDevice::waitEvent(void *Event, __tgt_async_info *AsyncInfo) {
  if (!EventPool_.isInUse(Event) || !AsyncInfo) [[unlikely]]
    return eventArgsFailed("wait_event", Event, AsyncInfo);
  return waitEventUnchecked(Event, *AsyncInfo);
}

Status GenericDevice::waitEventUnchecked(void *Event, __tgt_async_info &AsyncInfo) {
  return onQueue(
      AsyncInfo, "wait_event", nullptr, [&](void *Q) { return waitEventImpl(Event, Q); }, nullptr);
}

Status GenericDevice::syncEvent(void *Event) {
  if (!EventPool_.isInUse(Event)) [[unlikely]]
    return opError("sync_event", DeviceId_, formatString("unknown event %p", Event));
  return syncEventUnchecked(Event);
}

Status GenericDevice::syncEventUnchecked(void *Event) {
  if (Status S = syncEventImpl(Event); !S) [[unlikely]]
    return opFailed("sync_event", S.takeError());
  return {};
}

// ---- pinned host memory (checked only: no direct-table function) ----

Expected<void *> GenericDevice::dataLock(void *HstPtr, int64_t Size) {
  if (!HstPtr || Size <= 0)
    return opError("data_lock", DeviceId_,
                   formatString("cannot lock host range %p of %" PRId64
                                " bytes: %s (give a non-null pointer and a positive size)",
                                HstPtr, Size,
                                HstPtr ? "the size is not positive" : "null pointer"));
  return Pinned_.lock(HstPtr, static_cast<size_t>(Size));
}

void *GenericDevice::dataTryLock(void *HstPtr, int64_t Size) {
  Expected<void *> P = dataLock(HstPtr, Size);
  if (P) return *P;
  OMPT_TRACE(traceComponent(), "device %d: data_try_lock: left unlocked: %s", DeviceId_,
             P.error().message().c_str());
  return nullptr;
}

Status GenericDevice::dataUnlock(void *HstPtr) {
  if (!HstPtr) return opError("data_unlock", DeviceId_, "null host pointer: nothing was unlocked");
  bool NotLocked = false;
  Status S = Pinned_.unlock(HstPtr, &NotLocked);
  if (!S && NotLocked) [[unlikely]]
    return lockedElsewhere(S.takeError(), HstPtr);
  return S;
}

Error GenericDevice::lockedElsewhere(Error NotHere, const void *HstPtr) const {
  // The usual cause: the unlock names another device than the lock did.
  std::string Where;
  int32_t Found = 0;
  for (int32_t I = 0; I < Plugin_.numberOfDevices(); ++I) {
    const GenericDevice *Other = I == DeviceId_ ? nullptr : Plugin_.readyDevice(I);
    if (Other && Other->pinnedMap().contains(HstPtr, 1))
      Where += formatString("%s%d", Found++ ? ", " : "", I);
  }
  if (!Found) return NotHere;
  return makeError(
      "%s; it is locked on device%s %s: unlock it with the device number it was "
      "locked with",
      NotHere.message().c_str(), Found > 1 ? "s" : "", Where.c_str());
}

}  // namespace omptarget::plugin
