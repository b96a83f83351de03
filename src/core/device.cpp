#include "device.h"

#include <cinttypes>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "debug.h"
#include "env.h"
#include "profile.h"

namespace omptarget::core {

using abi::kOffloadSuccess;

const char *copyPolicyName(CopyPolicy P) {
  switch (P) {
    case CopyPolicy::Immediate: return "immediate";
    case CopyPolicy::RecordEvent: return "queued, entry events";
    case CopyPolicy::RecordWhenNeeded: return "queued, entry events recorded when needed";
    case CopyPolicy::FinishUnderEntryLock: return "queued, no events";
  }
  return "unknown";
}

// "device 0: NVIDIA H200 (cuda)": the device's name from the plugin's
// properties when it lists them (only asked for when the profile records).
std::string Device::profileLabel() {
  std::string Name;
  if (auto Describe = Plugin_.fn().device_properties) {
    auto Keep = [](void *Ctx, const char *Key, const char *Value) {
      if (std::string_view(Key) == "name") *static_cast<std::string *>(Ctx) = Value;
    };
    if (Describe(PluginDeviceId_, Keep, &Name) != kOffloadSuccess) Name.clear();
  }
  std::string Label = "device " + std::to_string(Id_) + ": ";
  Label += Name.empty() ? "device " + std::to_string(PluginDeviceId_) : Name;
  return Label + " (" + Plugin_.targetName() + ")";
}

Status Device::initializeLocked(bool RequiresUnifiedSharedMemory) {
  if (Initialized_) return Status::success();
  if (Plugin_.fn().init_device(PluginDeviceId_) != kOffloadSuccess)
    return makeError("device %d: plugin %s failed to initialize its device %d", Id_,
                     Plugin_.name().c_str(), PluginDeviceId_);
  Initialized_ = true;
  const auto &F = Plugin_.fn();
  if (profile::recording() && F.profile_device)
    profile::attachDevice(Id_, profileLabel(), F.profile_device, PluginDeviceId_);
  if (F.completes_synchronously && F.completes_synchronously(PluginDeviceId_) == 1)
    CopyPolicy_ = CopyPolicy::Immediate;
  else if (!Plugin_.hasEvents())
    CopyPolicy_ = CopyPolicy::FinishUnderEntryLock;
  else if (F.queues_persist && F.queues_persist(PluginDeviceId_) == 1)
    CopyPolicy_ = CopyPolicy::RecordWhenNeeded;
  else
    CopyPolicy_ = CopyPolicy::RecordEvent;
  UnifiedSharedMemory_ = RequiresUnifiedSharedMemory;
  if (env::getInt("LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS", 0, 0, 1) == 1) {
    if (canLockHost())
      LockMappedMinBytes_ = env::getInt("OMPTARGET_LOCK_MAPPED_MIN_BYTES", kLockMappedMinBytes, 1,
                                        std::numeric_limits<int64_t>::max());
    else
      OMPT_TRACE("omptarget",
                 "Device %d: LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS=1 has no effect: plugin %s "
                 "cannot lock host memory",
                 Id_, Plugin_.name().c_str());
  }
  EntryPoints_ = EntryPointHandle{&F, PluginDeviceId_, Plugin_.name().c_str()};
  BoundDeviceOps Bound = bindDeviceOps(Plugin_, EntryPoints_,
                                       env::getInt("OMPTARGET_PLUGIN_DIRECT_CALLS", 1, 0, 1) == 1);
  Ops_ = Bound.Ops;
  OrdersAllocationOnQueue_ =
      CopyPolicy_ != CopyPolicy::Immediate &&
      (Bound.Route == DeviceOpsRoute::DirectTable || (F.data_alloc_async && F.data_delete_async)) &&
      env::getInt("OMPTARGET_QUEUE_ORDERED_ALLOCATION", 1, 0, 1) == 1;
  // Every retrieve's host memory is read after the construct's synchronize
  // (shadow pointers are restored in afterSync actions), so say so.
  if (F.accept_deferred_retrieves &&
      F.accept_deferred_retrieves(PluginDeviceId_) != kOffloadSuccess)
    OMPT_TRACE("omptarget", "Device %d: plugin refused deferred retrieves", Id_);
  OMPT_TRACE("omptarget", "Device %d: calling plugin %s through its %s", Id_,
             Plugin_.name().c_str(),
             Bound.Route == DeviceOpsRoute::DirectTable ? "direct table" : "entry points");
  OMPT_TRACE("omptarget",
             "Device %d initialized (plugin %s, local id %d, copy policy: %s, allocation: %s)", Id_,
             Plugin_.name().c_str(), PluginDeviceId_, copyPolicyName(CopyPolicy_),
             OrdersAllocationOnQueue_ ? "ordered on the construct's queue" : "synchronous");
  return Status::success();
}

const char *Device::uid() {
  std::call_once(UidOnce_, [this] {
    const char *Uid = nullptr;
    const auto &F = Plugin_.fn();
    if (F.get_device_uid && F.get_device_uid(PluginDeviceId_, &Uid) == kOffloadSuccess && Uid &&
        *Uid) {
      Uid_ = Uid;
      return;
    }
    Uid_ = formatString("%s-%d", Plugin_.targetName().c_str(), PluginDeviceId_);
  });
  return Uid_.c_str();
}

bool Device::canAccess(const void *Ptr, size_t Size) {
  const auto &F = Plugin_.fn();
  if (!F.is_accessible_ptr) return false;
  return F.is_accessible_ptr(PluginDeviceId_, Ptr, static_cast<int64_t>(Size)) == 1;
}

Expected<void *> Device::lockHost(void *HstPtr, int64_t Size) {
  if (!canLockHost()) {
    OMPT_TRACE("omptarget", "Device %d: plugin %s cannot lock host memory: %p left pageable", Id_,
               Plugin_.name().c_str(), HstPtr);
    return HstPtr;
  }
  return lockWith(Plugin_.fn().data_lock, HstPtr, Size, false);
}

Expected<void *> Device::tryLockHost(void *HstPtr, int64_t Size) {
  const auto TryLock = Plugin_.fn().data_try_lock;
  if (!TryLock || !canLockHost()) return lockHost(HstPtr, Size);
  return lockWith(TryLock, HstPtr, Size, true);
}

Expected<void *> Device::lockWith(LockEntry Lock, void *HstPtr, int64_t Size, bool MayDecline) {
  void *Locked = nullptr;
  if (Lock(PluginDeviceId_, HstPtr, Size, &Locked) != kOffloadSuccess || (!Locked && !MayDecline))
    return makeError("device %d: the plugin could not lock host memory " OMPT_PTR_FMT " (%" PRId64
                     " bytes); its message, if any, says why",
                     Id_, OMPT_PTR(HstPtr), Size);
  if (Locked)
    OMPT_TRACE("omptarget", "Device %d: locked %" PRId64 " bytes at %p (device-accessible %p)", Id_,
               Size, HstPtr, Locked);
  return Locked;
}

Status Device::unlockHost(void *HstPtr) {
  if (!canLockHost()) return Status::success();
  if (Plugin_.fn().data_unlock(PluginDeviceId_, HstPtr) != kOffloadSuccess)
    return makeError("device %d: the plugin could not unlock host memory " OMPT_PTR_FMT
                     "; its message, if any, says why",
                     Id_, OMPT_PTR(HstPtr));
  OMPT_TRACE("omptarget", "Device %d: unlocked %p", Id_, HstPtr);
  return Status::success();
}

Expected<void *> Device::allocate(int64_t Size, void *HstPtr, int32_t Kind,
                                  __tgt_async_info *OnQueue) {
  __tgt_async_info *Queue = OrdersAllocationOnQueue_ ? OnQueue : nullptr;
  void *Ptr = Ops_.data_alloc(Ops_.Device, Size, HstPtr, Kind, Queue);
  if (!Ptr && Size > 0)
    // The plugin's own error line says why (out of memory, a driver shutting
    // down, ...): no guess here.
    return makeError("device %d: the plugin could not allocate %" PRId64
                     " bytes (its message, if "
                     "any, says why)",
                     Id_, Size);
  OMPT_TRACE("omptarget", "Device %d: allocated %" PRId64 " bytes at %p", Id_, Size, Ptr);
  return Ptr;
}

Status Device::freeMemory(void *TgtPtr, __tgt_async_info *OnQueue) {
  __tgt_async_info *Queue = OrdersAllocationOnQueue_ ? OnQueue : nullptr;
  if (Ops_.data_delete(Ops_.Device, TgtPtr, Queue) != kOffloadSuccess)
    return makeError("device %d: freeing device memory at %p failed", Id_, TgtPtr);
  OMPT_TRACE("omptarget", "Device %d: freed %p", Id_, TgtPtr);
  return Status::success();
}

Status Device::submit(void *TgtPtr, void *HstPtr, int64_t Size, __tgt_async_info &Queue) {
  OMPT_TRACE("omptarget", "Device %d: copy %" PRId64 " bytes host %p -> device %p", Id_, Size,
             HstPtr, TgtPtr);
  if (Ops_.data_submit_async(Ops_.Device, TgtPtr, HstPtr, Size, &Queue) != kOffloadSuccess)
    return makeError("device %d: copying %" PRId64 " bytes from host %p to device %p failed", Id_,
                     Size, HstPtr, TgtPtr);
  return Status::success();
}

Status Device::retrieve(void *HstPtr, void *TgtPtr, int64_t Size, __tgt_async_info &Queue) {
  OMPT_TRACE("omptarget", "Device %d: copy %" PRId64 " bytes device %p -> host %p", Id_, Size,
             TgtPtr, HstPtr);
  if (Ops_.data_retrieve_async(Ops_.Device, HstPtr, TgtPtr, Size, &Queue) != kOffloadSuccess)
    return makeError("device %d: copying %" PRId64 " bytes from device %p to host %p failed", Id_,
                     Size, TgtPtr, HstPtr);
  return Status::success();
}

bool Device::canExchangeWith(const Device &Dst) const {
  if (&Dst.Plugin_ != &Plugin_) return false;
  const auto &F = Plugin_.fn();
  if (!F.data_exchange && !F.data_exchange_async) return false;
  if (Dst.Id_ == Id_) return true;
  return F.is_data_exchangable && F.is_data_exchangable(PluginDeviceId_, Dst.PluginDeviceId_);
}

Status Device::exchange(void *SrcPtr, Device &Dst, void *DstPtr, int64_t Size,
                        __tgt_async_info &Queue) {
  const auto &F = Plugin_.fn();
  int32_t Rc = F.data_exchange_async
                   ? F.data_exchange_async(PluginDeviceId_, SrcPtr, Dst.PluginDeviceId_, DstPtr,
                                           Size, &Queue)
                   : F.data_exchange(PluginDeviceId_, SrcPtr, Dst.PluginDeviceId_, DstPtr, Size);
  if (Rc != kOffloadSuccess)
    return makeError("copying %" PRId64 " bytes from device %d (%p) to device %d (%p) failed", Size,
                     Id_, SrcPtr, Dst.Id_, DstPtr);
  return Status::success();
}

Status Device::launch(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                      const __tgt_kernel_launch &Launch, __tgt_async_info &Queue) {
  if (Ops_.launch_async(Ops_.Device, Entry, Args, Offsets, NumArgs, &Launch, &Queue) !=
      kOffloadSuccess)
    return makeError("device %d: launching the kernel failed", Id_);
  return Status::success();
}

Status Device::synchronize(__tgt_async_info &Raw) {
  const auto &F = Plugin_.fn();
  if (!F.synchronize || !Raw.Queue) return Status::success();
  // Everything completed when it was issued and the queue is not the
  // construct's to give back (completes_synchronously promises both).
  if (completesSynchronously()) {
    Raw.Queue = nullptr;
    return Status::success();
  }
  if (F.synchronize(PluginDeviceId_, &Raw) != kOffloadSuccess)
    return makeError("device %d: waiting for queued work failed", Id_);
  return Status::success();
}

Status Device::queryAsync(__tgt_async_info &Raw) {
  const auto &F = Plugin_.fn();
  if (!F.query_async || !Raw.Queue || completesSynchronously()) return synchronize(Raw);
  if (F.query_async(PluginDeviceId_, &Raw) != kOffloadSuccess) {
    Raw.Queue = nullptr;  // the plugin gave the queue back with the failure
    return makeError("device %d: queued work failed", Id_);
  }
  return Status::success();
}

}  // namespace omptarget::core
