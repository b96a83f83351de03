// One CUDA device: its primary context, streams (queues), events, memory,
// loaded modules and kernel launches.
//
//   * Context: the device's primary context, retained at init and released
//     at deinit; before the retain, OMPTARGET_CUDA_SYNC_MODE may set its
//     scheduling flags (cuda_sync_mode.h). Every hook first makes it current on the calling thread
//     (cuCtxSetCurrent: a thread-local store in the driver; done on every
//     call rather than cached, because the application may switch the
//     current context itself through the CUDA runtime in between).
//   * Queues are CUstreams (CU_STREAM_NON_BLOCKING) from the generic queue
//     pool, so __tgt_async_info::Queue is a real CUstream for interop. Every
//     copy and launch is asynchronous on the construct's stream; synchronize
//     is one cuStreamSynchronize. The last kernel launched on each stream is
//     remembered so that a failure found at synchronization names it.
//   * Events are CUevents (CU_EVENT_DISABLE_TIMING) from the event pool.
//     A profiled device (profile_device) also records timing events around
//     each copy and launch on its stream (cuda_timing.h), read at the
//     stream's synchronize.
//   * Device memory: with the device's memory pool (cuda_pool.h: the driver
//     and the device support it, OMPTARGET_CUDA_MEMORY_POOL not 0) an
//     allocation or release on a construct's stream is stream-ordered
//     (cuMemAllocFromPoolAsync / cuMemFreeAsync on that stream:
//     hasAsyncAllocation), and synchronous ones use the pool through the
//     plugin's own stream; without it cuMemAlloc / cuMemFree (cuda_memory.h).
//     Out of memory trims the pool before the generic layer's retry.
//   * Copies from and to locked host memory (llvm_omp_target_lock_mem,
//     llvm_omp_target_alloc_host; the device's PinnedMap) are one
//     cuMemcpy*Async each on the construct's stream: no staging, no
//     small-copy buffer, no host wait. Everything below is the pageable route.
//   * Small copies (at most a quarter of OMPTARGET_CUDA_SMALL_COPY_BUFFER)
//     go through the stream's pinned buffer (small_copy_buffer.h):
//     host-to-device ones always, device-to-host ones (landing at
//     synchronize) when the core accepted deferred retrieves.
//   * Host<->device copies of at least OMPTARGET_CUDA_STAGING_THRESHOLD bytes
//     whose host side is pageable go through the device's pinned staging
//     pipeline (cuda_staging.h): H2D returns with the last DMAs in flight,
//     D2H is synchronous; concurrent staged copies to one device serialize.
//   * Device-to-device: same device cuMemcpyDtoDAsync; another device of this
//     plugin cuMemcpyPeerAsync, with peer access enabled once per ordered
//     pair (PeerAccessTable, owned by the plugin).
//
// Thread safety: hooks may run concurrently on different streams. The
// attributes are written by initImpl only; StreamsMutex_ (a FutexMutex)
// guards the Streams_ map, while a StreamState is used only by the construct that holds its
// stream (acquisition to synchronize); CudaAllocations, PeerAccessTable, HostRegistrations and
// StagingPipeline lock themselves.
#pragma once

#include <cuda.h>

#include <atomic>
#include <memory>
#include <unordered_map>
#include <vector>

