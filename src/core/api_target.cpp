// Compiler-facing entry points (__tgt_*, __kmpc_push_target_tripcount*).
// Thin: resolve the device, run the construct on one AsyncInfo, report.
#include <cinttypes>

#include "async_info.h"
#include "data_constructs.h"
#include "debug.h"
#include "deferred_constructs.h"
#include "exit_mark.h"
#include "export.h"
#include "info.h"
#include "mappers.h"
#include "outcome.h"
#include "profile.h"
#include "runtime.h"
#include "table_dump.h"
#include "target_launch.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

// OMP_TARGET_OFFLOAD=mandatory with no device at all is fatal (handleOutcome).
[[gnu::cold, gnu::noinline]] bool reportNoDevice(ident_t *Loc, const char *Call) {
  handleOutcome(Loc,
                makeError("%s: OMP_TARGET_OFFLOAD=mandatory but no offload device is available (no "
                          "plugin found a device, or none accepts this program's device images: "
                          "a warning above says which; LIBOMPTARGET_DEBUG=1 shows the plugins "
                          "tried)",
                          Call),
                Call);
  return true;
}
bool noDeviceAvailable(Runtime &R, ident_t *Loc, const char *Call) {
  return R.devices().size() == 0 && reportNoDevice(Loc, Call);
}

MapArgs makeArgs(int32_t Num, void **Bases, void **Begins, int64_t *Sizes, int64_t *Types,
                 map_var_info_t *Names, void **Mappers) {
  MapArgs A;
  A.Num = Num;
  A.Bases = Bases;
  A.Begins = Begins;
  A.Sizes = Sizes;
  A.Types = Types;
  A.Names = Names;
  A.Mappers = Mappers;
  return A;
}

// A construct's map arguments as clang 14 passes them: a count of 0 or more,
// and, when it is positive, the four arrays every entry is read from (a
// construct without maps passes 0 and null arrays). Anything else is a
// corrupt call (a program calling the ABI by hand): the construct fails
// before an array is read (LLVM 14 reads them and segfaults).
Status checkMapArgs(const char *Call, const MapArgs &A) {
  if (A.Num == 0 || (A.Num > 0 && A.Bases && A.Begins && A.Sizes && A.Types))
    return Status::success();
  return makeError("%s: invalid map arguments (%d entries; bases " OMPT_PTR_FMT
                   ", begins " OMPT_PTR_FMT ", sizes " OMPT_PTR_FMT ", types " OMPT_PTR_FMT
                   "): the count must not be negative, and the arrays must be non-null when it "
                   "is positive; nothing was mapped",
                   Call, A.Num, OMPT_PTR(A.Bases), OMPT_PTR(A.Begins), OMPT_PTR(A.Sizes),
                   OMPT_PTR(A.Types));
}

int64_t resolveDevice(int64_t DeviceId) {
  return DeviceId == abi::kDeviceDefault ? defaultDevice() : DeviceId;
}

enum class DataPhaseKind { Begin, End, Update };

// Whether the construct may complete after its call returns: the `nowait`
// entries', on libomp 19 (deferred_constructs.h).
enum class Completion { BeforeReturn, MayDefer };

