// One cubin loaded as a CUmodule on one device: its kernels (with their LLVM
// 14 execution mode) and globals, and the device environment the device
// runtime reads.
//
// After cuModuleLoadDataEx the loader:
//   * writes `omptarget_device_environment` (struct DeviceEnvironmentTy
//     { i32 DebugKind, NumDevices, DeviceNum, DynamicMemSize } in
//     libomptarget-new-nvptx-*.bc), when the image has it;
//   * per kernel, reads the i8 global `<kernel>_exec_mode` (1 Generic, 2 SPMD,
//     3 Generic-SPMD; Plain when absent: the constructor/destructor kernels
//     of declare-target globals, launch_sizing.h) and the kernel's maximum
//     threads per block.
// Kernel handles given to the core are CudaKernel pointers; they stay valid
// while the image is loaded (Kernels_ is a deque).
//
// Thread safety: loading happens under the generic device's image lock; a
// loaded image is immutable except for each kernel's occupancy cache (an
// atomic).
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>

#include "device_image.h"
#include "error.h"
#include "launch_sizing.h"

namespace omptarget::cuda {

// LLVM 14's DeviceEnvironmentTy (verified against the device runtime bitcode).
struct DeviceEnvironment {
  int32_t DebugKind;
  int32_t NumDevices;
  int32_t DeviceNum;
  int32_t DynamicMemSize;
};
static_assert(sizeof(DeviceEnvironment) == 16);

struct CudaKernel {
  CUfunction Function = nullptr;
  ExecMode Mode = ExecMode::Generic;
  int32_t MaxThreadsPerBlock = 1024;  // cuFuncGetAttribute, min with the device's
  const char *Name = nullptr;         // the image's entry name
  // Last occupancy query: (threads << 32) | resident blocks per SM; 0 = none.
  std::atomic<uint64_t> Occupancy{0};
};

class CudaImage final : public plugin::DeviceImage {
 public:
  struct Settings {
    int32_t DeviceId;
    int32_t NumDevices;
    int32_t DeviceMaxThreads;
    uint32_t SmMajor, SmMinor;  // the device's compute capability
    DeviceEnvironment Environment;
  };

  // Loads the image into Context (made current by the caller).
  static Expected<std::unique_ptr<CudaImage>> load(const __tgt_device_image &Image,
                                                   CUcontext Context, const Settings &S);
  ~CudaImage() override;

  Expected<CudaKernel *> kernel(const char *Name);
  Expected<void *> global(const char *Name, size_t Size);

 private:
  CudaImage(const __tgt_device_image &Image, CUcontext Context, CUmodule Module, const Settings &S)
      : DeviceImage(Image),
        Context_(Context),
        Module_(Module),
        DeviceMaxThreads_(S.DeviceMaxThreads),
        DynamicSharedBytes_(S.Environment.DynamicMemSize) {}
  Status writeEnvironment(const DeviceEnvironment &Env);

  CUcontext Context_;
  CUmodule Module_;
  int32_t DeviceMaxThreads_;
  int32_t DynamicSharedBytes_;  // every launch's dynamic shared memory
  std::deque<CudaKernel> Kernels_;
};

}  // namespace omptarget::cuda
