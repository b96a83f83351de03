// The live allocations of one CUDA device, by kind and route.
//
//   DEVICE, DEFAULT  the device's memory pool (cuda_pool.h) when it serves the
//                    request, else cuMemAlloc (device memory)
//   HOST             cuMemAllocHost    (pinned host memory the device can reach)
//   SHARED           cuMemAllocManaged (managed memory, CU_MEM_ATTACH_GLOBAL)
// A synchronous allocation (allocate) comes from the pool when
// pool().servesSynchronous(), a stream-ordered one (allocateOnStream) always
// does. The kind and the route of every live pointer are recorded, so that a
// free calls the matching driver function (a pool pointer may be released
// synchronously or on a stream, whichever way it was allocated) and an unknown
// pointer (or a second free) is a clear error instead of a driver fault. A
// failure names the driver call, the size, the kind and the device.
//
// The caller makes the device's context current before every call.
// Thread safety: Mutex_ (a FutexMutex: held for one hash or map operation)
// guards Live_ and HostReachable_; the driver is called without it. The pool
// is set up by init/deinit only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "cuda_pool.h"
#include "error.h"
#include "futex_mutex.h"
#include "omptarget/abi.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class CudaAllocations {
 public:
  explicit CudaAllocations(int32_t DeviceId) : DeviceId_(DeviceId), Pool_(DeviceId) {}
  CudaAllocations(const CudaAllocations &) = delete;
  CudaAllocations &operator=(const CudaAllocations &) = delete;

  CudaPool &pool() { return Pool_; }
  const CudaPool &pool() const { return Pool_; }

  // Synchronous: valid on every stream when it returns. Size 0 yields a
  // distinct 1-byte block (never null on success).
  Expected<void *> allocate(size_t Size, abi::TargetAllocKind Kind);
  // Stream-ordered, from the pool (pool().enabled()): valid for the work
  // queued on Stream after it; Size > 0.
  Expected<void *> allocateOnStream(size_t Size, CUstream Stream);
  // Synchronous: the memory is not reused while work that may use it runs.
  Status freeBlock(void *Ptr);
  // Stream-ordered: not reused before the work queued on Stream before it is
  // done (pool memory: cuMemFreeAsync; any other: Stream is synchronized, then
  // the synchronous free).
  Status freeBlockOnStream(void *Ptr, CUstream Stream);
  // Frees every live block (device teardown); returns how many.
  size_t freeAll();

  size_t liveBlocks() const;

  // Does [Ptr, Ptr + Size) lie in one live host or managed block (memory the
  // device reaches directly)? Size > 0.
  bool hostAccessible(const void *Ptr, size_t Size) const;

 private:
  struct Block {
    abi::TargetAllocKind Kind;
    size_t Size;
    bool Pooled;  // from Pool_ (released with cuMemFreeAsync)
  };
  // The live block Ptr, removed from the tables, or an error naming Ptr.
  Expected<Block> take(void *Ptr);
  // Frees B at Ptr now; *Freed says whether the driver took it back (false:
  // the block is still allocated, whatever the error).
  Status freeSynchronously(void *Ptr, const Block &B, bool *Freed);
  void record(void *Ptr, const Block &B);
  Error allocFailed(size_t Size, abi::TargetAllocKind Kind, Error Why) const;

  const int32_t DeviceId_;
  CudaPool Pool_;
  mutable FutexMutex Mutex_;
  std::unordered_map<void *, Block> Live_ GUARDED_BY(Mutex_);
  // The host and managed blocks of Live_ by address: begin -> size.
  std::map<uintptr_t, size_t> HostReachable_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::cuda
