// The host (x86_64) plugin: devices that run offloaded code on the host.
//
// Environment:
//   OMPTARGET_HOST_NUM_DEVICES     number of host devices, 0..64 (default 4)
//   OMPTARGET_HOST_ASYNC           1: asynchronous queues (a worker thread per
//                                  queue); 0 (default): immediate queues
//   OMPTARGET_HOST_ASYNC_DELAY_US  asynchronous mode: sleep before each
//                                  queue operation, 0..1000000 (default 0)
// All are read once, when the plugin is initialised.
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
    Mode_ = HostQueueMode::fromEnvironment();
    return static_cast<int32_t>(
        env::getInt("OMPTARGET_HOST_NUM_DEVICES", kDefaultNumDevices, 0, kMaxNumDevices));
  }

  Expected<std::unique_ptr<plugin::GenericDevice>> createDeviceImpl(int32_t DeviceId) override {
    return std::unique_ptr<plugin::GenericDevice>(
        std::make_unique<HostDevice>(*this, DeviceId, Mode_, Runners_));
  }

  bool isValidBinaryImpl(std::span<const std::byte> Image) override {
    return isX86_64SharedObject(Image);
  }

 private:
  HostQueueMode Mode_;  // written by initialize() (numberOfDevicesImpl), before any device
  // Runner threads of every device's immediate mode (host_device.h); the
  // plugin is never destroyed, so neither are they.
  RunnerPool Runners_;
};
}  // namespace

}  // namespace omptarget::host

std::unique_ptr<omptarget::plugin::GenericPlugin> omptarget::plugin::createPlugin() {
  return std::make_unique<omptarget::host::HostPlugin>();
}
