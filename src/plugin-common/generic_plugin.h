// GenericPlugin: the device table and plugin-wide state of one plugin.
//
// A plugin subclasses GenericPlugin (number of devices, device factory, image
// check) and GenericDevice (the *Impl hooks), and defines createPlugin(). The
// ABI exporter (rtl_exports.cpp) owns the one instance and forwards each
// __tgt_rtl_* call to it.
//
// Thread safety: the device table is fixed at construction (one slot per
// device); InitMutex_ (a FutexMutex) serialises init/deinit of devices and
// guards Owned_; a slot of Table_ (atomics) is published with release
// semantics, so device() needs no lock. NumDevices_ is written by
// initialize() before any device is used and read without the lock. Info and
// requires flags are atomics. UidMutex_ (a FutexMutex) guards the device ids
// deviceUid made.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "error.h"
#include "futex_mutex.h"
#include "generic_device.h"
#include "omptarget/abi.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

class GenericPlugin {
 public:
  // Name is the target name used in messages ("x86_64", "cuda").
  explicit GenericPlugin(std::string Name);
  virtual ~GenericPlugin();
  GenericPlugin(const GenericPlugin &) = delete;
  GenericPlugin &operator=(const GenericPlugin &) = delete;

  const std::string &name() const { return Name_; }
  // "TARGET <name> RTL": the component of traces and the prefix of errors.
  const char *traceComponent() const { return Component_.c_str(); }

  // Queries the number of devices; called once right after construction.
  Status initialize();
  // Deinitialises every initialised device (images, pools); idempotent.
  Status deinitialize();

  int32_t numberOfDevices() const { return NumDevices_; }
  Status initDevice(int32_t DeviceId);
  // The initialised device DeviceId; Call names the entry point in errors.
  Expected<GenericDevice *> device(int32_t DeviceId, const char *Call) const;
  // The initialised device DeviceId, or nullptr (then device() says why).
  GenericDevice *readyDevice(int32_t DeviceId) const noexcept {
    if (DeviceId < 0 || DeviceId >= NumDevices_) return nullptr;
    return Table_[DeviceId].load(std::memory_order_acquire);
  }

  // Safe on any input: null, ImageEnd < ImageStart, garbage.
  bool isValidBinary(const __tgt_device_image *Image);

  int64_t initRequires(int64_t Flags);
  int64_t requiresFlags() const { return RequiresFlags_.load(std::memory_order_relaxed); }

  void setInfoFlags(uint32_t Flags) { InfoFlags_.store(Flags, std::memory_order_relaxed); }
  uint32_t infoFlags() const { return InfoFlags_.load(std::memory_order_relaxed); }
  bool infoEnabled(abi::InfoKind Kind) const { return (infoFlags() & Kind) != 0; }

  // Writes one "TARGET <name> RTL error: ..." line to stderr; only to the
  // debug trace once exit() has begun and the plugin's driver has shut down
  // (failures then are expected, and the core decides what the user sees).
  void reportError(const Error &E) const;

  // The unique id of device DeviceId (get_device_uid), initialised or not:
  // deviceUidImpl's answer, asked once per device; the string lives as long
  // as the plugin (which is never destroyed).
  Expected<const char *> deviceUid(int32_t DeviceId);

 protected:
  // The id deviceUid reports; by default "<name>-<device id>" ("x86_64-0"),
  // which is unique among this plugin's devices. A plugin whose devices have
  // a vendor id (the GPU's UUID) returns that.
  virtual Expected<std::string> deviceUidImpl(int32_t DeviceId);

  virtual Expected<int32_t> numberOfDevicesImpl() = 0;
  virtual Expected<std::unique_ptr<GenericDevice>> createDeviceImpl(int32_t DeviceId) = 0;
  virtual bool isValidBinaryImpl(std::span<const std::byte> Image) = 0;
  // Whether the driver under the plugin has shut down (CUDA: a call answered
  // CUDA_ERROR_DEINITIALIZED, as at process exit).
  virtual bool driverShutDownImpl() const { return false; }

 private:
  const std::string Name_;
  const std::string Component_;
  int32_t NumDevices_ = 0;
  std::atomic<int64_t> RequiresFlags_{abi::kReqUndefined};
  std::atomic<uint32_t> InfoFlags_{0};

  FutexMutex UidMutex_;
  // By device id, made on first ask.
  std::vector<std::unique_ptr<const std::string>> Uids_ GUARDED_BY(UidMutex_);
  FutexMutex InitMutex_;  // also taken for every store to Table_
  std::vector<std::unique_ptr<GenericDevice>> Owned_ GUARDED_BY(InitMutex_);  // one slot per device
  std::unique_ptr<std::atomic<GenericDevice *>[]> Table_;
};

// Defined once by each plugin: builds the plugin object (not yet initialised).
std::unique_ptr<GenericPlugin> createPlugin();

}  // namespace omptarget::plugin
