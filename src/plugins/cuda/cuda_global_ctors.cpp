// clang 19's global constructors and destructors on NVIDIA GPUs.
//
// clang 19 compiles the C++ constructors and destructors of declare-target
// globals into the image itself (clang 14 made them offload-entry kernels,
// which the core runs). The NVPTX back end cannot emit .init_array, so each
// list entry is a global `__init_array_object_<fn>_<hash>_<priority>` (or
// `__fini_array_object_...`) holding a device function pointer, and the
// image has a kernel `nvptx$device$init` (`nvptx$device$fini`) that calls
// the functions between the globals `__init_array_start` and
// `__init_array_end` (`__fini_...`). The plugin builds that array: it reads
// each function pointer, copies them in priority order to a device buffer,
// points the start and end globals at it and runs the kernel with one
// thread, on the default stream, synchronously; then frees the buffer.
//
// Destructors run through the same forward-walking kernel, `nvptx$device$init`
// with its start and end globals, given the destructor list in reverse
// (descending priority, table order reversed: what a correct
// `nvptx$device$fini` does). Measured reason: clang 19.1.7's
// `nvptx$device$fini` (the PTX of its NVPTX ctor/dtor lowering) enters its
// loop only when end - 8 > start, so an image with a single destructor never
// runs it (LLVM 19's own plugin gives it the array as it is, and the
// destructor is lost there). The init kernel is a plain loop from start to
// end. An image with destructors and no constructors has no init kernel:
// then the fini kernel gets the list as it is (right with two destructors or
// more; with one it runs nothing, as on LLVM 19).
#include <algorithm>
#include <charconv>
#include <cinttypes>

#include "cubin.h"
#include "cuda_driver.h"
#include "cuda_module.h"
#include "debug.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";

struct ListNames {
  const char *Prefix, *Kernel, *Start, *End, *What;
};
constexpr ListNames kInit{"__init_array_object_", "nvptx$device$init", "__init_array_start",
                          "__init_array_end", "constructors"};
constexpr ListNames kFini{"__fini_array_object_", "nvptx$device$fini", "__fini_array_start",
                          "__fini_array_end", "destructors"};

uint32_t priorityOf(std::string_view Name) {
  const size_t Last = Name.rfind('_');
  uint32_t P = 0;
  if (Last == std::string_view::npos) return 65535;
  const char *First = Name.data() + Last + 1, *End = Name.data() + Name.size();
  auto [Ptr, Ec] = std::from_chars(First, End, P);
  return Ec == std::errc() && Ptr == End && First != End && P <= 65535 ? P : 65535;
}
}  // namespace

std::vector<std::string> globalListObjects(std::span<const std::byte> Cubin, bool Init) {
  std::vector<std::string> Names = cubinSymbols(Cubin, (Init ? kInit : kFini).Prefix);
  std::stable_sort(Names.begin(), Names.end(), [](const std::string &A, const std::string &B) {
    return priorityOf(A) < priorityOf(B);
  });
  return Names;
}

Status CudaImage::runDestructors() {
  std::vector<std::string> Objects = std::move(FiniObjects_);
  FiniObjects_.clear();
  if (Objects.empty()) return {};
  if (Status S = check(driver().cuCtxSetCurrent(Context_), "cuCtxSetCurrent"); !S) return S;
  return runGlobalList(/*Init=*/false, Objects);
}

Status CudaImage::runGlobalList(bool Init, const std::vector<std::string> &Objects) {
  if (Objects.empty()) return {};
  const Driver &D = driver();
  // The kernel that walks the list: the init kernel where the image has one.
  const ListNames *Runner = &kInit;
  CUfunction Kernel = nullptr;
  if (D.cuModuleGetFunction(&Kernel, Module_, kInit.Kernel) != CUDA_SUCCESS) {
    Runner = &kFini;
    if (Init || D.cuModuleGetFunction(&Kernel, Module_, kFini.Kernel) != CUDA_SUCCESS) {
      OMPT_TRACE(kComponent, "image lists %zu global %s but has no %s: not run", Objects.size(),
                 (Init ? kInit : kFini).What, (Init ? kInit : kFini).Kernel);
      return {};
    }
  }
  const ListNames &L = *Runner;
  const char *What = (Init ? kInit : kFini).What;
  auto Failed = [&](const char *Step, Status Why) {
    return makeError("running the image's %zu global %s (%s): %s: %s", Objects.size(), What,
                     L.Kernel, Step, Why.error().message().c_str());
  };
  // Destructors through the init kernel: last in the list first.
  const bool Reverse = !Init && Runner == &kInit;
  std::vector<uint64_t> Functions(Objects.size());
  for (size_t I = 0; I < Objects.size(); ++I) {
    CUdeviceptr Ptr = 0;
    size_t Size = 0;
    Status S =
        check(D.cuModuleGetGlobal(&Ptr, &Size, Module_, Objects[I].c_str()), "cuModuleGetGlobal");
    if (S && Size != sizeof(uint64_t))
      S = makeError("%s has %zu bytes, expected 8", Objects[I].c_str(), Size);
    uint64_t &Slot = Functions[Reverse ? Objects.size() - 1 - I : I];
    if (S) S = check(D.cuMemcpyDtoH(&Slot, Ptr, sizeof(uint64_t)), "cuMemcpyDtoH");
    if (!S) return Failed("reading a function pointer", std::move(S));
  }
  const size_t Bytes = Functions.size() * sizeof(uint64_t);
  CUdeviceptr Array = 0;
  if (Status S = check(D.cuMemAlloc(&Array, Bytes), "cuMemAlloc"); !S)
    return Failed("allocating the list", std::move(S));
  Status S = check(D.cuMemcpyHtoD(Array, Functions.data(), Bytes), "cuMemcpyHtoD");
  const uint64_t Bounds[2] = {Array, Array + Bytes};
  const char *BoundNames[2] = {L.Start, L.End};
  for (int I = 0; I < 2 && S; ++I) {
    CUdeviceptr Ptr = 0;
    size_t Size = 0;
    S = check(D.cuModuleGetGlobal(&Ptr, &Size, Module_, BoundNames[I]), "cuModuleGetGlobal");
    if (S && Size != sizeof(uint64_t))
      S = makeError("%s has %zu bytes, expected 8", BoundNames[I], Size);
    if (S) S = check(D.cuMemcpyHtoD(Ptr, &Bounds[I], sizeof(uint64_t)), "cuMemcpyHtoD");
  }
  if (S)
    S = check(D.cuLaunchKernel(Kernel, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
              "cuLaunchKernel");
  if (S) S = check(D.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  Status Freed = check(D.cuMemFree(Array), "cuMemFree");
  if (!S) return Failed("running", std::move(S));
  if (!Freed) return Failed("freeing the list", std::move(Freed));
  OMPT_TRACE(kComponent, "ran %zu global %s (%s)", Objects.size(), What, L.Kernel);
  return {};
}

}  // namespace omptarget::cuda
