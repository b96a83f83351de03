// The host (x86_64) plugin: devices that run offloaded code on the host.
//
// Environment:
//   OMPTARGET_HOST_NUM_DEVICES  number of host devices, 0..64 (default 4)
#include "elf_check.h"
#include "env.h"
#include "generic_plugin.h"
#include "host_device.h"

namespace omptarget::host {

namespace {
constexpr int64_t kDefaultNumDevices = 4;
constexpr int64_t kMaxNumDevices = 64;

class HostPlugin final : public plugin::GenericPlugin {
 public:
  HostPlugin() : GenericPlugin("x86_64") {}

 protected:
  Expected<int32_t> numberOfDevicesImpl() override {
    return static_cast<int32_t>(
        env::getInt("OMPTARGET_HOST_NUM_DEVICES", kDefaultNumDevices, 0, kMaxNumDevices));
  }

  Expected<std::unique_ptr<plugin::GenericDevice>> createDeviceImpl(int32_t DeviceId) override {
    return std::unique_ptr<plugin::GenericDevice>(std::make_unique<HostDevice>(*this, DeviceId));
  }

  bool isValidBinaryImpl(std::span<const std::byte> Image) override {
    return isX86_64SharedObject(Image);
  }
};
}  // namespace

}  // namespace omptarget::host

std::unique_ptr<omptarget::plugin::GenericPlugin> omptarget::plugin::createPlugin() {
  return std::make_unique<omptarget::host::HostPlugin>();
}
