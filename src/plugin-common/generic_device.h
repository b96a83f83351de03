// GenericDevice: the device-independent half of a plugin device.
//
// Contract: one route per operation. Each data, launch and event operation
// has a checked call (section a) and an unchecked half (section b), defined
// next to each other in generic_device_ops.cpp:
//
//   __tgt_rtl_* entry ---> checked call ---> unchecked half ---> *Impl hook
//   direct table --------------------------------^ (when direct::maySkipChecks)
//
// * A checked call tests its arguments (null pointers, negative sizes,
//   unknown kernels and events), traces (LIBOMPTARGET_DEBUG) and writes info
//   lines (LIBOMPTARGET_INFO), then calls its unchecked half. Every error
//   names the entry point and the device.
// * An unchecked half does the work (memory manager, queue, hook) for
//   arguments that passed its checked call's test; its errors read exactly
//   as through the checked call. The tests are public (transferProblem,
//   isPlainTransfer, allocArgsValid, kernelToLaunch): the direct table
//   (direct_table.h) asks the same ones and takes an unchecked half only
//   when direct::maySkipChecks says the checked call would add nothing. A
//   device's own direct functions (specializeDirect; only the immediate-mode
//   host device has any) decide with the same test.
// * The hooks (section c) receive validated arguments only: sizes are
//   non-negative and non-zero, pointers are non-null, and every queue comes
//   from this device's queue pool (or is its shared queue).
//
// Queue protocol (as in LLVM 14's CUDA plugin): __tgt_async_info::Queue starts
// null; the first asynchronous operation takes a queue from the pool (or the
// device's shared queue) and stores it there; synchronize() waits for it,
// returns it to the pool and resets Queue to null.
//
// Thread safety: every method of sections a and b but init/deinit (driven by
// GenericPlugin under its lock) may be called concurrently. Both locks here
// are FutexMutexes (futex_mutex.h), taken with ScopedLock and checked by the
// thread-safety analysis; neither is held while the other is taken.
// ImagesMutex_ guards Images_, KernelNames_ and KernelTables_ and serialises
// image loads (exclusive for numImages() too: its one reader is the device
// description, and no launch takes the lock, so a reader/writer lock would
// buy nothing); the kernel table a launch tests against is immutable once
// published through Kernels_ (an atomic pointer: launches take no lock), and
// every published table stays alive until deinit. AsyncInfosMutex_ guards
// AsyncInfos_ (taken by init_async_info / release_async_info and deinit, not
// by constructs). The queue and event pools, the memory manager and the
// pinned map lock themselves. Initialized_ and SharedQueue_ are written by
// init/deinit only, before or after every other call;
// DeferredRetrievesAccepted_ is atomic. The operations on one queue are
// ordered by the caller.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "device_image.h"
#include "device_profile.h"
#include "error.h"
#include "futex_mutex.h"
#include "memory_manager.h"
#include "omptarget/abi.h"
#include "omptarget/plugin_abi.h"
#include "pinned_map.h"
#include "property_sink.h"
#include "queue_releases.h"
#include "resource_pool.h"

namespace omptarget::plugin {

class GenericPlugin;

class GenericDevice : private HostPinner {
 public:
  GenericDevice(GenericPlugin &Plugin, int32_t DeviceId);
  virtual ~GenericDevice();
  GenericDevice(const GenericDevice &) = delete;
  GenericDevice &operator=(const GenericDevice &) = delete;

  int32_t id() const { return DeviceId_; }
  GenericPlugin &plugin() const { return Plugin_; }

  // ======== (a) ABI-facing checked calls ========
  // What the exported entries call (rtl_exports_*.cpp), one per entry or
  // pair of entries; the checked data, launch and event calls end in their
  // unchecked half (section b). AsyncInfo may be null only where it says so.

  // Life cycle, driven by GenericPlugin.
  Status init();
  Status deinit();

  Expected<__tgt_target_table *> loadBinary(const __tgt_device_image &Image);
  // Image (the object loadBinary was given) goes: unloadImageImpl, then its
  // kernels leave the published table and the image is released.
  Status unloadBinary(const __tgt_device_image &Image);

  // Allocation; AsyncInfo may be null (synchronous entry points).
  Expected<void *> dataAlloc(int64_t Size, void *HostPtr, int32_t Kind,
                             __tgt_async_info *AsyncInfo);
  Status dataDelete(void *TgtPtr, __tgt_async_info *AsyncInfo);

