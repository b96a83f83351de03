// One cubin loaded as a CUmodule on one device: its kernels (with their
// execution mode and bounds) and globals, and the device environment the
// device runtime reads.
//
// After cuModuleLoadDataEx the loader writes the device environment, when
// the image has one, in the layout its size says:
//   * clang 14: `omptarget_device_environment`, 16 bytes (DeviceEnvironment
//     below: DebugKind, NumDevices, DeviceNum, DynamicMemSize);
//   * clang 19: `__omp_rtl_device_environment`, 48 bytes (DeviceEnvironment19:
//     those four, then the clock in Hz, the indirect call table of the
//     image's `declare target indirect` functions (address and number of
//     pairs; 0, 0 without any) and the hardware parallelism, SMs x threads
//     per SM).
// Per kernel it reads, in this order:
//   * `<kernel>_kernel_environment` (clang 15 and later, KernelEnvironment
//     below): the execution mode (1 Generic, 2 SPMD, 3 Generic-SPMD), the
//     thread bounds (MinThreads, MaxThreads; > 0 when set) and the
//     reduction buffer's size (ReductionDataSize x ReductionBufferLength
//     bytes, which the launch environment carries);
//   * else the i8 `<kernel>_exec_mode` (clang 14), same mode values;
//   * else neither: Plain (launch_sizing.h), which runs exactly as launched:
//     clang 14's constructor/destructor kernels and clang 19's ompx_bare
//     kernels;
// and the kernel's maximum threads per block and static shared memory.
// clang 19 images whose declare-target globals have C++ constructors or
// destructors carry them as lists (cuda_global_ctors.cpp): the loader runs
// the constructors right after the environment, and runDestructors() runs
// the destructors before the module is unloaded (unload_binary, deinit).
// `__omp_rtl_device_memory_pool` is not written: device malloc on NVPTX
// uses CUDA's own heap (LIBOMPTARGET_HEAP_SIZE sets its size), as the
// clang 19 CUDA runtime does.
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
#include <string>
#include <vector>

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

// clang 19's device environment: the first 16 bytes are clang 14's.
struct DeviceEnvironment19 {
  DeviceEnvironment Base;
  uint64_t ClockFrequency;  // Hz
  uint64_t IndirectCallTable;
  uint64_t IndirectCallTableSize;
  uint64_t HardwareParallelism;
};
static_assert(sizeof(DeviceEnvironment19) == 48);

// `<kernel>_kernel_environment` of clang 15 and later (48 bytes on nvptx64).
struct KernelEnvironment {
  uint8_t UseGenericStateMachine;
  uint8_t MayUseNestedParallelism;
  uint8_t ExecMode;
  int32_t MinThreads, MaxThreads, MinTeams, MaxTeams;
  int32_t ReductionDataSize, ReductionBufferLength;
  uint64_t Ident, DynamicEnv;  // device pointers, unused here
};
static_assert(sizeof(KernelEnvironment) == 48);

struct CudaKernel {
  CUfunction Function = nullptr;
  ExecMode Mode = ExecMode::Generic;
  int32_t MaxThreadsPerBlock = 1024;  // cuFuncGetAttribute, min with the device's
  // From the kernel environment (0: none or unset).
  int32_t EnvMinThreads = 0, EnvMaxThreads = 0;
  uint64_t ReductionBufferBytes = 0;  // ReductionDataSize x ReductionBufferLength
  int32_t StaticSharedBytes = 0;      // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
  // The dynamic shared memory the kernel was opted into (above 48 KiB).
  std::atomic<int32_t> SharedOptIn{0};
  const char *Name = nullptr;  // the image's entry name
  // Last occupancy query: (threads << 32) | resident blocks per SM; 0 = none.
  std::atomic<uint64_t> Occupancy{0};
};

// The symbols of Cubin's constructor (Init) or destructor list, clang 19's
// `__init_array_object_<function>_<hash>_<priority>` (and
// `__fini_array_object_...`), in ascending priority, table order among
// equals; a name without a numeric priority counts as 65535.
std::vector<std::string> globalListObjects(std::span<const std::byte> Cubin, bool Init);

class CudaImage final : public plugin::DeviceImage {
 public:
  struct Settings {
    int32_t DeviceId;
    int32_t NumDevices;
    int32_t DeviceMaxThreads;
    uint32_t SmMajor, SmMinor;  // the device's compute capability
    DeviceEnvironment Environment;
    uint64_t ClockHz;              // for clang 19's device environment
    uint64_t HardwareParallelism;  // SMs x threads per SM
  };

  // Loads the image into Context (made current by the caller).
  static Expected<std::unique_ptr<CudaImage>> load(const __tgt_device_image &Image,
                                                   CUcontext Context, const Settings &S);
  ~CudaImage() override;

  Expected<CudaKernel *> kernel(const char *Name);
  Expected<void *> global(const char *Name, size_t Size);
  // clang 19's global destructors, once (cuda_global_ctors.cpp).
  Status runDestructors();

 private:
  CudaImage(const __tgt_device_image &Image, CUcontext Context, CUmodule Module, const Settings &S)
      : DeviceImage(Image),
        Context_(Context),
        Module_(Module),
        DeviceMaxThreads_(S.DeviceMaxThreads),
        DynamicSharedBytes_(S.Environment.DynamicMemSize) {}
  Status writeEnvironment(const Settings &S);
  // clang 19's `declare target indirect` functions: the table the device
  // runtime searches, {host address, device address} pairs sorted by host
  // address, in device memory (cuda_indirect_calls.cpp).
  Status buildIndirectCallTable();
  // clang 19's constructor (Init) or destructor list: cuda_global_ctors.cpp.
  Status runGlobalList(bool Init, const std::vector<std::string> &Objects);
  // Reads `<Name>_kernel_environment` (true) or `<Name>_exec_mode` into K.
  Expected<bool> readKernelEnvironment(CudaKernel &K, const char *Name);

  CUcontext Context_;
  CUmodule Module_;
  int32_t DeviceMaxThreads_;
  int32_t DynamicSharedBytes_;  // every launch's dynamic shared memory
  std::deque<CudaKernel> Kernels_;
  // The destructor list's symbols, read at load (the image's bytes may be
  // gone by unload: a dlclose'd library's); cleared once run.
  std::vector<std::string> FiniObjects_;
  CUdeviceptr IndirectCallTable_ = 0;  // cuMemAlloc'd; freed with the module
  uint64_t IndirectCallCount_ = 0;
};

}  // namespace omptarget::cuda
