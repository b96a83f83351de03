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
//     the device, the trim hook gives the driver's own pool back, and the
//     allocation is retried once (allocate() does this for cached sizes;
//     retryAfterReleasing() for the caller's other sizes, even when nothing
//     was cached: the driver's pool may hold memory).
//   * The cache holds only blocks it handed out itself; any other pointer is
//     left to the caller (deallocate() answers false).
//
// Data and locks. Every block of the cache has a Record (its address, its
// state, its free-list link). Records live in chunks owned by their size
// class (never moved, never freed before the manager), so a Record pointer
// stays dereferenceable and a record never changes class.
//
//   SizeClass::Mutex  (one FutexMutex per class, each on its own cache line)
//                     guards the class's free list, spare records, chunks,
//                     counters, and the State, Ptr and Next of its records.
//   IndexMutex_       (a FutexMutex) serializes the WRITERS of the index:
//                     a new block from the backend (insert), freeCache()
//                     (erase), deinit() (clear). The exact lookups take it
//                     too: owns(), and deallocate() once tryKeep() missed.
//                     Lookups under it, like the records, use the current
//                     table.
//   Index             address -> Record, open addressing with atomic slots,
//                     read WITHOUT a lock by tryKeep(). Such a read may miss
//                     an entry that a writer is moving (a purge) or has just
//                     added to a table that replaced the one read (a
//                     growth): tryKeep() then answers false and the caller's
//                     deallocate() asks again under IndexMutex_. It may find
//                     a stale record: tryKeep() checks, under the record's
//                     class lock, that it is live and holds that address.
//
// So takeCached() takes its class's lock only, and tryKeep() the lock of the
// freed block's class only: allocations and frees of different classes never
// contend on a lock, and the common pair takes one lock each, as when one
// mutex guarded everything. Lock order: IndexMutex_ before a class's lock;
// no two class locks are ever held together; the backend (Alloc_,
// FreeBlock_, Trim_) is always called with no lock held, so it may block or call back
// into the device.
//
// Why a lock-free read, measured (bench/plugin_memory_manager_bench.cpp,
// docs/benchmarks.md "Memory manager"): a reader lock on the index (the
// writer-preferring SharedMutex) costs two pthread calls with an atomic
// read-modify-write each, 11.7 ns a read lock + unlock against 2.2 ns for a
// FutexMutex in a single-threaded process (13.1 against 6.1 ns otherwise),
// as much as the whole cached take + keep pair (14 ns with one mutex); a
// sharded index adds a second lock to every free and lets frees of
// different classes meet on a shard. With the lock-free read the pair is
// 10.3 ns (68 instructions, 70 before), and 4 threads on 4 classes run 20
// times the pairs per second of one mutex.
//
// Index memory: erased slots become tombstones, purged in place when the
// table fills up; the table doubles when its live entries pass a quarter.
// A table replaced by a bigger one may still be read by a lock-free reader,
// so it is kept until the manager is destroyed: the kept ones add up to less
// than the current table.
//
// Threshold_ is written by setThreshold() before the device is used and read
// on every allocation; a relaxed atomic (a plain load).
//
// Lifetime: freeCache()/deinit() give cached blocks back through the
// backend; blocks still handed out are forgotten by deinit() (the device
// frees whatever is left when it tears down). deinit() runs when nothing
// else uses the manager.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "error.h"
#include "futex_mutex.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

class MemoryManager {
 public:
  using AllocFn = std::function<Expected<void *>(size_t)>;
  using FreeFn = std::function<Status(void *)>;
  // Out of memory, after the cache was released: gives memory that the
  // backend keeps for reuse (a driver memory pool) back to the driver.
  using TrimFn = std::function<void()>;

  static constexpr size_t kDefaultThreshold = 8 * 1024;
  static constexpr size_t kMinClassSize = 64;
  static constexpr size_t kMaxThreshold = size_t{1} << 30;