  Status dataSubmit(void *TgtPtr, const void *HstPtr, int64_t Size, __tgt_async_info *AsyncInfo);
  Status dataRetrieve(void *HstPtr, const void *TgtPtr, int64_t Size, __tgt_async_info *AsyncInfo);
  Status dataExchange(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, int64_t Size,
                      __tgt_async_info *AsyncInfo);
  bool isDataExchangeable(const GenericDevice &Dst) const;

  Status launchKernel(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                      int32_t NumTeams, int32_t ThreadLimit, uint64_t LoopTripCount,
                      bool IsTeamRegion, __tgt_async_info *AsyncInfo);
  // launch_kernel_async: the same with what clang 15 and later add.
  Status launchKernel(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                      const __tgt_kernel_launch *Launch, __tgt_async_info *AsyncInfo);
  Status synchronize(__tgt_async_info *AsyncInfo);
  // query_async: synchronize() once the queue's work is done (its queue
  // then null), else nothing; never waits for the device.
  Status queryAsync(__tgt_async_info *AsyncInfo);

  // Events come from and go back to the event pool, which is their check.
  Expected<void *> createEvent();
  Status destroyEvent(void *Event);
  Status recordEvent(void *Event, __tgt_async_info *AsyncInfo);
  Status waitEvent(void *Event, __tgt_async_info *AsyncInfo);
  Status syncEvent(void *Event);

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

  // Locked (pinned) host memory: a reference-counted range of the device's
  // PinnedMap (pinned_map.h has the rules); the device pins through
  // pinHostImpl. dataLock returns the device-accessible address of HstPtr.
  Expected<void *> dataLock(void *HstPtr, int64_t Size);
  // dataLock for a lock the caller can do without (data_try_lock): null,
  // with a trace line that says why, where dataLock fails.
  void *dataTryLock(void *HstPtr, int64_t Size);
  // An unlock of memory not locked here names the devices of the plugin
  // that have it locked, if any.
  Status dataUnlock(void *HstPtr);
  const PinnedMap &pinnedMap() const { return Pinned_; }

  // Can the device access the host memory [HstPtr, HstPtr + Size) directly
  // (is_accessible_ptr)? False for a null pointer or a negative size; an
  // empty range is asked about as one byte.
  bool isAccessible(const void *HstPtr, int64_t Size) const {
    if (!HstPtr || Size < 0) return false;
    return isAccessibleImpl(HstPtr, Size == 0 ? 1 : static_cast<size_t>(Size));
  }

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
  void acceptDeferredRetrieves() {
    DeferredRetrievesAccepted_.store(true, std::memory_order_relaxed);
  }
  bool deferredRetrievesAccepted() const {
    return DeferredRetrievesAccepted_.load(std::memory_order_relaxed);
  }

  // A device may put its own functions into its direct table (filled with
  // the generic ones when this is called), for operations it can do in fewer
  // steps; they must behave as the generic ones do, decide with the same
  // test (direct::maySkipChecks) and fall back to the generic functions.
  virtual void specializeDirect(__tgt_direct_device & /*Table*/) const {}

  // The device's properties in display order (device_properties):
  // describeImpl's, then every device's own (images, queues, events, memory
  // manager, pinned map). device_description.cpp.
  void describe(PropertySink &Sink);
  // print_device_info: describe's properties on stdout, one labelled line
  // each (support/device_properties.h).
  void printInfo();

  // Name of a kernel loaded on this device, or nullopt.
  std::optional<std::string> kernelName(void *Entry) const;

  // profile_device: from now on every copy, kernel, allocation and release
  // of this device is timed and handed to Fn (device_profile.h).
  void enableProfile(__tgt_device_op_fn Fn, void *Ctx) { Profile_.enable(Fn, Ctx); }
  bool profiled() const { return Profile_.on(); }

  const MemoryManager &memoryManager() const { return MemoryManager_; }
  size_t numQueuesCreated() const { return QueuePool_.numCreated(); }
  size_t numEventsCreated() const { return EventPool_.numCreated(); }
  size_t numImages() const;

  // ======== (b) Fast (unchecked) halves ========
  // What a checked call runs once its arguments passed its test, and what
  // the direct table runs when they pass the same test and no diagnostics
  // are on (direct_table.h). Preconditions: as noted per half; `Call` is the
  // entry's name for errors, which read as through the checked call.

