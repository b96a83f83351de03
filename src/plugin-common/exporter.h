// Helpers shared by the rtl_exports_*.cpp files: the plugin singleton and
// the wrappers that turn Status into OFFLOAD_SUCCESS/OFFLOAD_FAIL.
#pragma once

#include <utility>

#include "generic_plugin.h"
#include "omptarget/plugin_abi.h"
#include "report_failures.h"

// Every entry, declared from the X-macro: a definition whose signature
// differs from plugin_abi.h is a compile error, and a missing one is a link
// error (exporter.cpp takes every address; plugins link with --no-undefined).
#define OMPT_DECLARE_ENTRY(Name, Ret, Params) \
  extern "C" __attribute__((visibility("default"))) Ret __tgt_rtl_##Name Params noexcept;
OMPTARGET_PLUGIN_ENTRIES(OMPT_DECLARE_ENTRY, OMPT_DECLARE_ENTRY)
#undef OMPT_DECLARE_ENTRY

namespace omptarget::plugin::exporter {

// The plugin, created and initialised on first use, never destroyed.
GenericPlugin &thePlugin();

constexpr int32_t kOk = abi::kOffloadSuccess;
constexpr int32_t kFail = abi::kOffloadFail;

// Runs Body (returning Status); reports an error or a stray exception.
template <typename FnT>
int32_t guard(const char *Call, FnT &&Body) noexcept {
  return reportFailures(thePlugin(), Call, std::forward<FnT>(Body));
}

// Runs Op(Device, AsyncInfo) on a temporary queue and synchronizes it.
template <typename FnT>
int32_t runSync(int32_t DeviceId, const char *Call, FnT &&Op) noexcept {
  return guard(Call, [&]() -> Status {
    GenericDevice *Dev = thePlugin().readyDevice(DeviceId);
    if (!Dev) return thePlugin().device(DeviceId, Call).takeError();
    __tgt_async_info AsyncInfo;
    Status S = Op(*Dev, &AsyncInfo);
    Status Sync = Dev->synchronize(&AsyncInfo);  // also returns the queue
    return S ? std::move(Sync) : std::move(S);
  });
}

// Runs Op(Device) on an initialised device.
template <typename FnT>
int32_t onDevice(int32_t DeviceId, const char *Call, FnT &&Op) noexcept {
  return guard(Call, [&]() -> Status {
    GenericDevice *Dev = thePlugin().readyDevice(DeviceId);
    if (!Dev) return thePlugin().device(DeviceId, Call).takeError();
    return Op(*Dev);
  });
}

inline Status toStatus(Expected<void *> E, void **Out) {
  if (!E) return E.takeError();
  *Out = *E;
  return {};
}

}  // namespace omptarget::plugin::exporter
