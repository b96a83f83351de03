// Exported entries: kernel launch, queues, events, pinned memory, settings,
// device ids, host-memory accessibility and the device's description
// (print_device_info and device_properties: GenericDevice::describe), and
// the device-side profile (profile_device).
#include <cstdio>

#include "exporter.h"

using namespace omptarget;
using namespace omptarget::plugin;
using namespace omptarget::plugin::exporter;

namespace {

// The device DeviceId, started if it is not: LLVM 14's core asks for the
// listing of a device it has not started (llvm-omp-device-info), and so do
// device listings through our core; a later init_device finds it started.
Expected<GenericDevice *> startedDevice(int32_t DeviceId, const char *Call) {
  GenericPlugin &P = thePlugin();
  if (GenericDevice *Dev = P.readyDevice(DeviceId)) return Dev;
  if (DeviceId >= 0 && DeviceId < P.numberOfDevices()) {
    if (Status S = P.initDevice(DeviceId); !S)
      return makeError("%s: %s", Call, S.error().message().c_str());
  }
  return P.device(DeviceId, Call);  // or why there is none ("invalid device id")
}

// Hands each property to the core's function (device_properties).
class CallbackSink final : public PropertySink {
 public:
  CallbackSink(__tgt_device_property_fn Fn, void *Ctx) : Fn_(Fn), Ctx_(Ctx) {}
  using PropertySink::add;
  void add(const char *Key, const std::string &Value) override { Fn_(Ctx_, Key, Value.c_str()); }

 private:
  __tgt_device_property_fn Fn_;
  void *Ctx_;
};

}  // namespace

extern "C" {

int32_t __tgt_rtl_run_target_region(int32_t DeviceId, void *Entry, void **Args, ptrdiff_t *Offsets,
                                    int32_t NumArgs) noexcept {
  return runSync(DeviceId, "run_target_region", [&](GenericDevice &D, __tgt_async_info *AI) {
    return D.launchKernel(Entry, Args, Offsets, NumArgs, 1, 0, 0, false, AI);
  });
}

int32_t __tgt_rtl_run_target_region_async(int32_t DeviceId, void *Entry, void **Args,
                                          ptrdiff_t *Offsets, int32_t NumArgs,
                                          __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "run_target_region_async", [&](GenericDevice &D) {
    return D.launchKernel(Entry, Args, Offsets, NumArgs, 1, 0, 0, false, AsyncInfo);
  });
}

int32_t __tgt_rtl_run_target_team_region(int32_t DeviceId, void *Entry, void **Args,
                                         ptrdiff_t *Offsets, int32_t NumArgs, int32_t NumTeams,
                                         int32_t ThreadLimit, uint64_t LoopTripCount) noexcept {
  return runSync(DeviceId, "run_target_team_region", [&](GenericDevice &D, __tgt_async_info *AI) {
    return D.launchKernel(Entry, Args, Offsets, NumArgs, NumTeams, ThreadLimit, LoopTripCount, true,
                          AI);
  });
}

int32_t __tgt_rtl_run_target_team_region_async(int32_t DeviceId, void *Entry, void **Args,
                                               ptrdiff_t *Offsets, int32_t NumArgs,
                                               int32_t NumTeams, int32_t ThreadLimit,
                                               uint64_t LoopTripCount,
                                               __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "run_target_team_region_async", [&](GenericDevice &D) {
    return D.launchKernel(Entry, Args, Offsets, NumArgs, NumTeams, ThreadLimit, LoopTripCount, true,
                          AsyncInfo);
  });
}

int32_t __tgt_rtl_launch_kernel_async(int32_t DeviceId, void *Entry, void **Args,
                                      ptrdiff_t *Offsets, int32_t NumArgs,
                                      const __tgt_kernel_launch *Launch,
                                      __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "launch_kernel_async", [&](GenericDevice &D) {
    return D.launchKernel(Entry, Args, Offsets, NumArgs, Launch, AsyncInfo);
  });
}

