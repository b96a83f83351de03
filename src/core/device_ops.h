// The one table through which the core calls a device's hot operations
// (allocate, free, copy to and from the device, launch), whatever plugin
// serves it.
//
// A plugin of ours hands the core its direct table (`direct_device`, see
// omptarget/plugin_abi.h): plain function pointers on a device handle, which
// skip the entry points' device-number lookup. Any other plugin (LLVM 14's,
// ours with OMPTARGET_PLUGIN_DIRECT_CALLS=0, one whose table is incomplete)
// is normalised to the same table here, once, at device initialization: each
// slot is an adapter that calls the plugin's `__tgt_rtl_*` entry for that
// operation, the asynchronous one when the plugin has it, else the
// synchronous one (whose work is complete when it returns, so the queue
// argument is ignored). Device's wrappers therefore make a single indirect
// call per operation and never choose a route per call.
//
// Immutable once bound (before the device is marked ready); read without
// locks.
#pragma once

#include <cstdint>

#include "omptarget/plugin_abi.h"
#include "plugin.h"

namespace omptarget::core {

// The handle of the entry-point adapters: the plugin's entries and the
// device's number in that plugin. Lives in the Device, as long as the table.
struct EntryPointHandle {
  const PluginFunctions *Fns = nullptr;
  int32_t PluginDeviceId = 0;
  const char *PluginName = "";  // for the adapters' error lines
};

// Why the table is what it is, for the device's trace line.
enum class DeviceOpsRoute : uint8_t { DirectTable, EntryPoints };

struct BoundDeviceOps {
  __tgt_direct_device Ops{};
  DeviceOpsRoute Route = DeviceOpsRoute::EntryPoints;
};

// The plugin's direct table when it offers a complete one of our version and
// `UseDirect` (OMPTARGET_PLUGIN_DIRECT_CALLS, default 1), else the adapters
// over its entry points on `Handle` (which must outlive the table).
BoundDeviceOps bindDeviceOps(const Plugin &P, const EntryPointHandle &Handle, bool UseDirect);

}  // namespace omptarget::core
