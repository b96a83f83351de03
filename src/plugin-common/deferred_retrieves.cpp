#include "deferred_retrieves.h"

#include <cstring>

namespace omptarget::plugin {

namespace {
constexpr size_t kSlotAlignment = 64;
size_t alignUp(size_t N) { return (N + kSlotAlignment - 1) & ~(kSlotAlignment - 1); }
}  // namespace

DeferredRetrieves::~DeferredRetrieves() {
  if (Buffer_) Pinned_.Free(Buffer_);
}

void *DeferredRetrieves::slotFor(size_t Size) {
  if (Size == 0 || Size > Capacity_ / 4 || AllocationFailed_ || !Pinned_.Allocate) return nullptr;
  if (!Buffer_) {
    Buffer_ = static_cast<char *>(Pinned_.Allocate(Capacity_));
    if (!Buffer_) {
      AllocationFailed_ = true;  // direct copies from now on; not retried
      return nullptr;
    }
  }
  size_t Offset = alignUp(Used_);
  if (Offset + Size > Capacity_) return nullptr;
  return Buffer_ + Offset;
}

void DeferredRetrieves::commit(void *Slot, void *HstDst, size_t Size) {
  Pending_.push_back({Slot, HstDst, Size});
  Used_ = static_cast<size_t>(static_cast<char *>(Slot) - Buffer_) + Size;
}

void DeferredRetrieves::land() {
  for (const Copy &C : Pending_) std::memcpy(C.HstDst, C.Slot, C.Size);
  discard();
}

void DeferredRetrieves::discard() {
  Pending_.clear();
  Used_ = 0;
}

}  // namespace omptarget::plugin