void runDataConstruct(DataPhaseKind Kind, const char *Call, ident_t *Loc, int64_t DeviceId,
                      const MapArgs &A, Completion When = Completion::BeforeReturn) {
  RuntimeUse Use;
  if (!Use) {
    // A late construct moves nothing: the device data went with the runtime.
    reportAfterShutdown(Call, "no data was mapped, moved or unmapped");
    return;
  }
  profile::HostSpan Span(Call, Loc, DeviceId);
  Runtime &R = Runtime::get();
  if (R.offloadDisabled()) return;
  if (noDeviceAvailable(R, Loc, Call)) return;
  DeviceId = resolveDevice(DeviceId);
  Span.setDevice(DeviceId);
  // The initial device is the host itself: its data environment is the host's.
  if (isInitialDevice(DeviceId)) return;
  if (Status S = checkMapArgs(Call, A); !S) [[unlikely]] {
    handleOutcome(Loc, S, Call);
    return;
  }
  auto D = R.readyDevice(DeviceId, Call);
  if (!D) {
    handleOutcome(Loc, D.error(), Call);
    return;
  }
  if (info::enabled(abi::kInfoKernelArgs)) {
    const char *Region = Kind == DataPhaseKind::Begin ? "Entering OpenMP data region"
                         : Kind == DataPhaseKind::End ? "Exiting OpenMP data region"
                                                      : "Updating OpenMP data";
    info::printArguments(Loc, (*D)->id(), Region, A.Num, A.Sizes, A.Types, A.Names);
  }
  static constexpr DataConstruct Construct[] = {DataConstruct::Begin, DataConstruct::End,
                                                DataConstruct::Update};
  const DataConstruct Which = Construct[static_cast<int>(Kind)];
  Status S;
  if (void **Slot = When == Completion::MayDefer ? targetTaskHandleSlot() : nullptr) [[unlikely]] {
    auto C = std::make_unique<DeferredConstruct>(**D, Call, Loc);
    S = runDataConstructOn(**D, Which, A, C->async());
    S = R.deferred().finishOrDefer(std::move(C), Slot, std::move(S));
  } else {
    S = runDataConstruct(**D, Which, A);
  }
  if (!S) {
    static const char *Failed[] = {"Call to targetDataBegin failed, abort target.",
                                   "Call to targetDataEnd failed, abort target.",
                                   "Call to targetDataUpdate failed, abort target."};
    debug::error("%s", Failed[static_cast<int>(Kind)]);
  }
  if (info::enabled(abi::kInfoDumpTable)) info::dumpTable(Loc, **D);
  reportOutcome(R, Loc, S, Call);
}

// A region that fails while exit() tears the program down (a nowait region
// whose task starts then: the CUDA driver may be deinitialized already, the
// program's binary unregistered) or after its binary was unregistered runs
// as the compiler's host version, on the host's data: nothing is lost, and
// no error is due. Asked only once the region failed.
[[gnu::cold]] bool failedForTeardown(Runtime &R, const char *Call, void *HostPtr) {
  if (!exit_mark::begun() && !R.images().retired(HostPtr)) return false;
  OMPT_TRACE("omptarget",
             "%s: host region %p failed while the program exits or after its "
             "binary was unregistered; its host version runs",
             Call, HostPtr);
  return true;
}

// Launch: the region and its shape, built in place by the entry point (two
// copies of __tgt_kernel_launch fewer per region than passing it by value:
// the empty region went from 899 to 881 core+plugin instructions for clang
// 14, from 952 to 932 for clang 19, bench/count_region_instructions.sh); for
// clang 14's entries (KernelArgsVersion 0) a team region's trip count is the
// one __kmpc_push_target_tripcount left.
int runTarget(const char *Call, ident_t *Loc, int64_t DeviceId, LaunchParams &Launch,
              const MapArgs &A, Completion When = Completion::BeforeReturn) {
  void *const HostPtr = Launch.HostRegion;
  __tgt_kernel_launch &Kernel = Launch.Kernel;
  // A region that starts after shutdown (a nowait region whose task runs
  // during exit()) runs as the compiler's host version: its data is the host's.
  RuntimeUse Use;
  if (!Use) return abi::kOffloadFail;
  profile::HostSpan Span(Call, Loc, DeviceId);
  Runtime &R = Runtime::get();
  // Disabled offloading: the compiler's host fallback runs the region.
  if (R.offloadDisabled()) return abi::kOffloadFail;
  if (noDeviceAvailable(R, Loc, Call)) return abi::kOffloadFail;
  DeviceId = resolveDevice(DeviceId);
  Span.setDevice(DeviceId);
  // device(omp_get_initial_device()): the compiler's host version runs it.
  if (isInitialDevice(DeviceId)) return abi::kOffloadFail;
  if (Kernel.KernelArgsVersion == 0) {
    uint64_t TripCount = Runtime::popTripCount(DeviceId);
    if (Kernel.IsTeamRegion) Kernel.LoopTripCount = TripCount;
  }
  if (Status S = checkMapArgs(Call, A); !S) [[unlikely]] {
    handleOutcome(Loc, S, Call);
    return abi::kOffloadFail;
  }
  auto D = R.readyDevice(DeviceId, Call);
  if (!D) {
    // At exit the device may fail to start (the CUDA driver is already
    // deinitialized) for a region whose binary is gone.
    if (!failedForTeardown(R, Call, HostPtr)) handleOutcome(Loc, D.error(), Call);
    return abi::kOffloadFail;
  }
  if (info::enabled(abi::kInfoKernelArgs))
    info::printArguments(Loc, (*D)->id(), "Entering OpenMP kernel", A.Num, A.Sizes, A.Types,
                         A.Names);
  Status S;
  if (void **Slot = When == Completion::MayDefer ? targetTaskHandleSlot() : nullptr) [[unlikely]] {
    auto C = std::make_unique<DeferredConstruct>(**D, Call, Loc);
    S = runTargetRegion(Loc, **D, A, Launch, &C->async());
    S = R.deferred().finishOrDefer(std::move(C), Slot, std::move(S));
  } else {
    S = runTargetRegion(Loc, **D, A, Launch);
  }
  if (!S && failedForTeardown(R, Call, HostPtr)) return abi::kOffloadFail;
  if (info::enabled(abi::kInfoDumpTable)) info::dumpTable(Loc, **D);
  reportOutcome(R, Loc, S, Call);
  return S ? abi::kOffloadSuccess : abi::kOffloadFail;
}

