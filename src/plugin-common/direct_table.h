// The generic functions of the direct table (__tgt_rtl_direct_device, see
// plugin_abi.h): each behaves as the entry it is named after, by running the
// same checked call, or, when maySkipChecks allows, that call's unchecked
// half (generic_device.h, sections a and b). A device that puts its own
// functions in (GenericDevice::specializeDirect) decides with maySkipChecks
// too and falls back to these.
#pragma once

#include "debug.h"
#include "generic_plugin.h"

namespace omptarget::plugin::direct {

// The one test of when a direct function may skip the checked call and run
// its unchecked half: the arguments pass the checked call's own test
// (ArgumentsPass) and the checked call would add nothing else, i.e. no traces
// (LIBOMPTARGET_DEBUG) or info lines (LIBOMPTARGET_INFO) are on and the
// device is not profiled (a device's own direct functions skip the timing
// of the unchecked halves). Otherwise the call goes to the checked method,
// which reports what is wrong (or traces, or times), exactly as the entry
// does.
inline bool maySkipChecks(const GenericDevice &D, bool ArgumentsPass) {
  return ArgumentsPass && debug::level() == 0 && D.plugin().infoFlags() == 0 && !D.profiled();
}

// Never inlined: a device's own functions call them on their rare paths,
// which must not weigh on their fast ones.
[[gnu::noinline]] void *dataAlloc(void *Device, int64_t Size, void *HostPtr, int32_t Kind,
                                  __tgt_async_info *AsyncInfo) noexcept;
[[gnu::noinline]] int32_t dataDelete(void *Device, void *TgtPtr,
                                     __tgt_async_info *AsyncInfo) noexcept;
[[gnu::noinline]] int32_t dataSubmit(void *Device, void *TgtPtr, void *HstPtr, int64_t Size,
                                     __tgt_async_info *AsyncInfo) noexcept;
[[gnu::noinline]] int32_t dataRetrieve(void *Device, void *HstPtr, void *TgtPtr, int64_t Size,
                                       __tgt_async_info *AsyncInfo) noexcept;
[[gnu::noinline]] int32_t launch(void *Device, void *Entry, void **Args, ptrdiff_t *Offsets,
                                 int32_t NumArgs, const __tgt_kernel_launch *Launch,
                                 __tgt_async_info *AsyncInfo) noexcept;

}  // namespace omptarget::plugin::direct
