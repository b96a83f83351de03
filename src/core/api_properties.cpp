// omptarget_get_device_properties (omp_target_ext.h): one device's
// properties as (key, value) text pairs, for device listings
// (omptarget-info). First the core's:
//   device_num        the device number
//   plugin            the plugin's target name ("x86_64", "cuda")
//   plugin_device_id  the device's number within its plugin
//   uid               Device::uid (get_device_uid, or "<plugin>-<id>")
//   peers             the other device numbers it exchanges data with
//                     directly (Device::canExchangeWith: the plugin's
//                     is_data_exchangable and a data_exchange entry),
//                     comma-separated, ascending; empty when none
//   mapped_entries    the entries of the device's mapping table now (map
//                     clauses, associations, declare-target globals)
// then the plugin's device_properties, when it has that entry (LLVM 14's
// plugins do not: their devices have only the core's six).
//
// Nothing runs at load time and no normal construct pays for it: the
// function starts the device it describes, and the other devices of its
// plugin (a plugin answers is_data_exchangable for started devices only),
// when it is called. The devices are the ones numbered so far: a listing
// calls __tgt_init_all_rtls first so that every plugin has its numbers.
// Errors are one "Libomptarget error:" line each and a non-zero return.
#include <string>

#include "debug.h"
#include "export.h"
#include "mapping_queries.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

constexpr const char *kCall = "omptarget_get_device_properties";

// The devices of D's plugin, other than D, that D exchanges data with
// directly. A device that does not start is no peer (its own listing says
// why it does not start).
std::string peersOf(Runtime &R, Device &D) {
  std::string Peers;
  for (int32_t Id : R.devices().devicesOf(D.plugin())) {
    if (Id == D.id()) continue;
    Expected<Device *> Other = R.readyDevice(Id, kCall);
    if (!Other || !D.canExchangeWith(**Other)) continue;
    if (!Peers.empty()) Peers += ',';
    Peers += std::to_string(Id);
  }
  return Peers;
}

}  // namespace

extern "C" {

OMPT_EXPORT int omptarget_get_device_properties(
    int DeviceNum, void (*Fn)(void *Ctx, const char *Key, const char *Value), void *Ctx) {
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(kCall, "no device is left to describe");
    return 1;
  }
  Runtime &R = Runtime::get();
  if (!Fn) {
    debug::error("%s: device %d: null callback", kCall, DeviceNum);
    return 1;
  }
  if (!R.devices().get(DeviceNum)) {
    debug::error("%s", invalidDeviceMessage(kCall, DeviceNum, HostDevice::NotListed).c_str());
    return 1;
  }
  Expected<Device *> Ready = R.readyDevice(DeviceNum, kCall);
  if (!Ready) {
    debug::error("%s", Ready.error().message().c_str());
    return 1;
  }
  Device &D = **Ready;
  Fn(Ctx, "device_num", std::to_string(DeviceNum).c_str());
  Fn(Ctx, "plugin", D.plugin().targetName().c_str());
  Fn(Ctx, "plugin_device_id", std::to_string(D.pluginDeviceId()).c_str());
  Fn(Ctx, "uid", D.uid());
  Fn(Ctx, "peers", peersOf(R, D).c_str());
  Fn(Ctx, "mapped_entries", std::to_string(mappedEntryCount(D)).c_str());
  auto Describe = D.plugin().fn().device_properties;
  if (Describe && Describe(D.pluginDeviceId(), Fn, Ctx) != abi::kOffloadSuccess) {
    debug::error("%s: device %d: the %s plugin could not describe it (device_properties failed)",
                 kCall, DeviceNum, D.plugin().targetName().c_str());
    return 1;
  }
  return 0;
}

}  // extern "C"