  // The argument tests of the checked calls, asked by the direct table too.
  // A transfer's: what is wrong with it, or nullptr (Size 0 is well-formed:
  // nothing to do; the halves need Size > 0).
  static const char *transferProblem(int64_t Size, const void *To, const void *From,
                                     const __tgt_async_info *AsyncInfo) {
    if (Size < 0) return "negative size";
    if (!AsyncInfo) return "null __tgt_async_info";
    if (Size > 0 && !To) return "null destination pointer";
    if (Size > 0 && !From) return "null source pointer";
    return nullptr;
  }
  // What the direct table asks of a copy: one with work to do that passes
  // transferProblem.
  static bool isPlainTransfer(int64_t Size, const void *To, const void *From,
                              const __tgt_async_info *AsyncInfo) {
    return Size > 0 && !transferProblem(Size, To, From, AsyncInfo);
  }
  // An allocation's: a non-negative size and a valid kind.
  static bool allocArgsValid(int64_t Size, int32_t Kind) {
    return Size >= 0 && Kind >= abi::kAllocDevice && Kind <= abi::kAllocDefault;
  }
  // A launch's, the one launch predicate: the name of the kernel a
  // well-formed launch runs (launchArgsWellFormed, and Entry a kernel loaded
  // on this device), or nullptr. Lock-free; the name stays valid until deinit.
  const char *kernelToLaunch(void *Entry, void *const *Args, const ptrdiff_t *Offsets,
                             int32_t NumArgs, const __tgt_async_info *AsyncInfo) const {
    return launchArgsWellFormed(Entry, Args, Offsets, NumArgs, AsyncInfo) ? findKernel(Entry)
                                                                          : nullptr;
  }
  // Its first half: an entry, the argument arrays there when NumArgs > 0,
  // an AsyncInfo.
  static bool launchArgsWellFormed(const void *Entry, void *const *Args, const ptrdiff_t *Offsets,
                                   int32_t NumArgs, const __tgt_async_info *AsyncInfo) {
    return Entry && NumArgs >= 0 && (NumArgs == 0 || (Args && Offsets)) && AsyncInfo;
  }

  // Kind is valid; AsyncInfo may be null (synchronous).
  Expected<void *> allocUnchecked(const char *Call, size_t Size, void *HostPtr,
                                  abi::TargetAllocKind Kind, __tgt_async_info *AsyncInfo);
  // The kinds whose small blocks the memory manager caches: the default
  // kind and device memory (llvm_omp_target_alloc_device), which are the
  // same memory on every device of ours. Pinned host and managed memory
  // (kinds host and shared) always go to the device.
  static bool cachesKind(abi::TargetAllocKind Kind) {
    return Kind == abi::kAllocDefault || Kind == abi::kAllocDevice;
  }
  // TgtPtr is non-null; *Cached tells whether the memory manager kept it.
  Status deleteUnchecked(const char *Call, void *TgtPtr, __tgt_async_info *AsyncInfo, bool *Cached);
  // Size > 0, non-null pointers.
  Status submitUnchecked(void *TgtPtr, const void *HstPtr, size_t Size,
                         __tgt_async_info &AsyncInfo);
  Status retrieveUnchecked(void *HstPtr, const void *TgtPtr, size_t Size,
                           __tgt_async_info &AsyncInfo);
  Status exchangeUnchecked(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                           __tgt_async_info &AsyncInfo);
  // L.Name is kernelToLaunch's answer for L's arguments.
  Status launchUnchecked(const char *Call, const KernelLaunch &L, __tgt_async_info &AsyncInfo);
  // Its route for kernels that take the implicit launch-environment argument.
  [[gnu::noinline]] Status launchWithEnvironment(const char *Call, const KernelLaunch &L,
                                                 __tgt_async_info &AsyncInfo);
  // Both routes' last step: Issue on AsyncInfo's queue, timed as the
  // launch Ran when the device is profiled.
  template <typename IssueFn>
  Status launchOnQueue(const char *Call, const KernelLaunch &Ran, __tgt_async_info &AsyncInfo,
                       IssueFn &Issue);
  // Event is live (from this device's pool).
  Status recordEventUnchecked(void *Event, __tgt_async_info &AsyncInfo);
  Status waitEventUnchecked(void *Event, __tgt_async_info &AsyncInfo);
  Status syncEventUnchecked(void *Event);

  // The name of a kernel loaded on this device, or nullptr (lock-free).
  const char *findKernel(void *Entry) const;
  // "<Call>: device <id>: <Why's message>", and the same with "kernel
  // <Name>: " before the message (cold: only on failure).
  [[gnu::cold, gnu::noinline]] Error opFailed(const char *Call, Error Why) const;
  [[gnu::cold, gnu::noinline]] Error kernelFailed(const char *Call, const char *Name,
                                                  Error Why) const;

