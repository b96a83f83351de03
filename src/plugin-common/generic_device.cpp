#include "generic_device.h"

#include <algorithm>

#include "debug.h"
#include "entry_range.h"
#include "env.h"
#include "generic_plugin.h"
#include "scoped_lock.h"

namespace omptarget::plugin {

GenericDevice::GenericDevice(GenericPlugin &Plugin, int32_t DeviceId)
    : Plugin_(Plugin),
      DeviceId_(DeviceId),
      QueuePool_(
          "queue", [this] { return createQueueImpl(); },
          [this](void *Q) { return destroyQueueImpl(Q); }),
      EventPool_(
          "event", [this] { return createEventImpl(); },
          [this](void *E) { return destroyEventImpl(E); }),
      MemoryManager_([this](size_t Size) { return allocImpl(Size, nullptr, abi::kAllocDefault); },
                     [this](void *Ptr) { return freeImpl(Ptr); },
                     [this] { (void)trimAllocationPoolImpl(); }),
      Pinned_(DeviceId, *this) {}

GenericDevice::~GenericDevice() = default;

const char *GenericDevice::traceComponent() const { return Plugin_.traceComponent(); }

Status GenericDevice::init() {
  if (Status S = initImpl(); !S) return S;
  Initialized_ = true;  // from here on deinit() must run deinitImpl()
  // Initial pool sizes (the pools grow on demand beyond them).
  auto Queues =
      static_cast<size_t>(env::getInt("LIBOMPTARGET_NUM_INITIAL_STREAMS",
                                      static_cast<int64_t>(defaultInitialQueues()), 0, 1024));
  auto Events =
      static_cast<size_t>(env::getInt("LIBOMPTARGET_NUM_INITIAL_EVENTS",
                                      static_cast<int64_t>(defaultInitialEvents()), 0, 1024));
  // The cache stays in front of a stream-ordered allocator too: a block
  // released on a queue comes back to it only after that queue's
  // synchronize (queue_releases.h), so its next owner on any queue never
  // overlaps the work of its last one.
  auto Threshold =
      static_cast<size_t>(env::getInt("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD",
                                      static_cast<int64_t>(MemoryManager::kDefaultThreshold), 0,
                                      static_cast<int64_t>(MemoryManager::kMaxThreshold)));
  MemoryManager_.setThreshold(Threshold);
  SharedQueue_ = sharedQueue();
  if (SharedQueue_) Queues = 0;  // every construct uses the shared queue: no pool queues
  if (Status S = QueuePool_.init(Queues); !S) return S;
  if (Status S = EventPool_.init(Events); !S) return S;
  OMPT_TRACE(traceComponent(), "device %d initialised with %zu queue(s) and %zu event(s)",
             DeviceId_, Queues, Events);
  return {};
}

// Safe after a partial init(): pools and images are empty then.
Status GenericDevice::deinit() {
  std::string Problems;
  auto Note = [&Problems](Status S) {
    if (!S) Problems += S.error().message() + "; ";
  };
  {
    ScopedLock Lock(AsyncInfosMutex_);
    for (auto &AI : AsyncInfos_)
      if (AI->Queue) Note(synchronize(AI.get()));
    AsyncInfos_.clear();
  }
  // Timed operations of queues never synchronized are not reported; their
  // marks go back before the device's own resources do.
  if (Profile_.on()) resolveTimed(nullptr, false);
  // Releases kept for queues that were never synchronized (their work is
  // done: the device is going), then the cache.
  Note(releaseDeferred(nullptr));
  Note(QueuePool_.deinit());
  Note(EventPool_.deinit());
  Note(MemoryManager_.deinit());
  {
    // Ranges the program left locked are unpinned while the device lives.
    Status Unpinned;
    if (size_t Left = Pinned_.unpinAll(&Unpinned))
      OMPT_TRACE(traceComponent(), "device %d: %zu host range(s) still locked at deinit: unpinned",
                 DeviceId_, Left);
    Note(std::move(Unpinned));
  }
  {
    ScopedLock Lock(ImagesMutex_);
    if (Initialized_)
      for (const std::unique_ptr<DeviceImage> &Img : Images_) Note(unloadImageImpl(*Img));
    Kernels_.store(nullptr, std::memory_order_release);
    KernelTables_.clear();
    KernelNames_.clear();
    Images_.clear();
  }
  if (Initialized_) Note(deinitImpl());
  Initialized_ = false;
  if (!Problems.empty())
    return makeError("deinit of device %d: %s", DeviceId_,
                     Problems.substr(0, Problems.size() - 2).c_str());
  return {};
}

Expected<__tgt_target_table *> GenericDevice::loadBinary(const __tgt_device_image &Image) {
  // The entry table comes from the compiler through the caller: check it
  // before loading anything.
  Expected<size_t> Count = checkEntryRange(Image.EntriesBegin, Image.EntriesEnd);
  if (!Count)
    return makeError("load_binary: device %d: image %p: %s (%s)", DeviceId_, Image.ImageStart,
                     Count.error().message().c_str(), kRebuildHint);
  for (size_t I = 0; I < *Count; ++I)
    if (!Image.EntriesBegin[I].name)
      return makeError("load_binary: device %d: entry %zu of the image has no name (%s)", DeviceId_,
                       I, kRebuildHint);

  Expected<std::unique_ptr<DeviceImage>> Loaded = loadImageImpl(Image);
  if (!Loaded)
    return makeError("load_binary: device %d: %s", DeviceId_, Loaded.error().message().c_str());
  DeviceImage &Img = **Loaded;

  std::vector<std::pair<void *, const char *>> NewKernels;
  for (size_t I = 0; I < *Count; ++I) {
    const __tgt_offload_entry *E = &Image.EntriesBegin[I];
    Expected<void *> Addr =
        E->size == 0 ? getKernelImpl(Img, E->name, I) : getGlobalImpl(Img, E->name, E->size, I);
    if (!Addr)
      return makeError("load_binary: device %d: cannot resolve %s '%s': %s", DeviceId_,
                       E->size == 0 ? "kernel" : "global", E->name, Addr.error().message().c_str());
    __tgt_offload_entry Entry = *E;
    Entry.addr = *Addr;
    Img.entries().push_back(Entry);
    if (E->size == 0) NewKernels.emplace_back(*Addr, E->name);
    OMPT_TRACE(traceComponent(), "device %d: entry '%s' (size %zu, flags 0x%x) at %p", DeviceId_,
               E->name, E->size, static_cast<unsigned>(E->flags), *Addr);
  }

  ScopedLock Lock(ImagesMutex_);
  // Publish a new table: the old one plus this image's kernels (an entry
  // already known keeps its first name). Launches may still read the old one.
  auto Table = std::make_unique<KernelTable>();
  if (const KernelTable *Old = Kernels_.load(std::memory_order_relaxed))
    Table->Sorted = Old->Sorted;
  for (auto &[Addr, Name] : NewKernels) {
    auto Pos = std::lower_bound(Table->Sorted.begin(), Table->Sorted.end(), Addr,
                                [](const auto &P, void *A) { return P.first < A; });
    if (Pos != Table->Sorted.end() && Pos->first == Addr) continue;
    const char *Stored = KernelNames_.emplace_back(Name).c_str();
    Table->Sorted.insert(Pos, {Addr, Stored});
  }
  Kernels_.store(Table.get(), std::memory_order_release);
  KernelTables_.push_back(std::move(Table));
  Images_.push_back(std::move(*Loaded));
  return Images_.back()->table();
}

Status GenericDevice::unloadBinary(const __tgt_device_image &Image) {
  ScopedLock Lock(ImagesMutex_);
  auto It = std::find_if(Images_.begin(), Images_.end(),
                         [&](const auto &Img) { return &Img->source() == &Image; });
  if (It == Images_.end())
    return makeError("unload_binary: device %d: image %p (%p) is not loaded here", DeviceId_,
                     static_cast<const void *>(&Image), Image.ImageStart);
  DeviceImage &Img = **It;
  Status Unloaded = unloadImageImpl(Img);
  // Publish the table without the image's kernels (launches may still read
  // the old one, which stays alive until deinit).
  auto Table = std::make_unique<KernelTable>();
  if (const KernelTable *Old = Kernels_.load(std::memory_order_relaxed))
    Table->Sorted = Old->Sorted;
  for (const __tgt_offload_entry &E : Img.entries()) {
    if (E.size != 0) continue;
    auto Pos = std::lower_bound(Table->Sorted.begin(), Table->Sorted.end(), E.addr,
                                [](const auto &P, void *A) { return P.first < A; });
    if (Pos != Table->Sorted.end() && Pos->first == E.addr) Table->Sorted.erase(Pos);
  }
  Kernels_.store(Table.get(), std::memory_order_release);
  KernelTables_.push_back(std::move(Table));
  OMPT_TRACE(traceComponent(), "device %d: unloaded image %p", DeviceId_, Image.ImageStart);
  Images_.erase(It);
  if (!Unloaded)
    return makeError("unload_binary: device %d: %s", DeviceId_, Unloaded.error().message().c_str());
  return {};
}

const char *GenericDevice::findKernel(void *Entry) const {
  const KernelTable *T = Kernels_.load(std::memory_order_acquire);
  if (!T) return nullptr;
  auto Pos = std::lower_bound(T->Sorted.begin(), T->Sorted.end(), Entry,
                              [](const auto &P, void *A) { return P.first < A; });
  return Pos != T->Sorted.end() && Pos->first == Entry ? Pos->second : nullptr;
}

size_t GenericDevice::numImages() const {
  ScopedLock Lock(ImagesMutex_);
  return Images_.size();
}

std::optional<std::string> GenericDevice::kernelName(void *Entry) const {
  if (const char *Name = findKernel(Entry)) return std::string(Name);
  return std::nullopt;
}

Expected<void *> GenericDevice::acquireQueue(__tgt_async_info &AsyncInfo) {
  Expected<void *> Q = QueuePool_.acquire();
  if (!Q) return makeError("device %d: %s", DeviceId_, Q.error().message().c_str());
  AsyncInfo.Queue = *Q;
  return *Q;
}

Status GenericDevice::synchronize(__tgt_async_info *AsyncInfo) {
  if (!AsyncInfo) return makeError("synchronize: device %d: null __tgt_async_info", DeviceId_);
  if (!AsyncInfo->Queue) return {};  // nothing was issued
  void *Queue = AsyncInfo->Queue;
  if (Queue == SharedQueue_) {
    AsyncInfo->Queue = nullptr;
    if (Status S = synchronizeImpl(Queue); !S)
      return makeError("synchronize: device %d: %s", DeviceId_, S.error().message().c_str());
    return {};  // nothing is kept for the shared queue (deleteUnchecked)
  }
  if (!QueuePool_.isInUse(Queue))
    return makeError("synchronize: device %d: queue %p does not belong to this device", DeviceId_,
                     Queue);
  Status S = synchronizeImpl(Queue);
  if (Profile_.on()) [[unlikely]]
    resolveTimed(Queue, static_cast<bool>(S));
  // The queue's work is over, done or failed: memory released on it may be
  // reused now (before the queue goes back: its next owner's releases are
  // its own).
  Status Released = releaseDeferred(Queue);
  // The queue goes back to the pool even on failure: the caller's
  // AsyncInfo must end up empty (the core checks Queue == nullptr).
  AsyncInfo->Queue = nullptr;
  Status R = QueuePool_.giveBack(Queue);
  if (!S) return makeError("synchronize: device %d: %s", DeviceId_, S.error().message().c_str());
  if (!Released) return Released;
  return R;
}

Status GenericDevice::queryAsync(__tgt_async_info *AsyncInfo) {
  if (!AsyncInfo) return makeError("query_async: device %d: null __tgt_async_info", DeviceId_);
  void *Queue = AsyncInfo->Queue;
  if (Queue && Queue != SharedQueue_) {
    if (!QueuePool_.isInUse(Queue))
      return makeError("query_async: device %d: queue %p does not belong to this device", DeviceId_,
                       Queue);
    // A failure is reported by the synchronize below, which gives the queue back.
    Expected<bool> Idle = queueIdleImpl(Queue);
    if (Idle && !*Idle) return {};
  }
  return synchronize(AsyncInfo);
}

Expected<__tgt_async_info *> GenericDevice::initAsyncInfo() {
  auto AI = std::make_unique<__tgt_async_info>();
  if (Expected<void *> Q = queueOf(*AI); !Q) return Q.takeError();
  ScopedLock Lock(AsyncInfosMutex_);
  AsyncInfos_.push_back(std::move(AI));
  return AsyncInfos_.back().get();
}

Status GenericDevice::releaseAsyncInfo(__tgt_async_info *AsyncInfo) {
  std::unique_ptr<__tgt_async_info> Owned;
  {
    ScopedLock Lock(AsyncInfosMutex_);
    auto It = std::find_if(AsyncInfos_.begin(), AsyncInfos_.end(),
                           [&](const auto &AI) { return AI.get() == AsyncInfo; });
    if (It == AsyncInfos_.end())
      return makeError(
          "release_async_info: device %d: %p was not returned by init_async_info on "
          "this device, or was released already",
          DeviceId_, static_cast<void *>(AsyncInfo));
    Owned = std::move(*It);
    *It = std::move(AsyncInfos_.back());
    AsyncInfos_.pop_back();
  }
  return synchronize(Owned.get());  // gives the queue back even when the wait fails
}

void GenericDevice::interopInfo(__tgt_interop_info &Info) const {
  Info = __tgt_interop_info{};
  interopInfoImpl(Info);
}

Status GenericDevice::initDeviceInfoImpl(__tgt_device_info &) {
  return makeError("init_device_info is not supported by the %s plugin", Plugin_.name().c_str());
}

Status GenericDevice::initDeviceInfo(__tgt_device_info *Info, const char **ErrStr) {
  if (!Info) return makeError("init_device_info: device %d: null __tgt_device_info", DeviceId_);
  Status S = initDeviceInfoImpl(*Info);
  if (!S && ErrStr) *ErrStr = "init_device_info failed (see the plugin's message)";
  return S;
}

Status GenericDevice::exchangeImpl(const void *, GenericDevice &Dst, void *, size_t, void *) {
  return makeError("the %s plugin cannot exchange data between device %d and device %d",
                   Plugin_.name().c_str(), DeviceId_, Dst.id());
}

bool GenericDevice::isDataExchangeable(const GenericDevice &Dst) const {
  return &Dst.Plugin_ == &Plugin_ && isDataExchangeableImpl(Dst);
}

}  // namespace omptarget::plugin
