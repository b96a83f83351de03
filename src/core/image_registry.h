// Registered binaries (__tgt_register_lib descriptors), the device image each
// device uses from them, and the map from host entry (region id) to kernel.
//
// Thread safety: `Mutex_` (shared) guards everything here; lookups take it
// shared, registration and image loading take it exclusive. `generation()`
// changes whenever images are added so that devices know to load them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "device_table.h"
#include "error.h"
#include "omptarget/abi.h"

namespace omptarget::core {

class ImageRegistry {
 public:
  explicit ImageRegistry(DeviceTable &Devices) : Devices_(Devices) {}

  // Offers each image to the plugins in order; the first that accepts it
  // serves it on all its devices. Returns the number of images accepted.
  int registerLib(__tgt_bin_desc *Desc, int64_t RequiresFlags);
  // The same; IdlePlugins gets the plugins that accepted images but have no
  // device (e.g. the CUDA plugin on a machine without GPUs), comma-separated,
  // when no image of the binary went to a plugin with devices.
  int registerLib(__tgt_bin_desc *Desc, int64_t RequiresFlags, std::string &IdlePlugins);
  // Drops the descriptor: its kernels become unknown and its globals are
  // unmapped from every device that loaded it.
  void unregisterLib(__tgt_bin_desc *Desc);

  // Loads every image registered for `D` that it has not loaded yet and maps
  // their globals. Requires D.initMutex().
  Status loadPendingImages(Device &D);
  uint64_t generation() const { return Generation_.load(std::memory_order_acquire); }

  // The device-side entry of the kernel whose host region id is `HostPtr`.
  Expected<void *> kernelFor(void *HostPtr, const Device &D);
  // kernelFor without the per-thread memo.
  Expected<void *> lookupKernel(void *HostPtr, const Device &D);
  // Name of the host entry `HostPtr`, or null.
  const char *kernelName(void *HostPtr);

 private:
  struct Binary {
    __tgt_bin_desc *Desc;
    std::vector<__tgt_device_image *> ImageFor;  // by device id
    std::vector<__tgt_target_table *> TableFor;  // by device id, once loaded
  };
  struct KernelRef {
    Binary *Bin;
    size_t Index;
  };

  DeviceTable &Devices_;
  std::shared_mutex Mutex_;
  std::vector<std::unique_ptr<Binary>> Binaries_;
  std::unordered_map<void *, KernelRef> Kernels_;
  std::atomic<uint64_t> Generation_{1};
};

}  // namespace omptarget::core
