#include "cuda_device.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "cuda_driver.h"
#include "cuda_sync_mode.h"
#include "debug.h"
#include "env.h"
#include "generic_plugin.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

namespace {
CUstream stream(void *Queue) { return static_cast<CUstream>(Queue); }
CUevent event(void *Event) { return static_cast<CUevent>(Event); }
CUdeviceptr devPtr(const void *P) { return reinterpret_cast<CUdeviceptr>(P); }

// Pinned memory for the streams' small-copy buffers; the caller has the
// context current.
void *allocPinned(size_t Size) {
  void *P = nullptr;
  return driver().cuMemAllocHost(&P, Size) == CUDA_SUCCESS ? P : nullptr;
}
void freePinned(void *P) { (void)driver().cuMemFreeHost(P); }
}  // namespace

CudaDevice::StreamState::StreamState(size_t SmallCopyBytes)
    : SmallCopies(SmallCopyBytes, plugin::PinnedMemoryFns{allocPinned, freePinned}) {}

Status CudaDevice::activate() const {
  return check(driver().cuCtxSetCurrent(Context_), "cuCtxSetCurrent");
}

Status CudaDevice::blameLastKernel(Status S, void *Queue) {
  if (S) return S;
  // A kernel's fault shows at whatever operation on its stream comes next.
  if (const char *Kernel = streamState(Queue).LastKernel.load(std::memory_order_relaxed))
    return makeError("kernel %s failed, or an operation after it on its stream did: %s", Kernel,
                     S.error().message().c_str());
  return S;
}

Status CudaDevice::checkOnStream(CUresult R, const char *What, void *Queue) {
  return blameLastKernel(check(R, What), Queue);
}

Status CudaDevice::initImpl() {
  const Driver &D = driver();
  if (Status S = check(D.cuDeviceGet(&Device_, id()), "cuDeviceGet"); !S) return S;
  // Before the retain: a primary context's flags are chosen before it exists.
  applySyncMode(D, Device_, id(), syncModeFromEnvironment());
  if (Status S = check(D.cuDevicePrimaryCtxRetain(&Context_, Device_), "cuDevicePrimaryCtxRetain");
      !S) {
    Context_ = nullptr;
    return S;
  }
  if (Status S = activate(); !S) return S;

  char Name[256] = {};
  if (D.cuDeviceGetName(Name, sizeof(Name) - 1, Device_) == CUDA_SUCCESS) Name_ = Name;
  auto Attr = [&](CUdevice_attribute A, int Default) {
    int V = 0;
    return D.cuDeviceGetAttribute(&V, A, Device_) == CUDA_SUCCESS && V > 0 ? V : Default;
  };
  SmMajor_ = static_cast<uint32_t>(Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
  SmMinor_ = static_cast<uint32_t>(Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
  Limits_.MaxThreadsPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024);
  Limits_.WarpSize = Attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32);
  Limits_.NumSMs = Attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 1);
  Limits_.MaxGridX = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, INT32_MAX);
  ClockKHz_ = Attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 0);
  MemoryClockKHz_ = Attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 0);
  ThreadsPerSM_ = Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 0);
  SharedOptInLimit_ = Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0);
  PoolsSupported_ = Attr(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0) != 0;
  LaunchEnv_ = LaunchEnv::fromEnvironment();
  DynamicSharedBytes_ =
      static_cast<int32_t>(env::getInt("LIBOMPTARGET_SHARED_MEMORY_SIZE", 0, 0, INT32_MAX));
  DebugKind_ = static_cast<int32_t>(env::getInt("LIBOMPTARGET_DEVICE_RTL_DEBUG", 0, 0, INT32_MAX));
  applyLimitFromEnv("LIBOMPTARGET_STACK_SIZE", CU_LIMIT_STACK_SIZE);
  applyLimitFromEnv("LIBOMPTARGET_HEAP_SIZE", CU_LIMIT_MALLOC_HEAP_SIZE);
  Staging_.configure(id());
  SmallCopyBytes_ =
      static_cast<size_t>(env::getInt("OMPTARGET_CUDA_SMALL_COPY_BUFFER", 65536, 0, 1 << 30));
  Allocations_.pool().init(Device_, static_cast<CudaPool::Use>(
                                        env::getInt("OMPTARGET_CUDA_MEMORY_POOL", 1, 0, 2)));
  OMPT_TRACE(traceComponent(),
             "device %d: %s, compute capability %u.%u, %d SMs, %d threads per block at most", id(),
             Name_.c_str(), SmMajor_, SmMinor_, Limits_.NumSMs, Limits_.MaxThreadsPerBlock);
  return {};
}