  MemoryManager(AllocFn Alloc, FreeFn Free, TrimFn Trim = {});
  ~MemoryManager();
  MemoryManager(const MemoryManager &) = delete;
  MemoryManager &operator=(const MemoryManager &) = delete;

  // Sets the threshold (clamped to kMaxThreshold); only while nothing is cached
  // or handed out (device initialisation, tests).
  void setThreshold(size_t Threshold);
  size_t threshold() const { return Threshold_.load(std::memory_order_relaxed); }

  // Whether allocations of Size bytes go through the cache.
  bool handles(size_t Size) const {
    size_t T = threshold();
    return Size <= T && T != 0;
  }

  // The size class of Size (handles(Size) must hold) and its block size.
  static unsigned classOf(size_t Size) {
    if (Size <= kMinClassSize) return 0;
    return static_cast<unsigned>(std::bit_width(Size - 1)) - kMinClassLog2;
  }
  static size_t classSize(unsigned Class) { return kMinClassSize << Class; }

  // A block of at least Size bytes (handles(Size) must hold): a cached one of
  // Size's class, or a new one of the class size from the backend (on
  // failure: free the cache, trim, retry once).
  Expected<void *> allocate(size_t Size);

  // Takes Ptr back into the cache when the cache handed it out: true. False
  // when Ptr is not one of the cache's blocks (the caller frees it itself).
  // An error when Ptr is already cached (a double free).
  Expected<bool> deallocate(void *Ptr);

  // The fast halves of allocate() and deallocate(), inline for the direct
  // table. takeCached: a cached block of Size's class (handles(Size) must
  // hold), or nullptr when that class has none. tryKeep: takes Ptr back
  // when it is one of the cache's live blocks; false, with nothing changed,
  // for anything else, and rarely for a live block while the index is being
  // written (deallocate() then says what it is, exactly).
  void *takeCached(size_t Size) {
    SizeClass &C = Classes_[classOf(Size)];
    ScopedLock Lock(C.Mutex);
    Record *R = C.Cached;
    if (!R) return nullptr;
    C.Cached = R->Next;
    R->State = kLive;
    --C.NumCached;
    ++C.NumLive;
    return R->Ptr;
  }
  bool tryKeep(void *Ptr) {
    Record *R = lookup(Table_.load(std::memory_order_acquire), Ptr);
    if (!R) return false;
    SizeClass &C = Classes_[R->Class];
    ScopedLock Lock(C.Mutex);
    if (R->State != kLive || R->Ptr != Ptr) return false;  // stale: a record reused
    C.keep(R);
    return true;
  }

  // Whether Ptr is one of the cache's blocks, handed out or cached (exact).
  bool owns(void *Ptr) const;

