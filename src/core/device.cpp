#include "device.h"

#include <cinttypes>
#include <memory>
#include <string_view>

#include "async_info.h"
#include "debug.h"
#include "env.h"

namespace omptarget::core {

using abi::kOffloadSuccess;

Status Device::initializeLocked() {
  if (Initialized_) return Status::success();
  if (Plugin_.fn().init_device(PluginDeviceId_) != kOffloadSuccess)
    return makeError("device %d: plugin %s failed to initialize its device %d", Id_,
                     Plugin_.name().c_str(), PluginDeviceId_);
  Initialized_ = true;
  const auto &F = Plugin_.fn();
  CompletesSynchronously_ = F.completes_synchronously && F.completes_synchronously(PluginDeviceId_) == 1;
  QueuesPersist_ = F.queues_persist && F.queues_persist(PluginDeviceId_) == 1;
  if (F.direct_device && env::getInt("OMPTARGET_PLUGIN_DIRECT_CALLS", 1, 0, 1) == 1) {
    __tgt_direct_device T{};
    if (F.direct_device(PluginDeviceId_, OMPTARGET_DIRECT_DEVICE_VERSION, &T) == kOffloadSuccess &&
        T.Device && T.data_alloc && T.data_delete && T.data_submit_async &&
        T.data_retrieve_async && T.run_region_async) {
      Direct_ = T;
      OMPT_TRACE("omptarget", "Device %d: calling plugin %s through its direct table", Id_,
                 Plugin_.name().c_str());
    } else {
      OMPT_TRACE("omptarget", "Device %d: plugin gave no direct table; using its entry points", Id_);
    }
  }
  // Every retrieve's host memory is read after the construct's synchronize
  // (shadow pointers are restored in afterSync actions), so say so.
  if (F.accept_deferred_retrieves && F.accept_deferred_retrieves(PluginDeviceId_) != kOffloadSuccess)
    OMPT_TRACE("omptarget", "Device %d: plugin refused deferred retrieves", Id_);
  OMPT_TRACE("omptarget", "Device %d initialized (plugin %s, local id %d)", Id_,
             Plugin_.name().c_str(), PluginDeviceId_);
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
    // "libomptarget.rtl.x86_64.so" (perhaps with a directory) -> "x86_64".
    std::string Name = Plugin_.name();
    if (size_t Slash = Name.rfind('/'); Slash != std::string::npos) Name.erase(0, Slash + 1);
    constexpr std::string_view Prefix = "libomptarget.rtl.", Suffix = ".so";
    if (Name.size() > Prefix.size() + Suffix.size() && Name.starts_with(Prefix) &&
        Name.ends_with(Suffix))
      Name = Name.substr(Prefix.size(), Name.size() - Prefix.size() - Suffix.size());
    Uid_ = formatString("%s-%d", Name.c_str(), PluginDeviceId_);
  });
  return Uid_.c_str();
}

bool Device::canAccess(const void *Ptr, size_t Size) {
  const auto &F = Plugin_.fn();
  if (!F.is_accessible_ptr) return false;
  return F.is_accessible_ptr(PluginDeviceId_, Ptr, static_cast<int64_t>(Size)) == 1;
}

Expected<void *> Device::allocate(int64_t Size, void *HstPtr, int32_t Kind) {
  void *Ptr = Direct_.data_alloc ? Direct_.data_alloc(Direct_.Device, Size, HstPtr, Kind)
                                : Plugin_.fn().data_alloc(PluginDeviceId_, Size, HstPtr, Kind);
  if (!Ptr && Size > 0)
    // The plugin's own error line says why (out of memory, a driver shutting
    // down, ...): no guess here.
    return makeError("device %d: the plugin could not allocate %" PRId64 " bytes (its message, if "
                     "any, says why)",
                     Id_, Size);
  OMPT_TRACE("omptarget", "Device %d: allocated %" PRId64 " bytes at %p", Id_, Size, Ptr);
  return Ptr;
}