 private:
  // The halves' own helpers (generic_device_ops.cpp).
  // The slow halves of allocUnchecked and deleteUnchecked: the cache had
  // no block (the device allocates), the pointer is no live cache block.
  [[gnu::noinline]] Expected<void *> allocFromDevice(const char *Call, size_t Size, void *HostPtr,
                                                     abi::TargetAllocKind Kind,
                                                     __tgt_async_info *AsyncInfo);
  [[gnu::noinline]] Status freeToDevice(const char *Call, void *TgtPtr, bool *Cached);
  // A release on Queue (not the shared queue): in the queue's order, by the
  // device's driver or at the queue's synchronize (queue_releases.h).
  [[gnu::noinline]] Status releaseOnQueue(const char *Call, void *TgtPtr, void *Queue,
                                          bool *Cached);
  // The releases kept for Queue (every queue's when null), done now.
  Status releaseDeferred(void *Queue);
  [[gnu::cold, gnu::noinline]] Error allocFailed(const char *Call, size_t Size,
                                                 abi::TargetAllocKind Kind, Error Why);
  [[gnu::cold, gnu::noinline]] Error freeFailed(const char *Call, void *TgtPtr, Error Why) const;
  // record_event / wait_event with an event not from the pool or a null
  // AsyncInfo.
  [[gnu::cold, gnu::noinline]] Error eventArgsFailed(const char *Call, void *Event,
                                                     const __tgt_async_info *AsyncInfo) const;
  // dataUnlock's "not locked here", with the plugin's devices that have
  // HstPtr locked, if any.
  [[gnu::cold, gnu::noinline]] Error lockedElsewhere(Error NotHere, const void *HstPtr) const;

  // Runs Issue(queue of AsyncInfo); a failure reads "<Call>: device <id>:
  // [kernel <Kernel>: ]<why>". With a Describe (a function returning the
  // __tgt_device_op of the operation's kind and sizes; nullptr: untimed),
  // Issue goes through issueTimed.
  template <typename IssueFn, typename DescribeFn>
  Status onQueue(__tgt_async_info &AsyncInfo, const char *Call, const char *Kernel, IssueFn &&Issue,
                 DescribeFn &&Describe);
  // onQueue with Describe, out of line: what the halves call when the
  // device is profiled (one test of the profile's switch on their fast
  // path, which stays as it was without the profile).
  template <typename IssueFn, typename DescribeFn>
  Status onQueueTimed(__tgt_async_info &AsyncInfo, const char *Call, const char *Kernel,
                      IssueFn &Issue, DescribeFn &Describe);
  // Issue(Q) between two marks of Q's device clock (markImpl), described
  // by Describe() once issued; the operation is then kept for Q's
  // synchronize (resolveTimed), or emitted at once on the shared queue,
  // whose work is done when issued.
  template <typename IssueFn, typename DescribeFn>
  Status issueTimed(void *Q, IssueFn &Issue, DescribeFn &Describe);
  // Q's kept operations (every queue's when null) after its synchronize:
  // each finished as finishTimed does.
  void resolveTimed(void *Q, bool Ok);
  // One timed operation whose queue is done: its marks resolved and the
  // operation emitted when Ok (and the device reached both marks), else
  // its marks only released.
  void finishTimed(TimedOp &T, bool Ok);
  // An allocation (Bytes) or the release of Freed done by Run on the
  // calling thread, timed by the host clock around it.
  template <typename RunFn>
  auto timedInline(int32_t Kind, int64_t Bytes, const void *Freed, RunFn &&Run);

  // The queue of AsyncInfo, taken on first use: the shared queue, or one
  // of the pool (acquireQueue).
  Expected<void *> queueOf(__tgt_async_info &AsyncInfo) {
    if (AsyncInfo.Queue) [[likely]]
      return AsyncInfo.Queue;
    if (SharedQueue_) return AsyncInfo.Queue = SharedQueue_;
    return acquireQueue(AsyncInfo);
  }
  [[gnu::noinline]] Expected<void *> acquireQueue(__tgt_async_info &AsyncInfo);

 protected:
  // ======== (c) Subclass hooks ========
  virtual Status initImpl() = 0;
  virtual Status deinitImpl() { return {}; }