// LLVM 15's variables (LLVM 14's plugin has none): the stack of each GPU
// thread (CUDA's default is 1 KiB, which -O0 kernels with nested calls can
// outgrow: "unspecified launch failure") and the heap device-side malloc and
// the device runtime allocate from. Unset: the driver's defaults. A value
// the driver refuses leaves its default, with a warning that says so.
void CudaDevice::applyLimitFromEnv(const char *Var, CUlimit Limit) {
  int64_t Bytes = env::getInt(Var, 0, 0, INT64_MAX);
  if (Bytes <= 0) return;
  const Driver &D = driver();
  if (Status S = check(D.cuCtxSetLimit(Limit, static_cast<size_t>(Bytes)), "cuCtxSetLimit"); !S) {
    size_t Kept = 0;
    (void)D.cuCtxGetLimit(&Kept, Limit);
    debug::warning("%s=%lld: CUDA device %d refused it (%s); keeping %zu bytes", Var,
                   static_cast<long long>(Bytes), id(), S.error().message().c_str(), Kept);
    return;
  }
  OMPT_TRACE(traceComponent(), "device %d: %s set to %lld bytes", id(), Var,
             static_cast<long long>(Bytes));
}

Status CudaDevice::deinitImpl() {
  if (!Context_) return {};
  (void)activate();
  if (Status S = Staging_.tearDown(); !S)
    OMPT_TRACE(traceComponent(), "device %d: staging teardown: %s", id(),
               S.error().message().c_str());
  if (Status S = Timing_.tearDown(); !S)
    OMPT_TRACE(traceComponent(), "device %d: timing events teardown: %s", id(),
               S.error().message().c_str());
  size_t Leaked = Allocations_.freeAll();
  if (Leaked)
    OMPT_TRACE(traceComponent(), "device %d: freed %zu block(s) still live at deinit", id(),
               Leaked);
  // Before the context goes: the pool's memory goes back to the driver.
  if (Status P = Allocations_.pool().destroy(); !P)
    OMPT_TRACE(traceComponent(), "device %d: memory pool teardown: %s", id(),
               P.error().message().c_str());
  Status S = check(driver().cuDevicePrimaryCtxRelease(Device_), "cuDevicePrimaryCtxRelease");
  Context_ = nullptr;
  return S;
}

// ---- Images --------------------------------------------------------------

Expected<std::unique_ptr<plugin::DeviceImage>> CudaDevice::loadImageImpl(
    const __tgt_device_image &Image) {
  if (Status S = activate(); !S) return S.takeError();
  CudaImage::Settings S{id(),
                        NumDevices_,
                        Limits_.MaxThreadsPerBlock,
                        SmMajor_,
                        SmMinor_,
                        DeviceEnvironment{DebugKind_, NumDevices_, id(), DynamicSharedBytes_},
                        static_cast<uint64_t>(ClockKHz_) * 1000,
                        static_cast<uint64_t>(Limits_.NumSMs) *
                            static_cast<uint64_t>(ThreadsPerSM_)};
  Expected<std::unique_ptr<CudaImage>> Loaded = CudaImage::load(Image, Context_, S);
  if (!Loaded) return Loaded.takeError();
  return std::unique_ptr<plugin::DeviceImage>(std::move(*Loaded));
}

Status CudaDevice::unloadImageImpl(plugin::DeviceImage &Image) {
  return static_cast<CudaImage &>(Image).runDestructors();
}

