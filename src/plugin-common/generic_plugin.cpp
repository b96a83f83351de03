#include "generic_plugin.h"

#include <cstdio>

#include "debug.h"
#include "env.h"
#include "exit_mark.h"
#include "scoped_lock.h"

namespace omptarget::plugin {

GenericPlugin::GenericPlugin(std::string Name)
    : Name_(std::move(Name)), Component_(std::string("TARGET ").append(Name_).append(" RTL")) {
  // LIBOMPTARGET_INFO applies to the plugin too; __tgt_set_info_flag
  // (set_info_flag) overrides it later.
  // A negative value is its bit pattern (-1: everything), as in the core.
  InfoFlags_ = env::getFlags("LIBOMPTARGET_INFO");
}

GenericPlugin::~GenericPlugin() = default;

void GenericPlugin::reportError(const Error &E) const {
  if (exit_mark::begun() && driverShutDownImpl()) {
    OMPT_TRACE(traceComponent(), "error after the driver shut down: %s", E.message().c_str());
    return;
  }
  std::string Line = Component_ + " error: " + E.message() + "\n";
  std::fputs(Line.c_str(), stderr);
}

Status GenericPlugin::initialize() {
  Expected<int32_t> N = numberOfDevicesImpl();
  if (!N)
    return makeError("cannot count the %s devices: %s", Name_.c_str(), N.error().message().c_str());
  ScopedLock Lock(InitMutex_);
  NumDevices_ = *N < 0 ? 0 : *N;
  Owned_.clear();
  Owned_.resize(static_cast<size_t>(NumDevices_));
  Table_ = std::make_unique<std::atomic<GenericDevice *>[]>(static_cast<size_t>(NumDevices_));
  for (int32_t I = 0; I < NumDevices_; ++I) Table_[I].store(nullptr, std::memory_order_relaxed);
  OMPT_TRACE(traceComponent(), "%d device(s)", NumDevices_);
  exit_mark::arm();  // after the driver's start (numberOfDevicesImpl: cuInit)
  return {};
}

Status GenericPlugin::deinitialize() {
  ScopedLock Lock(InitMutex_);
  std::string Problems;
  for (int32_t I = 0; I < NumDevices_; ++I) {
    Table_[I].store(nullptr, std::memory_order_release);
    if (!Owned_[I]) continue;
    if (Status S = Owned_[I]->deinit(); !S) Problems += S.error().message() + "; ";
    Owned_[I].reset();
  }
  if (!Problems.empty()) return Error(Problems.substr(0, Problems.size() - 2));
  return {};
}

Status GenericPlugin::initDevice(int32_t DeviceId) {
  if (DeviceId < 0 || DeviceId >= NumDevices_)
    return makeError("init_device: invalid device id %d (the %s plugin has %d device(s))", DeviceId,
                     Name_.c_str(), NumDevices_);
  ScopedLock Lock(InitMutex_);
  if (Owned_[DeviceId]) return {};  // already initialised
  Expected<std::unique_ptr<GenericDevice>> Dev = createDeviceImpl(DeviceId);
  if (!Dev) return makeError("init_device: device %d: %s", DeviceId, Dev.error().message().c_str());
  if (Status S = (*Dev)->init(); !S) {
    // Release whatever the failed init created before dropping the device.
    (void)(*Dev)->deinit();
    return makeError("init_device: device %d: %s", DeviceId, S.error().message().c_str());
  }
  Owned_[DeviceId] = std::move(*Dev);
  Table_[DeviceId].store(Owned_[DeviceId].get(), std::memory_order_release);
  return {};
}

Expected<GenericDevice *> GenericPlugin::device(int32_t DeviceId, const char *Call) const {
  if (DeviceId < 0 || DeviceId >= NumDevices_)
    return makeError("%s: invalid device id %d (the %s plugin has %d device(s))", Call, DeviceId,
                     Name_.c_str(), NumDevices_);
  GenericDevice *Dev = Table_[DeviceId].load(std::memory_order_acquire);
  if (!Dev)
    return makeError("%s: device %d is not initialised (call init_device first)", Call, DeviceId);
  return Dev;
}

Expected<std::string> GenericPlugin::deviceUidImpl(int32_t DeviceId) {
  return formatString("%s-%d", Name_.c_str(), DeviceId);
}

Expected<const char *> GenericPlugin::deviceUid(int32_t DeviceId) {
  if (DeviceId < 0 || DeviceId >= NumDevices_)
    return makeError("get_device_uid: invalid device id %d (the %s plugin has %d device(s))",
                     DeviceId, Name_.c_str(), NumDevices_);
  ScopedLock Lock(UidMutex_);
  if (Uids_.size() < static_cast<size_t>(NumDevices_))
    Uids_.resize(static_cast<size_t>(NumDevices_));
  auto &Slot = Uids_[static_cast<size_t>(DeviceId)];
  if (!Slot) {
    Expected<std::string> Uid = deviceUidImpl(DeviceId);
    if (!Uid)
      return makeError("get_device_uid: device %d: %s", DeviceId, Uid.error().message().c_str());
    if (Uid->empty()) return makeError("get_device_uid: device %d: the device has no id", DeviceId);
    Slot = std::make_unique<const std::string>(std::move(*Uid));
  }
  return Slot->c_str();
}

bool GenericPlugin::isValidBinary(const __tgt_device_image *Image) {
  if (!Image || !Image->ImageStart || !Image->ImageEnd) return false;
  auto *Begin = static_cast<const std::byte *>(Image->ImageStart);
  auto *End = static_cast<const std::byte *>(Image->ImageEnd);
  if (End < Begin) return false;
  bool Valid = isValidBinaryImpl(std::span<const std::byte>(Begin, End));
  OMPT_TRACE(traceComponent(), "image %p (%td bytes) is %s", Image->ImageStart, End - Begin,
             Valid ? "compatible" : "not compatible");
  return Valid;
}

int64_t GenericPlugin::initRequires(int64_t Flags) {
  RequiresFlags_.store(Flags, std::memory_order_relaxed);
  OMPT_TRACE(traceComponent(), "requires flags 0x%llx", static_cast<unsigned long long>(Flags));
  return Flags;
}

}  // namespace omptarget::plugin