  // Loads an image; then the base resolves each of the image's host entries
  // to a device address, once each, in table order, on the loading thread
  // (Index: the entry's position in [EntriesBegin, EntriesEnd), for images
  // that list their entries in the same order). Kernels include the
  // constructor/destructor kernels of declare-target globals.
  virtual Expected<std::unique_ptr<DeviceImage>> loadImageImpl(const __tgt_device_image &Image) = 0;
  virtual Expected<void *> getKernelImpl(DeviceImage &Image, const char *Name, size_t Index) = 0;
  // What must run on the device before a loaded image is released (at
  // unload_binary and at deinit, under the image lock): the CUDA plugin
  // runs clang 19's global destructors. The host plugin needs nothing: its
  // image's destructors run when the image's library is closed.
  virtual Status unloadImageImpl(DeviceImage &) { return {}; }
  virtual Expected<void *> getGlobalImpl(DeviceImage &Image, const char *Name, size_t Size,
                                         size_t Index) = 0;

  virtual Expected<void *> allocImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind) = 0;
  virtual Status freeImpl(void *TgtPtr) = 0;
  // Stream-ordered allocation and release, used only when
  // hasAsyncAllocation() is true: allocAsyncImpl's memory may be used by
  // work queued on Queue after it (and by other queues once ordered after
  // that point, e.g. through an event); freeAsyncImpl's memory is not reused
  // before the work queued on Queue before it is done. freeAsyncImpl gets
  // only pointers of the default kind that this device allocated (through
  // allocImpl or allocAsyncImpl) and that are not blocks of the memory
  // manager. Without stream-ordered allocation the generic layer allocates
  // synchronously and keeps a release on a queue until that queue's
  // synchronize (queue_releases.h).
  virtual Expected<void *> allocAsyncImpl(size_t Size, void *HostPtr, abi::TargetAllocKind Kind,
                                          void * /*Queue*/) {
    return allocImpl(Size, HostPtr, Kind);
  }
  virtual Status freeAsyncImpl(void *TgtPtr, void * /*Queue*/) { return freeImpl(TgtPtr); }
  virtual bool hasAsyncAllocation() const { return false; }
  // Out of memory: gives memory that the device's own allocator keeps for
  // reuse (a driver memory pool) back to the driver, after the memory
  // manager released its cache and before the allocation is retried (once,
  // whatever it answers). True when it gave memory back (for traces and
  // tests).
  virtual bool trimAllocationPoolImpl() { return false; }
  // Free device memory in bytes for an allocation failure's message, or
  // nullopt when unknown.
  virtual std::optional<uint64_t> freeMemoryBytesImpl() { return std::nullopt; }

  virtual Expected<void *> createQueueImpl() = 0;
  virtual Status destroyQueueImpl(void *Queue) = 0;
  // A queue that any number of constructs may use at once (its operations
  // complete as they are issued), owned by the device; when there is one,
  // constructs take it instead of a queue of the pool. Asked once, at init.
  virtual void *sharedQueue() { return nullptr; }
  virtual Status synchronizeImpl(void *Queue) = 0;
  // Whether every operation issued on Queue has completed, without waiting
  // (an error: the queue's work failed, which synchronizeImpl then reports).
  // By default true: a device that cannot tell is synchronized.
  virtual Expected<bool> queueIdleImpl(void * /*Queue*/) { return true; }

