#include "cuda_driver.h"

#include <atomic>
#include <dlfcn.h>

#include "cuda_errors.h"
#include "debug.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
constexpr const char *kLibrary = "libcuda.so.1";

// The table, filled once. Never unloaded: the driver must outlive every
// exit-time call into the plugin.
Driver Table;

Expected<const Driver *> load(DriverDecorator Decorate) {
  void *Handle = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    return makeError("cannot load the CUDA driver %s: %s", kLibrary, Why ? Why : "unknown error");
  }
  std::string Missing;
#define OMPT_CUDA_RESOLVE(Name, Symbol)                       \
  if (void *Sym = dlsym(Handle, Symbol))                      \
    Table.Name = reinterpret_cast<decltype(Table.Name)>(Sym); \
  else                                                        \
    Missing += (Missing.empty() ? "" : ", ") + std::string(Symbol);
  OMPT_CUDA_DRIVER_ENTRIES(OMPT_CUDA_RESOLVE)
  std::string MissingPool;
#define OMPT_CUDA_RESOLVE_OPTIONAL(Name, Symbol)              \
  if (void *Sym = dlsym(Handle, Symbol))                      \
    Table.Name = reinterpret_cast<decltype(Table.Name)>(Sym); \
  else                                                        \
    MissingPool += (MissingPool.empty() ? "" : ", ") + std::string(Symbol);
  OMPT_CUDA_DRIVER_POOL_ENTRIES(OMPT_CUDA_RESOLVE_OPTIONAL)
#undef OMPT_CUDA_RESOLVE_OPTIONAL
#undef OMPT_CUDA_RESOLVE
  if (!Missing.empty())
    return makeError(
        "the CUDA driver %s lacks entry points the plugin needs (%s); a newer "
        "driver is required",
        kLibrary, Missing.c_str());
  Table.PoolEntries = MissingPool.empty();
  if (!Table.PoolEntries)
    OMPT_TRACE(kComponent,
               "the CUDA driver lacks the stream-ordered allocator (%s): device memory comes "
               "from cuMemAlloc",
               MissingPool.c_str());
  if (Decorate) Decorate(Table);
  if (CUresult R = Table.cuInit(0); R != CUDA_SUCCESS)
    return makeError("cuInit failed: %s", errorText(R).c_str());
  if (Table.cuDriverGetVersion(&Table.Version) != CUDA_SUCCESS) Table.Version = 0;
  OMPT_TRACE(kComponent, "loaded the CUDA driver %s (version %d)", kLibrary, Table.Version);
  return &Table;
}
}  // namespace

const Expected<const Driver *> &loadDriver(DriverDecorator Decorate) {
  static const Expected<const Driver *> Loaded = load(Decorate);
  return Loaded;
}

const Driver &driver() { return Table; }

// The driver's own name and description when it gives them; else ours
// (the driver may refuse while it shuts down, or not know a newer code).
std::string errorText(CUresult Code) {
  const char *Name = nullptr;
  const char *Text = nullptr;
  if (!Table.cuGetErrorName || Table.cuGetErrorName(Code, &Name) != CUDA_SUCCESS) Name = nullptr;
  if (!Table.cuGetErrorString || Table.cuGetErrorString(Code, &Text) != CUDA_SUCCESS)
    Text = nullptr;
  if (!Name) Name = knownErrorName(static_cast<int>(Code));
  if (!Text) Text = knownErrorDescription(static_cast<int>(Code));
  if (!Name)
    return formatString(
        "CUDA error %d (a code neither the driver nor this plugin knows; see cuda.h)",
        static_cast<int>(Code));
  return formatString("%s (%s)", Name, Text ? Text : "the driver gives no description");
}

namespace {
std::atomic<bool> ShutDown{false};  // see driverShutDown()
}  // namespace

bool driverShutDown() { return ShutDown.load(std::memory_order_relaxed); }

Status check(CUresult Code, const char *What) {
  if (Code == CUDA_SUCCESS) return {};
  if (Code == CUDA_ERROR_DEINITIALIZED) ShutDown.store(true, std::memory_order_relaxed);
  return makeError("%s: %s", What, errorText(Code).c_str());
}

}  // namespace omptarget::cuda
