// PinnedMap: the host memory of one device's process that the device can
// DMA from and to directly (page-locked, "pinned"), with a lock reference
// count per range. Behind llvm_omp_target_lock_mem / llvm_omp_target_unlock_mem
// (__tgt_rtl_data_lock / data_unlock) and asked by the transfer path.
//
// Entries, ordered by host address and disjoint, are of three origins:
//   * Pinned by us: the first lock of a range outside every entry asks the
//     device's HostPinner to pin it (CUDA: cuMemHostRegister); the entry's
//     lock count starts at 1 and the last unlock unpins it.
//   * Pinned by someone else (External): the pinner found the range already
//     pinned (the program's own cudaHostRegister / cuMemHostRegister or
//     cuMemAllocHost memory) and reported the pinned range around it. It is
//     used as ours is, and never unpinned by us; the entry leaves the map
//     at its last unlock.
//   * An allocation of ours (FromAllocation: llvm_omp_target_alloc_host),
//     entered at allocation with no lock reference and removed when it is
//     freed; locks inside it count references but never unpin it.
//
// Rules of lock(P, Size): a range inside an entry adds a reference to that
// entry and gets the matching offset into its device-accessible address; a
// range that overlaps entries without lying inside one is rejected, naming
// the ranges (an entry is never extended or merged: its owner unpins exactly
// what it pinned). unlock(P) finds the entry that contains P (an interior
// pointer is fine) and drops one reference; unlocking memory that is not
// locked is an error that changes nothing.
//
// Thread safety: OpsMutex_ serializes the changes (lock, unlock,
// addAllocation, removeAllocation, unpinAll) and the pinner calls they make,
// which can take long (registering 1 GiB takes ~100 ms) without blocking the
// transfer path. Mutex_ (a SharedMutex) guards Entries_: changes hold it
// exclusively only to insert or erase; lookups (contains, segmentAt,
// snapshot) hold it shared and do not serialize each other. Lock order:
// OpsMutex_, then Mutex_. Count_ mirrors Entries_.size() for mayContain(),
// which the transfer path asks first, without a lock: a copy that runs
// concurrently with the lock of its own memory may take either path, and
// both are correct.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "error.h"
#include "futex_mutex.h"
#include "shared_mutex.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

// A pinned host range: [Begin, Begin + Size), and the address the device
// reaches Begin at.
struct PinnedRange {
  uintptr_t Begin = 0;
  size_t Size = 0;
  void *DevicePtr = nullptr;
  bool External = false;  // pinned by someone else: never unpinned by us
};

// What a device does to pin and unpin host memory. pin() returns the pinned
// range that contains [P, P + Size): that range itself when it pinned it, or
// the larger range someone else had pinned already (External). Called with
// no lock of the map held but its change lock: one call at a time per map.
class HostPinner {
 public:
  virtual Expected<PinnedRange> pin(void *P, size_t Size) = 0;
  virtual Status unpin(const PinnedRange &R) = 0;

 protected:
  ~HostPinner() = default;
};

class PinnedMap {
 public:
  // DeviceId names the device in messages.
  PinnedMap(int32_t DeviceId, HostPinner &Pinner) : DeviceId_(DeviceId), Pinner_(Pinner) {}
  PinnedMap(const PinnedMap &) = delete;
  PinnedMap &operator=(const PinnedMap &) = delete;

  // The device-accessible address of P after adding a lock reference
  // (P non-null, Size > 0: the caller checks).
  Expected<void *> lock(void *P, size_t Size);
  // Drops a lock reference of the entry that contains P; unpins at the last.
  // *NotLocked (when non-null) says whether it failed because P lies in no
  // entry at all.
  Status unlock(void *P, bool *NotLocked = nullptr);

  // Memory that was allocated pinned (llvm_omp_target_alloc_host): in the
  // map until removeAllocation(P) (its free). Entries it overlaps (memory the
  // program locked and freed without unlocking) are dropped from the map.
  void addAllocation(void *P, size_t Size);
  // Removes the allocation entry that begins at P, if any.
  void removeAllocation(void *P);

  // Unpins every range we pinned and empties the map (device teardown);
  // returns how many ranges were still locked. The first unpin failure is
  // returned in *Failure when it is non-null.
  size_t unpinAll(Status *Failure = nullptr);

  // The transfer path. mayContain(): false when the map is empty (no lock).
  bool mayContain() const { return Count_.load(std::memory_order_acquire) != 0; }
  // Whether [P, P + Size) lies inside one entry (Size > 0).
  bool contains(const void *P, size_t Size) const;
  // The device-accessible address of P when [P, P + Size) lies inside one
  // entry (Size > 0), else nullptr.
  void *deviceAddress(const void *P, size_t Size) const;
  // The longest prefix of [P, P + Size) that lies inside one entry
  // (Locked) or outside every entry (!Locked); its length is > 0.
  struct Segment {
    size_t Size;
    bool Locked;
  };
  Segment segmentAt(const void *P, size_t Size) const;
  // Cuts [P, P + Size) into segments and calls Locked(Offset, Length) or
  // Pageable(Offset, Length) for each in order; stops at the first failure.
  template <typename LockedFn, typename PageableFn>
  Status forEachSegment(const void *P, size_t Size, LockedFn &&Locked,
                        PageableFn &&Pageable) const {
    for (size_t Off = 0; Off < Size;) {
      Segment S = segmentAt(static_cast<const char *>(P) + Off, Size - Off);
      if (Status Done = S.Locked ? Locked(Off, S.Size) : Pageable(Off, S.Size); !Done) return Done;
      Off += S.Size;
    }
    return {};
  }

  // Every entry in address order, with its lock count (tests, debugging).
  struct EntryInfo {
    PinnedRange Range;
    uint64_t Locks;
    bool FromAllocation;
  };
  std::vector<EntryInfo> snapshot() const;

 private:
  struct Entry {
    PinnedRange Range;
    uint64_t Locks = 0;
    bool FromAllocation = false;
    uintptr_t end() const { return Range.Begin + Range.Size; }
  };
  using EntryMap = std::map<uintptr_t, Entry>;  // Range.Begin -> entry

  // The first entry that ends after B, or end() (Mutex_ held, any mode).
  EntryMap::const_iterator firstEndingAfter(uintptr_t B) const REQUIRES_SHARED(Mutex_);
  EntryMap::iterator firstEndingAfter(uintptr_t B) REQUIRES(Mutex_);
  [[gnu::cold]] Error lockError(uintptr_t B, size_t Size, const char *Why) const;

  const int32_t DeviceId_;
  HostPinner &Pinner_;
  FutexMutex OpsMutex_;  // serializes changes and pinner calls (before Mutex_)
  mutable SharedMutex Mutex_;
  EntryMap Entries_ GUARDED_BY(Mutex_);
  std::atomic<size_t> Count_{0};  // Entries_.size(), read without a lock
};

}  // namespace omptarget::plugin
