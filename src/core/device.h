// One offload device: a plugin and the plugin's local device number, its
// mapping table, and thin wrappers over the plugin's data and launch entries
// (or its direct table, see plugin_abi.h) that turn OFFLOAD_FAIL into Errors
// naming the call and values.
//
// Thread safety: `InitMutex_` (a FutexMutex) guards initialization and image
// loading; after `isReady()` the device is used concurrently. Plugin calls
// are made without core locks held, except allocation of a new map entry
// (table lock held so that no other thread can map the same range twice).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "error.h"
#include "futex_mutex.h"
#include "mapping_table.h"
#include "plugin.h"
#include "thread_annotations.h"

namespace omptarget::core {

class AsyncInfo;

class Device {
 public:
  Device(int32_t Id, Plugin &P, int32_t PluginDeviceId)
      : Id_(Id), Plugin_(P), PluginDeviceId_(PluginDeviceId) {}

  int32_t id() const { return Id_; }
  int32_t pluginDeviceId() const { return PluginDeviceId_; }
  Plugin &plugin() { return Plugin_; }
  MappingTable &mappings() { return Table_; }

  // Serializes initialization and image loading.
  FutexMutex &initMutex() RETURN_CAPABILITY(InitMutex_) { return InitMutex_; }
  bool isReady() const { return Ready_.load(std::memory_order_acquire); }
  // Calls the plugin's init_device once; requires initMutex().
  Status initializeLocked() REQUIRES(InitMutex_);
  // Marks the device ready at image generation `Generation`.
  void markReady(uint64_t Generation) {
    LoadedGeneration_.store(Generation, std::memory_order_release);
    Ready_.store(true, std::memory_order_release);
  }
  uint64_t loadedGeneration() const { return LoadedGeneration_.load(std::memory_order_acquire); }

  Expected<void *> allocate(int64_t Size, void *HstPtr, int32_t Kind);
  Status release(void *TgtPtr);
  Status submit(void *TgtPtr, void *HstPtr, int64_t Size, AsyncInfo &Async);
  Status retrieve(void *HstPtr, void *TgtPtr, int64_t Size, AsyncInfo &Async);
  // Writes the pointer value `Value` to device address `TgtAddr` on the
  // construct's queue; the source buffer lives until the construct's
  // synchronize (attached pointers, lambda captures).
  Status submitPointer(void *TgtAddr, void *Value, AsyncInfo &Async);
  // Copy to `Dst` (this device or another device of the same plugin).
  Status exchange(void *SrcPtr, Device &Dst, void *DstPtr, int64_t Size, AsyncInfo &Async);
  bool canExchangeWith(const Device &Dst) const;
  Status launch(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs, bool Teams,
                int32_t NumTeams, int32_t ThreadLimit, uint64_t TripCount, AsyncInfo &Async);
  Status synchronize(__tgt_async_info &Raw);

  // The device's unique id (omp_get_uid_from_device): the plugin's
  // get_device_uid, or "<plugin>-<local id>" ("x86_64-0", from the plugin's
  // file name libomptarget.rtl.<plugin>.so) when the plugin has no such
  // entry or it fails. Asked once; needs no initialization; the string lives
  // as long as the device.
  const char *uid();
  // Can the device access the host memory [Ptr, Ptr + Size) directly? The
  // plugin's is_accessible_ptr; false without it (LLVM 14's plugins).
  // Requires an initialized device.
  bool canAccess(const void *Ptr, size_t Size);

  // Entry events. Require the entry's TransferMutex.
  bool hasEvents() const { return Plugin_.hasEvents(); }
  // The plugin finishes every operation before the enqueueing call returns
  // (asked once, at initialization): no events or waits are needed.
  bool completesSynchronously() const { return CompletesSynchronously_; }
  // The plugin's queues persist and take event records from any thread
  // (queues_persist): an entry's event is recorded on the issuing queue only
  // when a reusing construct needs it (asked once, at initialization).
  bool queuesPersist() const { return QueuesPersist_; }
  // After issuing a copy into E on Async's queue: makes the copy waitable
  // (records E's event, or remembers the queue when queues persist) and marks
  // it in flight until Async's synchronize.
  Status markCopyInFlight(MapEntry &E, AsyncInfo &Async) REQUIRES(E.TransferMutex);
  // Orders Async's later work after E's in-flight copy.
  Status waitEntryCopy(MapEntry &E, AsyncInfo &Async) REQUIRES(E.TransferMutex);
  void destroyEvent(void *Event);

 private:
  const int32_t Id_;
  Plugin &Plugin_;
  const int32_t PluginDeviceId_;
  MappingTable Table_;
  FutexMutex InitMutex_;
  bool Initialized_ GUARDED_BY(InitMutex_) = false;
  std::once_flag UidOnce_;
  std::string Uid_;  // written once, under UidOnce_
  bool CompletesSynchronously_ = false;  // set once before the device is ready
  bool QueuesPersist_ = false;           // likewise
  // The plugin's direct table (direct_device), all null when the plugin has
  // none or OMPTARGET_PLUGIN_DIRECT_CALLS=0; set once before the device is
  // ready. Each wrapper below calls it instead of the entry when set.
  __tgt_direct_device Direct_{};
  std::atomic<bool> Ready_{false};
  std::atomic<uint64_t> LoadedGeneration_{0};
};

}  // namespace omptarget::core