// The launch a __tgt_kernel_arguments of clang 15 or later describes, read
// as LLVM 19 reads each version: version 1 ends after Flags (its teams and
// thread limit are the call's own), versions 2 and 3 carry the dimensions
// and the dynamic group memory. NumTeams -1 is a region without `teams`:
// one team. Only a version in [kKernelArgsFirstVersion,
// kKernelArgsLastVersion] may be read: the caller checks.
__tgt_kernel_launch launchOf(const __tgt_kernel_arguments &KA, int32_t NumTeams,
                             int32_t ThreadLimit) {
  __tgt_kernel_launch L{};
  L.Version = OMPTARGET_KERNEL_LAUNCH_VERSION;
  L.KernelArgsVersion = KA.Version;
  L.LoopTripCount = KA.Tripcount;
  if (KA.Version >= abi::kKernelArgsMinVersionWithDims) {
    for (int I = 0; I < 3; ++I) {
      L.NumTeams[I] = KA.NumTeams[I];
      L.ThreadLimit[I] = KA.ThreadLimit[I];
    }
    L.DynCGroupMem = KA.DynCGroupMem;
  } else {
    L.NumTeams[0] = NumTeams > 0 ? static_cast<uint32_t>(NumTeams) : 0;
    L.ThreadLimit[0] = ThreadLimit > 0 ? static_cast<uint32_t>(ThreadLimit) : 0;
  }
  L.IsTeamRegion = NumTeams != -1;
  if (!L.IsTeamRegion) {
    // A plain region is one team; its thread limit (a `target parallel`'s)
    // still bounds its threads.
    L.NumTeams[0] = 1;
    L.NumTeams[1] = L.NumTeams[2] = 0;
    L.LoopTripCount = 0;
  }
  return L;
}

// Kernel arguments whose layout this runtime does not read: never a guess,
// the region runs on the host (fatal under OMP_TARGET_OFFLOAD=mandatory).
[[gnu::cold, gnu::noinline]] int refuseKernelArguments(const char *Call, ident_t *Loc,
                                                       void *HostPtr,
                                                       const __tgt_kernel_arguments *KA) {
  RuntimeUse Use;
  if (!Use) return abi::kOffloadFail;
  handleOutcome(
      Loc,
      KA ? makeError("%s: the kernel arguments of region %p have version %u, which this runtime "
                     "does not read (it reads versions %u to %u, those of clang 15 to 19); the "
                     "region runs on the host; build the program with clang 14 or 19, or use a "
                     "newer omptarget",
                     Call, HostPtr, KA->Version, abi::kKernelArgsFirstVersion,
                     abi::kKernelArgsLastVersion)
         : makeError("%s: null kernel arguments for region %p; the region runs on the host", Call,
                     HostPtr),
      Call);
  return abi::kOffloadFail;
}

