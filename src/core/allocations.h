// Memory handed out by omp_target_alloc and llvm_omp_target_alloc_*, so that
// omp_target_free can refuse pointers it never gave out (instead of passing
// them to the plugin or to free() and corrupting the heap).
//
// Thread safety: all members take Mutex_.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace omptarget::core {

class AllocationRegistry {
 public:
  void add(void *Ptr, int64_t DeviceId, int64_t Size);
  // Removes and returns the size if `Ptr` was allocated on `DeviceId`.
  std::optional<int64_t> remove(void *Ptr, int64_t DeviceId);
  // The device `Ptr` was allocated on, if known.
  std::optional<int64_t> deviceOf(void *Ptr);

 private:
  struct Record {
    int64_t DeviceId;
    int64_t Size;
  };
  std::mutex Mutex_;
  std::unordered_map<void *, Record> Live_;
};

}  // namespace omptarget::core
