// GenericDevice: argument validation and queue handling of the data, launch
// and event operations. Every error names the entry point and its arguments.
#include <cinttypes>
#include <cstdio>

#include "debug.h"
#include "generic_device.h"
#include "generic_plugin.h"

namespace omptarget::plugin {

namespace {
Error opError(const char *Call, int32_t Dev, const std::string &Why) {
  return makeError("%s: device %d: %s", Call, Dev, Why.c_str());
}

// What is wrong with a transfer's arguments, or nullptr.
const char *transferProblem(int64_t Size, const void *To, const void *From, const void *AsyncInfo) {
  if (Size < 0) return "negative size";
  if (!AsyncInfo) return "null __tgt_async_info";
  if (Size > 0 && !To) return "null destination pointer";
  if (Size > 0 && !From) return "null source pointer";
  return nullptr;
}
}  // namespace

Expected<void *> GenericDevice::dataAlloc(int64_t Size, void *HostPtr, int32_t Kind,
                                          __tgt_async_info *AsyncInfo) {
  const char *Call = AsyncInfo ? "data_alloc_async" : "data_alloc";
  if (Size < 0) return opError(Call, DeviceId_, formatString("negative size %" PRId64, Size));
  if (Kind < abi::kAllocDevice || Kind > abi::kAllocDefault)
    return opError(Call, DeviceId_, formatString("invalid allocation kind %d", Kind));
  Expected<void *> Ptr = allocUnchecked(Call, static_cast<size_t>(Size), HostPtr,
                                        static_cast<abi::TargetAllocKind>(Kind), AsyncInfo);
  if (Ptr)
    OMPT_TRACE(traceComponent(), "device %d: allocated %" PRId64 " bytes (kind %d) at %p",
               DeviceId_, Size, Kind, *Ptr);
  return Ptr;
}

Expected<void *> GenericDevice::allocUnchecked(const char *Call, size_t Size, void *HostPtr,
                                               abi::TargetAllocKind Kind, __tgt_async_info *AsyncInfo) {
  Expected<void *> Ptr = [&]() -> Expected<void *> {
    if (AsyncInfo && hasAsyncAllocation()) {
      Expected<void *> Q = queueOf(*AsyncInfo);
      if (!Q) return Q.takeError();
      return MemoryManager_.retryAfterReleasing([&] { return allocAsyncImpl(Size, HostPtr, Kind, *Q); });
    }
    if (Kind == abi::kAllocDefault && MemoryManager_.handles(Size)) return MemoryManager_.allocate(Size);
    return MemoryManager_.retryAfterReleasing([&] { return allocImpl(Size, HostPtr, Kind); });
  }();
  if (!Ptr) return allocFailed(Call, Size, Kind, Ptr.takeError());
  return Ptr;
}

Error GenericDevice::allocFailed(const char *Call, size_t Size, abi::TargetAllocKind Kind, Error Why) const {
  return opError(Call, DeviceId_,
                 formatString("cannot allocate %zu bytes (kind %d): %s", Size, static_cast<int>(Kind),
                              Why.message().c_str()));
}

Status GenericDevice::dataDelete(void *TgtPtr, __tgt_async_info *AsyncInfo) {
  if (!TgtPtr) return {};  // like free(NULL)
  bool Cached = false;
  Status S = deleteUnchecked(AsyncInfo ? "data_delete_async" : "data_delete", TgtPtr, AsyncInfo, &Cached);
  if (S)
    OMPT_TRACE(traceComponent(), "device %d: freed %p%s", DeviceId_, TgtPtr,
               Cached ? " (cached for reuse)" : "");
  return S;
}

Status GenericDevice::deleteUnchecked(const char *Call, void *TgtPtr, __tgt_async_info *AsyncInfo,
                                      bool *Cached) {
  if (MemoryManager_.threshold() != 0) {
    Expected<bool> Kept = MemoryManager_.release(TgtPtr);
    if (!Kept) return freeFailed(Call, TgtPtr, Kept.takeError());
    if (*Kept) {
      *Cached = true;
      return {};
    }
  }
  Status S = [&]() -> Status {
    if (AsyncInfo && hasAsyncAllocation()) {
      Expected<void *> Q = queueOf(*AsyncInfo);
      if (!Q) return Q.takeError();
      return freeAsyncImpl(TgtPtr, *Q);
    }
    return freeImpl(TgtPtr);
  }();
  if (!S) return freeFailed(Call, TgtPtr, S.takeError());
  return {};
}

Error GenericDevice::freeFailed(const char *Call, void *TgtPtr, Error Why) const {
  return opError(Call, DeviceId_, formatString("cannot free %p: %s", TgtPtr, Why.message().c_str()));
}

Status GenericDevice::dataSubmit(void *TgtPtr, const void *HstPtr, int64_t Size,
                                 __tgt_async_info *AsyncInfo) {
  if (const char *Why = transferProblem(Size, TgtPtr, HstPtr, AsyncInfo))
    return opError("data_submit", DeviceId_,
                   formatString("%s (target %p, host %p, size %" PRId64 ", async info %p)", Why,
                                TgtPtr, HstPtr, Size, static_cast<void *>(AsyncInfo)));
  if (Size == 0) return {};
  OMPT_TRACE(traceComponent(), "device %d: submit %" PRId64 " bytes %p -> %p", DeviceId_, Size, HstPtr, TgtPtr);
  return submitUnchecked(TgtPtr, HstPtr, static_cast<size_t>(Size), *AsyncInfo);
}

Status GenericDevice::dataRetrieve(void *HstPtr, const void *TgtPtr, int64_t Size,
                                   __tgt_async_info *AsyncInfo) {
  if (const char *Why = transferProblem(Size, HstPtr, TgtPtr, AsyncInfo))
    return opError("data_retrieve", DeviceId_,
                   formatString("%s (host %p, target %p, size %" PRId64 ", async info %p)", Why,
                                HstPtr, TgtPtr, Size, static_cast<void *>(AsyncInfo)));
  if (Size == 0) return {};
  OMPT_TRACE(traceComponent(), "device %d: retrieve %" PRId64 " bytes %p -> %p", DeviceId_, Size, TgtPtr, HstPtr);
  return retrieveUnchecked(HstPtr, TgtPtr, static_cast<size_t>(Size), *AsyncInfo);
}

Status GenericDevice::dataExchange(const void *SrcPtr, GenericDevice &Dst, void *DstPtr,
                                   int64_t Size, __tgt_async_info *AsyncInfo) {
  const char *Call = "data_exchange";
  if (const char *Why = transferProblem(Size, DstPtr, SrcPtr, AsyncInfo))
    return opError(Call, DeviceId_,
                   formatString("%s (source %p, destination device %d pointer %p, "
                                "size %" PRId64 ", async info %p)",
                                Why, SrcPtr, Dst.id(), DstPtr, Size, static_cast<void *>(AsyncInfo)));
  if (Size == 0) return {};
  Expected<void *> Q = queueOf(*AsyncInfo);
  if (!Q) return opError(Call, DeviceId_, Q.error().message());
  OMPT_TRACE(traceComponent(), "device %d: exchange %" PRId64 " bytes %p -> device %d %p", DeviceId_,
             Size, SrcPtr, Dst.id(), DstPtr);
  if (Status S = exchangeImpl(SrcPtr, Dst, DstPtr, static_cast<size_t>(Size), *Q); !S)
    return opError(Call, DeviceId_, S.error().message());
  return {};
}

Status GenericDevice::launchKernel(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                                   int32_t NumTeams, int32_t ThreadLimit, uint64_t LoopTripCount,
                                   bool IsTeamRegion, __tgt_async_info *AsyncInfo) {
  const char *Call = IsTeamRegion ? "run_target_team_region" : "run_target_region";
  if (!Entry || NumArgs < 0 || (NumArgs > 0 && (!Args || !Offsets)) || !AsyncInfo)
    return opError(Call, DeviceId_,
                   formatString("invalid arguments (entry %p, args %p, offsets %p, %d argument(s), "
                                "async info %p)",
                                Entry, static_cast<void *>(Args), static_cast<void *>(Offsets),
                                NumArgs, static_cast<void *>(AsyncInfo)));
  // Names live in KernelNames_, which stays put until deinit.
  const char *Name = findKernel(Entry);
  if (!Name) return opError(Call, DeviceId_, formatString("%p is not a kernel loaded on this device", Entry));
  if (Plugin_.infoEnabled(abi::kInfoPluginKernel))
    std::fprintf(stderr,
                 "Libomptarget device %d info: Launching kernel %s with %d teams and %d threads "
                 "(%d argument(s), trip count %" PRIu64 ")\n",
                 DeviceId_, Name, NumTeams, ThreadLimit, NumArgs, LoopTripCount);
  OMPT_TRACE(traceComponent(), "device %d: launch %s (%d args, %d teams, %d threads)", DeviceId_,
             Name, NumArgs, NumTeams, ThreadLimit);
  KernelLaunch L{Entry, Args, Offsets, NumArgs, NumTeams, ThreadLimit, LoopTripCount, IsTeamRegion, Name};
  return launchUnchecked(Call, L, *AsyncInfo);
}

Error GenericDevice::opFailed(const char *Call, Error Why) const {
  return opError(Call, DeviceId_, Why.message());
}

Error GenericDevice::kernelFailed(const char *Call, const char *Name, Error Why) const {
  return opError(Call, DeviceId_, formatString("kernel %s: %s", Name, Why.message().c_str()));
}

Expected<void *> GenericDevice::createEvent() {
  Expected<void *> E = EventPool_.acquire();
  if (!E) return opError("create_event", DeviceId_, E.error().message());
  return E;
}

Status GenericDevice::destroyEvent(void *Event) {
  if (Status S = EventPool_.release(Event); !S) return opError("destroy_event", DeviceId_, S.error().message());
  return {};
}

Status GenericDevice::recordEvent(void *Event, __tgt_async_info *AsyncInfo) {
  if (!EventPool_.isInUse(Event) || !AsyncInfo)
    return opError("record_event", DeviceId_,
                   formatString("invalid arguments (event %p is %s, async info %p)", Event,
                                EventPool_.isInUse(Event) ? "live" : "unknown", static_cast<void *>(AsyncInfo)));
  Expected<void *> Q = queueOf(*AsyncInfo);
  if (!Q) return opError("record_event", DeviceId_, Q.error().message());
  if (Status S = recordEventImpl(Event, *Q); !S) return opError("record_event", DeviceId_, S.error().message());
  return {};
}

Status GenericDevice::waitEvent(void *Event, __tgt_async_info *AsyncInfo) {
  if (!EventPool_.isInUse(Event) || !AsyncInfo)
    return opError("wait_event", DeviceId_,
                   formatString("invalid arguments (event %p is %s, async info %p)", Event,
                                EventPool_.isInUse(Event) ? "live" : "unknown", static_cast<void *>(AsyncInfo)));
  Expected<void *> Q = queueOf(*AsyncInfo);
  if (!Q) return opError("wait_event", DeviceId_, Q.error().message());
  if (Status S = waitEventImpl(Event, *Q); !S) return opError("wait_event", DeviceId_, S.error().message());
  return {};
}

Status GenericDevice::syncEvent(void *Event) {
  if (!EventPool_.isInUse(Event))
    return opError("sync_event", DeviceId_, formatString("unknown event %p", Event));
  if (Status S = syncEventImpl(Event); !S) return opError("sync_event", DeviceId_, S.error().message());
  return {};
}

Expected<void *> GenericDevice::dataLock(void *HstPtr, int64_t Size) {
  if (!HstPtr || Size <= 0)
    return opError("data_lock", DeviceId_,
                   formatString("invalid arguments (host %p, size %" PRId64 ")", HstPtr, Size));
  Expected<void *> P = dataLockImpl(HstPtr, static_cast<size_t>(Size));
  if (!P) return opError("data_lock", DeviceId_, P.error().message());
  return P;
}

Status GenericDevice::dataUnlock(void *HstPtr) {
  if (!HstPtr) return opError("data_unlock", DeviceId_, "null host pointer");
  if (Status S = dataUnlockImpl(HstPtr); !S) return opError("data_unlock", DeviceId_, S.error().message());
  return {};
}

}  // namespace omptarget::plugin