#include "cuda_memory.h"
#include "cuda_module.h"
#include "cuda_staging.h"
#include "cuda_timing.h"
#include "futex_mutex.h"
#include "generic_device.h"
#include "host_registrations.h"
#include "launch_sizing.h"
#include "peer_access.h"
#include "small_copy_buffer.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class CudaDevice final : public plugin::GenericDevice {
 public:
  CudaDevice(plugin::GenericPlugin &Plugin, int32_t DeviceId, int32_t NumDevices,
             PeerAccessTable &Peers, HostRegistrations &Registrations)
      : GenericDevice(Plugin, DeviceId),
        NumDevices_(NumDevices),
        Peers_(Peers),
        Registrations_(Registrations),
        Allocations_(DeviceId) {}

  CUcontext context() const { return Context_; }
  // Pooled streams, destroyed at deinit; cuEventRecord works from any thread.
  bool queuesPersist() const override { return true; }
  CUdevice cuDevice() const { return Device_; }

 protected:
  Status initImpl() override;
  Status deinitImpl() override;
  void applyLimitFromEnv(const char *Var, CUlimit Limit);

  Expected<std::unique_ptr<plugin::DeviceImage>> loadImageImpl(
      const __tgt_device_image &Image) override;
  Status unloadImageImpl(plugin::DeviceImage &Image) override;
  Expected<void *> getKernelImpl(plugin::DeviceImage &Image, const char *Name,
                                 size_t Index) override;
  Expected<void *> getGlobalImpl(plugin::DeviceImage &Image, const char *Name, size_t Size,
                                 size_t Index) override;

  Expected<void *> allocImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind) override;
  Status freeImpl(void *TgtPtr) override;
  Expected<void *> allocAsyncImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind,
                                  void *Queue) override;
  Status freeAsyncImpl(void *TgtPtr, void *Queue) override;
  bool hasAsyncAllocation() const override { return Allocations_.pool().enabled(); }
  bool trimAllocationPoolImpl() override;
  std::optional<uint64_t> freeMemoryBytesImpl() override;

  Expected<void *> createQueueImpl() override;
  Status destroyQueueImpl(void *Queue) override;
  Status synchronizeImpl(void *Queue) override;
  Expected<bool> queueIdleImpl(void *Queue) override;

  Status submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) override;
  Status retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) override;
  bool isDataExchangeableImpl(const GenericDevice &Dst) const override;
  Status exchangeImpl(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                      void *Queue) override;

  Status launchImpl(const plugin::KernelLaunch &Launch, void *Queue) override;
  // clang 19 kernels' launch environment: (void *)~0 for a kernel without a
  // reduction buffer (it never reads it); else a device block with the
  // environment {0, 0, buffer} at its start and the buffer after it, copied
  // on Queue from a host copy that, like the block, the stream keeps until
  // its synchronize (StreamState::LaunchEnvs).
  Expected<void *> launchEnvironmentImpl(const plugin::KernelLaunch &Launch, void *Queue) override;

  // The profile's marks are timing events (cuda_timing.h); a copy's route
  // is the one submitImpl / retrieveImpl take for it.
  Expected<void *> markImpl(void *Queue, uint64_t *Slot) override;
  Status resolveMarksImpl(void *Begin, void *End, uint64_t *BeginNs, uint64_t *EndNs) override;
  int32_t copyRouteImpl(const void *HstPtr, size_t Size, bool ToDevice) const override;

  // Locked host memory (cuda_pinned.cpp): cuMemHostRegister with the
  // portable flag, or memory the program pinned itself, found through the
  // driver's pointer attributes and never unregistered here.
  Expected<plugin::PinnedRange> pinHostImpl(void *HstPtr, size_t Size) override;
  Status unpinHostImpl(const plugin::PinnedRange &R) override;

  Expected<void *> createEventImpl() override;
  Status destroyEventImpl(void *Event) override;
  Status recordEventImpl(void *Event, void *Queue) override;
  Status waitEventImpl(void *Event, void *Queue) override;
  Status syncEventImpl(void *Event) override;

  // Pinned host and managed memory of this device (llvm_omp_target_alloc_host
  // / _shared), and locked memory that the device reaches at its host
  // address (registered memory is mapped into the unified address space);
  // plain pageable memory is not (even where HMM/ATS would let the GPU reach
  // it: false is the answer that never misleads).
  bool isAccessibleImpl(const void *HstPtr, size_t Size) const override {
    return Allocations_.hostAccessible(HstPtr, Size) ||
           (pinnedMap().mayContain() && pinnedMap().deviceAddress(HstPtr, Size) == HstPtr);
  }

  Status initDeviceInfoImpl(__tgt_device_info &Info) override;
  void interopInfoImpl(__tgt_interop_info &Info) const override;
  // The GPU's attributes (read at init), its memory (cuMemGetInfo), the
  // driver, the plugin's settings and the memory pool.
  void describeImpl(plugin::PropertySink &Sink) override;

  // Streams and events are cheap to keep; LLVM 14 starts with 32 streams.
  size_t defaultInitialQueues() const override { return 32; }
  size_t defaultInitialEvents() const override { return 32; }

 private:
  // Makes this device's context current on the calling thread.
  Status activate() const;
  // S, a stream operation's outcome; a failure names the stream's last kernel.
  Status blameLastKernel(Status S, void *Queue);
  // blameLastKernel of a driver call's result.
  Status checkOnStream(CUresult R, const char *What, void *Queue);
  int32_t occupancy(CudaKernel &K, int32_t Threads) const;
  // A failed launch's error, with the reason when the driver's code alone
  // does not say it (a stack larger than a thread may have).
  Status launchError(const CudaKernel &K, const LaunchConfig &C, uint32_t SharedBytes,
                     CUresult R) const;
  // Opts K into SharedBytes of dynamic shared memory when beyond the
  // default 48 KiB; an error names the kernel and the sizes when the device
  // cannot give that much.
  Status reserveSharedMemory(CudaKernel &K, uint32_t SharedBytes);
  // The local memory (stack) a CUDA thread may have: 512 KiB on every
  // compute capability since 2.0 (CUDA C++ Programming Guide, "Technical
  // Specifications per Compute Capability").
  static constexpr int kMaxLocalBytesPerThread = 512 * 1024;

  // Copies whose host side may be locked (the pinned map is not empty):
  // the parts inside a locked range go straight to cuMemcpy*Async on the
  // stream, the others take the pageable route (cuda_pinned.cpp).
  Status submitAroundLocked(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue);
  Status retrieveAroundLocked(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue);
  // The pageable route: staging pipeline, small-copy buffer or the driver.
  Status submitPageable(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue);
  Status retrievePageable(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue);

  const int32_t NumDevices_;
  PeerAccessTable &Peers_;
  HostRegistrations &Registrations_;  // the plugin's, shared by its devices
  CudaAllocations Allocations_;
  StagingPipeline Staging_;
  CudaTiming Timing_;  // locks itself

  CUdevice Device_ = 0;
  CUcontext Context_ = nullptr;
  std::string Name_;
  uint32_t SmMajor_ = 0, SmMinor_ = 0;
  DeviceLimits Limits_;
  int32_t ClockKHz_ = 0, MemoryClockKHz_ = 0;  // 0: the device did not say
  int32_t ThreadsPerSM_ = 0;                   // 0: the device did not say
  int32_t SharedOptInLimit_ = 0;  // dynamic + static shared bytes a block may have; 0: unknown
  bool PoolsSupported_ = false;   // CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED
  LaunchEnv LaunchEnv_;
  int32_t DynamicSharedBytes_ = 0;
  int32_t DebugKind_ = 0;

  // What the plugin keeps per stream: the last kernel launched on it (named
  // in failures found later) and its small-copy buffer.
  struct StreamState {
    explicit StreamState(size_t SmallCopyBytes);
    // Written by the stream's construct; read on error paths, which may run
    // on another thread's late event record.
    std::atomic<const char *> LastKernel{nullptr};
    plugin::SmallCopyBuffer SmallCopies;
    // Launch environments of kernels queued since the last synchronize:
    // the device block and its host copy, released after the stream's work.
    struct LaunchEnvironment {
      uint32_t ReductionCnt = 0, ReductionIterCnt = 0;
      void *ReductionBuffer = nullptr;
    };
    struct PendingLaunchEnv {
      std::unique_ptr<LaunchEnvironment> Host;
      void *Device;
    };
    std::vector<PendingLaunchEnv> LaunchEnvs;
  };
  // Frees State's launch environments (the stream's work is over).
  void releaseLaunchEnvs(StreamState &State);
  StreamState &streamState(void *Queue);

  size_t SmallCopyBytes_ = 0;
  FutexMutex StreamsMutex_;
  std::unordered_map<CUstream, std::unique_ptr<StreamState>> Streams_ GUARDED_BY(StreamsMutex_);
};

}  // namespace omptarget::cuda
