#include "device_ops.h"

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
  if (E.Fns->data_alloc_async(E.PluginDeviceId, Size, HostPtr, Kind, &Ptr, Q) != abi::kOffloadSuccess)
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

// A plugin exports the team and the plain launch entries in pairs (both
// asynchronous or both not), as LLVM 14's do; bindDeviceOps checks.
int32_t runAsyncEntry(void *H, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                      int32_t NumTeams, int32_t ThreadLimit, uint64_t TripCount, int32_t IsTeams,
                      __tgt_async_info *Q) {
  const auto &E = handleOf(H);
  if (IsTeams)
    return E.Fns->run_target_team_region_async(E.PluginDeviceId, Entry, Args, Offsets, NumArgs,
                                               NumTeams, ThreadLimit, TripCount, Q);
  return E.Fns->run_target_region_async(E.PluginDeviceId, Entry, Args, Offsets, NumArgs, Q);
}

int32_t runEntry(void *H, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                 int32_t NumTeams, int32_t ThreadLimit, uint64_t TripCount, int32_t IsTeams,
                 __tgt_async_info *) {
  const auto &E = handleOf(H);
  if (IsTeams)
    return E.Fns->run_target_team_region(E.PluginDeviceId, Entry, Args, Offsets, NumArgs, NumTeams,
                                         ThreadLimit, TripCount);
  return E.Fns->run_target_region(E.PluginDeviceId, Entry, Args, Offsets, NumArgs);
}

bool complete(const __tgt_direct_device &T) {
  return T.Device && T.data_alloc && T.data_delete && T.data_submit_async &&
         T.data_retrieve_async && T.run_region_async;
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
  T.run_region_async =
      F.run_target_team_region_async && F.run_target_region_async ? runAsyncEntry : runEntry;
  return {T, DeviceOpsRoute::EntryPoints};
}

}  // namespace omptarget::core
