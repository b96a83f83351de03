// OMPTARGET_CUDA_SYNC_MODE on the fake driver: the program loads the CUDA
// plugin (its path is the argument), initializes every device and moves
// 1 MiB through each (allocation, copy in, copy out, release on a queue,
// synchronize), then prints "sync-mode: ok" when every result is right,
// FAILED lines otherwise. Which flags each device's primary context got is
// the fake's report at exit (OMPTARGET_FAKE_CUDA_CTX_STATS=1); the tests
// (CMakeLists.txt, one FileCheck prefix each) run it with each value of the
// variable, with an invalid one, and with primary contexts the "application"
// made active before (OMPTARGET_FAKE_CUDA_PRIMARY_CTX_ACTIVE=1).
//
// Unset: the flags are left alone, nothing is called.
// UNSET: sync-mode: ok
// UNSET: fake cuda device 0: primary context created with flags 0x0, flags 0x0 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
//
// Each value sets its CU_CTX_SCHED_* bits once, before the context is
// created (auto 0x0, spin 0x1, yield 0x2, blocking 0x4, in any case); two
// devices, each its own.
// AUTO: sync-mode: ok
// AUTO: fake cuda device 0: primary context created with flags 0x0, flags 0x0 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
// SPIN: sync-mode: ok
// SPIN: fake cuda device 0: primary context created with flags 0x1, flags 0x1 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
// SPIN: fake cuda device 1: primary context created with flags 0x1, flags 0x1 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
// YIELD: sync-mode: ok
// YIELD: fake cuda device 0: primary context created with flags 0x2, flags 0x2 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
// BLOCKING: sync-mode: ok
// BLOCKING: fake cuda device 0: primary context created with flags 0x4, flags 0x4 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
// BLOCKING: fake cuda device 1: primary context created with flags 0x4, flags 0x4 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
//
// The context's other flags stay (0x10: CU_CTX_LMEM_RESIZE_TO_MAX, set by
// the application before): only the scheduling bits change.
// KEEP: sync-mode: ok
// KEEP: fake cuda device 0: primary context created with flags 0x12, flags 0x12 at exit, 1 cuDevicePrimaryCtxSetFlags call(s)
//
// An invalid value: one warning for the process (two devices), then the
// default: nothing set.
// INVALID: Libomptarget warning: ignoring OMPTARGET_CUDA_SYNC_MODE='fast': expected auto, spin, yield or blocking; using the default (the primary contexts' flags are left as they are)
// INVALID-NOT: warning
// INVALID: sync-mode: ok
// INVALID: fake cuda device 0: primary context created with flags 0x0, flags 0x0 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
// INVALID: fake cuda device 1: primary context created with flags 0x0, flags 0x0 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
//
// Primary contexts already active with blocking sync, spin requested: one
// warning per device naming the variable, the device and the flags in
// force; the flags stay, the run goes on.
// ACTIVE: Libomptarget warning: OMPTARGET_CUDA_SYNC_MODE=spin not applied to CUDA device 0: its primary context is already active (created by the application's CUDA runtime or another library) and keeps CU_CTX_SCHED_BLOCKING_SYNC (flags 0x4)
// ACTIVE: Libomptarget warning: OMPTARGET_CUDA_SYNC_MODE=spin not applied to CUDA device 1: its primary context is already active (created by the application's CUDA runtime or another library) and keeps CU_CTX_SCHED_BLOCKING_SYNC (flags 0x4)
// ACTIVE: sync-mode: ok
// ACTIVE: fake cuda device 0: primary context created with flags 0x4, flags 0x4 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
// ACTIVE: fake cuda device 1: primary context created with flags 0x4, flags 0x4 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
//
// Already active with the requested scheduling: nothing to say, nothing set.
// SAME: sync-mode: ok
// SAME: fake cuda device 0: primary context created with flags 0x1, flags 0x1 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
//
// The driver refuses the flags: a warning, the device is used with its own.
// REFUSED: Libomptarget warning: OMPTARGET_CUDA_SYNC_MODE=yield not applied to CUDA device 0: cuDevicePrimaryCtxSetFlags: CUDA_ERROR_INVALID_VALUE (invalid argument); its primary context keeps CU_CTX_SCHED_AUTO (flags 0x0)
// REFUSED: sync-mode: ok
// REFUSED: fake cuda device 0: primary context created with flags 0x0, flags 0x0 at exit, 0 cuDevicePrimaryCtxSetFlags call(s)
#include <cstdint>
#include <cstdio>
#include <vector>

#include "omptarget/abi.h"
#include "plugin_entries.h"

namespace {

namespace abi = omptarget::abi;

int Failures = 0;
void expect(bool Ok, const char *What, int32_t Device) {
  if (!Ok) {
    std::printf("FAILED: %s (device %d)\n", What, Device);
    ++Failures;
  }
}

using Plugin = fake_cuda::PluginEntries;

// 1 MiB in and out through one queue of the device.
void roundTrip(Plugin &P, int32_t Dev) {
  constexpr int64_t Size = int64_t(1) << 20;
  std::vector<unsigned char> Host(Size, static_cast<unsigned char>(0x30 + Dev)), Back(Size, 0);
  __tgt_async_info AI;
  void *D = nullptr;
  expect(P.data_alloc_async(Dev, Size, nullptr, abi::kAllocDefault, &D, &AI) ==
                 abi::kOffloadSuccess &&
             D != nullptr,
         "data_alloc_async", Dev);
  if (!D) return;
  expect(P.data_submit_async(Dev, D, Host.data(), Size, &AI) == abi::kOffloadSuccess,
         "data_submit_async", Dev);
  expect(P.data_retrieve_async(Dev, Back.data(), D, Size, &AI) == abi::kOffloadSuccess,
         "data_retrieve_async", Dev);
  expect(P.data_delete_async(Dev, D, &AI) == abi::kOffloadSuccess, "data_delete_async", Dev);
  expect(P.synchronize(Dev, &AI) == abi::kOffloadSuccess, "synchronize", Dev);
  expect(Host == Back, "the data came back", Dev);
}

}  // namespace

int main(int Argc, char **Argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (Argc != 2) {
    std::printf("usage: sync_mode PLUGIN\n");
    return 2;
  }
  Plugin P;
  if (!fake_cuda::loadPluginEntries(
          Argv[1], P,
          {"number_of_devices", "init_device", "data_alloc_async", "data_delete_async",
           "data_submit_async", "data_retrieve_async", "synchronize"}))
    return 1;
  const int32_t Devices = P.number_of_devices();
  expect(Devices > 0, "a device", -1);
  for (int32_t D = 0; D < Devices; ++D) {
    expect(P.init_device(D) == abi::kOffloadSuccess, "init_device", D);
    roundTrip(P, D);
  }
  if (Failures) return 1;
  std::printf("sync-mode: ok\n");
  return 0;
}