  virtual Status submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) = 0;
  virtual Status retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) = 0;
  virtual bool isDataExchangeableImpl(const GenericDevice & /*Dst*/) const { return false; }
  virtual Status exchangeImpl(const void *SrcPtr, GenericDevice &Dst, void *DstPtr, size_t Size,
                              void *Queue);

  virtual Status launchImpl(const KernelLaunch &Launch, void *Queue) = 0;
  // The value of the implicit launch-environment argument of a kernel of
  // KernelArgs version 3 or later (clang 18 and 19), made for this launch on
  // Queue. By default null: a kernel that does not use the device runtime's
  // launch environment (every host kernel) never reads it.
  virtual Expected<void *> launchEnvironmentImpl(const KernelLaunch &Launch, void *Queue);

  virtual Expected<void *> createEventImpl() = 0;
  virtual Status destroyEventImpl(void *Event) = 0;
  virtual Status recordEventImpl(void *Event, void *Queue) = 0;
  virtual Status waitEventImpl(void *Event, void *Queue) = 0;
  virtual Status syncEventImpl(void *Event) = 0;

  // Pins [HstPtr, HstPtr + Size) for DMA, or finds it pinned already by
  // someone else (HostPinner::pin's contract); by default (the host device)
  // bookkeeping only: the range itself, its own device-accessible address.
  virtual Expected<PinnedRange> pinHostImpl(void *HstPtr, size_t Size) {
    return PinnedRange{reinterpret_cast<uintptr_t>(HstPtr), Size, HstPtr, false};
  }
  virtual Status unpinHostImpl(const PinnedRange & /*R*/) { return {}; }

  // Device-side timing (profile_device). markImpl queues a timestamp on
  // Queue: the time (steady-clock ns) at which the device reaches that point
  // of the queue. By default it is now, right for a device whose work is
  // done when it is issued. A device whose queue runs later either writes
  // *Slot when it gets there (before the queue's synchronize returns) and
  // returns null, or returns a handle that resolveMarksImpl turns into the
  // time after the synchronize.
  virtual Expected<void *> markImpl(void * /*Queue*/, uint64_t *Slot) {
    *Slot = steadyNowNs();
    return nullptr;
  }
  // After the synchronize of the marks' queue: writes the times of the
  // handles Begin and End (either may be null: its slot is written) to
  // *BeginNs / *EndNs and releases them; with null slots (the queue failed)
  // only releases them.
  virtual Status resolveMarksImpl(void * /*Begin*/, void * /*End*/, uint64_t * /*BeginNs*/,
                                  uint64_t * /*EndNs*/) {
    return {};
  }
  // How a copy of the host range [HstPtr, HstPtr + Size) travels
  // (__tgt_device_op_route): by default pinned when the pinned map holds it,
  // else pageable.
  virtual int32_t copyRouteImpl(const void *HstPtr, size_t Size, bool ToDevice) const;

  // Whether the device reaches this host memory (Size > 0, HstPtr non-null);
  // by default false, the answer that never misleads.
  virtual bool isAccessibleImpl(const void * /*HstPtr*/, size_t /*Size*/) const { return false; }

  virtual Status initDeviceInfoImpl(__tgt_device_info &Info);
  // Fills the fields the device has values for; Info arrives zeroed.
  virtual void interopInfoImpl(__tgt_interop_info & /*Info*/) const {}
  // The device's own properties, first in describe's list: by convention
  // `name` and `device_type` first, then what the hardware and the plugin's
  // settings are (keys: snake_case, stable; a new key gets a label in
  // support/device_properties.cpp).
  virtual void describeImpl(PropertySink & /*Sink*/) {}

  // Default initial pool sizes when the environment does not set them.
  virtual size_t defaultInitialQueues() const { return 1; }
  virtual size_t defaultInitialEvents() const { return 1; }

  // "TARGET <name> RTL" for OMPT_TRACE.
  const char *traceComponent() const;

 private:
  // ======== (d) State ========
  GenericPlugin &Plugin_;
  const int32_t DeviceId_;
  bool Initialized_ = false;  // initImpl succeeded; written by init/deinit only
  std::atomic<bool> DeferredRetrievesAccepted_{false};
  void *SharedQueue_ = nullptr;  // sharedQueue(), set by init

  ResourcePool<void *> QueuePool_;  // locks itself
  ResourcePool<void *> EventPool_;  // locks itself

  // Device entry -> kernel name, sorted by entry; immutable once published.
  struct KernelTable {
    std::vector<std::pair<void *, const char *>> Sorted;
  };
  mutable FutexMutex ImagesMutex_;  // guards the three below, serialises loads
  std::vector<std::unique_ptr<DeviceImage>> Images_ GUARDED_BY(ImagesMutex_);
  std::deque<std::string> KernelNames_ GUARDED_BY(ImagesMutex_);  // stable storage of names
  // Every version published.
  std::vector<std::unique_ptr<const KernelTable>> KernelTables_ GUARDED_BY(ImagesMutex_);
  std::atomic<const KernelTable *> Kernels_{nullptr};  // the current version (no lock)

  DeviceProfile Profile_;        // locks itself
  MemoryManager MemoryManager_;  // locks itself
  QueueReleases QueueReleases_;  // locks itself; drained by synchronize
  PinnedMap Pinned_;             // locks itself; pins through this device's hooks

  // HostPinner, for Pinned_.
  Expected<PinnedRange> pin(void *HstPtr, size_t Size) final { return pinHostImpl(HstPtr, Size); }
  Status unpin(const PinnedRange &R) final { return unpinHostImpl(R); }

  FutexMutex AsyncInfosMutex_;
  std::vector<std::unique_ptr<__tgt_async_info>> AsyncInfos_ GUARDED_BY(AsyncInfosMutex_);
};

}  // namespace omptarget::plugin