Expected<void *> CudaDevice::getKernelImpl(plugin::DeviceImage &Image, const char *Name, size_t) {
  Expected<CudaKernel *> K = static_cast<CudaImage &>(Image).kernel(Name);
  if (!K) return K.takeError();
  return static_cast<void *>(*K);
}

Expected<void *> CudaDevice::getGlobalImpl(plugin::DeviceImage &Image, const char *Name,
                                           size_t Size, size_t) {
  return static_cast<CudaImage &>(Image).global(Name, Size);
}

// ---- Memory --------------------------------------------------------------

Expected<void *> CudaDevice::allocImpl(size_t Size, void *, abi::TargetAllocKind Kind) {
  if (Status S = activate(); !S) return S.takeError();
  return Allocations_.allocate(Size, Kind);
}

Status CudaDevice::freeImpl(void *TgtPtr) {
  if (Status S = activate(); !S) return S;
  return Allocations_.freeBlock(TgtPtr);
}

// Only with the pool (hasAsyncAllocation), only the default kind. A failure
// is the allocation's own (out of memory, mostly): a kernel that faulted
// before it on the stream is named at the stream's synchronize.
Expected<void *> CudaDevice::allocAsyncImpl(size_t Size, void *, abi::TargetAllocKind,
                                            void *Queue) {
  if (Status S = activate(); !S) return S.takeError();
  return Allocations_.allocateOnStream(Size, stream(Queue));
}

Status CudaDevice::freeAsyncImpl(void *TgtPtr, void *Queue) {
  if (Status S = activate(); !S) return S;
  return blameLastKernel(Allocations_.freeBlockOnStream(TgtPtr, stream(Queue)), Queue);
}

bool CudaDevice::trimAllocationPoolImpl() {
  if (!activate()) return false;
  return Allocations_.pool().trim();
}

std::optional<uint64_t> CudaDevice::freeMemoryBytesImpl() {
  size_t Free = 0, Total = 0;
  if (!activate() || driver().cuMemGetInfo(&Free, &Total) != CUDA_SUCCESS) return std::nullopt;
  return Free;
}

// ---- Queues --------------------------------------------------------------

Expected<void *> CudaDevice::createQueueImpl() {
  if (Status S = activate(); !S) return S.takeError();
  CUstream Stream = nullptr;
  if (Status S = check(driver().cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      !S)
    return S.takeError();
  (void)streamState(Stream);
  return static_cast<void *>(Stream);
}

CudaDevice::StreamState &CudaDevice::streamState(void *Queue) {
  ScopedLock Lock(StreamsMutex_);
  std::unique_ptr<StreamState> &State = Streams_[stream(Queue)];
  if (!State) State = std::make_unique<StreamState>(SmallCopyBytes_);
  return *State;
}

Status CudaDevice::destroyQueueImpl(void *Queue) {
  if (Status S = activate(); !S) return S;
  std::unique_ptr<StreamState> State;
  {
    ScopedLock Lock(StreamsMutex_);
    auto It = Streams_.find(stream(Queue));
    if (It != Streams_.end()) {
      State = std::move(It->second);
      Streams_.erase(It);
    }
  }
  if (State) releaseLaunchEnvs(*State);
  State.reset();  // frees the pinned buffer while the context is current
  return check(driver().cuStreamDestroy(stream(Queue)), "cuStreamDestroy");
}

Status CudaDevice::synchronizeImpl(void *Queue) {
  if (Status S = activate(); !S) return S;
  CUresult R = driver().cuStreamSynchronize(stream(Queue));
  StreamState &State = streamState(Queue);
  const char *Kernel = State.LastKernel.exchange(nullptr, std::memory_order_relaxed);
  if (!State.LaunchEnvs.empty()) [[unlikely]]
    releaseLaunchEnvs(State);
  if (R == CUDA_SUCCESS) {
    State.SmallCopies.complete();
    return {};
  }
  State.SmallCopies.discard();
  if (Kernel)
    return makeError("kernel %s failed (found at stream synchronization): %s", Kernel,
                     errorText(R).c_str());
  return makeError("cuStreamSynchronize: %s", errorText(R).c_str());
}

// cuStreamQuery: CUDA_SUCCESS once the stream's work is done,
// CUDA_ERROR_NOT_READY while it runs; any other result is the stream's
// failure, which the synchronize that follows reports.
Expected<bool> CudaDevice::queueIdleImpl(void *Queue) {
  if (Status S = activate(); !S) return S.takeError();
  return driver().cuStreamQuery(stream(Queue)) != CUDA_ERROR_NOT_READY;
}

void CudaDevice::releaseLaunchEnvs(StreamState &State) {
  if (State.LaunchEnvs.empty()) return;
  for (StreamState::PendingLaunchEnv &E : State.LaunchEnvs)
    if (Status S = Allocations_.freeBlock(E.Device); !S)
      OMPT_TRACE(traceComponent(), "device %d: launch environment %p: %s", id(), E.Device,
                 S.error().message().c_str());
  OMPT_TRACE(traceComponent(),
             "device %d: released %zu launch environment(s) after the stream's "
             "work",
             id(), State.LaunchEnvs.size());
  State.LaunchEnvs.clear();
}

// ---- Transfers -----------------------------------------------------------

Status CudaDevice::submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) {
  if (Status S = activate(); !S) return S;
  if (pinnedMap().mayContain()) [[unlikely]]
    return submitAroundLocked(TgtPtr, HstPtr, Size, Queue);
  return submitPageable(TgtPtr, HstPtr, Size, Queue);
}

