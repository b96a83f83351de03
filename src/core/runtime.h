// The one runtime object: the only global mutable state of the core. It is
// created by the library constructor and destroyed by the library destructor
// (after the program's own destructors have unregistered their binaries).
//
// Shutdown and late calls. Every exported entry that uses the runtime holds a
// RuntimeUse for the whole call. stop() (the library destructor, at exit())
// first closes the gate, so that no new use begins, then waits for the uses
// in flight (a nowait region on a hidden-helper thread, another user thread
// still offloading) to end before it destroys the runtime. A use and stop()
// meet through two sequentially consistent atomics (the in-flight count and
// the closed flag): either the entering call sees the gate closed, or stop()
// sees its count. The runtime is left in place, never destroyed under a
// caller, when uses do not end within kShutdownWaitMs, or when the thread
// calling exit() is itself inside a call (user code run by the host device's
// kernel, a mapper): the process is ending, and a leak of memory still
// reachable from the holder is harmless where a destroyed runtime would crash.
// A call refused by the closed gate does nothing and says so where its
// caller loses something (see each entry); a target region then returns
// failure, so the compiler's host version runs it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "allocations.h"
#include "deferred_constructs.h"
#include "device_table.h"
#include "error.h"
#include "image_registry.h"
#include "interop_object.h"
#include "offload_policy.h"
#include "requires_records.h"

namespace omptarget::core {

class Runtime {
 public:
  Runtime();
  ~Runtime();

  // The live runtime. Valid between library construction and destruction.
  static Runtime &get();
  // Constructs (and opens the gate) / closes the gate and destroys the
  // global runtime (library init/fini, tests).
  static void start();
  static void stop();
  // True once stop() began (exit-time calls then do nothing).
  static bool stopped();
  // How long stop() waits for the calls in flight to end.
  static constexpr int kShutdownWaitMs = 1000;

  DeviceTable &devices() { return Devices_; }
  ImageRegistry &images() { return Images_; }
  AllocationRegistry &allocations() { return Allocations_; }
  InteropRegistry &interops() { return Interops_; }
  // `nowait` constructs left to complete when libomp 19 queries them.
  DeferredConstructs &deferred() { return Deferred_; }

  void registerRequires(int64_t Flags);
  int64_t requiresFlags() const { return RequiresFlags_.load(std::memory_order_relaxed); }
  bool unifiedSharedMemory() const;

  // Loads the plugins once, unless OMP_TARGET_OFFLOAD=disabled.
  void loadPlugins();
  // Loads the plugins and gives every plugin its device numbers, with no
  // image registered (__tgt_init_all_rtls: device listings such as
  // llvm-omp-device-info). Programs never call it: their plugins get device
  // numbers when an image for them is registered, and devices start when
  // first used.
  void activateAllPlugins();
  void registerLib(__tgt_bin_desc *Desc);
  void unregisterLib(__tgt_bin_desc *Desc);

  // OMP_TARGET_OFFLOAD, with `default` resolved against the device count.
  OffloadPolicy policy() {
    if (OffloadPolicy P = ResolvedPolicy_.load(std::memory_order_acquire);
        P != OffloadPolicy::Default) [[likely]]
      return P;
    return resolvePolicy();
  }
  bool offloadDisabled() { return policy() == OffloadPolicy::Disabled; }

  // Device `Id` initialized with every registered image loaded. `Call` names
  // the API entry for the error message.
  Expected<Device *> readyDevice(int64_t Id, const char *Call);

  // Loop trip count pushed by __kmpc_push_target_tripcount for the next launch
  // of this thread on `DeviceId` (0 if none). Consumed by the read.
  static void pushTripCount(int64_t DeviceId, uint64_t Count);
  static uint64_t popTripCount(int64_t DeviceId);

 private:
  DeviceTable Devices_;
  ImageRegistry Images_{Devices_};
  RequiresRecords RequiresRecords_;  // clang 19 descriptors, stripped of their requires records
  AllocationRegistry Allocations_;
  InteropRegistry Interops_;     // destroyed before the devices its objects use
  DeferredConstructs Deferred_;  // completed before the devices go
  std::atomic<int64_t> RequiresFlags_{0};
  OffloadPolicy ConfiguredPolicy_ = OffloadPolicy::Default;
  // policy() once plugins are loaded (Default until then): the device count
  // no longer changes, so neither does the answer.
  std::atomic<OffloadPolicy> ResolvedPolicy_{OffloadPolicy::Default};
  OffloadPolicy resolvePolicy();  // the first policy() call
};

// One exported call's hold on the runtime (see the top of this file). Not
// copyable; nested calls on one thread (a mapper or a host-device kernel
// calling the API) share the outermost hold.
class [[nodiscard]] RuntimeUse {
 public:
  RuntimeUse() noexcept;
  ~RuntimeUse();
  RuntimeUse(const RuntimeUse &) = delete;
  RuntimeUse &operator=(const RuntimeUse &) = delete;
  // False when the runtime has shut down: the call must not touch it.
  explicit operator bool() const { return Held_; }

 private:
  bool Held_;
};

// "<Call>: called after the offload runtime shut down at program exit; <What>"
// as an error line, for late calls whose caller loses something.
void reportAfterShutdown(const char *Call, const char *What);

// The host's device number (omp_get_initial_device(): the device count) and
// whether `DeviceId` names it: that number, omp_initial_device (-1) or LLVM
// 12's -10. The __tgt_* entries resolve -1 (no device clause) to the default
// device before asking, so there -1 is the host only as the default device.
int32_t initialDevice();
bool isInitialDevice(int64_t DeviceId);

// The default device number from libomp (OMP_DEFAULT_DEVICE / omp_set_default_device);
// once exit() has begun, the value the thread read last (default_device.cpp).
int64_t defaultDevice();

// "<Call>: invalid device number N (there are M devices; ...)"; for
// omp_invalid_device it says that this constant names no device. A call
// that takes the host's number too (most of the API) says so; one that only
// knows offload devices (omptarget_get_device_properties) passes NotListed.
enum class HostDevice { Accepted, NotListed };
std::string invalidDeviceMessage(const char *Call, int64_t Id,
                                 HostDevice Host = HostDevice::Accepted);

}  // namespace omptarget::core
