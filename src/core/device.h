// One offload device: a plugin and the plugin's local device number, its
// mapping table, and thin wrappers over the plugin's operations that turn
// OFFLOAD_FAIL into Errors naming the call and values.
//
// Everything that depends on what kind of plugin serves the device is
// decided once, at initialization, and then only read:
// - the operations table (device_ops.h): allocate, free, submit, retrieve
//   and launch are each one indirect call, whatever the plugin;
// - the copy policy (CopyPolicy below): how copies into mapping entries are
//   made visible to other threads (entry_copies.h implements it);
// - whether the program requires unified shared memory.
//
// Thread safety: `InitMutex_` (a FutexMutex) guards initialization and image
// loading; after `isReady()` the device is used concurrently and the members
// set at initialization are immutable. Plugin calls are made without core
// locks held, except allocation of a new map entry (table lock held so that
// no other thread can map the same range twice).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "device_ops.h"
#include "error.h"
#include "futex_mutex.h"
#include "mapping_table.h"
#include "plugin.h"
#include "thread_annotations.h"

namespace omptarget::core {

// How a device's copies into mapping entries are ordered before other
// constructs' use of those entries (the rules are in entry_copies.h).
enum class CopyPolicy : uint8_t {
  // Every operation is complete when the enqueueing call returns
  // (completes_synchronously): no events, no waits, no synchronize.
  Immediate,
  // Queued; after a copy into an entry its event is recorded on the issuing
  // queue, and a construct that reuses the entry waits for that event.
  RecordEvent,
  // Queued on queues that persist (queues_persist): the event is recorded on
  // the issuing queue only when a reusing construct needs it.
  RecordWhenNeeded,
  // Queued, without events (LLVM 14's plugins; ours without event entries):
  // a copy into an entry is finished, by synchronizing its queue, before
  // other threads may use the entry.
  FinishUnderEntryLock,
};
const char *copyPolicyName(CopyPolicy P);

// The launch of clang 14's __tgt_target[_teams] entries (KernelArgs version
// 0): a team region with its clause values (0: unspecified; a negative value
// counts as unspecified, as LLVM 14's plugins read it), or a plain region.
inline __tgt_kernel_launch clang14Launch(bool Teams, int32_t NumTeams, int32_t ThreadLimit,
                                         uint64_t TripCount) {
  __tgt_kernel_launch L{};
  L.Version = OMPTARGET_KERNEL_LAUNCH_VERSION;
  L.IsTeamRegion = Teams ? 1 : 0;
  if (Teams) {
    L.NumTeams[0] = NumTeams > 0 ? static_cast<uint32_t>(NumTeams) : 0;
    L.ThreadLimit[0] = ThreadLimit > 0 ? static_cast<uint32_t>(ThreadLimit) : 0;
    L.LoopTripCount = TripCount;
  } else {
    L.NumTeams[0] = 1;  // a plain region is one team
  }
  return L;
}

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
  // Calls the plugin's init_device once and decides what depends on the
  // plugin (see the top of this file); requires initMutex().
  Status initializeLocked(bool RequiresUnifiedSharedMemory) REQUIRES(InitMutex_);
  // The name of the device's tracks in the profile.
  std::string profileLabel();
  // Marks the device ready at image generation `Generation`.
  void markReady(uint64_t Generation) {
    LoadedGeneration_.store(Generation, std::memory_order_release);
    Ready_.store(true, std::memory_order_release);
  }
  uint64_t loadedGeneration() const { return LoadedGeneration_.load(std::memory_order_acquire); }

  // The device's copy policy, and the questions the core asks of it.
  CopyPolicy copyPolicy() const { return CopyPolicy_; }
  // Finishes every operation before the enqueueing call returns.
  bool completesSynchronously() const { return CopyPolicy_ == CopyPolicy::Immediate; }
  // The program requires unified shared memory: an unmapped host address is
  // used as is on this device (unless a map says `close`).
  bool unifiedSharedMemory() const { return UnifiedSharedMemory_; }