Status CudaDevice::submitPageable(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) {
  if (Staging_.wanted(HstPtr, Size))
    return Staging_.hostToDevice(devPtr(TgtPtr), HstPtr, Size, stream(Queue));
  plugin::SmallCopyBuffer &Small = streamState(Queue).SmallCopies;
  if (void *Slot = Small.slotFor(Size)) {
    // Read now, as the driver reads a pageable source; DMA from pinned memory.
    std::memcpy(Slot, HstPtr, Size);
    if (Status S =
            checkOnStream(driver().cuMemcpyHtoDAsync(devPtr(TgtPtr), Slot, Size, stream(Queue)),
                          "cuMemcpyHtoDAsync", Queue);
        !S)
      return S;
    Small.hold(Slot, Size);
    return {};
  }
  return checkOnStream(driver().cuMemcpyHtoDAsync(devPtr(TgtPtr), HstPtr, Size, stream(Queue)),
                       "cuMemcpyHtoDAsync", Queue);
}

Status CudaDevice::retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) {
  if (Status S = activate(); !S) return S;
  if (pinnedMap().mayContain()) [[unlikely]]
    return retrieveAroundLocked(HstPtr, TgtPtr, Size, Queue);
  return retrievePageable(HstPtr, TgtPtr, Size, Queue);
}

// ---- The profile's clock ----

Expected<void *> CudaDevice::markImpl(void *Queue, uint64_t *) {
  if (Status S = activate(); !S) return S.takeError();
  return Timing_.mark(stream(Queue));
}

Status CudaDevice::resolveMarksImpl(void *Begin, void *End, uint64_t *BeginNs, uint64_t *EndNs) {
  if (Status S = activate(); !S) {
    Timing_.release(Begin);
    Timing_.release(End);
    return S;
  }
  return Timing_.resolve(Begin, End, BeginNs, EndNs);
}

// The routes of submitImpl / retrieveImpl: locked memory straight, then
// the staging pipeline and the small-copy buffer (whose slot may be taken:
// such a copy is direct, and still shown as staged).
int32_t CudaDevice::copyRouteImpl(const void *HstPtr, size_t Size, bool ToDevice) const {
  if (pinnedMap().contains(HstPtr, Size)) return __tgt_route_pinned;
  if (Staging_.wanted(HstPtr, Size)) return __tgt_route_staged;
  bool SmallCopy = plugin::SmallCopyBuffer::takesSize(Size, SmallCopyBytes_) &&
                   (ToDevice || deferredRetrievesAccepted());
  return SmallCopy ? __tgt_route_staged : __tgt_route_pageable;
}

