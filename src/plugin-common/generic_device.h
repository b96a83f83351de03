// GenericDevice: the device-independent half of a plugin device.
//
// The public (non-virtual) methods are what the ABI exporter calls: they
// validate arguments (null pointers, negative sizes, unknown kernels and
// events), manage the queue/event pools and the loaded images, and then call
// the protected *Impl hooks a concrete plugin implements. The hooks receive
// validated arguments only: sizes are non-negative and non-zero, pointers are
// non-null, and every queue comes from this device's queue pool.
//
// Queue protocol (as in LLVM 14's CUDA plugin): __tgt_async_info::Queue starts
// null; the first asynchronous operation takes a queue from the pool and
// stores it there; synchronize() waits for it, returns it to the pool and
// resets Queue to null.
//
// Thread safety: all public methods may be called concurrently. ImagesMutex_
// guards Images_, KernelNames_ and KernelTables_ and serialises image loads;
// the kernel table a launch validates against is immutable once published
// through Kernels_ (an atomic pointer: launches take no lock), and every
// published table stays alive until deinit. AsyncInfosMutex_ guards
// AsyncInfos_; the pools and the memory manager lock themselves. The
// operations on one queue are ordered by the caller.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <deque>
#include <atomic>
#include <string>
#include <unordered_map>
#include <vector>

#include "device_image.h"
#include "memory_manager.h"
#include "error.h"
#include "omptarget/abi.h"
#include "omptarget/plugin_abi.h"
#include "resource_pool.h"

namespace omptarget::plugin {

class GenericPlugin;

class GenericDevice {
 public:
  // True when queued operations complete before the enqueueing call returns.
  // Exported as __tgt_rtl_completes_synchronously together with
  // hasSharedQueue(): the core may then skip synchronize, which has neither
  // work to wait for nor a queue to give back.
  virtual bool completesSynchronously() const { return false; }
  bool hasSharedQueue() const { return SharedQueue_ != nullptr; }
  // Exported as __tgt_rtl_queues_persist: queues come from the pool, which
  // destroys them only at deinit, and the hooks accept an event record on any
  // of them from any thread (the queue's work progresses by itself).
  virtual bool queuesPersist() const { return false; }
  // The core reads host memory written by a retrieve only after the queue's
  // synchronize (declared through __tgt_rtl_accept_deferred_retrieves), so
  // plugins may land such copies at synchronize.
  void acceptDeferredRetrieves() { DeferredRetrievesAccepted_.store(true, std::memory_order_relaxed); }
  bool deferredRetrievesAccepted() const { return DeferredRetrievesAccepted_.load(std::memory_order_relaxed); }
  GenericDevice(GenericPlugin &Plugin, int32_t DeviceId);
  virtual ~GenericDevice();
  GenericDevice(const GenericDevice &) = delete;
  GenericDevice &operator=(const GenericDevice &) = delete;

  int32_t id() const { return DeviceId_; }
  GenericPlugin &plugin() const { return Plugin_; }

  // Life cycle, driven by GenericPlugin.
  Status init();
  Status deinit();

  Expected<__tgt_target_table *> loadBinary(const __tgt_device_image &Image);

  // Allocation; AsyncInfo may be null (synchronous entry points).
  Expected<void *> dataAlloc(int64_t Size, void *HostPtr, int32_t Kind, __tgt_async_info *AsyncInfo);
  Status dataDelete(void *TgtPtr, __tgt_async_info *AsyncInfo);

  Status dataSubmit(void *TgtPtr, const void *HstPtr, int64_t Size, __tgt_async_info *AsyncInfo);
  Status dataRetrieve(void *HstPtr, const void *TgtPtr, int64_t Size, __tgt_async_info *AsyncInfo);
  Status dataExchange(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, int64_t Size,
                      __tgt_async_info *AsyncInfo);
  bool isDataExchangeable(const GenericDevice &Dst) const;

  Status launchKernel(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                      int32_t NumTeams, int32_t ThreadLimit, uint64_t LoopTripCount,
                      bool IsTeamRegion, __tgt_async_info *AsyncInfo);
  Status synchronize(__tgt_async_info *AsyncInfo);

  Expected<void *> createEvent();
  Status destroyEvent(void *Event);
  Status recordEvent(void *Event, __tgt_async_info *AsyncInfo);
  Status waitEvent(void *Event, __tgt_async_info *AsyncInfo);
  Status syncEvent(void *Event);