  // Locked host memory (llvm_omp_target_lock_mem): the plugin's data_lock /
  // data_unlock, reference-counted there. A plugin without them (LLVM 14's)
  // locks nothing: lockHost returns HstPtr itself (its copies take the
  // pageable route) and unlockHost does nothing.
  bool canLockHost() const { return Plugin_.fn().data_lock && Plugin_.fn().data_unlock; }
  Expected<void *> lockHost(void *HstPtr, int64_t Size);
  // A lock the caller can do without (a mapping's, below): null when the
  // range cannot be locked, which the plugin then reports as a trace line
  // only (data_try_lock; a plugin without it reports through data_lock).
  Expected<void *> tryLockHost(void *HstPtr, int64_t Size);
  Status unlockHost(void *HstPtr);
  // LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS=1: new mapping entries of at least
  // this many bytes (OMPTARGET_LOCK_MAPPED_MIN_BYTES) lock their host range
  // for their lifetime; 0 when off or the plugin cannot lock. Set at init.
  int64_t lockMappedMinBytes() const { return LockMappedMinBytes_; }
  // The default of OMPTARGET_LOCK_MAPPED_MIN_BYTES (docs/benchmarks.md,
  // "Locked host memory", has the measurement behind it).
  static constexpr int64_t kLockMappedMinBytes = int64_t(4) << 20;

  // Stream-ordered allocation and release (the plugin's data_alloc_async /
  // data_delete_async, or our direct table's): decided at initialization;
  // false for plugins without them (LLVM 14's) and for devices whose work
  // completes when issued. When true, allocate and freeMemory given an
  // AsyncInfo order the allocation and the release on its queue: the
  // memory may be used by the construct's later work (other constructs
  // wait for it through the mapping entry's event, entry_copies.h), and it
  // is not reused before the construct's earlier work is done.
  bool ordersAllocationOnQueue() const { return OrdersAllocationOnQueue_; }
  // The operations below take the construct's plugin-level async info (an
  // AsyncInfo's raw(), async_info.h): the device knows queues, not
  // constructs.
  // Device memory for Size bytes; on Queue when ordersAllocationOnQueue()
  // (else Queue is ignored).
  Expected<void *> allocate(int64_t Size, void *HstPtr, int32_t Kind,
                            __tgt_async_info *Queue = nullptr);
  // Frees device memory that allocate returned; on Queue when
  // ordersAllocationOnQueue() (else at once: the caller has synchronized).
  Status freeMemory(void *TgtPtr, __tgt_async_info *Queue = nullptr);
  Status submit(void *TgtPtr, void *HstPtr, int64_t Size, __tgt_async_info &Queue);
  Status retrieve(void *HstPtr, void *TgtPtr, int64_t Size, __tgt_async_info &Queue);
  // Copy to `Dst` (this device or another device of the same plugin).
  Status exchange(void *SrcPtr, Device &Dst, void *DstPtr, int64_t Size, __tgt_async_info &Queue);
  bool canExchangeWith(const Device &Dst) const;
  // Launch: the kernel's shape as launch_kernel_async takes it
  // (kernelLaunch builds one from clang 14's values).
  Status launch(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                const __tgt_kernel_launch &Launch, __tgt_async_info &Queue);
  Status synchronize(__tgt_async_info &Raw);
  // The plugin's query_async: Raw.Queue null once the queue's work is done
  // (synchronized), unchanged while it runs; synchronize() for a plugin
  // without it.
  Status queryAsync(__tgt_async_info &Raw);

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

 private:
  // Calls the plugin's data_lock or data_try_lock (the same signature); a
  // null result is a failure unless MayDecline (data_try_lock left the
  // range unlocked).
  using LockEntry = int32_t (*)(int32_t, void *, int64_t, void **);
  Expected<void *> lockWith(LockEntry Lock, void *HstPtr, int64_t Size, bool MayDecline);

  const int32_t Id_;
  Plugin &Plugin_;
  const int32_t PluginDeviceId_;
  MappingTable Table_;
  FutexMutex InitMutex_;
  bool Initialized_ GUARDED_BY(InitMutex_) = false;
  std::once_flag UidOnce_;
  std::string Uid_;  // written once, under UidOnce_
  // Set once in initializeLocked, before the device is ready.
  CopyPolicy CopyPolicy_ = CopyPolicy::FinishUnderEntryLock;
  bool UnifiedSharedMemory_ = false;
  int64_t LockMappedMinBytes_ = 0;
  bool OrdersAllocationOnQueue_ = false;
  EntryPointHandle EntryPoints_;  // the adapters' handle (device_ops.h)
  __tgt_direct_device Ops_{};
  std::atomic<bool> Ready_{false};
  std::atomic<uint64_t> LoadedGeneration_{0};
};

}  // namespace omptarget::core