Status CudaDevice::retrievePageable(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) {
  if (Staging_.wanted(HstPtr, Size)) {
    // Synchronous: a failure of the kernel before it on the stream shows
    // here rather than at synchronize, so name the kernel as synchronize would.
    return blameLastKernel(Staging_.deviceToHost(HstPtr, devPtr(TgtPtr), Size, stream(Queue)),
                           Queue);
  }
  if (deferredRetrievesAccepted()) {
    plugin::SmallCopyBuffer &Small = streamState(Queue).SmallCopies;
    if (void *Slot = Small.slotFor(Size)) {
      if (Status S =
              checkOnStream(driver().cuMemcpyDtoHAsync(Slot, devPtr(TgtPtr), Size, stream(Queue)),
                            "cuMemcpyDtoHAsync", Queue);
          !S)
        return S;
      Small.landAtComplete(Slot, HstPtr, Size);
      return {};
    }
  }
  return checkOnStream(driver().cuMemcpyDtoHAsync(HstPtr, devPtr(TgtPtr), Size, stream(Queue)),
                       "cuMemcpyDtoHAsync", Queue);
}

bool CudaDevice::isDataExchangeableImpl(const GenericDevice &Dst) const {
  auto *Other = dynamic_cast<const CudaDevice *>(&Dst);
  if (!Other) return false;
  if (Other == this) return true;
  return Peers_.canAccess(id(), Device_, Other->id(), Other->Device_);
}

Status CudaDevice::exchangeImpl(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                                void *Queue) {
  auto *Other = dynamic_cast<CudaDevice *>(&Dst);
  if (!Other) return GenericDevice::exchangeImpl(SrcPtr, Dst, DstPtr, Size, Queue);
  if (Status S = activate(); !S) return S;
  const Driver &D = driver();
  if (Other == this)
    return checkOnStream(D.cuMemcpyDtoDAsync(devPtr(DstPtr), devPtr(SrcPtr), Size, stream(Queue)),
                         "cuMemcpyDtoDAsync", Queue);
  // Direct (NVLink/PCIe) when the pair allows it; otherwise the driver stages
  // the peer copy through host memory itself.
  // Pool memory does not follow peer access: Other's pool admits this
  // device (once) too.
  if (Peers_.canAccess(id(), Device_, Other->id(), Other->Device_) &&
      Peers_.enable(id(), Context_, Other->id(), Other->Context_)) {
    if (Status S = Other->activate(); S) Other->Allocations_.pool().grantAccess(id(), Device_);
  }
  if (Status S = activate(); !S) return S;  // enable() may have switched contexts
  return checkOnStream(D.cuMemcpyPeerAsync(devPtr(DstPtr), Other->Context_, devPtr(SrcPtr),
                                           Context_, Size, stream(Queue)),
                       "cuMemcpyPeerAsync", Queue);
}

// ---- Kernels -------------------------------------------------------------

int32_t CudaDevice::occupancy(CudaKernel &K, int32_t Threads) const {
  uint64_t Cached = K.Occupancy.load(std::memory_order_relaxed);
  if (Cached && static_cast<int32_t>(Cached >> 32) == Threads)
    return static_cast<int32_t>(Cached & 0xffffffff);
  int Blocks = 0;
  if (driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, K.Function, Threads,
                                                           static_cast<size_t>(
                                                               DynamicSharedBytes_)) !=
      CUDA_SUCCESS)
    Blocks = 0;
  K.Occupancy.store((static_cast<uint64_t>(Threads) << 32) | static_cast<uint32_t>(Blocks),
                    std::memory_order_relaxed);
  return Blocks;
}

