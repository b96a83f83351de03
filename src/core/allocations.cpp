#include "allocations.h"

#include <cinttypes>

#include "debug.h"
#include "error.h"
#include "omptarget/abi.h"
#include "scoped_lock.h"

namespace omptarget::core {

const char *AllocationRegistry::allocatorName(int32_t Kind) {
  switch (Kind) {
    case abi::kAllocDevice: return "llvm_omp_target_alloc_device";
    case abi::kAllocHost: return "llvm_omp_target_alloc_host";
    case abi::kAllocShared: return "llvm_omp_target_alloc_shared";
    default: return "omp_target_alloc";
  }
}

std::string AllocationRegistry::ownerName(int64_t DeviceId) {
  if (DeviceId == kInitialDeviceKey) return "the initial device";
  return formatString("device %" PRId64, DeviceId);
}

void AllocationRegistry::add(void *Ptr, int64_t DeviceId, int64_t Size, int32_t Kind) {
  ScopedLock Lock(Mutex_);
  Live_[reinterpret_cast<uintptr_t>(Ptr)] = Record{DeviceId, Size, Kind};
}

std::optional<AllocationRegistry::Block> AllocationRegistry::remove(void *Ptr, int64_t DeviceId) {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Live_.end() || It->second.DeviceId != DeviceId) return std::nullopt;
  Block B = toBlock(It->first, It->second);
  Live_.erase(It);
  return B;
}

std::optional<AllocationRegistry::Block> AllocationRegistry::find(const void *Ptr) {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Live_.end()) return std::nullopt;
  return toBlock(It->first, It->second);
}

std::optional<AllocationRegistry::Block> AllocationRegistry::containing(const void *Ptr) {
  auto Addr = reinterpret_cast<uintptr_t>(Ptr);
  ScopedLock Lock(Mutex_);
  auto It = Live_.upper_bound(Addr);
  if (It == Live_.begin()) return std::nullopt;
  --It;
  if (Addr - It->first >= static_cast<uint64_t>(It->second.Size)) return std::nullopt;
  return toBlock(It->first, It->second);
}

std::string AllocationRegistry::overrunMessage(const Block &B, const void *Ptr, size_t Count) {
  auto Begin = reinterpret_cast<uintptr_t>(B.Begin);
  uint64_t Left = static_cast<uint64_t>(B.Size) - (reinterpret_cast<uintptr_t>(Ptr) - Begin);
  return formatString("%zu bytes at " OMPT_PTR_FMT " run past the end of its block (%" PRId64
                      " bytes at " OMPT_PTR_FMT " from %s on %s, %" PRIu64 " bytes left)",
                      Count, OMPT_PTR(Ptr), B.Size, Begin, allocatorName(B.Kind),
                      ownerName(B.DeviceId).c_str(), Left);
}

std::optional<std::string> AllocationRegistry::overrun(const void *Base, size_t Offset,
                                                       size_t Count) {
  const char *At = static_cast<const char *>(Base) + Offset;
  std::optional<Block> B = containing(Base);
  if (!B) B = containing(At);
  if (!B) return std::nullopt;
  auto Begin = reinterpret_cast<uintptr_t>(B->Begin);
  auto From = reinterpret_cast<uintptr_t>(At);
  auto End = Begin + static_cast<uint64_t>(B->Size);
  if (From >= Begin && From <= End && Count <= End - From) return std::nullopt;
  if (From < Begin || From > End)
    return formatString("%zu bytes at offset %zu from " OMPT_PTR_FMT " start outside its block (%" PRId64
                        " bytes at " OMPT_PTR_FMT " from %s on %s)",
                        Count, Offset, OMPT_PTR(Base), B->Size, Begin, allocatorName(B->Kind),
                        ownerName(B->DeviceId).c_str());
  return overrunMessage(*B, At, Count);
}

}  // namespace omptarget::core
