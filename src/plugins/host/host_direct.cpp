// The immediate-mode host device's own direct-table functions, its one fast
// path: a plain copy is the memcpy and a well-formed launch is the call (a
// teams region launched from inside a parallel region: on a runner thread,
// see region_call.h), made right here instead of through the unchecked half,
// the virtual hook and the queue. What may take it is decided as for the
// generic functions, by direct::maySkipChecks with the checked calls' own
// tests (GenericDevice::isPlainTransfer, kernelToLaunch); everything else
// goes to the generic functions. Asynchronous mode keeps the generic table
// (its queues have work to order). Why it exists: docs/benchmarks.md (the
// direct table); tests: tests/unit/plugin_async_queue_test.cpp
// (HostDirectTable), tests/offload/plugin_direct_calls.c.
#include <cstring>

#include "direct_table.h"
#include "host_device.h"
#include "region_call.h"
#include "report_failures.h"

namespace omptarget::host {

namespace {

using plugin::GenericDevice;
using plugin::direct::maySkipChecks;

HostDevice &hostOf(void *Handle) {
  return static_cast<HostDevice &>(*static_cast<GenericDevice *>(Handle));
}

// The construct's queue is the device's stateless one, as queueOf would set.
void takeQueue(HostDevice &D, __tgt_async_info &AsyncInfo) {
  if (!AsyncInfo.Queue) AsyncInfo.Queue = D.immediateQueue();
}

int32_t submit(void *Handle, void *TgtPtr, void *HstPtr, int64_t Size,
               __tgt_async_info *AsyncInfo) noexcept {
  HostDevice &D = hostOf(Handle);
  if (!maySkipChecks(D, GenericDevice::isPlainTransfer(Size, TgtPtr, HstPtr, AsyncInfo)))
      [[unlikely]]
    return plugin::direct::dataSubmit(Handle, TgtPtr, HstPtr, Size, AsyncInfo);
  takeQueue(D, *AsyncInfo);
  std::memcpy(TgtPtr, HstPtr, static_cast<size_t>(Size));
  return abi::kOffloadSuccess;
}

int32_t retrieve(void *Handle, void *HstPtr, void *TgtPtr, int64_t Size,
                 __tgt_async_info *AsyncInfo) noexcept {
  HostDevice &D = hostOf(Handle);
  if (!maySkipChecks(D, GenericDevice::isPlainTransfer(Size, HstPtr, TgtPtr, AsyncInfo)))
      [[unlikely]]
    return plugin::direct::dataRetrieve(Handle, HstPtr, TgtPtr, Size, AsyncInfo);
  takeQueue(D, *AsyncInfo);
  std::memcpy(HstPtr, TgtPtr, static_cast<size_t>(Size));
  return abi::kOffloadSuccess;
}

int32_t launch(void *Handle, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
               const __tgt_kernel_launch *Launch, __tgt_async_info *AsyncInfo) noexcept {
  HostDevice &D = hostOf(Handle);
  const bool Known = Launch && Launch->Version == OMPTARGET_KERNEL_LAUNCH_VERSION;
  const char *Name = Known ? D.kernelToLaunch(Entry, Args, Offsets, NumArgs, AsyncInfo) : nullptr;
  if (!maySkipChecks(D, Name != nullptr)) [[unlikely]]
    return plugin::direct::launch(Handle, Entry, Args, Offsets, NumArgs, Launch, AsyncInfo);
  takeQueue(D, *AsyncInfo);
  const bool Teams = Launch->IsTeamRegion != 0;
  return plugin::reportFailures(D.plugin(), "launch_kernel_async", [&]() -> Status {
    // Teams and thread limit are the region's own business (see launchImpl).
    // The kernels of clang 15 and later take the launch environment first:
    // none on the host (the generic route's launchEnvironmentImpl), a null
    // pointer passed before the arguments.
    Status S = callRegion(D.runners(), Entry, Args, Offsets, NumArgs, Teams,
                          Launch->KernelArgsVersion >= abi::kKernelArgsMinVersionWithLaunchEnv);
    if (!S) [[unlikely]]
      return D.kernelFailed(Teams ? "run_target_team_region" : "run_target_region", Name,
                            S.takeError());
    return S;
  });
}

}  // namespace

void HostDevice::specializeDirect(__tgt_direct_device &Table) const {
  if (Mode_.Async) return;
  Table.data_submit_async = submit;
  Table.data_retrieve_async = retrieve;
  Table.launch_async = launch;
}

}  // namespace omptarget::host