Status CudaDevice::launchImpl(const plugin::KernelLaunch &L, void *Queue) {
  if (Status S = activate(); !S) return S;
  auto &K = *static_cast<CudaKernel *>(L.Entry);
  DeviceLimits Limits = Limits_;
  Limits.MaxThreadsPerBlock = K.MaxThreadsPerBlock;
  LaunchRequest Req{K.Mode, L.NumTeams, L.ThreadLimit, L.LoopTripCount, L.IsTeamRegion};
  Req.KernelMinThreads = K.EnvMinThreads;
  Req.KernelMaxThreads = K.EnvMaxThreads;
  for (int I = 0; I < 2; ++I) {
    Req.TeamsYZ[I] = L.TeamsYZ[I];
    Req.ThreadsYZ[I] = L.ThreadsYZ[I];
  }
  LaunchConfig C =
      computeLaunch(Req, LaunchEnv_, Limits, [&](int32_t T) { return occupancy(K, T); });
  L.RanTeams = static_cast<int32_t>(C.Blocks);
  L.RanThreads = static_cast<int32_t>(C.Threads);
  // The launch's dynamic group memory and LIBOMPTARGET_SHARED_MEMORY_SIZE
  // are the same region to the device runtime: the larger one.
  const uint32_t Shared = std::max(L.DynCGroupMem, static_cast<uint32_t>(DynamicSharedBytes_));
  if (Shared > static_cast<uint32_t>(K.SharedOptIn.load(std::memory_order_relaxed))) [[unlikely]]
    if (Status S = reserveSharedMemory(K, Shared); !S) return S;
  if (plugin().infoEnabled(abi::kInfoPluginKernel))
    std::fprintf(
        stderr,
        "CUDA device %d info: Launching kernel %s with %u blocks and %u threads in %s mode\n", id(),
        L.Name, C.Blocks, C.Threads, execModeName(K.Mode));
  OMPT_TRACE(
      traceComponent(),
      "device %d: %s: %u blocks x %u threads (%s, teams %d, thread limit %d, trip count %" PRIu64
      ")",
      id(), L.Name, C.Blocks, C.Threads, execModeName(K.Mode), L.NumTeams, L.ThreadLimit,
      L.LoopTripCount);

  // Each kernel parameter is a pointer-sized value: (char *)Args[i] + Offsets[i].
  constexpr int32_t kInline = 32;
  void *InlinePtrs[kInline];
  void *InlineParams[kInline];
  std::vector<void *> HeapPtrs, HeapParams;
  void **Ptrs = InlinePtrs, **Params = InlineParams;
  if (L.NumArgs > kInline) {
    HeapPtrs.resize(static_cast<size_t>(L.NumArgs));
    HeapParams.resize(static_cast<size_t>(L.NumArgs));
    Ptrs = HeapPtrs.data();
    Params = HeapParams.data();
  }
  for (int32_t I = 0; I < L.NumArgs; ++I) {
    Ptrs[I] = static_cast<char *>(L.Args[I]) + L.Offsets[I];
    Params[I] = &Ptrs[I];
  }
  CUresult R = driver().cuLaunchKernel(K.Function, C.Blocks, C.BlocksYZ[0], C.BlocksYZ[1],
                                       C.Threads, C.ThreadsYZ[0], C.ThreadsYZ[1], Shared,
                                       stream(Queue), L.NumArgs > 0 ? Params : nullptr, nullptr);
  if (R != CUDA_SUCCESS) return launchError(K, C, Shared, R);
  streamState(Queue).LastKernel.store(L.Name, std::memory_order_relaxed);
  return {};
}

// A failed launch's message: the configuration and the driver's error, and,
// when the kernel needs more local memory (its stack: private and
// first-private variables of every thread) than a CUDA thread may have, that
// reason and what to do. The driver says only CUDA_ERROR_INVALID_VALUE then
// (seen on an H200 with a 576 KiB first-private struct in a target region);
// the attribute is read here, off the launch path.
Status CudaDevice::launchError(const CudaKernel &K, const LaunchConfig &C, uint32_t SharedBytes,
                               CUresult R) const {
  std::string Reason;
  int LocalBytes = 0;
  if (driver().cuFuncGetAttribute(&LocalBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, K.Function) ==
          CUDA_SUCCESS &&
      LocalBytes > kMaxLocalBytesPerThread)
    Reason = formatString(
        "; the kernel needs %d bytes of local memory (stack) per thread, more than the %d a CUDA "
        "thread may have: large private or first-private variables are copied onto every "
        "thread's stack; map them (map(to: ...)) instead",
        LocalBytes, kMaxLocalBytesPerThread);
  return makeError(
      "cuLaunchKernel (%u blocks, %u threads, %u bytes of dynamic shared memory): %s%s", C.Blocks,
      C.Threads, SharedBytes, errorText(R).c_str(), Reason.c_str());
}

