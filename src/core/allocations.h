// Memory handed out by omp_target_alloc and llvm_omp_target_alloc_*, so that
// omp_target_free and llvm_omp_target_free_* refuse pointers they never gave
// out (instead of passing them to the plugin or to free() and corrupting the
// heap), and so that routines taking a device pointer (omp_target_memset)
// can tell which device a pointer belongs to and how large its block is.
//
// Device numbers are recorded as given, except that every name of the
// initial device is recorded as kInitialDeviceKey.
//
// Thread safety: all members take Mutex_ (a FutexMutex), which guards Live_
// and is taken with no other core lock held.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::core {

// Whether `Count` bytes at `Base` + `Offset` are a range of the address
// space: offset and count below 2^63 (a negative value passed as size_t is
// not) and no wrap past its end.
inline bool rangeFits(const void *Base, size_t Offset, size_t Count) {
  constexpr auto kMax = static_cast<size_t>(INT64_MAX);
  return Offset <= kMax && Count <= kMax &&
         Offset + Count <= UINTPTR_MAX - reinterpret_cast<uintptr_t>(Base);
}

class AllocationRegistry {
 public:
  // The key of every initial-device allocation (omp_initial_device's value).
  static constexpr int64_t kInitialDeviceKey = -1;

  struct Block {
    void *Begin = nullptr;
    int64_t DeviceId = 0;
    int64_t Size = 0;
    int32_t Kind = 0;  // abi::TargetAllocKind of the allocating routine
  };

  // For messages: the routine that allocates Kind ("omp_target_alloc",
  // "llvm_omp_target_alloc_host", ...) and a block's owner ("device 2",
  // "the initial device").
  static const char *allocatorName(int32_t Kind);
  static std::string ownerName(int64_t DeviceId);

  void add(void *Ptr, int64_t DeviceId, int64_t Size, int32_t Kind);
  // Removes and returns the block if `Ptr` begins a block of `DeviceId`.
  std::optional<Block> remove(void *Ptr, int64_t DeviceId);
  // The block that begins at `Ptr`, if any.
  std::optional<Block> find(const void *Ptr);
  // The block that contains the byte at `Ptr`, if any.
  std::optional<Block> containing(const void *Ptr);
  // When `Count` bytes at `Base` + `Offset` run past the end of the block
  // that contains `Base` (or, when none does, the block that contains
  // `Base` + `Offset`): what to tell the user ("N bytes at P run past the end
  // of its block (S bytes at B from omp_target_alloc on device D, L bytes
  // left)"). None when they fit, or when no block holds either address (the
  // caller cannot know that memory's size). The range must pass
  // rangeFits (the caller checks).
  static std::string overrunMessage(const Block &B, const void *Ptr, size_t Count);
  std::optional<std::string> overrun(const void *Base, size_t Offset, size_t Count);

 private:
  struct Record {
    int64_t DeviceId;
    int64_t Size;
    int32_t Kind;
  };
  static Block toBlock(uintptr_t Begin, const Record &R) {
    return Block{reinterpret_cast<void *>(Begin), R.DeviceId, R.Size, R.Kind};
  }
  FutexMutex Mutex_;
  std::map<uintptr_t, Record> Live_ GUARDED_BY(Mutex_);  // by begin address
};

}  // namespace omptarget::core