// Inlined into its two entry points: one call frame less per clang 19
// region (the empty region's 932 core+plugin instructions became 902, 2.4%
// over clang 14's 881: bench/count_region_instructions.sh).
[[gnu::always_inline]] inline int runKernel(const char *Call, ident_t *Loc, int64_t DeviceId,
                                            int32_t NumTeams, int32_t ThreadLimit, void *HostPtr,
                                            __tgt_kernel_arguments *KA, Completion When) {
  if (!KA || KA->Version < abi::kKernelArgsFirstVersion ||
      KA->Version > abi::kKernelArgsLastVersion) [[unlikely]]
    return refuseKernelArguments(Call, Loc, HostPtr, KA);
  MapArgs A = makeArgs(static_cast<int32_t>(KA->NumArgs), KA->ArgBasePtrs, KA->ArgPtrs,
                       KA->ArgSizes, KA->ArgTypes, KA->ArgNames, KA->ArgMappers);
  if (KA->Flags & abi::kKernelArgsNoWait) When = Completion::MayDefer;
  LaunchParams Launch{HostPtr, launchOf(*KA, NumTeams, ThreadLimit)};
  return runTarget(Call, Loc, DeviceId, Launch, A, When);
}

}  // namespace

extern "C" {

OMPT_EXPORT void __tgt_register_requires(int64_t Flags) {
  if (RuntimeUse Use; Use) Runtime::get().registerRequires(Flags);
}
OMPT_EXPORT void __tgt_register_lib(__tgt_bin_desc *Desc) {
  // A library loaded while the program exits has nothing to offload.
  if (RuntimeUse Use; Use) Runtime::get().registerLib(Desc);
}
OMPT_EXPORT void __tgt_unregister_lib(__tgt_bin_desc *Desc) {
  // Binaries torn down after the runtime itself have nothing left to undo.
  if (RuntimeUse Use; Use) Runtime::get().unregisterLib(Desc);
}
OMPT_EXPORT void __tgt_init_all_rtls() {
  if (RuntimeUse Use; Use) Runtime::get().activateAllPlugins();
}

// Data constructs: mapper variants carry source locations, names and mappers.
#define OMPT_DATA_ENTRY(Suffix, Kind)                                                            \
  OMPT_EXPORT void __tgt_target_data_##Suffix##_mapper(ident_t *Loc, int64_t DeviceId,           \
                                                       int32_t Num, void **Bases, void **Begins, \
                                                       int64_t *Sizes, int64_t *Types,           \
                                                       map_var_info_t *Names, void **Mappers) {  \
    runDataConstruct(Kind, "__tgt_target_data_" #Suffix, Loc, DeviceId,                          \
                     makeArgs(Num, Bases, Begins, Sizes, Types, Names, Mappers));                \
  }                                                                                              \
  OMPT_EXPORT void __tgt_target_data_##Suffix##_nowait_mapper(ident_t *Loc, int64_t DeviceId,    \
                                                              int32_t Num, void **Bases,         \
                                                              void **Begins, int64_t *Sizes,     \
                                                              int64_t *Types,                    \
                                                              map_var_info_t *Names,             \
                                                              void **Mappers, int32_t, void *,   \
                                                              int32_t, void *) {                 \
    runDataConstruct(Kind, "__tgt_target_data_" #Suffix "_nowait", Loc, DeviceId,                \
                     makeArgs(Num, Bases, Begins, Sizes, Types, Names, Mappers),                 \
                     Completion::MayDefer);                                                      \
  }                                                                                              \
  OMPT_EXPORT void __tgt_target_data_##Suffix(int64_t DeviceId, int32_t Num, void **Bases,       \
                                              void **Begins, int64_t *Sizes, int64_t *Types) {   \
    runDataConstruct(Kind, "__tgt_target_data_" #Suffix, nullptr, DeviceId,                      \
                     makeArgs(Num, Bases, Begins, Sizes, Types, nullptr, nullptr));              \
  }                                                                                              \
  OMPT_EXPORT void __tgt_target_data_##Suffix##_nowait(int64_t DeviceId, int32_t Num,            \
                                                       void **Bases, void **Begins,              \
                                                       int64_t *Sizes, int64_t *Types, int32_t,  \
                                                       void *, int32_t, void *) {                \
    runDataConstruct(Kind, "__tgt_target_data_" #Suffix "_nowait", nullptr, DeviceId,            \
                     makeArgs(Num, Bases, Begins, Sizes, Types, nullptr, nullptr),               \
                     Completion::MayDefer);                                                      \
  }

