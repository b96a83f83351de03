// MemoryManager: a per-device cache of small freed device blocks.
//
// Allocating and freeing device memory through the driver is expensive
// (cuMemAlloc/cuMemFree; on the host device aligned_alloc plus the
// allocation registry), and target constructs allocate and free the same
// small sizes over and over. Blocks of at most Threshold bytes are therefore
// rounded up to a power-of-two size class (64 bytes at least) and, when
// freed, kept in the free list of their class instead of being returned to
// the device; the next allocation of that class reuses one.
//
//   * Threshold 0 disables the cache: allocate() is never asked (handles()
//     is false for every size) and deallocate() never takes a block.
//   * A block in a free list is NOT live: freeing it again is reported as a
//     double free, like freeing an unknown pointer on the device would be.
//   * When the backend cannot allocate, every cached block is given back to
//     the device and the allocation is retried once (allocate() does this
//     for cached sizes; retryAfterReleasing() for the caller's other sizes).
//   * The cache holds only blocks it handed out itself; any other pointer is
//     left to the caller (deallocate() answers false).
//
// Thread safety: Mutex_ (a FutexMutex: it is held for a hash lookup and a
// vector push/pop only) guards Blocks_, Index_, Free_ and the counters.
// Threshold_ is written only by setThreshold() before the device is used and
// read without the lock (handles(), on every allocation), so it carries no
// GUARDED_BY. The backend
// (Alloc_/Free_ hooks) is always called WITHOUT Mutex_ held, so it may block
// or call back into the device.
//
// Lifetime: freeCache()/deinit() give cached blocks back through the
// backend; blocks still handed out are forgotten by deinit() (the device
// frees whatever is left when it tears down).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "error.h"
#include "flat_index.h"
#include "futex_mutex.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

class MemoryManager {
 public:
  using AllocFn = std::function<Expected<void *>(size_t)>;
  using FreeFn = std::function<Status(void *)>;

  static constexpr size_t kDefaultThreshold = 8 * 1024;
  static constexpr size_t kMinClassSize = 64;
  static constexpr size_t kMaxThreshold = size_t{1} << 30;

  MemoryManager(AllocFn Alloc, FreeFn Free)
      : Alloc_(std::move(Alloc)), FreeBlock_(std::move(Free)) {}
  MemoryManager(const MemoryManager &) = delete;
  MemoryManager &operator=(const MemoryManager &) = delete;

  // Sets the threshold (clamped to kMaxThreshold); only while nothing is cached
  // or handed out (device initialisation, tests).
  void setThreshold(size_t Threshold);
  size_t threshold() const { return Threshold_; }

  // Whether allocations of Size bytes go through the cache.
  bool handles(size_t Size) const { return Size <= Threshold_ && Threshold_ != 0; }

  // The size class of Size (handles(Size) must hold) and its block size.
  static unsigned classOf(size_t Size) {
    if (Size <= kMinClassSize) return 0;
    return static_cast<unsigned>(std::bit_width(Size - 1)) - kMinClassLog2;
  }
  static size_t classSize(unsigned Class) { return kMinClassSize << Class; }

  // A block of at least Size bytes (handles(Size) must hold): a cached one of
  // Size's class, or a new one of the class size from the backend (on failure:
  // free the cache, retry once).
  Expected<void *> allocate(size_t Size);

  // Takes Ptr back into the cache when the cache handed it out: true. False
  // when Ptr is not one of the cache's blocks (the caller frees it itself).
  // An error when Ptr is already cached (a double free).
  Expected<bool> deallocate(void *Ptr);

  // The fast halves of allocate() and deallocate(), inline for the direct
  // table. takeCached: a cached block of Size's class (handles(Size) must
  // hold), or nullptr when that class has none. tryKeep: takes Ptr back
  // when it is one of the cache's live blocks; false, with nothing changed,
  // for anything else (deallocate() then says what it is).
  void *takeCached(size_t Size) {
    unsigned Class = classOf(Size);
    ScopedLock Lock(Mutex_);
    std::vector<uint32_t> &List = Free_[Class];
    if (List.empty()) return nullptr;
    Block &B = Blocks_[List.back()];
    List.pop_back();
    B.Cached = false;
    --NumCached_;
    CachedBytes_ -= classSize(Class);
    return B.Ptr;
  }
  bool tryKeep(void *Ptr) {
    ScopedLock Lock(Mutex_);
    uint32_t I = Index_.find(Ptr);
    if (I == FlatIndex<void *>::kNone) return false;
    Block &B = Blocks_[I];
    if (B.Cached) return false;
    keepLocked(B, I);
    return true;
  }

  // Whether Ptr is one of the cache's blocks, handed out or cached.
  bool owns(void *Ptr) const {
    ScopedLock Lock(Mutex_);
    return Index_.find(Ptr) != FlatIndex<void *>::kNone;
  }

  // Runs Alloc(); when it fails and the cache held blocks, gives them back to
  // the device and runs Alloc() once more.
  template <typename FnT>
  Expected<void *> retryAfterReleasing(FnT &&Alloc) {
    Expected<void *> P = Alloc();
    if (P || freeCache() == 0) return P;
    return Alloc();
  }

  // Gives every cached block back to the backend; returns how many.
  size_t freeCache();
  // freeCache() and forgets the blocks still handed out.
  Status deinit();

  size_t numCached() const;           // blocks in the free lists
  size_t cachedBytes() const;         // their total class size
  size_t numHandedOut() const;        // cache blocks currently in use
  size_t numBackendFailures() const;  // backend errors seen by the freeing paths

 private:
  static constexpr unsigned kMinClassLog2 = 6;                 // log2(kMinClassSize)
  static constexpr unsigned kNumClasses = 31 - kMinClassLog2;  // up to 2^30

  struct Block {
    void *Ptr;
    unsigned Class;
    bool Cached;
  };

  // Puts live block B (index I) into its class's free list; Mutex_ held.
  void keepLocked(Block &B, uint32_t I) REQUIRES(Mutex_) {
    B.Cached = true;
    Free_[B.Class].push_back(I);
    ++NumCached_;
    CachedBytes_ += classSize(B.Class);
  }

  // Frees Blocks through the backend (without Mutex_ held).
  size_t freeAll(std::vector<void *> &Blocks);

  const AllocFn Alloc_;
  const FreeFn FreeBlock_;
  size_t Threshold_ = 0;

  mutable FutexMutex Mutex_;
  // Every block of the cache, handed out or cached.
  std::vector<Block> Blocks_ GUARDED_BY(Mutex_);
  FlatIndex<void *> Index_ GUARDED_BY(Mutex_);  // block address -> index in Blocks_
  // Indices of the cached blocks, per class.
  std::vector<uint32_t> Free_[kNumClasses] GUARDED_BY(Mutex_);
  size_t NumCached_ GUARDED_BY(Mutex_) = 0;
  size_t CachedBytes_ GUARDED_BY(Mutex_) = 0;
  size_t BackendFailures_ GUARDED_BY(Mutex_) = 0;
};

}  // namespace omptarget::plugin
