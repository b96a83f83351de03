#include "allocations.h"

namespace omptarget::core {

void AllocationRegistry::add(void *Ptr, int64_t DeviceId, int64_t Size) {
  std::lock_guard<std::mutex> Lock(Mutex_);
  Live_[Ptr] = Record{DeviceId, Size};
}

std::optional<int64_t> AllocationRegistry::remove(void *Ptr, int64_t DeviceId) {
  std::lock_guard<std::mutex> Lock(Mutex_);
  auto It = Live_.find(Ptr);
  if (It == Live_.end() || It->second.DeviceId != DeviceId) return std::nullopt;
  int64_t Size = It->second.Size;
  Live_.erase(It);
  return Size;
}

std::optional<int64_t> AllocationRegistry::deviceOf(void *Ptr) {
  std::lock_guard<std::mutex> Lock(Mutex_);
  auto It = Live_.find(Ptr);
  if (It == Live_.end()) return std::nullopt;
  return It->second.DeviceId;
}

}  // namespace omptarget::core
