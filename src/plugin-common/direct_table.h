// The generic functions of the direct table (__tgt_rtl_direct_device, see
// plugin_abi.h), for devices that put their own functions into the table
// (GenericDevice::specializeDirect) and fall back to these for what their
// own do not handle.
#pragma once

#include "debug.h"
#include "generic_plugin.h"

namespace omptarget::plugin::direct {

// Traces or info lines are on: the checked entries have more to write, so
// the direct functions hand the call to them.
inline bool diagnosticsOn(const GenericDevice &D) {
  return debug::level() > 0 || D.plugin().infoFlags() != 0;
}

// A copy the unchecked path may take: a well-formed call with nothing to
// write but the copy. Otherwise the copy goes to the checked entry, which
// reports what is wrong (or traces). One condition for every direct copy
// function, generic or a device's own, so they fall back alike.
inline bool isPlainCopy(const GenericDevice &D, const void *TgtPtr, const void *HstPtr, int64_t Size,
                        const __tgt_async_info *AsyncInfo) {
  return Size > 0 && TgtPtr && HstPtr && AsyncInfo && !diagnosticsOn(D);
}

// Writes E as the entries do (one "TARGET <name> RTL error: ..." line).
[[gnu::cold]] int32_t fail(const GenericDevice &D, const Error &E) noexcept;

// Never inlined: a device's own functions call them on their rare paths,
// which must not weigh on their fast ones.
[[gnu::noinline]] void *dataAlloc(void *Device, int64_t Size, void *HostPtr, int32_t Kind) noexcept;
[[gnu::noinline]] int32_t dataDelete(void *Device, void *TgtPtr) noexcept;
[[gnu::noinline]] int32_t dataSubmit(void *Device, void *TgtPtr, void *HstPtr, int64_t Size,
                                     __tgt_async_info *AsyncInfo) noexcept;
[[gnu::noinline]] int32_t dataRetrieve(void *Device, void *HstPtr, void *TgtPtr, int64_t Size,
                                       __tgt_async_info *AsyncInfo) noexcept;
[[gnu::noinline]] int32_t runRegion(void *Device, void *Entry, void **Args, ptrdiff_t *Offsets,
                                    int32_t NumArgs, int32_t NumTeams, int32_t ThreadLimit,
                                    uint64_t LoopTripCount, int32_t IsTeamRegion,
                                    __tgt_async_info *AsyncInfo) noexcept;

}  // namespace omptarget::plugin::direct