Status CudaDevice::reserveSharedMemory(CudaKernel &K, uint32_t SharedBytes) {
  constexpr uint32_t kDefaultDynamicSharedLimit = 48 * 1024;
  const uint64_t Total = uint64_t{SharedBytes} + static_cast<uint64_t>(K.StaticSharedBytes);
  if (SharedOptInLimit_ > 0 && Total > static_cast<uint64_t>(SharedOptInLimit_))
    return makeError(
        "kernel %s: %u bytes of dynamic shared memory (ompx_dyn_cgroup_mem or "
        "LIBOMPTARGET_SHARED_MEMORY_SIZE) and its own %d bytes exceed the %d bytes a block of "
        "CUDA device %d may have",
        K.Name, SharedBytes, K.StaticSharedBytes, SharedOptInLimit_, id());
  if (SharedBytes > kDefaultDynamicSharedLimit) {
    CUresult R =
        driver().cuFuncSetAttribute(K.Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    static_cast<int>(SharedBytes));
    if (R != CUDA_SUCCESS)
      return makeError(
          "kernel %s: cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, %u) (its own shared "
          "memory: %d bytes): %s",
          K.Name, SharedBytes, K.StaticSharedBytes, errorText(R).c_str());
  }
  K.SharedOptIn.store(static_cast<int32_t>(SharedBytes), std::memory_order_relaxed);
  return {};
}

Expected<void *> CudaDevice::launchEnvironmentImpl(const plugin::KernelLaunch &L, void *Queue) {
  auto &K = *static_cast<CudaKernel *>(L.Entry);
  if (K.ReductionBufferBytes == 0) return reinterpret_cast<void *>(~uintptr_t{0});
  if (Status S = activate(); !S) return S.takeError();
  // The environment, then the buffer at an offset that keeps it aligned.
  constexpr size_t kBufferOffset = 256;
  const size_t Bytes = kBufferOffset + K.ReductionBufferBytes;
  Expected<void *> Block = Allocations_.pool().enabled()
                               ? Allocations_.allocateOnStream(Bytes, stream(Queue))
                               : Allocations_.allocate(Bytes, abi::kAllocDevice);
  if (!Block)
    return makeError("kernel %s: the launch environment and its %" PRIu64
                     "-byte reduction buffer: %s",
                     L.Name, K.ReductionBufferBytes, Block.error().message().c_str());
  StreamState &State = streamState(Queue);
  auto Host = std::make_unique<StreamState::LaunchEnvironment>();
  Host->ReductionBuffer = static_cast<char *>(*Block) + kBufferOffset;
  StreamState::LaunchEnvironment *HostCopy = Host.get();
  State.LaunchEnvs.push_back({std::move(Host), *Block});
  if (Status S = checkOnStream(driver().cuMemcpyHtoDAsync(devPtr(*Block), HostCopy,
                                                          sizeof(*HostCopy), stream(Queue)),
                               "copying the launch environment", Queue);
      !S)
    return S.takeError();
  OMPT_TRACE(traceComponent(),
             "device %d: %s: launch environment %p, reduction buffer %" PRIu64 " bytes", id(),
             L.Name, *Block, K.ReductionBufferBytes);
  return *Block;
}

// ---- Events --------------------------------------------------------------

Expected<void *> CudaDevice::createEventImpl() {
  if (Status S = activate(); !S) return S.takeError();
  CUevent E = nullptr;
  if (Status S = check(driver().cuEventCreate(&E, CU_EVENT_DISABLE_TIMING), "cuEventCreate"); !S)
    return S.takeError();
  return static_cast<void *>(E);
}

