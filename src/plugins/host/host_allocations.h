// The live allocations of one host device.
//
// Every block handed out by data_alloc is registered, so that freeing an
// unknown pointer (never allocated here, allocated by another device, or
// already freed) is a clear error instead of heap corruption. Small blocks
// the generic memory manager keeps for reuse stay registered here (they are
// still allocated); the manager itself rejects a second free of such a block
// before it could reach freeBlock().
//
// A release ordered in a queue (the asynchronous device's freeAsyncImpl)
// happens in two steps: forget() takes the block out of the registry when the
// release is issued, so a second release of it, on any queue or none, is
// reported at once, exactly as after a synchronous free; release() frees the
// memory later, when the queue's worker reaches it. In between the block is
// "releasing": no longer live (liveBlocks/liveBytes), still allocated.
// Mutex_ (a FutexMutex) guards Live_, LiveBytes_ and Releasing_.
#pragma once

#include <cstddef>
#include <unordered_map>

#include "error.h"
#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::host {

class HostAllocations {
 public:
  // Blocks are aligned to this many bytes.
  static constexpr size_t kAlignment = 64;

  HostAllocations() = default;
  ~HostAllocations() { freeAll(); }
  HostAllocations(const HostAllocations &) = delete;
  HostAllocations &operator=(const HostAllocations &) = delete;

  // Size 0 yields a distinct non-null block, like LLVM 14's host plugin
  // (malloc(0)), so that callers never mistake it for a failure.
  Expected<void *> allocate(size_t Size);
  Status freeBlock(void *Ptr);
  // freeBlock in two steps: forget(Ptr) fails, changing nothing, where
  // freeBlock would, and otherwise returns the block's size; after it
  // succeeds, release(Ptr) must follow once.
  Expected<size_t> forget(void *Ptr);
  void release(void *Ptr);
  // Frees every live block (device teardown); a releasing block is its
  // releaser's to free.
  void freeAll();

  size_t liveBlocks() const;
  size_t liveBytes() const;
  // Blocks forgotten and not yet released.
  size_t releasingBlocks() const;

 private:
  mutable FutexMutex Mutex_;
  std::unordered_map<void *, size_t> Live_ GUARDED_BY(Mutex_);
  size_t LiveBytes_ GUARDED_BY(Mutex_) = 0;
  size_t Releasing_ GUARDED_BY(Mutex_) = 0;
};

}  // namespace omptarget::host
