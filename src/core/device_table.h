// The plugins and the devices they contribute, numbered in the order their
// plugins first accept an image (as LLVM 14 numbers them).
//
// Thread safety: `Mutex_` (a FutexMutex) guards plugin loading, plugin
// activation and device creation: Plugins_, Active_, Owned_, Started_, StartTried_. It is held
// while a plugin is loaded or asked for its devices (init_requires, number_of_devices), and is
// never taken with another core lock held. Device pointers are published through a fixed array of
// atomics (Slots_, Count_) so that the hot path (device by id) takes no lock; Loaded_ is an atomic
// set once under Mutex_ and tested without it first.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "device.h"
#include "futex_mutex.h"
#include "plugin.h"
#include "thread_annotations.h"

namespace omptarget::core {

class DeviceTable {
 public:
  static constexpr size_t kMaxDevices = 1024;

  // Candidate plugin file names, in probing order.
  static const std::vector<std::string> &pluginNames();

  // Loads every plugin that can be found (once). Failures to load a plugin
  // that exists are reported; absent plugins are only traced.
  void loadPlugins();
  // Loads the plugin FileName (one of pluginNames(), found as loadPlugins
  // finds it) and asks it for its device count, without adding its devices:
  // for a plugin whose peers wait until it starts (the MPI plugin's device
  // servers), even with offloading disabled. Once per table; a plugin that
  // is not installed is only traced. Its devices join the table only by
  // activate(), as any plugin's.
  void startPlugin(const std::string &FileName);
  // Adds an already constructed plugin (tests).
  void addPlugin(std::unique_ptr<Plugin> P);

  // Plugins in probing order.
  std::vector<Plugin *> plugins();
  // Creates the devices of `P` if it has none yet; requires flags go to
  // init_requires first. Returns the id of its first device and the count.
  std::pair<int32_t, int32_t> activate(Plugin &P, int64_t RequiresFlags);
  // Device ids of an active plugin (empty if not active).
  std::vector<int32_t> devicesOf(const Plugin &P);

  int32_t size() const { return Count_.load(std::memory_order_acquire); }
  Device *get(int64_t Id) const {
    if (Id < 0 || Id >= size()) return nullptr;
    return Slots_[static_cast<size_t>(Id)].load(std::memory_order_acquire);
  }

 private:
  struct ActivePlugin {
    Plugin *P;
    int32_t First;
    int32_t Count;
  };
  FutexMutex Mutex_;
  std::atomic<bool> Loaded_{false};  // set once, under Mutex_
  std::vector<std::unique_ptr<Plugin>> Plugins_ GUARDED_BY(Mutex_);
  std::vector<ActivePlugin> Active_ GUARDED_BY(Mutex_);
  std::vector<std::unique_ptr<Device>> Owned_ GUARDED_BY(Mutex_);
  std::vector<std::unique_ptr<Plugin>> Started_ GUARDED_BY(Mutex_);  // startPlugin's
  bool StartTried_ GUARDED_BY(Mutex_) = false;
  std::array<std::atomic<Device *>, kMaxDevices> Slots_{};
  std::atomic<int32_t> Count_{0};
};

}  // namespace omptarget::core
