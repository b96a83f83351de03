#include "host_allocations.h"

#include <cstdlib>

#include "scoped_lock.h"

namespace omptarget::host {

Expected<void *> HostAllocations::allocate(size_t Size) {
  if (Size > SIZE_MAX - kAlignment) return makeError("size %zu is too large", Size);
  size_t Rounded = Size == 0 ? kAlignment : (Size + kAlignment - 1) / kAlignment * kAlignment;
  void *Ptr = std::aligned_alloc(kAlignment, Rounded);
  if (!Ptr) return makeError("out of host memory (%zu bytes)", Size);
  ScopedLock Lock(Mutex_);
  Live_.emplace(Ptr, Size);
  LiveBytes_ += Size;
  return Ptr;
}

Status HostAllocations::freeBlock(void *Ptr) {
  if (Expected<size_t> Size = forget(Ptr); !Size) return Size.takeError();
  release(Ptr);
  return {};
}

Expected<size_t> HostAllocations::forget(void *Ptr) {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(Ptr);
  if (It == Live_.end())
    return makeError(
        "not a live allocation of this device (never allocated here, or "
        "already freed)");
  size_t Size = It->second;
  LiveBytes_ -= Size;
  Live_.erase(It);
  ++Releasing_;
  return Size;
}

// Freed before the count drops: releasingBlocks() == 0 means the memory is gone.
void HostAllocations::release(void *Ptr) {
  std::free(Ptr);
  ScopedLock Lock(Mutex_);
  --Releasing_;
}

void HostAllocations::freeAll() {
  ScopedLock Lock(Mutex_);
  for (auto &[Ptr, Size] : Live_) std::free(Ptr);
  Live_.clear();
  LiveBytes_ = 0;
}

size_t HostAllocations::liveBlocks() const {
  ScopedLock Lock(Mutex_);
  return Live_.size();
}

size_t HostAllocations::liveBytes() const {
  ScopedLock Lock(Mutex_);
  return LiveBytes_;
}

size_t HostAllocations::releasingBlocks() const {
  ScopedLock Lock(Mutex_);
  return Releasing_;
}

}  // namespace omptarget::host
