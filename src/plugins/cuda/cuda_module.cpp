#include "cuda_module.h"

#include <algorithm>
#include <string>

#include "cubin.h"
#include "cuda_driver.h"
#include "debug.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
constexpr const char *kEnvironmentGlobal = "omptarget_device_environment";
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
  if (Status St = Loaded->writeEnvironment(S.Environment); !St) return St.takeError();
  return Loaded;
}

CudaImage::~CudaImage() {
  const Driver &D = driver();
  (void)D.cuCtxSetCurrent(Context_);
  (void)D.cuModuleUnload(Module_);
}

Status CudaImage::writeEnvironment(const DeviceEnvironment &Env) {
  const Driver &D = driver();
  CUdeviceptr Ptr = 0;
  size_t Size = 0;
  if (D.cuModuleGetGlobal(&Ptr, &Size, Module_, kEnvironmentGlobal) != CUDA_SUCCESS) {
    OMPT_TRACE(kComponent, "image has no %s; not written", kEnvironmentGlobal);
    return {};
  }
  if (Size != sizeof(Env))
    return makeError(
        "the image's %s has %zu bytes, expected %zu (an image from another LLVM "
        "version?)",
        kEnvironmentGlobal, Size, sizeof(Env));
  if (Status S = check(D.cuMemcpyHtoD(Ptr, &Env, sizeof(Env)), "writing the device environment");
      !S)
    return S;
  OMPT_TRACE(kComponent, "%s = {debug %d, devices %d, device %d, dynamic memory %d}",
             kEnvironmentGlobal, Env.DebugKind, Env.NumDevices, Env.DeviceNum, Env.DynamicMemSize);
  return {};
}

Expected<CudaKernel *> CudaImage::kernel(const char *Name) {
  const Driver &D = driver();
  CUfunction Function = nullptr;
  if (Status S = check(D.cuModuleGetFunction(&Function, Module_, Name), "cuModuleGetFunction"); !S)
    return S.takeError();
  CudaKernel &K = Kernels_.emplace_back();
  K.Function = Function;
  K.Name = Name;

  std::string ModeName = std::string(Name) + "_exec_mode";
  CUdeviceptr ModePtr = 0;
  size_t ModeSize = 0;
  if (D.cuModuleGetGlobal(&ModePtr, &ModeSize, Module_, ModeName.c_str()) == CUDA_SUCCESS) {
    if (ModeSize != 1) return makeError("%s has %zu bytes, expected 1", ModeName.c_str(), ModeSize);
    uint8_t Mode = 0;
    if (Status S = check(D.cuMemcpyDtoH(&Mode, ModePtr, 1), "reading the execution mode"); !S)
      return S.takeError();
    if (Mode < 1 || Mode > 3)
      return makeError("%s is %u; expected 1 (Generic), 2 (SPMD) or 3 (Generic-SPMD)",
                       ModeName.c_str(), Mode);
    K.Mode = static_cast<ExecMode>(Mode);
  } else {
    // Not a target region: a declare-target constructor/destructor kernel.
    K.Mode = ExecMode::Plain;
    OMPT_TRACE(kComponent, "kernel %s has no %s: Plain mode (runs as launched)", Name,
               ModeName.c_str());
  }

  // More than the default 48 KiB of dynamic shared memory must be opted into.
  constexpr int32_t kDefaultDynamicSharedLimit = 48 * 1024;
  if (DynamicSharedBytes_ > kDefaultDynamicSharedLimit)
    if (Status S =
            check(D.cuFuncSetAttribute(Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       DynamicSharedBytes_),
                  "LIBOMPTARGET_SHARED_MEMORY_SIZE beyond 48 KiB");
        !S)
      return S.takeError();

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
