// Exported entries: discovery, initialisation, images, memory, transfers.
// Errors become one "TARGET <name> RTL error: ..." line on stderr plus
// OFFLOAD_FAIL; no exception ever crosses this boundary. Synchronous entries
// run their asynchronous variant on a temporary __tgt_async_info and
// synchronize it.
#include "exporter.h"

using namespace omptarget;
using namespace omptarget::plugin;
using namespace omptarget::plugin::exporter;

extern "C" {

int32_t __tgt_rtl_is_valid_binary(__tgt_device_image *Image) noexcept {
  try {
    return thePlugin().isValidBinary(Image) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

int32_t __tgt_rtl_number_of_devices() noexcept { return thePlugin().numberOfDevices(); }

int32_t __tgt_rtl_init_device(int32_t DeviceId) noexcept {
  return guard("init_device", [&] { return thePlugin().initDevice(DeviceId); });
}

__tgt_target_table *__tgt_rtl_load_binary(int32_t DeviceId, __tgt_device_image *Image) noexcept {
  __tgt_target_table *Table = nullptr;
  guard("load_binary", [&]() -> Status {
    Expected<GenericDevice *> Dev = thePlugin().device(DeviceId, "load_binary");
    if (!Dev) return Dev.takeError();
    if (!Image) return makeError("load_binary: device %d: null image", DeviceId);
    Expected<__tgt_target_table *> T = (*Dev)->loadBinary(*Image);
    if (!T) return T.takeError();
    Table = *T;
    return {};
  });
  return Table;
}

int32_t __tgt_rtl_unload_binary(int32_t DeviceId, __tgt_device_image *Image) noexcept {
  return onDevice(DeviceId, "unload_binary", [&](GenericDevice &D) -> Status {
    if (!Image) return makeError("unload_binary: device %d: null image", DeviceId);
    return D.unloadBinary(*Image);
  });
}

int64_t __tgt_rtl_init_requires(int64_t RequiresFlags) noexcept {
  return thePlugin().initRequires(RequiresFlags);
}

void *__tgt_rtl_data_alloc(int32_t DeviceId, int64_t Size, void *HostPtr, int32_t Kind) noexcept {
  void *Ptr = nullptr;
  onDevice(DeviceId, "data_alloc", [&](GenericDevice &D) {
    return toStatus(D.dataAlloc(Size, HostPtr, Kind, nullptr), &Ptr);
  });
  return Ptr;
}

int32_t __tgt_rtl_data_alloc_async(int32_t DeviceId, int64_t Size, void *HostPtr, int32_t Kind,
                                   void **TgtPtr, __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "data_alloc_async", [&](GenericDevice &D) -> Status {
    if (!TgtPtr || !AsyncInfo)
      return makeError("data_alloc_async: device %d: null %s", DeviceId,
                       TgtPtr ? "__tgt_async_info" : "result pointer");
    return toStatus(D.dataAlloc(Size, HostPtr, Kind, AsyncInfo), TgtPtr);
  });
}

int32_t __tgt_rtl_data_delete(int32_t DeviceId, void *TgtPtr) noexcept {
  return onDevice(DeviceId, "data_delete",
                  [&](GenericDevice &D) { return D.dataDelete(TgtPtr, nullptr); });
}

int32_t __tgt_rtl_data_delete_async(int32_t DeviceId, void *TgtPtr,
                                    __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "data_delete_async", [&](GenericDevice &D) -> Status {
    if (!AsyncInfo)
      return makeError("data_delete_async: device %d: null __tgt_async_info", DeviceId);
    return D.dataDelete(TgtPtr, AsyncInfo);
  });
}

int32_t __tgt_rtl_data_submit(int32_t DeviceId, void *TgtPtr, void *HstPtr, int64_t Size) noexcept {
  return runSync(DeviceId, "data_submit", [&](GenericDevice &D, __tgt_async_info *AI) {
    return D.dataSubmit(TgtPtr, HstPtr, Size, AI);
  });
}

int32_t __tgt_rtl_data_submit_async(int32_t DeviceId, void *TgtPtr, void *HstPtr, int64_t Size,
                                    __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "data_submit_async",
                  [&](GenericDevice &D) { return D.dataSubmit(TgtPtr, HstPtr, Size, AsyncInfo); });
}

int32_t __tgt_rtl_data_retrieve(int32_t DeviceId, void *HstPtr, void *TgtPtr,
                                int64_t Size) noexcept {
  return runSync(DeviceId, "data_retrieve", [&](GenericDevice &D, __tgt_async_info *AI) {
    return D.dataRetrieve(HstPtr, TgtPtr, Size, AI);
  });
}

int32_t __tgt_rtl_data_retrieve_async(int32_t DeviceId, void *HstPtr, void *TgtPtr, int64_t Size,
                                      __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(DeviceId, "data_retrieve_async", [&](GenericDevice &D) {
    return D.dataRetrieve(HstPtr, TgtPtr, Size, AsyncInfo);
  });
}

int32_t __tgt_rtl_is_data_exchangable(int32_t SrcDeviceId, int32_t DstDeviceId) noexcept {
  GenericPlugin &P = thePlugin();
  Expected<GenericDevice *> Src = P.device(SrcDeviceId, "is_data_exchangable");
  Expected<GenericDevice *> Dst = P.device(DstDeviceId, "is_data_exchangable");
  return Src && Dst && (*Src)->isDataExchangeable(**Dst) ? 1 : 0;
}

int32_t __tgt_rtl_data_exchange(int32_t SrcDeviceId, void *SrcPtr, int32_t DstDeviceId,
                                void *DstPtr, int64_t Size) noexcept {
  return runSync(SrcDeviceId, "data_exchange",
                 [&](GenericDevice &Src, __tgt_async_info *AI) -> Status {
                   Expected<GenericDevice *> Dst = thePlugin().device(DstDeviceId, "data_exchange");
                   if (!Dst) return Dst.takeError();
                   return Src.dataExchange(SrcPtr, **Dst, DstPtr, Size, AI);
                 });
}

int32_t __tgt_rtl_data_exchange_async(int32_t SrcDeviceId, void *SrcPtr, int32_t DstDeviceId,
                                      void *DstPtr, int64_t Size,
                                      __tgt_async_info *AsyncInfo) noexcept {
  return onDevice(SrcDeviceId, "data_exchange_async", [&](GenericDevice &Src) -> Status {
    Expected<GenericDevice *> Dst = thePlugin().device(DstDeviceId, "data_exchange_async");
    if (!Dst) return Dst.takeError();
    return Src.dataExchange(SrcPtr, **Dst, DstPtr, Size, AsyncInfo);
  });
}

}  // extern "C"
