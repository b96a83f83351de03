// One CUDA device's memory pool: the driver's stream-ordered allocator
// (cuMemAllocFromPoolAsync / cuMemFreeAsync), created by the plugin for the
// device's default-kind and device-kind memory.
//
// When: the driver has the allocator's entry points (Driver::hasMemoryPools),
// the device reports CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, and
// OMPTARGET_CUDA_MEMORY_POOL is not 0. Otherwise the pool stays off and every
// allocation is a cuMemAlloc (cuda_memory.h).
//
// Which pool: one of our own (cuMemPoolCreate, pinned device memory at the
// device's location), not the device's default pool (cuDeviceGetDefaultMemPool),
// which the application and its libraries share through cudaMallocAsync: the
// settings below, a trim on out of memory and the destruction at deinit then
// touch only memory of this plugin.
//
// Settings:
//   * CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = UINT64_MAX: freed memory stays in the
//     pool for reuse (the default, 0, gives it back to the driver at every
//     stream, event or context synchronize, which is every construct's end);
//     out of memory gives it back (trim).
//   * Reuse across streams (the driver's rules, cuda.h): memory freed on
//     stream A may back an allocation on stream B
//       - REUSE_FOLLOW_EVENT_DEPENDENCIES (default on, kept): when B already
//         waits for A's free through events (the core orders constructs that
//         share mapped data with events);
//       - REUSE_ALLOW_OPPORTUNISTIC (default on, kept): when A's free has
//         completed (every construct that synchronized);
//       - REUSE_ALLOW_INTERNAL_DEPENDENCIES (default on, turned OFF): by making
//         B wait for A's pending free. That couples constructs that have
//         nothing to do with each other (a nowait region on B waits for an
//         unrelated kernel on A); without it the pool grows instead, and out
//         of memory synchronizes and trims before the retry.
//     Each rule is safe only under the allocator's contract: every access to
//     the memory is ordered between its allocation and its free in stream
//     order (the device's GenericDevice hooks pass that contract on). None
//     protects an access that is not ordered before the free.
//
// Synchronous allocation and release (no queue: omp_target_alloc/free, the
// memory manager's blocks) use the plugin's own stream: the allocation is
// issued there and that stream synchronized, so the memory is valid on every
// stream when allocateNow returns (cuda.h: "stream synchronize ... can be used
// to guarantee that the allocation operation completes before work submitted
// in a separate stream runs"). releaseNow synchronizes the context first:
// cuMemFree waits for work that may use memory of cuMemAlloc, but performs no
// synchronization for pool memory ("callers must ensure that all accesses ...
// have completed"), so the release keeps cuMemFree's safety by waiting itself,
// then returns the memory to the pool with cuMemFreeAsync on the plugin's
// stream. OMPTARGET_CUDA_MEMORY_POOL=2 leaves synchronous allocations to
// cuMemAlloc (for measurements).
//
// Peer devices: pool memory does not follow cuCtxEnablePeerAccess; grantAccess
// gives another device read/write access (cuMemPoolSetAccess), once per
// device.
//
// Every call wants the device's context current on the calling
// thread. Thread safety: the handles are written by init/destroy only
// (before/after every other call); Mutex_ guards Granted_.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

#include "error.h"
#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class CudaPool {
 public:
  // OMPTARGET_CUDA_MEMORY_POOL: 0 off, 1 every allocation of device memory
  // (the default), 2 only the ones ordered on a queue.
  enum class Use : int { Off = 0, All = 1, QueuedOnly = 2 };

  explicit CudaPool(int32_t DeviceId) : DeviceId_(DeviceId) {}
  CudaPool(const CudaPool &) = delete;
  CudaPool &operator=(const CudaPool &) = delete;

  // Creates the pool and the plugin's stream when the driver, the device and
  // Wanted allow; otherwise the pool stays off, with a trace line that says
  // why. Never fails: without a pool the device allocates with cuMemAlloc.
  void init(CUdevice Device, Use Wanted);
  // Waits for the plugin's stream and destroys it and the pool. Every
  // allocation from it must be freed already (releaseAll).
  Status destroy();

  bool enabled() const { return Pool_ != nullptr; }
  // Do synchronous allocations come from the pool too?
  bool servesSynchronous() const { return Pool_ && Use_ == Use::All; }

  // Stream-ordered: valid for work queued on Stream after the call.
  Expected<CUdeviceptr> allocate(size_t Size, CUstream Stream);
  // Stream-ordered: reusable once the work queued on Stream before it is done.
  Status release(CUdeviceptr Ptr, CUstream Stream);
  // Synchronous: valid on every stream when it returns.
  Expected<CUdeviceptr> allocateNow(size_t Size);
  // Synchronous: waits for the context's work, then releases. *Released
  // says whether the memory went back (a failed wait still releases and is
  // the error; a failed release leaves the block allocated).
  Status releaseNow(CUdeviceptr Ptr, bool *Released);
  // Device teardown: one context synchronize, then every pointer released.
  void releaseAll(const std::vector<CUdeviceptr> &Ptrs);

  // Out of memory: waits for the context's work (pending frees complete) and
  // gives the pool's unused memory back to the driver (cuMemPoolTrimTo 0).
  // True when the pool then holds less memory than before.
  bool trim();
  // Bytes the pool holds from the driver (CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT).
  uint64_t reservedBytes() const;

  // Lets device Peer read and write this pool's memory (once per device).
  void grantAccess(int32_t PeerId, CUdevice Peer);

 private:
  const int32_t DeviceId_;
  Use Use_ = Use::Off;
  CUmemoryPool Pool_ = nullptr;
  CUstream Stream_ = nullptr;  // the plugin's own stream, for synchronous use
  FutexMutex Mutex_;
  std::vector<int32_t> Granted_ GUARDED_BY(Mutex_);  // peers given access
};

}  // namespace omptarget::cuda
