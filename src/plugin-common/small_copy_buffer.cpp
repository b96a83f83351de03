#include "small_copy_buffer.h"

#include <cstring>

namespace omptarget::plugin {

namespace {
constexpr size_t kSlotAlignment = 64;
size_t alignUp(size_t N) { return (N + kSlotAlignment - 1) & ~(kSlotAlignment - 1); }
}  // namespace

SmallCopyBuffer::~SmallCopyBuffer() {
  if (Buffer_) Pinned_.Free(Buffer_);
}

void *SmallCopyBuffer::slotFor(size_t Size) {
  if (!takesSize(Size, Capacity_) || AllocationFailed_ || !Pinned_.Allocate) return nullptr;
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

void SmallCopyBuffer::hold(void *Slot, size_t Size) {
  Used_ = static_cast<size_t>(static_cast<char *>(Slot) - Buffer_) + Size;
}

void SmallCopyBuffer::landAtComplete(void *Slot, void *HstDst, size_t Size) {
  Landings_.push_back({Slot, HstDst, Size});
  hold(Slot, Size);
}

void SmallCopyBuffer::complete() {
  for (const Landing &L : Landings_) std::memcpy(L.HstDst, L.Slot, L.Size);
  discard();
}

void SmallCopyBuffer::discard() {
  Landings_.clear();
  Used_ = 0;
}

}  // namespace omptarget::plugin
