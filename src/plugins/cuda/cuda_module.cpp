#include "cuda_module.h"

#include <algorithm>
#include <cinttypes>
#include <string>

#include "cubin.h"
#include "cuda_driver.h"
#include "debug.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
constexpr const char *kEnvironmentGlobal = "omptarget_device_environment";    // clang 14
constexpr const char *kEnvironmentGlobal19 = "__omp_rtl_device_environment";  // clang 19
}  // namespace

Expected<std::unique_ptr<CudaImage>> CudaImage::load(const __tgt_device_image &Image,
                                                     CUcontext Context, const Settings &S) {
  auto *Begin = static_cast<const std::byte *>(Image.ImageStart);
  auto *End = static_cast<const std::byte *>(Image.ImageEnd);
  if (!Begin || !End || End <= Begin)
    return makeError("invalid image bounds [%p, %p)", Image.ImageStart, Image.ImageEnd);
  std::optional<CubinInfo> Info = readCubin({Begin, End});
  if (!Info)
    return makeError("the image at %p is not a CUDA cubin (ELF64, e_machine 190)",
                     Image.ImageStart);
  if (Info->Sm != 0 && !smCompatible(Info->Sm, S.SmMajor, S.SmMinor))
    return makeError(
        "the image was built for sm_%u but CUDA device %d has compute capability "
        "%u.%u (sm_%u%u); rebuild for sm_%u%u (see docs/usage.md, \"Building for "
        "NVIDIA GPUs\")",
        Info->Sm, S.DeviceId, S.SmMajor, S.SmMinor, S.SmMajor, S.SmMinor, S.SmMajor, S.SmMinor);

  const Driver &D = driver();
  CUmodule Module = nullptr;
  if (Status St = check(D.cuModuleLoadDataEx(&Module, Image.ImageStart, 0, nullptr, nullptr),
                        "cuModuleLoadDataEx");
      !St)
    return St.takeError();
  std::unique_ptr<CudaImage> Loaded(new CudaImage(Image, Context, Module, S));
  OMPT_TRACE(kComponent, "device %d: loaded module %p from image %p (sm_%u, %td bytes)", S.DeviceId,
             static_cast<void *>(Module), Image.ImageStart, Info->Sm, End - Begin);
  if (Status St = Loaded->buildIndirectCallTable(); !St) return St.takeError();
  if (Status St = Loaded->writeEnvironment(S); !St) return St.takeError();
  const std::span<const std::byte> Bytes{Begin, End};
  Loaded->FiniObjects_ = globalListObjects(Bytes, /*Init=*/false);
  if (Status St = Loaded->runGlobalList(/*Init=*/true, globalListObjects(Bytes, /*Init=*/true));
      !St)
    return St.takeError();
  return Loaded;
}

CudaImage::~CudaImage() {
  const Driver &D = driver();
  (void)D.cuCtxSetCurrent(Context_);
  if (IndirectCallTable_) (void)D.cuMemFree(IndirectCallTable_);
  (void)D.cuModuleUnload(Module_);
}

Status CudaImage::writeEnvironment(const Settings &S) {
  const Driver &D = driver();
  const DeviceEnvironment &Env = S.Environment;
  CUdeviceptr Ptr = 0;
  size_t Size = 0;
  const char *Global = kEnvironmentGlobal19;
  if (D.cuModuleGetGlobal(&Ptr, &Size, Module_, Global) != CUDA_SUCCESS) {
    Global = kEnvironmentGlobal;
    if (D.cuModuleGetGlobal(&Ptr, &Size, Module_, Global) != CUDA_SUCCESS) {
      OMPT_TRACE(kComponent, "image has no device environment; not written");
      return {};
    }
  }
  DeviceEnvironment19 Env19{Env, S.ClockHz, IndirectCallTable_, IndirectCallCount_,
                            S.HardwareParallelism};
  const void *Bytes = &Env;
  if (Size == sizeof(Env19))
    Bytes = &Env19;
  else if (Size != sizeof(Env))
    return makeError(
        "the image's %s has %zu bytes, expected %zu (clang 14) or %zu (clang 19): an image from "
        "another LLVM version?",
        Global, Size, sizeof(Env), sizeof(Env19));
  if (Status St = check(D.cuMemcpyHtoD(Ptr, Bytes, Size), "writing the device environment"); !St)
    return St;
  OMPT_TRACE(kComponent,
             "%s (%zu bytes) = {debug %d, devices %d, device %d, dynamic memory %d, clock %" PRIu64
             " Hz, parallelism %" PRIu64 "}",
             Global, Size, Env.DebugKind, Env.NumDevices, Env.DeviceNum, Env.DynamicMemSize,
             S.ClockHz, S.HardwareParallelism);
  return {};
}