  // Runs Alloc(); when it fails, gives the cache back to the device, trims
  // the backend's pool and runs Alloc() once more (whose result is final).
  template <typename FnT>
  Expected<void *> retryAfterReleasing(FnT &&Alloc) {
    Expected<void *> P = Alloc();
    if (P) [[likely]]
      return P;
    releaseForRetry();
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

  // A record's State: handed out, in its class's free list, being given back
  // by freeCache() (still in the index: freeing it is a double free), or a
  // spare record of its class (in no index, no list).
  enum RecordState : uint8_t { kSpare, kLive, kCached, kReleased };

  // One block. Class never changes (set when its chunk is made); State, Ptr
  // and Next are read and written under the lock of the record's class only
  // (freeCache() reads Ptr of records it has marked kReleased: nobody else
  // writes them then).
  struct Record {
    void *Ptr = nullptr;
    Record *Next = nullptr;  // in the free list or the spare list
    uint8_t Class = 0;
    RecordState State = kSpare;
  };
  static constexpr size_t kChunkRecords = 32;
  struct alignas(64) Chunk {
    Record Records[kChunkRecords];
  };

  // One size class, on its own cache lines.
  struct alignas(64) SizeClass {
    mutable FutexMutex Mutex;
    Record *Cached GUARDED_BY(Mutex) = nullptr;  // the free list (LIFO)
    size_t NumCached GUARDED_BY(Mutex) = 0;
    size_t NumLive GUARDED_BY(Mutex) = 0;       // handed out
    Record *Spare GUARDED_BY(Mutex) = nullptr;  // records for new blocks
    std::vector<std::unique_ptr<Chunk>> Chunks GUARDED_BY(Mutex);

    // Puts live record R into the free list.
    void keep(Record *R) REQUIRES(Mutex) {
      R->State = kCached;
      R->Next = Cached;
      Cached = R;
      ++NumCached;
      --NumLive;
    }
    // A spare record of this class (Class is its index), made when none is left.
    Record *spare(unsigned Class) REQUIRES(Mutex);
    // Every record spare again: nothing cached, nothing handed out.
    void forgetAll() REQUIRES(Mutex);
  };

  // The index: a power-of-two table of slots kept at most half used (live
  // entries and tombstones), Fibonacci hashing, linear probing. A slot's Val
  // is stored before its Key (release), so a reader that finds its key finds
  // a record (possibly a newer one: checked).
  static constexpr uintptr_t kEmpty = 0, kTombstone = 1;  // no block has these addresses
  struct Slot {
    std::atomic<uintptr_t> Key{kEmpty};
    std::atomic<Record *> Val{nullptr};
  };
  struct Table {
    size_t Mask;
    unsigned Shift;
    size_t home(uintptr_t K) const {
      return static_cast<size_t>((static_cast<uint64_t>(K) * 0x9E3779B97F4A7C15ull) >> Shift);
    }
    Slot *slots() { return reinterpret_cast<Slot *>(this + 1); }
    const Slot *slots() const { return reinterpret_cast<const Slot *>(this + 1); }
  };
  struct TableDeleter {
    void operator()(Table *T) const;
  };
  using TablePtr = std::unique_ptr<Table, TableDeleter>;
  static TablePtr makeTable(size_t Capacity);

  // Whether Ptr can be a key: the two marks cannot. lookup() of a mark may
  // find the old record of an emptied slot or a tombstone; tryKeep()'s check
  // rejects it (not live, or another address), the other callers ask first.
  static bool indexable(void *Ptr) { return reinterpret_cast<uintptr_t>(Ptr) > kTombstone; }
  // The record of Ptr in T, or nullptr; without a lock (see the top).
  static Record *lookup(const Table *T, void *Ptr) {
    auto K = reinterpret_cast<uintptr_t>(Ptr);
    const Slot *Slots = T->slots();
    for (size_t I = T->home(K), N = 0; N <= T->Mask; I = (I + 1) & T->Mask, ++N) {
      uintptr_t S = Slots[I].Key.load(std::memory_order_acquire);
      if (S == K) return Slots[I].Val.load(std::memory_order_acquire);
      if (S == kEmpty) return nullptr;
    }
    return nullptr;
  }
  void indexInsert(void *Ptr, Record *R) REQUIRES(IndexMutex_);
  void indexErase(void *Ptr) REQUIRES(IndexMutex_);
  void indexClear() REQUIRES(IndexMutex_);
  // Makes room for an insert: purges tombstones in place, or doubles.
  void indexRehash() REQUIRES(IndexMutex_);

  // freeCache() and the trim hook: the out-of-memory path before a retry.
  void releaseForRetry();

  const AllocFn Alloc_;
  const FreeFn FreeBlock_;
  const TrimFn Trim_;
  std::atomic<size_t> Threshold_{0};
  std::atomic<Table *> Table_;  // the current table (read without a lock)
  std::atomic<size_t> BackendFailures_{0};

  SizeClass Classes_[kNumClasses];

  alignas(64) mutable FutexMutex IndexMutex_;
  // The replaced tables (kept: see the top), then the current one.
  std::vector<TablePtr> Tables_ GUARDED_BY(IndexMutex_);
  size_t IndexUsed_ GUARDED_BY(IndexMutex_) = 0;  // live entries + tombstones
  size_t IndexLive_ GUARDED_BY(IndexMutex_) = 0;
};

}  // namespace omptarget::plugin
