// The functions of the direct table (see direct_table.h).
//
// Each asks maySkipChecks with the checked call's own argument test; when it
// allows, it runs the unchecked half, else the checked call the entry it is
// named after runs, so that bad arguments, traces and info lines are handled
// in one place and read the same. What they save against the entries is the
// device-number lookup, the checked call's layer and the exporter's
// wrappers, not any of the work.
#include "direct_table.h"

#include <utility>

#include "report_failures.h"

namespace omptarget::plugin::direct {

namespace {
GenericDevice &deviceOf(void *Handle) { return *static_cast<GenericDevice *>(Handle); }

// The checked way, out of the fast paths' frames.
template <typename FnT>
[[gnu::noinline, gnu::cold]] int32_t checked(const GenericDevice &D, const char *Call,
                                             FnT &&Body) noexcept {
  return reportFailures(D.plugin(), Call, std::forward<FnT>(Body));
}
}  // namespace

void *dataAlloc(void *Handle, int64_t Size, void *HostPtr, int32_t Kind,
                __tgt_async_info *AsyncInfo) noexcept {
  GenericDevice &D = deviceOf(Handle);
  const char *Call = AsyncInfo ? "data_alloc_async" : "data_alloc";
  void *Ptr = nullptr;
  auto Keep = [&Ptr](Expected<void *> P) -> Status {
    if (!P) return P.takeError();
    Ptr = *P;
    return {};
  };
  if (!maySkipChecks(D, GenericDevice::allocArgsValid(Size, Kind))) [[unlikely]] {
    checked(D, Call, [&] { return Keep(D.dataAlloc(Size, HostPtr, Kind, AsyncInfo)); });
    return Ptr;
  }
  reportFailures(D.plugin(), Call, [&] {
    return Keep(D.allocUnchecked(Call, static_cast<size_t>(Size), HostPtr,
                                 static_cast<abi::TargetAllocKind>(Kind), AsyncInfo));
  });
  return Ptr;
}

int32_t dataDelete(void *Handle, void *TgtPtr, __tgt_async_info *AsyncInfo) noexcept {
  GenericDevice &D = deviceOf(Handle);
  const char *Call = AsyncInfo ? "data_delete_async" : "data_delete";
  if (!maySkipChecks(D, TgtPtr != nullptr)) [[unlikely]]
    return checked(D, Call, [&] { return D.dataDelete(TgtPtr, AsyncInfo); });
  return reportFailures(D.plugin(), Call, [&] {
    bool Cached = false;
    return D.deleteUnchecked(Call, TgtPtr, AsyncInfo, &Cached);
  });
}

int32_t dataSubmit(void *Handle, void *TgtPtr, void *HstPtr, int64_t Size,
                   __tgt_async_info *AsyncInfo) noexcept {
  GenericDevice &D = deviceOf(Handle);
  if (!maySkipChecks(D, GenericDevice::isPlainTransfer(Size, TgtPtr, HstPtr, AsyncInfo)))
      [[unlikely]]
    return checked(D, "data_submit_async",
                   [&] { return D.dataSubmit(TgtPtr, HstPtr, Size, AsyncInfo); });
  return reportFailures(D.plugin(), "data_submit_async", [&] {
    return D.submitUnchecked(TgtPtr, HstPtr, static_cast<size_t>(Size), *AsyncInfo);
  });
}

int32_t dataRetrieve(void *Handle, void *HstPtr, void *TgtPtr, int64_t Size,
                     __tgt_async_info *AsyncInfo) noexcept {
  GenericDevice &D = deviceOf(Handle);
  if (!maySkipChecks(D, GenericDevice::isPlainTransfer(Size, HstPtr, TgtPtr, AsyncInfo)))
      [[unlikely]]
    return checked(D, "data_retrieve_async",
                   [&] { return D.dataRetrieve(HstPtr, TgtPtr, Size, AsyncInfo); });
  return reportFailures(D.plugin(), "data_retrieve_async", [&] {
    return D.retrieveUnchecked(HstPtr, TgtPtr, static_cast<size_t>(Size), *AsyncInfo);
  });
}

int32_t launch(void *Handle, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
               const __tgt_kernel_launch *Launch, __tgt_async_info *AsyncInfo) noexcept {
  GenericDevice &D = deviceOf(Handle);
  const bool Teams = Launch && Launch->IsTeamRegion;
  const char *EntryName = "launch_kernel_async";
  // An unknown entry or description goes the checked way too, which names it.
  const char *Name = Launch && Launch->Version == OMPTARGET_KERNEL_LAUNCH_VERSION
                         ? D.kernelToLaunch(Entry, Args, Offsets, NumArgs, AsyncInfo)
                         : nullptr;
  if (!maySkipChecks(D, Name != nullptr)) [[unlikely]]
    return checked(D, EntryName, [&] {
      return D.launchKernel(Entry, Args, Offsets, NumArgs, Launch, AsyncInfo);
    });
  return reportFailures(D.plugin(), EntryName, [&] {
    return D.launchUnchecked(Teams ? "run_target_team_region" : "run_target_region",
                             kernelLaunch(Entry, Args, Offsets, NumArgs, *Launch, Name),
                             *AsyncInfo);
  });
}

}  // namespace omptarget::plugin::direct