int32_t __tgt_rtl_synchronize(int32_t DeviceId, __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "synchronize",
                  [&](GenericDevice &D) { return D.synchronize(AsyncInfo); });
}

int32_t __tgt_rtl_query_async(int32_t DeviceId, __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "query_async",
                  [&](GenericDevice &D) { return D.queryAsync(AsyncInfo); });
}

int32_t __tgt_rtl_init_async_info(int32_t DeviceId, __tgt_async_info **AsyncInfo) noexcept {
  return onDevice(DeviceId, "init_async_info", [&](GenericDevice &D) -> Status {
    if (!AsyncInfo) return makeError("init_async_info: device %d: null result pointer", DeviceId);
    Expected<__tgt_async_info *> AI = D.initAsyncInfo();
    if (!AI) return AI.takeError();
    *AsyncInfo = *AI;
    return {};
  });
}

int32_t __tgt_rtl_release_async_info(int32_t DeviceId, __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "release_async_info",
                  [&](GenericDevice &D) { return D.releaseAsyncInfo(AsyncInfo); });
}

// A version this plugin does not know is refused without a message (the core
// then describes the device by itself), as direct_device does.
int32_t __tgt_rtl_interop_info(int32_t DeviceId, uint32_t Version,
                               __tgt_interop_info *Info) noexcept {
  if (Version != OMPTARGET_INTEROP_INFO_VERSION) return kFail;
  return onDevice(DeviceId, "interop_info", [&](GenericDevice &D) -> Status {
    if (!Info) return makeError("interop_info: device %d: null __tgt_interop_info", DeviceId);
    D.interopInfo(*Info);
    return {};
  });
}

int32_t __tgt_rtl_init_device_info(int32_t DeviceId, __tgt_device_info *Info,
                                   const char **ErrStr) noexcept {
  return onDevice(DeviceId, "init_device_info",
                  [&](GenericDevice &D) { return D.initDeviceInfo(Info, ErrStr); });
}

int32_t __tgt_rtl_create_event(int32_t DeviceId, void **Event) noexcept {
  return onDevice(DeviceId, "create_event", [&](GenericDevice &D) -> Status {
    if (!Event) return makeError("create_event: device %d: null result pointer", DeviceId);
    return toStatus(D.createEvent(), Event);
  });
}

int32_t __tgt_rtl_record_event(int32_t DeviceId, void *Event,
                               __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "record_event",
                  [&](GenericDevice &D) { return D.recordEvent(Event, AsyncInfo); });
}

int32_t __tgt_rtl_wait_event(int32_t DeviceId, void *Event, __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "wait_event",
                  [&](GenericDevice &D) { return D.waitEvent(Event, AsyncInfo); });
}

int32_t __tgt_rtl_sync_event(int32_t DeviceId, void *Event) noexcept {
  return onDevice(DeviceId, "sync_event", [&](GenericDevice &D) { return D.syncEvent(Event); });
}

int32_t __tgt_rtl_destroy_event(int32_t DeviceId, void *Event) noexcept {
  return onDevice(DeviceId, "destroy_event",
                  [&](GenericDevice &D) { return D.destroyEvent(Event); });
}

int32_t __tgt_rtl_data_lock(int32_t DeviceId, void *HstPtr, int64_t Size,
                            void **LockedPtr) noexcept {
  return onDevice(DeviceId, "data_lock", [&](GenericDevice &D) -> Status {
    if (!LockedPtr) return makeError("data_lock: device %d: null result pointer", DeviceId);
    return toStatus(D.dataLock(HstPtr, Size), LockedPtr);
  });
}

int32_t __tgt_rtl_data_try_lock(int32_t DeviceId, void *HstPtr, int64_t Size,
                                void **LockedPtr) noexcept {
  return onDevice(DeviceId, "data_try_lock", [&](GenericDevice &D) -> Status {
    if (!LockedPtr) return makeError("data_try_lock: device %d: null result pointer", DeviceId);
    *LockedPtr = D.dataTryLock(HstPtr, Size);
    return {};
  });
}