Status CudaDevice::destroyEventImpl(void *Event) {
  if (Status S = activate(); !S) return S;
  return check(driver().cuEventDestroy(event(Event)), "cuEventDestroy");
}

Status CudaDevice::recordEventImpl(void *Event, void *Queue) {
  if (Status S = activate(); !S) return S;
  return checkOnStream(driver().cuEventRecord(event(Event), stream(Queue)), "cuEventRecord", Queue);
}

Status CudaDevice::waitEventImpl(void *Event, void *Queue) {
  if (Status S = activate(); !S) return S;
  return checkOnStream(driver().cuStreamWaitEvent(stream(Queue), event(Event), 0),
                       "cuStreamWaitEvent", Queue);
}

Status CudaDevice::syncEventImpl(void *Event) {
  if (Status S = activate(); !S) return S;
  return check(driver().cuEventSynchronize(event(Event)), "cuEventSynchronize");
}

// ---- Interop and info ----------------------------------------------------

Status CudaDevice::initDeviceInfoImpl(__tgt_device_info &Info) {
  Info.Context = Context_;
  Info.Device = reinterpret_cast<void *>(static_cast<intptr_t>(Device_));
  return {};
}

// OpenMP interop objects of a CUDA device: foreign runtime "cuda" (the CUDA
// runtime's handles are the driver's: a cudaStream_t is a CUstream, the
// runtime's device number is the CUdevice ordinal, and the runtime uses the
// primary context), vendor nvidia (11 in the OpenMP Additional Definitions).
void CudaDevice::interopInfoImpl(__tgt_interop_info &Info) const {
  Info.FrId = 1;  // omp_ifr_cuda
  Info.FrName = "cuda";
  Info.Vendor = 11;
  Info.VendorName = "nvidia";
  Info.DeviceType = "CUdevice (int): the CUDA device ordinal";
  Info.DeviceIsInt = 1;
  Info.ContextType = "CUcontext: the device's primary context";
  Info.TargetSyncType =
      "CUstream (cudaStream_t): a stream of the device, owned by the interop object";
}

void CudaDevice::describeImpl(plugin::PropertySink &Sink) {
  const Driver &D = driver();
  size_t Free = 0, Total = 0;
  bool HaveInfo = activate() && D.cuMemGetInfo(&Free, &Total) == CUDA_SUCCESS;
  if (!HaveInfo) (void)D.cuDeviceTotalMem(&Total, Device_);
  Sink.add("name", Name_);
  Sink.add("device_type", "CUDA GPU");
  Sink.add("compute_capability", std::to_string(SmMajor_) + "." + std::to_string(SmMinor_));
  Sink.add("multiprocessors", Limits_.NumSMs);
  Sink.add("clock_khz", ClockKHz_);
  Sink.add("memory_clock_khz", MemoryClockKHz_);
  Sink.add("memory_total_bytes", Total);
  if (HaveInfo)
    Sink.add("memory_free_bytes", Free);
  else
    Sink.add("memory_free_bytes", "unknown");
  Sink.add("max_threads_per_block", Limits_.MaxThreadsPerBlock);
  Sink.add("max_teams", Limits_.MaxGridX);
  Sink.add("warp_size", Limits_.WarpSize);
  Sink.add("driver_version", D.Version);
  Sink.add("dynamic_shared_memory_bytes", DynamicSharedBytes_);
  Sink.add("live_allocations", Allocations_.liveBlocks());
  // The device's answer; the pool is on when the driver has the allocator
  // too and OMPTARGET_CUDA_MEMORY_POOL is not 0 (cuda_pool.h).
  Sink.addYesNo("memory_pools_supported", PoolsSupported_);
  Sink.addOnOff("memory_pool", Allocations_.pool().enabled());
  Sink.add("memory_pool_held_bytes", Allocations_.pool().reservedBytes());
}

}  // namespace omptarget::cuda
