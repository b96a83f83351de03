#include "memory_manager.h"

#include <algorithm>

namespace omptarget::plugin {

void MemoryManager::setThreshold(size_t Threshold) {
  ScopedLock Lock(Mutex_);
  Threshold_ = std::min(Threshold, kMaxThreshold);
}

Expected<void *> MemoryManager::allocate(size_t Size) {
  if (void *Cached = takeCached(Size)) return Cached;
  unsigned Class = classOf(Size);
  Expected<void *> P = retryAfterReleasing([&] { return Alloc_(classSize(Class)); });
  if (!P) return P;
  ScopedLock Lock(Mutex_);
  uint32_t I = Index_.find(*P);
  if (I == FlatIndex<void *>::kNone) {  // a forgotten block's address may come back
    I = static_cast<uint32_t>(Blocks_.size());
    Blocks_.push_back(Block{*P, Class, false});
    Index_.insert(*P, I);
  } else {
    Blocks_[I] = Block{*P, Class, false};
  }
  return P;
}

Expected<bool> MemoryManager::deallocate(void *Ptr) {
  ScopedLock Lock(Mutex_);
  uint32_t I = Index_.find(Ptr);
  if (I == FlatIndex<void *>::kNone) return false;
  Block &B = Blocks_[I];
  if (B.Cached)
    return makeError(
        "not a live allocation of this device (already freed; the block is cached "
        "for reuse)");
  keepLocked(B, I);
  return true;
}

size_t MemoryManager::freeAll(std::vector<void *> &Blocks) {
  size_t Failures = 0;
  for (void *P : Blocks)
    if (!FreeBlock_(P)) ++Failures;
  if (Failures) {
    ScopedLock Lock(Mutex_);
    BackendFailures_ += Failures;
  }
  return Blocks.size();
}

size_t MemoryManager::freeCache() {
  std::vector<void *> Cached;
  {
    ScopedLock Lock(Mutex_);
    if (NumCached_ == 0) return 0;
    // Keep the handed-out blocks only, and index them anew.
    Cached.reserve(NumCached_);
    std::vector<Block> Kept;
    Kept.reserve(Blocks_.size() - NumCached_);
    for (const Block &B : Blocks_) (B.Cached ? Cached.push_back(B.Ptr) : Kept.push_back(B));
    Blocks_ = std::move(Kept);
    Index_.clear();
    for (uint32_t I = 0; I < Blocks_.size(); ++I) Index_.insert(Blocks_[I].Ptr, I);
    for (auto &List : Free_) List.clear();
    NumCached_ = 0;
    CachedBytes_ = 0;
  }
  return freeAll(Cached);
}

Status MemoryManager::deinit() {
  freeCache();
  ScopedLock Lock(Mutex_);
  Blocks_.clear();
  Index_.clear();
  if (BackendFailures_ != 0) {
    size_t N = BackendFailures_;
    BackendFailures_ = 0;
    return makeError("memory manager: %zu cached block(s) could not be freed", N);
  }
  return {};
}

size_t MemoryManager::numCached() const {
  ScopedLock Lock(Mutex_);
  return NumCached_;
}

size_t MemoryManager::cachedBytes() const {
  ScopedLock Lock(Mutex_);
  return CachedBytes_;
}

size_t MemoryManager::numHandedOut() const {
  ScopedLock Lock(Mutex_);
  return Blocks_.size() - NumCached_;
}

size_t MemoryManager::numBackendFailures() const {
  ScopedLock Lock(Mutex_);
  return BackendFailures_;
}

}  // namespace omptarget::plugin