OMPT_DATA_ENTRY(begin, DataPhaseKind::Begin)
OMPT_DATA_ENTRY(end, DataPhaseKind::End)
OMPT_DATA_ENTRY(update, DataPhaseKind::Update)
#undef OMPT_DATA_ENTRY

OMPT_EXPORT int __tgt_target_mapper(ident_t *Loc, int64_t DeviceId, void *HostPtr, int32_t Num,
                                    void **Bases, void **Begins, int64_t *Sizes, int64_t *Types,
                                    map_var_info_t *Names, void **Mappers) {
  LaunchParams Launch{HostPtr, clang14Launch(false, 0, 0, 0)};
  return runTarget("__tgt_target", Loc, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, Names, Mappers));
}
OMPT_EXPORT int __tgt_target_nowait_mapper(ident_t *Loc, int64_t DeviceId, void *HostPtr,
                                           int32_t Num, void **Bases, void **Begins, int64_t *Sizes,
                                           int64_t *Types, map_var_info_t *Names, void **Mappers,
                                           int32_t, void *, int32_t, void *) {
  LaunchParams Launch{HostPtr, clang14Launch(false, 0, 0, 0)};
  return runTarget("__tgt_target_nowait", Loc, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, Names, Mappers),
                   Completion::MayDefer);
}
OMPT_EXPORT int __tgt_target(int64_t DeviceId, void *HostPtr, int32_t Num, void **Bases,
                             void **Begins, int64_t *Sizes, int64_t *Types) {
  LaunchParams Launch{HostPtr, clang14Launch(false, 0, 0, 0)};
  return runTarget("__tgt_target", nullptr, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, nullptr, nullptr));
}
OMPT_EXPORT int __tgt_target_nowait(int64_t DeviceId, void *HostPtr, int32_t Num, void **Bases,
                                    void **Begins, int64_t *Sizes, int64_t *Types, int32_t, void *,
                                    int32_t, void *) {
  LaunchParams Launch{HostPtr, clang14Launch(false, 0, 0, 0)};
  return runTarget("__tgt_target_nowait", nullptr, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, nullptr, nullptr),
                   Completion::MayDefer);
}
OMPT_EXPORT int __tgt_target_teams_mapper(ident_t *Loc, int64_t DeviceId, void *HostPtr,
                                          int32_t Num, void **Bases, void **Begins, int64_t *Sizes,
                                          int64_t *Types, map_var_info_t *Names, void **Mappers,
                                          int32_t NumTeams, int32_t ThreadLimit) {
  LaunchParams Launch{HostPtr, clang14Launch(true, NumTeams, ThreadLimit, 0)};
  return runTarget("__tgt_target_teams", Loc, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, Names, Mappers));
}
OMPT_EXPORT int __tgt_target_teams_nowait_mapper(ident_t *Loc, int64_t DeviceId, void *HostPtr,
                                                 int32_t Num, void **Bases, void **Begins,
                                                 int64_t *Sizes, int64_t *Types,
                                                 map_var_info_t *Names, void **Mappers,
                                                 int32_t NumTeams, int32_t ThreadLimit, int32_t,
                                                 void *, int32_t, void *) {
  LaunchParams Launch{HostPtr, clang14Launch(true, NumTeams, ThreadLimit, 0)};
  return runTarget("__tgt_target_teams_nowait", Loc, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, Names, Mappers),
                   Completion::MayDefer);
}
OMPT_EXPORT int __tgt_target_teams(int64_t DeviceId, void *HostPtr, int32_t Num, void **Bases,
                                   void **Begins, int64_t *Sizes, int64_t *Types, int32_t NumTeams,
                                   int32_t ThreadLimit) {
  LaunchParams Launch{HostPtr, clang14Launch(true, NumTeams, ThreadLimit, 0)};
  return runTarget("__tgt_target_teams", nullptr, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, nullptr, nullptr));
}
OMPT_EXPORT int __tgt_target_teams_nowait(int64_t DeviceId, void *HostPtr, int32_t Num,
                                          void **Bases, void **Begins, int64_t *Sizes,
                                          int64_t *Types, int32_t NumTeams, int32_t ThreadLimit,
                                          int32_t, void *, int32_t, void *) {
  LaunchParams Launch{HostPtr, clang14Launch(true, NumTeams, ThreadLimit, 0)};
  return runTarget("__tgt_target_teams_nowait", nullptr, DeviceId, Launch,
                   makeArgs(Num, Bases, Begins, Sizes, Types, nullptr, nullptr),
                   Completion::MayDefer);
}

