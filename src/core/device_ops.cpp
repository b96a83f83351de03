#include "device_ops.h"

#include "debug.h"

namespace omptarget::core {

namespace {

const EntryPointHandle &handleOf(void *H) { return *static_cast<const EntryPointHandle *>(H); }

// The queue is ignored by the synchronous entries (the work is done when
// they return); the asynchronous ones get it when there is one.
void *allocEntry(void *H, int64_t Size, void *HostPtr, int32_t Kind, __tgt_async_info *) {
  const auto &E = handleOf(H);
  return E.Fns->data_alloc(E.PluginDeviceId, Size, HostPtr, Kind);
}

void *allocAsyncEntry(void *H, int64_t Size, void *HostPtr, int32_t Kind, __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  if (!Q) return E.Fns->data_alloc(E.PluginDeviceId, Size, HostPtr, Kind);
  void *Ptr = nullptr;
  if (E.Fns->data_alloc_async(E.PluginDeviceId, Size, HostPtr, Kind, &Ptr, Q) !=
      abi::kOffloadSuccess)
    return nullptr;
  return Ptr;
}

int32_t deleteEntry(void *H, void *TgtPtr, __tgt_async_info *) {
  const auto &E = handleOf(H);
  return E.Fns->data_delete(E.PluginDeviceId, TgtPtr);
}

int32_t deleteAsyncEntry(void *H, void *TgtPtr, __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  if (!Q) return E.Fns->data_delete(E.PluginDeviceId, TgtPtr);
  return E.Fns->data_delete_async(E.PluginDeviceId, TgtPtr, Q);
}

int32_t submitAsyncEntry(void *H, void *TgtPtr, void *HstPtr, int64_t Size, __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  return E.Fns->data_submit_async(E.PluginDeviceId, TgtPtr, HstPtr, Size, Q);
}

int32_t submitEntry(void *H, void *TgtPtr, void *HstPtr, int64_t Size, __tgt_async_info *) {
  const auto &E = handleOf(H);
  return E.Fns->data_submit(E.PluginDeviceId, TgtPtr, HstPtr, Size);
}

int32_t retrieveAsyncEntry(void *H, void *HstPtr, void *TgtPtr, int64_t Size, __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  return E.Fns->data_retrieve_async(E.PluginDeviceId, HstPtr, TgtPtr, Size, Q);
}

int32_t retrieveEntry(void *H, void *HstPtr, void *TgtPtr, int64_t Size, __tgt_async_info *) {
  const auto &E = handleOf(H);
  return E.Fns->data_retrieve(E.PluginDeviceId, HstPtr, TgtPtr, Size);
}

// A launch the plugin's launch_kernel_async takes as it is.
int32_t launchEntry(void *H, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                    const __tgt_kernel_launch *L, __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  return E.Fns->launch_kernel_async(E.PluginDeviceId, Entry, Args, Offsets, NumArgs, L, Q);
}

// A plugin without launch_kernel_async (LLVM 14's) runs what clang 14's
// entries can say: no launch environment, no dynamic group memory, one
// dimension. Anything more is refused with a line, never launched wrong.
[[gnu::cold, gnu::noinline]] int32_t refuseLaunch(const EntryPointHandle &E,
                                                  const __tgt_kernel_launch &L) {
  debug::error(
      "device %d of plugin %s: this kernel needs what the plugin's launch entries "
      "cannot pass (%s%s%s); run it on one of omptarget's plugins, which have "
      "launch_kernel_async",
      E.PluginDeviceId, E.PluginName,
      L.KernelArgsVersion >= abi::kKernelArgsMinVersionWithLaunchEnv
          ? "the implicit launch-environment argument of clang 18 and later kernels"
          : "",
      L.DynCGroupMem ? " dynamic group memory" : "",
      (L.NumTeams[1] | L.NumTeams[2] | L.ThreadLimit[1] | L.ThreadLimit[2])
          ? " a launch of several dimensions"
          : "");
  return abi::kOffloadFail;
}
bool entriesCanLaunch(const __tgt_kernel_launch &L) {
  return L.KernelArgsVersion < abi::kKernelArgsMinVersionWithLaunchEnv && L.DynCGroupMem == 0 &&
         (L.NumTeams[1] | L.NumTeams[2] | L.ThreadLimit[1] | L.ThreadLimit[2]) == 0;
}

// A plugin exports the team and the plain launch entries in pairs (both
// asynchronous or both not), as LLVM 14's do; bindDeviceOps checks.
int32_t runAsyncEntry(void *H, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                      const __tgt_kernel_launch *L, __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  if (!entriesCanLaunch(*L)) [[unlikely]]
    return refuseLaunch(E, *L);
  if (L->IsTeamRegion)
    return E.Fns->run_target_team_region_async(E.PluginDeviceId, Entry, Args, Offsets, NumArgs,
                                               static_cast<int32_t>(L->NumTeams[0]),
                                               static_cast<int32_t>(L->ThreadLimit[0]),
                                               L->LoopTripCount, Q);
  return E.Fns->run_target_region_async(E.PluginDeviceId, Entry, Args, Offsets, NumArgs, Q);
}

int32_t runEntry(void *H, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                 const __tgt_kernel_launch *L, __tgt_async_info *) {
  const auto &E = handleOf(H);
  if (!entriesCanLaunch(*L)) [[unlikely]]
    return refuseLaunch(E, *L);
  if (L->IsTeamRegion)
    return E.Fns->run_target_team_region(E.PluginDeviceId, Entry, Args, Offsets, NumArgs,
                                         static_cast<int32_t>(L->NumTeams[0]),
                                         static_cast<int32_t>(L->ThreadLimit[0]), L->LoopTripCount);
  return E.Fns->run_target_region(E.PluginDeviceId, Entry, Args, Offsets, NumArgs);
}

bool complete(const __tgt_direct_device &T) {
  return T.Device && T.data_alloc && T.data_delete && T.data_submit_async &&
         T.data_retrieve_async && T.launch_async;
}

}  // namespace

BoundDeviceOps bindDeviceOps(const Plugin &P, const EntryPointHandle &Handle, bool UseDirect) {
  const PluginFunctions &F = P.fn();
  if (UseDirect && F.direct_device) {
    __tgt_direct_device T{};
    if (F.direct_device(Handle.PluginDeviceId, OMPTARGET_DIRECT_DEVICE_VERSION, &T) ==
            abi::kOffloadSuccess &&
        complete(T))
      return {T, DeviceOpsRoute::DirectTable};
  }
  __tgt_direct_device T{};
  T.Device = const_cast<EntryPointHandle *>(&Handle);
  T.data_alloc = F.data_alloc_async ? allocAsyncEntry : allocEntry;
  T.data_delete = F.data_delete_async ? deleteAsyncEntry : deleteEntry;
  T.data_submit_async = F.data_submit_async ? submitAsyncEntry : submitEntry;
  T.data_retrieve_async = F.data_retrieve_async ? retrieveAsyncEntry : retrieveEntry;
  T.launch_async = F.launch_kernel_async                                         ? launchEntry
                   : F.run_target_team_region_async && F.run_target_region_async ? runAsyncEntry
                                                                                 : runEntry;
  return {T, DeviceOpsRoute::EntryPoints};
}

}  // namespace omptarget::core