Status Device::release(void *TgtPtr) {
  int32_t Rc = Direct_.data_delete ? Direct_.data_delete(Direct_.Device, TgtPtr)
                                   : Plugin_.fn().data_delete(PluginDeviceId_, TgtPtr);
  if (Rc != kOffloadSuccess)
    return makeError("device %d: freeing device memory at %p failed", Id_, TgtPtr);
  OMPT_TRACE("omptarget", "Device %d: freed %p", Id_, TgtPtr);
  return Status::success();
}

Status Device::submit(void *TgtPtr, void *HstPtr, int64_t Size, AsyncInfo &Async) {
  OMPT_TRACE("omptarget", "Device %d: copy %" PRId64 " bytes host %p -> device %p", Id_, Size,
             HstPtr, TgtPtr);
  const auto &F = Plugin_.fn();
  int32_t Rc = Direct_.data_submit_async
                   ? Direct_.data_submit_async(Direct_.Device, TgtPtr, HstPtr, Size, Async.raw())
               : F.data_submit_async
                   ? F.data_submit_async(PluginDeviceId_, TgtPtr, HstPtr, Size, Async.raw())
                   : F.data_submit(PluginDeviceId_, TgtPtr, HstPtr, Size);
  if (Rc != kOffloadSuccess)
    return makeError("device %d: copying %" PRId64 " bytes from host %p to device %p failed", Id_,
                     Size, HstPtr, TgtPtr);
  return Status::success();
}

Status Device::retrieve(void *HstPtr, void *TgtPtr, int64_t Size, AsyncInfo &Async) {
  OMPT_TRACE("omptarget", "Device %d: copy %" PRId64 " bytes device %p -> host %p", Id_, Size,
             TgtPtr, HstPtr);
  const auto &F = Plugin_.fn();
  int32_t Rc = Direct_.data_retrieve_async
                   ? Direct_.data_retrieve_async(Direct_.Device, HstPtr, TgtPtr, Size, Async.raw())
               : F.data_retrieve_async
                   ? F.data_retrieve_async(PluginDeviceId_, HstPtr, TgtPtr, Size, Async.raw())
                   : F.data_retrieve(PluginDeviceId_, HstPtr, TgtPtr, Size);
  if (Rc != kOffloadSuccess)
    return makeError("device %d: copying %" PRId64 " bytes from device %p to host %p failed", Id_,
                     Size, TgtPtr, HstPtr);
  return Status::success();
}

Status Device::submitPointer(void *TgtAddr, void *Value, AsyncInfo &Async) {
  auto Buffer = std::make_shared<void *>(Value);
  Async.afterSync([Buffer] { return Status::success(); });
  return submit(TgtAddr, Buffer.get(), sizeof(void *), Async);
}

bool Device::canExchangeWith(const Device &Dst) const {
  if (&Dst.Plugin_ != &Plugin_) return false;
  const auto &F = Plugin_.fn();
  if (!F.data_exchange && !F.data_exchange_async) return false;
  if (Dst.Id_ == Id_) return true;
  return F.is_data_exchangable && F.is_data_exchangable(PluginDeviceId_, Dst.PluginDeviceId_);
}

Status Device::exchange(void *SrcPtr, Device &Dst, void *DstPtr, int64_t Size, AsyncInfo &Async) {
  const auto &F = Plugin_.fn();
  int32_t Rc = F.data_exchange_async
                   ? F.data_exchange_async(PluginDeviceId_, SrcPtr, Dst.PluginDeviceId_, DstPtr,
                                           Size, Async.raw())
                   : F.data_exchange(PluginDeviceId_, SrcPtr, Dst.PluginDeviceId_, DstPtr, Size);
  if (Rc != kOffloadSuccess)
    return makeError("copying %" PRId64 " bytes from device %d (%p) to device %d (%p) failed",
                     Size, Id_, SrcPtr, Dst.Id_, DstPtr);
  return Status::success();
}