  // ---- Unchecked halves (the direct table, rtl_direct.cpp) ----
  // What the checked methods above do once their arguments passed the
  // checks: they call these, and so does the direct table when its caller's
  // arguments are well-formed and no traces or info lines are on,
  // the only cases where a checked method would do more. Errors read the
  // same either way; `Call` is the entry's name for them.
  // Kind is a valid allocation kind.
  Expected<void *> allocUnchecked(const char *Call, size_t Size, void *HostPtr,
                                  abi::TargetAllocKind Kind, __tgt_async_info *AsyncInfo);
  // TgtPtr is non-null; *Cached tells whether the memory manager kept it.
  Status deleteUnchecked(const char *Call, void *TgtPtr, __tgt_async_info *AsyncInfo, bool *Cached);
  // The memory manager's share of the two above, inline for the direct
  // table: a cached block for a synchronous default-kind allocation (or
  // nullptr), and taking a live cached-size block back (false: nothing done).
  void *takeCachedBlock(size_t Size, abi::TargetAllocKind Kind) {
    if (Kind != abi::kAllocDefault || !MemoryManager_.handles(Size)) return nullptr;
    return MemoryManager_.takeCached(Size);
  }
  bool keepCachedBlock(void *TgtPtr) { return MemoryManager_.threshold() != 0 && MemoryManager_.tryKeep(TgtPtr); }
  // Size > 0, non-null pointers. Inline: the direct table's calls are a few
  // instructions around the *Impl hook, the errors are formatted out of line.
  Status submitUnchecked(void *TgtPtr, const void *HstPtr, size_t Size, __tgt_async_info &AsyncInfo) {
    return onQueue(AsyncInfo, "data_submit", nullptr,
                   [&](void *Q) { return submitImpl(TgtPtr, HstPtr, Size, Q); });
  }
  Status retrieveUnchecked(void *HstPtr, const void *TgtPtr, size_t Size, __tgt_async_info &AsyncInfo) {
    return onQueue(AsyncInfo, "data_retrieve", nullptr,
                   [&](void *Q) { return retrieveImpl(HstPtr, TgtPtr, Size, Q); });
  }
  // L.Name is findKernel(L.Entry); the argument arrays are valid.
  Status launchUnchecked(const char *Call, const KernelLaunch &L, __tgt_async_info &AsyncInfo) {
    return onQueue(AsyncInfo, Call, L.Name, [&](void *Q) { return launchImpl(L, Q); });
  }
  // The name of a kernel loaded on this device, or nullptr (lock-free).
  const char *findKernel(void *Entry) const;
  // "<Call>: device <id>: <Why's message>", and the same with "kernel
  // <Name>: " before the message (cold: only on failure).
  [[gnu::cold, gnu::noinline]] Error opFailed(const char *Call, Error Why) const;
  [[gnu::cold, gnu::noinline]] Error kernelFailed(const char *Call, const char *Name, Error Why) const;
  // A device may put its own functions into its direct table (filled with
  // the generic ones when this is called), for operations it can do in fewer
  // steps; they must behave as the generic ones do.
  virtual void specializeDirect(__tgt_direct_device & /*Table*/) const {}

  // A new __tgt_async_info with a queue, owned by this device until
  // releaseAsyncInfo or deinit (interop objects' targetsync queues).
  Expected<__tgt_async_info *> initAsyncInfo();
  // Waits for the queue of an initAsyncInfo result, returns the queue to the
  // pool and frees the object (also when the wait fails).
  Status releaseAsyncInfo(__tgt_async_info *AsyncInfo);
  Status initDeviceInfo(__tgt_device_info *Info, const char **ErrStr);
  // The constants of this device's interop objects (interop_info); all
  // null/0 unless the device overrides interopInfoImpl.
  void interopInfo(__tgt_interop_info &Info) const;

  Expected<void *> dataLock(void *HstPtr, int64_t Size);
  Status dataUnlock(void *HstPtr);

  // Can the device access the host memory [HstPtr, HstPtr + Size) directly
  // (is_accessible_ptr)? False for a null pointer or a negative size; an
  // empty range is asked about as one byte.
  bool isAccessible(const void *HstPtr, int64_t Size) const {
    if (!HstPtr || Size < 0) return false;
    return isAccessibleImpl(HstPtr, Size == 0 ? 1 : static_cast<size_t>(Size));
  }

  void printInfo();

  // Name of a kernel loaded on this device, or nullopt.
  std::optional<std::string> kernelName(void *Entry) const;

  const MemoryManager &memoryManager() const { return MemoryManager_; }
  size_t numQueuesCreated() const { return QueuePool_.numCreated(); }
  size_t numEventsCreated() const { return EventPool_.numCreated(); }
  size_t numImages() const;

 protected:
  // ---- Hooks a concrete device implements ----
  virtual Status initImpl() = 0;
  virtual Status deinitImpl() { return {}; }

  // Loads an image; then the base resolves each of the image's host entries
  // to a device address, once each, in table order, on the loading thread
  // (Index: the entry's position in [EntriesBegin, EntriesEnd), for images
  // that list their entries in the same order). Kernels include the
  // constructor/destructor kernels of declare-target globals.
  virtual Expected<std::unique_ptr<DeviceImage>> loadImageImpl(const __tgt_device_image &Image) = 0;
  virtual Expected<void *> getKernelImpl(DeviceImage &Image, const char *Name, size_t Index) = 0;
  virtual Expected<void *> getGlobalImpl(DeviceImage &Image, const char *Name, size_t Size, size_t Index) = 0;