Expected<bool> CudaImage::readKernelEnvironment(CudaKernel &K, const char *Name) {
  const Driver &D = driver();
  std::string EnvName = std::string(Name) + "_kernel_environment";
  CUdeviceptr Ptr = 0;
  size_t Size = 0;
  if (D.cuModuleGetGlobal(&Ptr, &Size, Module_, EnvName.c_str()) != CUDA_SUCCESS) return false;
  if (Size != sizeof(KernelEnvironment))
    return makeError("%s has %zu bytes, expected %zu", EnvName.c_str(), Size,
                     sizeof(KernelEnvironment));
  KernelEnvironment KE{};
  if (Status S = check(D.cuMemcpyDtoH(&KE, Ptr, Size), "reading the kernel environment"); !S)
    return S.takeError();
  if (KE.ExecMode < 1 || KE.ExecMode > 3)
    return makeError(
        "%s has execution mode %u; expected 1 (Generic), 2 (SPMD) or 3 "
        "(Generic-SPMD)",
        EnvName.c_str(), KE.ExecMode);
  K.Mode = static_cast<ExecMode>(KE.ExecMode);
  K.EnvMinThreads = std::max(KE.MinThreads, 0);
  K.EnvMaxThreads = std::max(KE.MaxThreads, 0);
  if (KE.ReductionDataSize > 0 && KE.ReductionBufferLength > 0)
    K.ReductionBufferBytes = static_cast<uint64_t>(KE.ReductionDataSize) *
                             static_cast<uint64_t>(KE.ReductionBufferLength);
  OMPT_TRACE(kComponent,
             "kernel %s: kernel environment: %s mode, threads %d..%d, reduction buffer %" PRIu64
             " bytes",
             Name, execModeName(K.Mode), KE.MinThreads, KE.MaxThreads, K.ReductionBufferBytes);
  return true;
}

Expected<CudaKernel *> CudaImage::kernel(const char *Name) {
  const Driver &D = driver();
  CUfunction Function = nullptr;
  if (Status S = check(D.cuModuleGetFunction(&Function, Module_, Name), "cuModuleGetFunction"); !S)
    return S.takeError();
  CudaKernel &K = Kernels_.emplace_back();
  K.Function = Function;
  K.Name = Name;

  Expected<bool> HasEnv = readKernelEnvironment(K, Name);
  if (!HasEnv) return HasEnv.takeError();
  std::string ModeName = std::string(Name) + "_exec_mode";
  CUdeviceptr ModePtr = 0;
  size_t ModeSize = 0;
  if (*HasEnv) {
    // clang 15 and later: the mode came from the kernel environment.
  } else if (D.cuModuleGetGlobal(&ModePtr, &ModeSize, Module_, ModeName.c_str()) == CUDA_SUCCESS) {
    if (ModeSize != 1) return makeError("%s has %zu bytes, expected 1", ModeName.c_str(), ModeSize);
    uint8_t Mode = 0;
    if (Status S = check(D.cuMemcpyDtoH(&Mode, ModePtr, 1), "reading the execution mode"); !S)
      return S.takeError();
    if (Mode < 1 || Mode > 3)
      return makeError("%s is %u; expected 1 (Generic), 2 (SPMD) or 3 (Generic-SPMD)",
                       ModeName.c_str(), Mode);
    K.Mode = static_cast<ExecMode>(Mode);
  } else {
    // Not a target region: a declare-target constructor/destructor kernel
    // (clang 14) or an ompx_bare kernel (clang 19).
    K.Mode = ExecMode::Plain;
    OMPT_TRACE(kComponent,
               "kernel %s has no kernel environment nor %s: Plain mode (runs as "
               "launched)",
               Name, ModeName.c_str());
  }

  // More than the default 48 KiB of dynamic shared memory must be opted into.
  constexpr int32_t kDefaultDynamicSharedLimit = 48 * 1024;
  if (DynamicSharedBytes_ > kDefaultDynamicSharedLimit) {
    if (Status S =
            check(D.cuFuncSetAttribute(Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       DynamicSharedBytes_),
                  "LIBOMPTARGET_SHARED_MEMORY_SIZE beyond 48 KiB");
        !S)
      return S.takeError();
    K.SharedOptIn.store(DynamicSharedBytes_, std::memory_order_relaxed);
  }
  int Static = 0;
  if (D.cuFuncGetAttribute(&Static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, Function) == CUDA_SUCCESS)
    K.StaticSharedBytes = std::max(Static, 0);

  int MaxThreads = 0;
  if (D.cuFuncGetAttribute(&MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Function) !=
          CUDA_SUCCESS ||
      MaxThreads <= 0)
    MaxThreads = DeviceMaxThreads_;
  K.MaxThreadsPerBlock = std::min(MaxThreads, DeviceMaxThreads_);
  OMPT_TRACE(kComponent, "kernel %s: %s mode, at most %d threads per block", Name,
             execModeName(K.Mode), K.MaxThreadsPerBlock);
  return &K;
}

Expected<void *> CudaImage::global(const char *Name, size_t Size) {
  const Driver &D = driver();
  CUdeviceptr Ptr = 0;
  size_t DevSize = 0;
  if (Status S = check(D.cuModuleGetGlobal(&Ptr, &DevSize, Module_, Name), "cuModuleGetGlobal"); !S)
    return S.takeError();
  if (DevSize != Size)
    return makeError("the device's global has %zu bytes but the host's has %zu", DevSize, Size);
  return reinterpret_cast<void *>(Ptr);
}

}  // namespace omptarget::cuda