Status Device::launch(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs, bool Teams,
                      int32_t NumTeams, int32_t ThreadLimit, uint64_t TripCount,
                      AsyncInfo &Async) {
  const auto &F = Plugin_.fn();
  int32_t Rc;
  if (Direct_.run_region_async) {
    Rc = Direct_.run_region_async(Direct_.Device, Entry, Args, Offsets, NumArgs, NumTeams,
                                  ThreadLimit, TripCount, Teams ? 1 : 0, Async.raw());
  } else if (Teams) {
    Rc = F.run_target_team_region_async
             ? F.run_target_team_region_async(PluginDeviceId_, Entry, Args, Offsets, NumArgs,
                                              NumTeams, ThreadLimit, TripCount, Async.raw())
             : F.run_target_team_region(PluginDeviceId_, Entry, Args, Offsets, NumArgs, NumTeams,
                                        ThreadLimit, TripCount);
  } else {
    Rc = F.run_target_region_async
             ? F.run_target_region_async(PluginDeviceId_, Entry, Args, Offsets, NumArgs,
                                         Async.raw())
             : F.run_target_region(PluginDeviceId_, Entry, Args, Offsets, NumArgs);
  }
  if (Rc != kOffloadSuccess) return makeError("device %d: launching the kernel failed", Id_);
  return Status::success();
}

Status Device::synchronize(__tgt_async_info &Raw) {
  const auto &F = Plugin_.fn();
  if (!F.synchronize || !Raw.Queue) return Status::success();
  // Everything completed when it was issued and the queue is not the
  // construct's to give back (completes_synchronously promises both).
  if (CompletesSynchronously_) {
    Raw.Queue = nullptr;
    return Status::success();
  }
  if (F.synchronize(PluginDeviceId_, &Raw) != kOffloadSuccess)
    return makeError("device %d: waiting for queued work failed", Id_);
  return Status::success();
}

namespace {
// E's event recorded on Queue (created on first use, reused for every copy).
Status recordOn(const PluginFunctions &F, int32_t PluginDeviceId, int32_t Id, MapEntry &E,
                __tgt_async_info *Queue) {
  if (!E.Event && F.create_event(PluginDeviceId, &E.Event) != kOffloadSuccess) {
    E.Event = nullptr;
    return makeError("device %d: creating an event failed", Id);
  }
  if (F.record_event(PluginDeviceId, E.Event, Queue) != kOffloadSuccess)
    return makeError("device %d: recording an event failed", Id);
  return Status::success();
}
}  // namespace

Status Device::markCopyInFlight(MapEntry &E, AsyncInfo &Async) {
  if (QueuesPersist_) {
    // Nothing to record unless someone reuses the entry before Async's
    // synchronize (waitEntryCopy records then, on this queue).
    E.CopyQueue = Async.raw()->Queue;
  } else if (Status S = recordOn(Plugin_.fn(), PluginDeviceId_, Id_, E, Async.raw()); !S) {
    return S;
  }
  // The construct holds a reference to E until after its synchronization;
  // this runs before any release it schedules, a failure rollback included.
  E.CopyInFlight.store(true, std::memory_order_release);
  Async.whenQueueDone([&E] {
    E.CopyInFlight.store(false, std::memory_order_release);
    return Status::success();
  });
  return Status::success();
}

Status Device::waitEntryCopy(MapEntry &E, AsyncInfo &Async) {
  if (QueuesPersist_) {
    // Recorded now on the issuing queue: after the copy (issued before
    // TransferMutex was released), perhaps after later work of that queue
    // too, which only makes the wait longer. The queue may already be back
    // in its pool; it persists, so the record is still valid.
    __tgt_async_info Issuer;
    Issuer.Queue = E.CopyQueue;
    if (!Issuer.Queue) return Status::success();
    if (Status S = recordOn(Plugin_.fn(), PluginDeviceId_, Id_, E, &Issuer); !S) return S;
  }
  if (!E.Event) return Status::success();
  if (Plugin_.fn().wait_event(PluginDeviceId_, E.Event, Async.raw()) != kOffloadSuccess)
    return makeError("device %d: waiting for the copy of host " OMPT_PTR_FMT " failed", Id_,
                     E.HstBegin);
  return Status::success();
}

void Device::destroyEvent(void *Event) {
  if (Plugin_.fn().destroy_event) Plugin_.fn().destroy_event(PluginDeviceId_, Event);
}

}  // namespace omptarget::core
