// OpenMP 5.1 interop objects (omp_interop_t) and the registry of live ones.
//
// An object belongs to one offload device. It holds what the property
// queries (omp_get_interop_*) report, fixed at `interop init`:
//   * the foreign runtime, vendor and the C types of the handles, from the
//     plugin's interop_info entry (ours); a plugin without it (LLVM 14's) is
//     described by the core from its file name: "cuda" plugins as CUDA, any
//     other one with no foreign runtime and untyped (void *) handles;
//   * the device and context handles from init_device_info (LLVM 14's entry);
//   * for `targetsync` objects, a queue of the device from init_async_info,
//     held until `interop destroy`, which waits for it and gives it back
//     (release_async_info, or synchronize where the plugin lacks it).
// The properties of omp_interop_property_t (-1..-9) are the only ones: an
// object has no implementation-defined properties. Each has one type (int,
// pointer or string); the platform handle never has a value.
//
// Thread safety: objects are immutable once registered, except the event
// `use` records on the targetsync queue (created on first use, under
// EventMutex). The registry's mutex guards its map; lookups hand out shared
// ownership, so a query racing with `destroy` (a program error) reads a live
// object rather than freed memory.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "error.h"
#include "futex_mutex.h"
#include "omptarget/abi.h"
#include "omptarget/plugin_abi.h"
#include "thread_annotations.h"

namespace omptarget::core {

class Device;

// omp_interop_property_t / omp_interop_rc_t values (omp.h).
namespace interop {
constexpr int kFirstProperty = -9;  // omp_ipr_first (omp_ipr_targetsync)
constexpr int kNumProperties = 9;   // omp_ipr_fr_id (-1) .. omp_ipr_targetsync (-9)
constexpr int kRcNoValue = 1, kRcSuccess = 0, kRcEmpty = -1, kRcOutOfRange = -2, kRcTypeInt = -3,
              kRcTypePtr = -4, kRcTypeStr = -5, kRcOther = -6;
}  // namespace interop

enum class PropertyType : uint8_t { Int, Ptr, Str };

// One property of an object. Without a value, the queries report
// omp_irc_no_value; TypeDesc is then null too.
struct InteropProperty {
  PropertyType Type = PropertyType::Ptr;
  bool HasValue = false;
  intptr_t Int = 0;
  void *Ptr = nullptr;
  const char *Str = nullptr;
  const char *TypeDesc = nullptr;  // omp_get_interop_type_desc
};

class InteropObject {
 public:
  // interop init on `Dev` (OpenMP device number `DeviceNum`), with a queue
  // when `TargetSync`. Fails when the plugin cannot give the queue.
  static Expected<std::unique_ptr<InteropObject>> create(Device &Dev, int32_t DeviceNum,
                                                         bool TargetSync);
  InteropObject(Device &Dev, int32_t DeviceNum) : Dev_(Dev), DeviceNum_(DeviceNum) {}
  // Makes no plugin call: a queue still held is the plugin's to reclaim.
  ~InteropObject();
  InteropObject(const InteropObject &) = delete;
  InteropObject &operator=(const InteropObject &) = delete;

  int32_t deviceNum() const { return DeviceNum_; }
  bool targetSync() const { return Sync_ != nullptr; }
  // Property `Id` (omp_interop_property_t), which must be in
  // kFirstProperty..-1.
  const InteropProperty &property(int Id) const { return Props_[static_cast<size_t>(-Id - 1)]; }

  // `interop use`: the host waits for everything queued on the targetsync
  // queue so far (an event recorded there). No queue: nothing to wait for.
  Status waitForQueue();
  // `interop destroy`: waits for the queue and gives it back (also when the
  // wait fails); the object then has no queue.
  Status releaseQueue();

 private:
  // Described: Info is the plugin's (interop_info), not the core's guess.
  void describe(const __tgt_interop_info &Info, bool Described, const __tgt_device_info &Handles,
                bool HaveHandles);

  Device &Dev_;
  const int32_t DeviceNum_;
  __tgt_async_info *Sync_ = nullptr;  // owned by the plugin (init_async_info)
  FutexMutex EventMutex_;
  void *UseEvent_ GUARDED_BY(EventMutex_) = nullptr;  // the plugin's event
  InteropProperty Props_[interop::kNumProperties];
};

// The live objects, keyed by the omp_interop_t handed to the program.
class InteropRegistry {
 public:
  // Objects still registered at exit are dropped without plugin calls (the
  // plugins may already be unusable then).
  ~InteropRegistry();
  void *add(std::unique_ptr<InteropObject> Obj);
  std::shared_ptr<InteropObject> find(const void *Handle) const;
  // Removes and returns the object (null when `Handle` is not live).
  std::shared_ptr<InteropObject> remove(const void *Handle);

 private:
  mutable FutexMutex Mutex_;
  std::unordered_map<const void *, std::shared_ptr<InteropObject>> Live_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::core
