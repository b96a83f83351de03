// Small device-to-host copies landed through pinned memory at synchronize.
//
// GPU drivers copy into pageable host memory synchronously: on CUDA a
// cuMemcpyDtoHAsync into malloc'ed memory waits for the stream to drain,
// stages the bytes and waits again. Measured on an H200 (1 KiB behind a small
// kernel), a DMA queued into pinned memory and copied out after the stream's
// synchronize saves ~2.4 us per target region.
//
// That is only correct when the caller reads the retrieved host memory after
// the queue's synchronize, as the plugin ABI says. Our core declares that it
// does (__tgt_rtl_accept_deferred_retrieves); LLVM 14's core restores shadow
// pointers right after the retrieve call, so it never declares it and its
// copies stay direct.
//
// Ordering: copies land in issue order. A construct's copy-backs all follow
// its kernel, so two of its device-to-host copies whose host ranges overlap
// carry the same bytes: one that went direct (too large, buffer full) cannot
// be overwritten with older data by a deferred one landing later.
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

class DeferredRetrieves {
 public:
  // Capacity: bytes of pinned memory, allocated on first use; copies of at
  // most a quarter of it are deferred. 0 disables deferral.
  DeferredRetrieves(size_t Capacity, PinnedMemoryFns Pinned) : Capacity_(Capacity), Pinned_(Pinned) {}
  ~DeferredRetrieves();
  DeferredRetrieves(const DeferredRetrieves &) = delete;
  DeferredRetrieves &operator=(const DeferredRetrieves &) = delete;

  // A pinned slot for a copy of Size bytes, or nullptr: copy directly (too
  // large, the buffer is full, or pinned memory could not be allocated).
  void *slotFor(size_t Size);
  // The copy into Slot (from slotFor) was queued: land it in HstDst at the
  // next land().
  void commit(void *Slot, void *HstDst, size_t Size);
  // The queue's work has completed: copies every committed slot out, in
  // order, and frees the buffer for the next construct.
  void land();
  // The queue failed: its copies are abandoned (the construct reports the
  // failure; no half-landed data is written).
  void discard();

  size_t pending() const { return Pending_.size(); }

 private:
  struct Copy {
    const void *Slot;
    void *HstDst;
    size_t Size;
  };
  const size_t Capacity_;
  const PinnedMemoryFns Pinned_;
  char *Buffer_ = nullptr;  // Capacity_ pinned bytes, once allocated
  bool AllocationFailed_ = false;
  size_t Used_ = 0;
  std::vector<Copy> Pending_;
};

}  // namespace omptarget::plugin
