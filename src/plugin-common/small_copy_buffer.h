// Small host<->device copies through a per-queue pinned buffer.
//
// GPU drivers handle pageable host memory slowly for small copies. Measured
// on an H200 with CUDA 13 (1 KiB, interleaved runs, see docs/benchmarks.md):
//   * device-to-host into malloc'ed memory is synchronous: the driver waits
//     for the stream to drain, stages the bytes and waits again. A DMA queued
//     into pinned memory and copied out after the stream's synchronize saves
//     ~2.7 us per target region.
//   * host-to-device from malloc'ed memory costs ~0.5 us more per copy than
//     a memcpy into pinned memory plus a DMA from there.
//
// Host-to-device slots are filled during the call, exactly when the driver
// would read a pageable source, so they are always correct. Device-to-host
// slots land in their destination at synchronize, which is only correct when
// the caller reads retrieved host memory after the queue's synchronize, as
// the plugin ABI says. Our core declares that it does
// (__tgt_rtl_accept_deferred_retrieves); LLVM 14's core restores shadow
// pointers right after the retrieve call, so it never declares it and its
// retrieves stay direct (plugins check before calling landAtComplete).
//
// Ordering: retrieves land in issue order. A construct's copy-backs all
// follow its kernel, so two of its device-to-host copies whose host ranges
// overlap carry the same bytes: one that went direct (too large, buffer
// full) cannot be overwritten with older data by a deferred one landing later.
//
// Slots stay reserved until the queue completes (complete/discard): the DMA
// that reads or fills them may run until then.
//
// Thread safety: one object per queue. A queue belongs to one construct (one
// thread) from its first operation to its synchronize, so there is no lock.
#pragma once

#include <cstddef>
#include <vector>

namespace omptarget::plugin {

// How a plugin gets pinned host memory (nullptr on failure) and frees it.
struct PinnedMemoryFns {
  void *(*Allocate)(size_t Size) = nullptr;
  void (*Free)(void *Ptr) = nullptr;
};

class SmallCopyBuffer {
 public:
  // Capacity: bytes of pinned memory, allocated on first use; copies of at
  // most a quarter of it use the buffer. 0 disables it.
  SmallCopyBuffer(size_t Capacity, PinnedMemoryFns Pinned) : Capacity_(Capacity), Pinned_(Pinned) {}
  ~SmallCopyBuffer();
  SmallCopyBuffer(const SmallCopyBuffer &) = delete;
  SmallCopyBuffer &operator=(const SmallCopyBuffer &) = delete;

  // Whether a buffer of Capacity bytes takes copies of Size bytes (when it
  // has room): a quarter of it at most.
  static bool takesSize(size_t Size, size_t Capacity) { return Size != 0 && Size <= Capacity / 4; }
  // A free pinned slot for a copy of Size bytes, or nullptr: copy directly
  // (too large, the buffer is full, or pinned memory could not be allocated).
  void *slotFor(size_t Size);
  // A host-to-device copy from Slot was queued: keep it until complete().
  void hold(void *Slot, size_t Size);
  // A device-to-host copy into Slot was queued: keep it, and copy it to
  // HstDst at complete().
  void landAtComplete(void *Slot, void *HstDst, size_t Size);
  // The queue's work has completed: copies every landing slot out, in issue
  // order, and frees the buffer for the next construct.
  void complete();
  // The queue failed: pending landings are abandoned (the construct reports
  // the failure; no half-landed data is written) and the buffer is freed.
  void discard();

  size_t pendingLandings() const { return Landings_.size(); }

 private:
  struct Landing {
    const void *Slot;
    void *HstDst;
    size_t Size;
  };
  const size_t Capacity_;
  const PinnedMemoryFns Pinned_;
  char *Buffer_ = nullptr;  // Capacity_ pinned bytes, once allocated
  bool AllocationFailed_ = false;
  size_t Used_ = 0;
  std::vector<Landing> Landings_;
};

}  // namespace omptarget::plugin
