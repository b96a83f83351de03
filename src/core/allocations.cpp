#include "allocations.h"

#include <cinttypes>

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

}  // namespace omptarget::core
