// The live allocations of one CUDA device, by kind.
//
//   DEVICE, DEFAULT  cuMemAlloc        (device memory)
//   HOST             cuMemAllocHost    (pinned host memory the device can reach)
//   SHARED           cuMemAllocManaged (managed memory, CU_MEM_ATTACH_GLOBAL)
// The kind of every live pointer is recorded, so that free() calls the
// matching driver function and an unknown pointer (or a second free) is a
// clear error instead of a driver fault. Out of memory is an error naming the
// size, the device and the device's free/total memory.
//
// The caller makes the device's context current before every call.
// Thread safety: Mutex_ (a FutexMutex: held for one hash or map operation)
// guards Live_ and HostReachable_; the driver is called without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "error.h"
#include "futex_mutex.h"
#include "omptarget/abi.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class CudaAllocations {
 public:
  explicit CudaAllocations(int32_t DeviceId) : DeviceId_(DeviceId) {}
  CudaAllocations(const CudaAllocations &) = delete;
  CudaAllocations &operator=(const CudaAllocations &) = delete;

  // Size 0 yields a distinct 1-byte block (never null on success).
  Expected<void *> allocate(size_t Size, abi::TargetAllocKind Kind);
  Status freeBlock(void *Ptr);
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
  };
  static Status freeBlock(void *Ptr, abi::TargetAllocKind Kind);

  const int32_t DeviceId_;
  mutable FutexMutex Mutex_;
  std::unordered_map<void *, Block> Live_ GUARDED_BY(Mutex_);
  // The host and managed blocks of Live_ by address: begin -> size.
  std::map<uintptr_t, size_t> HostReachable_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::cuda