  virtual Expected<void *> allocImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind) = 0;
  virtual Status freeImpl(void *TgtPtr) = 0;
  // Stream-ordered variants; by default synchronous.
  virtual Expected<void *> allocAsyncImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind,
                                          void * /*Queue*/) {
    return allocImpl(Size, HostPtr, Kind);
  }
  virtual Status freeAsyncImpl(void *TgtPtr, void * /*Queue*/) { return freeImpl(TgtPtr); }
  // Whether data_alloc_async/data_delete_async need a queue at all.
  virtual bool hasAsyncAllocation() const { return false; }

  virtual Expected<void *> createQueueImpl() = 0;
  virtual Status destroyQueueImpl(void *Queue) = 0;
  // A queue that any number of constructs may use at once (its operations
  // complete as they are issued), owned by the device; when there is one,
  // constructs take it instead of a queue of the pool. Asked once, at init.
  virtual void *sharedQueue() { return nullptr; }
  virtual Status synchronizeImpl(void *Queue) = 0;

  virtual Status submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) = 0;
  virtual Status retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) = 0;
  virtual bool isDataExchangeableImpl(const GenericDevice & /*Dst*/) const { return false; }
  virtual Status exchangeImpl(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                              void *Queue);

  virtual Status launchImpl(const KernelLaunch &Launch, void *Queue) = 0;

  virtual Expected<void *> createEventImpl() = 0;
  virtual Status destroyEventImpl(void *Event) = 0;
  virtual Status recordEventImpl(void *Event, void *Queue) = 0;
  virtual Status waitEventImpl(void *Event, void *Queue) = 0;
  virtual Status syncEventImpl(void *Event) = 0;

  virtual Expected<void *> dataLockImpl(void *HstPtr, size_t /*Size*/) { return HstPtr; }
  virtual Status dataUnlockImpl(void * /*HstPtr*/) { return {}; }

  // Whether the device reaches this host memory (Size > 0, HstPtr non-null);
  // by default false, the answer that never misleads.
  virtual bool isAccessibleImpl(const void * /*HstPtr*/, size_t /*Size*/) const { return false; }

  virtual Status initDeviceInfoImpl(__tgt_device_info &Info);
  // Fills the fields the device has values for; Info arrives zeroed.
  virtual void interopInfoImpl(__tgt_interop_info & /*Info*/) const {}
  virtual void printInfoImpl() {}

  // Default initial pool sizes when the environment does not set them.
  virtual size_t defaultInitialQueues() const { return 1; }
  virtual size_t defaultInitialEvents() const { return 1; }

  // "TARGET <name> RTL" for OMPT_TRACE.
  const char *traceComponent() const;

 private:
  [[gnu::cold, gnu::noinline]] Error allocFailed(const char *Call, size_t Size, abi::TargetAllocKind Kind,
                                                 Error Why) const;
  [[gnu::cold, gnu::noinline]] Error freeFailed(const char *Call, void *TgtPtr, Error Why) const;

  // Runs Issue(queue of AsyncInfo); a failure reads "<Call>: device <id>:
  // [kernel <Kernel>: ]<why>".
  template <typename IssueFn>
  Status onQueue(__tgt_async_info &AsyncInfo, const char *Call, const char *Kernel, IssueFn &&Issue) {
    Expected<void *> Q = queueOf(AsyncInfo);
    if (!Q) [[unlikely]]
      return opFailed(Call, Q.takeError());
    Status S = Issue(*Q);
    if (!S) [[unlikely]]
      return Kernel ? kernelFailed(Call, Kernel, S.takeError()) : opFailed(Call, S.takeError());
    return S;
  }

  // The queue of AsyncInfo, taken on first use (acquireQueue).
  Expected<void *> queueOf(__tgt_async_info &AsyncInfo) {
    if (AsyncInfo.Queue) [[likely]]
      return AsyncInfo.Queue;
    return acquireQueue(AsyncInfo);
  }
  Expected<void *> acquireQueue(__tgt_async_info &AsyncInfo);

  GenericPlugin &Plugin_;
  const int32_t DeviceId_;
  bool Initialized_ = false;  // initImpl succeeded; written by init/deinit only
  std::atomic<bool> DeferredRetrievesAccepted_{false};
  void *SharedQueue_ = nullptr;  // sharedQueue(), set by init

  ResourcePool<void *> QueuePool_;
  ResourcePool<void *> EventPool_;

  // Device entry -> kernel name, sorted by entry; immutable once published.
  struct KernelTable {
    std::vector<std::pair<void *, const char *>> Sorted;
  };
  mutable std::shared_mutex ImagesMutex_;
  std::vector<std::unique_ptr<DeviceImage>> Images_;
  std::deque<std::string> KernelNames_;                          // stable storage of names
  std::vector<std::unique_ptr<const KernelTable>> KernelTables_;  // every version published
  std::atomic<const KernelTable *> Kernels_{nullptr};            // the current version

  MemoryManager MemoryManager_;

  std::mutex AsyncInfosMutex_;
  std::vector<std::unique_ptr<__tgt_async_info>> AsyncInfos_;
};

}  // namespace omptarget::plugin