// clang 15 and later: one entry for every target region, its launch in
// *Args. With `nowait` (Flags bit 0) the region runs inside the target task
// libomp made for it, as __tgt_target_nowait's regions do: the task
// completes when the region has, which on libomp 19 may be after this call
// returns (deferred_constructs.h).
OMPT_EXPORT int __tgt_target_kernel(ident_t *Loc, int64_t DeviceId, int32_t NumTeams,
                                    int32_t ThreadLimit, void *HostPtr,
                                    __tgt_kernel_arguments *Args) {
  return runKernel("__tgt_target_kernel", Loc, DeviceId, NumTeams, ThreadLimit, HostPtr, Args,
                   Completion::BeforeReturn);
}
OMPT_EXPORT int __tgt_target_kernel_nowait(ident_t *Loc, int64_t DeviceId, int32_t NumTeams,
                                           int32_t ThreadLimit, void *HostPtr,
                                           __tgt_kernel_arguments *Args, int32_t, void *, int32_t,
                                           void *) {
  return runKernel("__tgt_target_kernel_nowait", Loc, DeviceId, NumTeams, ThreadLimit, HostPtr,
                   Args, Completion::MayDefer);
}

OMPT_EXPORT void __kmpc_push_target_tripcount_mapper(ident_t *, int64_t DeviceId,
                                                     uint64_t TripCount) {
  Runtime::pushTripCount(resolveDevice(DeviceId), TripCount);
}
OMPT_EXPORT void __kmpc_push_target_tripcount(int64_t DeviceId, uint64_t TripCount) {
  Runtime::pushTripCount(resolveDevice(DeviceId), TripCount);
}

// The handle is the one the runtime passed to the mapper function; a null
// one (a program calling these by hand) is reported, not dereferenced.
OMPT_EXPORT int64_t __tgt_mapper_num_components(void *Handle) {
  if (!Handle) [[unlikely]] {
    debug::error("__tgt_mapper_num_components: null mapper handle; returning 0");
    return 0;
  }
  return static_cast<int64_t>(static_cast<MapperComponents *>(Handle)->Items.size());
}
OMPT_EXPORT void __tgt_push_mapper_component(void *Handle, void *Base, void *Begin, int64_t Size,
                                             int64_t Type, void *Name) {
  if (!Handle) [[unlikely]] {
    debug::error("__tgt_push_mapper_component: null mapper handle; component (base " OMPT_PTR_FMT
                 ", begin " OMPT_PTR_FMT ", %" PRId64 " bytes) ignored",
                 OMPT_PTR(Base), OMPT_PTR(Begin), Size);
    return;
  }
  static_cast<MapperComponents *>(Handle)->Items.push_back({Base, Begin, Size, Type, Name});
}

OMPT_EXPORT void __tgt_set_info_flag(uint32_t Flags) {
  info::setLevel(Flags);
  RuntimeUse Use;
  if (!Use) return;
  for (Plugin *P : Runtime::get().devices().plugins())
    if (P->fn().set_info_flag) P->fn().set_info_flag(Flags);
}

OMPT_EXPORT int __tgt_print_device_info(int64_t DeviceId) {
  // The plugin describes a started device: start it (with no image, when
  // none was registered). An invalid number gets readyDevice's message.
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown("__tgt_print_device_info", "nothing was printed");
    return 0;
  }
  Expected<Device *> Ready = Runtime::get().readyDevice(DeviceId, "__tgt_print_device_info");
  if (!Ready) {
    debug::error("%s", Ready.error().message().c_str());
    return 0;
  }
  Device *D = *Ready;
  if (!D->plugin().fn().print_device_info) return 0;
  D->plugin().fn().print_device_info(D->pluginDeviceId());
  return 1;
}

}  // extern "C"