int32_t __tgt_rtl_data_unlock(int32_t DeviceId, void *HstPtr) noexcept {
  return onDevice(DeviceId, "data_unlock", [&](GenericDevice &D) { return D.dataUnlock(HstPtr); });
}

int32_t __tgt_rtl_completes_synchronously(int32_t DeviceId) noexcept {
  Expected<GenericDevice *> Dev = thePlugin().device(DeviceId, "completes_synchronously");
  return Dev && (*Dev)->completesSynchronously() && (*Dev)->hasSharedQueue() ? 1 : 0;
}

int32_t __tgt_rtl_accept_deferred_retrieves(int32_t DeviceId) noexcept {
  return onDevice(DeviceId, "accept_deferred_retrieves", [&](GenericDevice &D) -> Status {
    D.acceptDeferredRetrieves();
    return {};
  });
}

int32_t __tgt_rtl_queues_persist(int32_t DeviceId) noexcept {
  Expected<GenericDevice *> Dev = thePlugin().device(DeviceId, "queues_persist");
  return Dev && (*Dev)->queuesPersist() ? 1 : 0;
}

int32_t __tgt_rtl_get_device_uid(int32_t DeviceId, const char **Uid) noexcept {
  return guard("get_device_uid", [&]() -> Status {
    if (!Uid) return makeError("get_device_uid: device %d: null result pointer", DeviceId);
    Expected<const char *> U = thePlugin().deviceUid(DeviceId);
    if (!U) return U.takeError();
    *Uid = *U;
    return {};
  });
}

int32_t __tgt_rtl_is_accessible_ptr(int32_t DeviceId, const void *Ptr, int64_t Size) noexcept {
  GenericDevice *Dev = thePlugin().readyDevice(DeviceId);
  try {
    return Dev && Dev->isAccessible(Ptr, Size) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

void __tgt_rtl_set_info_flag(uint32_t Flags) noexcept { thePlugin().setInfoFlags(Flags); }

void __tgt_rtl_print_device_info(int32_t DeviceId) noexcept {
  (void)guard("print_device_info", [&]() -> Status {
    Expected<GenericDevice *> Dev = startedDevice(DeviceId, "print_device_info");
    if (!Dev) return Dev.takeError();
    std::printf("Device %d (%s plugin):\n", DeviceId, thePlugin().name().c_str());
    (*Dev)->printInfo();
    return {};
  });
}

int32_t __tgt_rtl_device_properties(int32_t DeviceId, __tgt_device_property_fn Fn,
                                    void *Ctx) noexcept {
  return guard("device_properties", [&]() -> Status {
    if (!Fn) return makeError("device_properties: device %d: null callback", DeviceId);
    Expected<GenericDevice *> Dev = startedDevice(DeviceId, "device_properties");
    if (!Dev) return Dev.takeError();
    CallbackSink Sink(Fn, Ctx);
    (*Dev)->describe(Sink);
    return {};
  });
}

int32_t __tgt_rtl_profile_device(int32_t DeviceId, uint32_t Version, __tgt_device_op_fn Fn,
                                 void *Ctx) noexcept {
  return guard("profile_device", [&]() -> Status {
    if (Version != OMPTARGET_DEVICE_OP_VERSION)
      return makeError(
          "profile_device: device %d: operation record version %u is not %u, the "
          "one this plugin knows",
          DeviceId, Version, OMPTARGET_DEVICE_OP_VERSION);
    if (!Fn) return makeError("profile_device: device %d: null callback", DeviceId);
    GenericDevice *Dev = thePlugin().readyDevice(DeviceId);
    if (!Dev)
      return makeError("profile_device: device %d: not a started device of the %s plugin", DeviceId,
                       thePlugin().name().c_str());
    Dev->enableProfile(Fn, Ctx);
    return {};
  });
}

}  // extern "C"
