#include "mpi_device.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cubin.h"
#include "elf_check.h"
#include "generic_plugin.h"

namespace omptarget::mpi {

bool remotePluginRuns(const std::string &Plugin, std::span<const std::byte> Image) {
  if (Plugin == "x86_64") return host::isX86_64SharedObject(Image);
  if (Plugin == "cuda") return cuda::readCubin(Image).has_value();
  return false;
}

namespace {

// The image's kind, for the refusal's message.
const char *imageKind(std::span<const std::byte> Image) {
  if (host::isX86_64SharedObject(Image)) return "an x86_64 shared object (for x86_64 devices)";
  if (cuda::readCubin(Image)) return "an NVPTX cubin (for cuda devices)";
  return "of no kind the device servers' plugins run";
}

// The launch environment's place in a kernel's arguments: the server's
// plugin puts its own there (launch_kernel_async with KernelArgsVersion 3).
char LaunchEnvironmentMarker;

struct MpiEvent {
  explicit MpiEvent(uint64_t Id) : Id(Id) {}
  const uint64_t Id;                  // the server's name for it (EventRequest)
  std::atomic<bool> Recorded{false};  // whether the server has made it
};

MpiEvent &event(void *E) { return *static_cast<MpiEvent *>(E); }

EventRequest eventRequest(int32_t Device, const MpiEvent &E, uint64_t Queue) {
  EventRequest Req;
  Req.Device = Device;
  Req.Queue = Queue;
  Req.Event = E.Id;
  return Req;
}

uint64_t queueId(void *Queue) { return reinterpret_cast<uintptr_t>(Queue); }

// A loaded image: the server's entries (device addresses), in the order of
// the image's host entries.
class MpiImage final : public plugin::DeviceImage {
 public:
  MpiImage(const __tgt_device_image &Source, LoadImageReply Reply)
      : DeviceImage(Source), Reply_(std::move(Reply)) {}

  Expected<void *> address(const char *Name, size_t Index) const {
    if (Index >= Reply_.Entries.size() || Reply_.Entries[Index].Name != Name)
      return makeError("entry %zu (%s) is not in the server's table of the image", Index, Name);
    const uint64_t Addr = Reply_.Entries[Index].HostAddress;
    if (!Addr) return makeError("the remote device has no address for %s", Name);
    return reinterpret_cast<void *>(Addr);
  }

 private:
  const LoadImageReply Reply_;
};

}  // namespace

Expected<std::unique_ptr<plugin::DeviceImage>> MpiDevice::loadImageImpl(
    const __tgt_device_image &Image) {
  auto *Begin = static_cast<const std::byte *>(Image.ImageStart);
  auto *End = static_cast<const std::byte *>(Image.ImageEnd);
  if (!Begin || !End || End <= Begin)
    return makeError("invalid image bounds [%p, %p)", Image.ImageStart, Image.ImageEnd);
  const std::span<const std::byte> Bytes(Begin, End);
  // The core gives each device of this plugin the first image the plugin
  // accepts (any server device's kind): one of another kind stops here.
  if (!remotePluginRuns(Info_.Plugin, Bytes))
    return makeError(
        "MPI device rank %d (%s), its device %d (%s plugin), does not run this image, which is "
        "%s; a program built for several targets runs its regions on the remote devices of "
        "its first image's kind only (docs/usage.md, \"Devices on other nodes\")",
        Info_.Rank->rank(), Info_.Rank->hostName().c_str(), static_cast<int>(Info_.ServerDevice),
        Info_.Plugin.c_str(), imageKind(Bytes));
  // Unified shared memory: the program's addresses reach the kernels
  // unmapped, and they mean nothing in the server's process.
  const int64_t Requires = plugin().requiresFlags();
  if (Requires & abi::kReqUnifiedSharedMemory)
    return makeError(
        "MPI device rank %d (%s), its device %d, cannot run a program that requires "
        "unified_shared_memory: the device is in another process, which cannot read this "
        "program's memory",
        Info_.Rank->rank(), Info_.Rank->hostName().c_str(), static_cast<int>(Info_.ServerDevice));
  LoadImageRequest Req;
  Req.Device = Info_.ServerDevice;
  for (const __tgt_offload_entry *E = Image.EntriesBegin; E && E != Image.EntriesEnd; ++E)
    Req.Entries.push_back(ImageEntry{E->name ? E->name : "", reinterpret_cast<uintptr_t>(E->addr),
                                     E->size, static_cast<uint32_t>(E->flags),
                                     static_cast<uint32_t>(E->reserved)});
  const std::string What = formatString("LoadImage of %td bytes", End - Begin);
  Expected<Reply> R = Info_.Rank->request(MessageKind::LoadImage, Req, MessageKind::LoadImageReply,
                                          What.c_str(), Info_.ServerDevice, Bytes);
  if (!R) return R.takeError();
  Expected<LoadImageReply> Loaded = LoadImageReply::decode(R->Payload);
  if (!Loaded)
    return makeError("%s: the reply: %s", What.c_str(), Loaded.error().message().c_str());
  if (Loaded->Entries.size() != Req.Entries.size())
    return makeError("%s: the server loaded %zu entries of %zu", What.c_str(),
                     Loaded->Entries.size(), Req.Entries.size());
  return std::unique_ptr<plugin::DeviceImage>(
      std::make_unique<MpiImage>(Image, std::move(*Loaded)));
}

Expected<void *> MpiDevice::getKernelImpl(plugin::DeviceImage &Image, const char *Name,
                                          size_t Index) {
  return static_cast<MpiImage &>(Image).address(Name, Index);
}

Expected<void *> MpiDevice::getGlobalImpl(plugin::DeviceImage &Image, const char *Name, size_t,
                                          size_t Index) {
  return static_cast<MpiImage &>(Image).address(Name, Index);
}

Expected<void *> MpiDevice::allocImpl(size_t Size, void *, abi::TargetAllocKind Kind) {
  // Host and shared memory are memory the program uses directly; a device
  // on another rank has none the program can reach.
  if (Kind == abi::kAllocHost || Kind == abi::kAllocShared)
    return makeError(
        "MPI device rank %d (%s), its device %d: %s memory (%s) is memory this program reads "
        "and writes directly, which a device of another process cannot offer; use "
        "omp_target_alloc or llvm_omp_target_alloc_device and copy",
        Info_.Rank->rank(), Info_.Rank->hostName().c_str(), static_cast<int>(Info_.ServerDevice),
        Kind == abi::kAllocHost ? "host" : "shared", abi::allocKindName(Kind));
  AllocRequest Req;
  Req.Device = Info_.ServerDevice;
  Req.Kind = static_cast<int32_t>(Kind);
  Req.Bytes = Size;
  const std::string What = formatString("Alloc of %zu bytes", Size);
  Expected<Reply> R = Info_.Rank->request(MessageKind::Alloc, Req, MessageKind::PointerReply,
                                          What.c_str(), Info_.ServerDevice);
  if (!R) return R.takeError();
  Expected<PointerReply> P = PointerReply::decode(R->Payload);
  if (!P) return makeError("%s: the reply: %s", What.c_str(), P.error().message().c_str());
  if (!P->Pointer)
    return makeError("MPI device rank %d (%s), its device %d: %s", Info_.Rank->rank(),
                     Info_.Rank->hostName().c_str(), static_cast<int>(Info_.ServerDevice),
                     P->Message.c_str());
  return reinterpret_cast<void *>(P->Pointer);
}

Status MpiDevice::freeImpl(void *TgtPtr) {
  FreeRequest Req;
  Req.Device = Info_.ServerDevice;
  Req.Pointer = reinterpret_cast<uintptr_t>(TgtPtr);
  const std::string What = formatString("Free of %p", TgtPtr);
  Expected<Reply> R = Info_.Rank->request(MessageKind::Free, Req, MessageKind::StatusReply,
                                          What.c_str(), Info_.ServerDevice);
  if (!R) return R.takeError();
  return {};
}

Expected<void *> MpiDevice::createQueueImpl() {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(NextQueue_.fetch_add(1)));
}

template <typename P>
Status MpiDevice::sendOnQueue(uint64_t Queue, MessageKind Kind, const P &Payload,
                              const std::string &What, std::span<const std::byte> Out) {
  Expected<PendingReply> Posted = Info_.Rank->post(Kind, Payload, MessageKind::StatusReply,
                                                   What.c_str(), Info_.ServerDevice, Out,
                                                   /*Background=*/Queue != 0);
  if (!Posted) return Posted.takeError();
  return keepOrCollect(Queue, std::move(*Posted));
}

Status MpiDevice::keepOrCollect(uint64_t Queue, PendingReply Posted) {
  if (Queue == 0) {
    Expected<Reply> R = Info_.Rank->collect(Posted);
    if (!R) return R.takeError();
    return {};
  }
  ScopedLock Lock(PendingMutex_);
  Pending_[Queue].push_back(std::move(Posted));
  return {};
}

Status MpiDevice::collectPosted(uint64_t Queue) {
  std::vector<PendingReply> Taken;
  {
    ScopedLock Lock(PendingMutex_);
    auto It = Pending_.find(Queue);
    if (It == Pending_.end()) return {};
    Taken = std::move(It->second);
    Pending_.erase(It);
  }
  Status First;
  for (const PendingReply &P : Taken)
    if (Expected<Reply> R = Info_.Rank->collect(P); !R && First) First = R.takeError();
  return First;
}

Status MpiDevice::queueRequest(MessageKind Kind, uint64_t Queue, const char *What, bool *Pending) {
  QueueRequest Req;
  Req.Device = Info_.ServerDevice;
  Req.Queue = Queue;
  // Sent before the posted replies are taken: its round trip overlaps
  // theirs, and the server answers it after them.
  Expected<PendingReply> Posted =
      Info_.Rank->post(Kind, Req, MessageKind::StatusReply, What, Info_.ServerDevice);
  Status Earlier = collectPosted(Queue);
  if (!Posted) return Earlier ? Status(Posted.takeError()) : std::move(Earlier);
  Expected<Reply> R = Info_.Rank->collect(*Posted);
  if (!Earlier) return Earlier;
  if (!R) return R.takeError();
  if (Pending) {
    Expected<StatusReply> S = StatusReply::decode(R->Payload);
    if (!S) return makeError("%s: the reply: %s", What, S.error().message().c_str());
    *Pending = S->Code == StatusReply::kPending;
  }
  return {};
}

Status MpiDevice::destroyQueueImpl(void *Queue) {
  return queueRequest(MessageKind::Synchronize, queueId(Queue), "Synchronize", nullptr);
}

Status MpiDevice::synchronizeImpl(void *Queue) {
  return queueRequest(MessageKind::Synchronize, queueId(Queue), "Synchronize", nullptr);
}

Expected<bool> MpiDevice::queueIdleImpl(void *Queue) {
  // A posted request whose bytes or reply are still on their way: not
  // idle, known without a round trip and without waiting (a task
  // re-entered until its queue is done polls this).
  const uint64_t Q = queueId(Queue);
  std::vector<PendingReply> Taken;
  {
    ScopedLock Lock(PendingMutex_);
    if (auto It = Pending_.find(Q); It != Pending_.end()) {
      Taken = std::move(It->second);
      Pending_.erase(It);
    }
  }
  const bool AllReady = std::all_of(Taken.begin(), Taken.end(),
                                    [&](const PendingReply &P) { return Info_.Rank->ready(P); });
  if (!Taken.empty()) {
    // Back in front of whatever was posted meanwhile.
    ScopedLock Lock(PendingMutex_);
    std::vector<PendingReply> &List = Pending_[Q];
    List.insert(List.begin(), std::make_move_iterator(Taken.begin()),
                std::make_move_iterator(Taken.end()));
  }
  if (!AllReady) return false;
  bool Pending = false;
  if (Status S = queueRequest(MessageKind::Query, queueId(Queue), "Query", &Pending); !S)
    return S.takeError();
  return !Pending;
}

Status MpiDevice::submitImpl(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) {
  CopyRequest Req;
  Req.Device = Info_.ServerDevice;
  Req.Pointer = reinterpret_cast<uintptr_t>(TgtPtr);
  Req.Bytes = Size;
  Req.Queue = queueId(Queue);
  return sendOnQueue(Req.Queue, MessageKind::Submit, Req, formatString("Submit of %zu bytes", Size),
                     std::span<const std::byte>(static_cast<const std::byte *>(HstPtr), Size));
}

Status MpiDevice::retrieveImpl(void *HstPtr, const void *TgtPtr, size_t Size, void *Queue) {
  CopyRequest Req;
  Req.Device = Info_.ServerDevice;
  Req.Pointer = reinterpret_cast<uintptr_t>(TgtPtr);
  Req.Bytes = Size;
  Req.Queue = queueId(Queue);
  const std::string What = formatString("Retrieve of %zu bytes", Size);
  Expected<PendingReply> Posted =
      Info_.Rank->postRetrieve(Req, std::span<std::byte>(static_cast<std::byte *>(HstPtr), Size),
                               What.c_str());
  if (!Posted) return Posted.takeError();
  return keepOrCollect(Req.Queue, std::move(*Posted));
}

namespace {
// One server-to-server exchange at a time in this process (mpi_device.h).
FutexMutex ExchangeMutex;
}  // namespace

Status MpiDevice::exchangeImpl(const void *SrcPtr, plugin::GenericDevice &DstDevice, void *DstPtr,
                               size_t Size, void *Queue) {
  // Same plugin (GenericDevice::isDataExchangeable): an MpiDevice.
  const RemoteDeviceInfo &Dst = static_cast<MpiDevice &>(DstDevice).Info_;
  ExchangeRequest Req;
  Req.SrcDevice = Info_.ServerDevice;
  Req.SrcPointer = reinterpret_cast<uintptr_t>(SrcPtr);
  Req.DstDevice = Dst.ServerDevice;
  Req.DstPointer = reinterpret_cast<uintptr_t>(DstPtr);
  Req.Bytes = Size;
  Req.Queue = queueId(Queue);
  const std::string What = formatString("Exchange of %zu bytes to rank %d's device %d", Size,
                                        Dst.Rank->rank(), static_cast<int>(Dst.ServerDevice));
  if (Dst.Rank == Info_.Rank) {
    Req.Role = ExchangeRequest::kLocal;
    Expected<Reply> R = Info_.Rank->request(MessageKind::Exchange, Req, MessageKind::StatusReply,
                                            What.c_str(), Info_.ServerDevice);
    if (!R) return R.takeError();
    return {};
  }
  ScopedLock Lock(ExchangeMutex);
  const uint32_t Tag = Info_.Rank->freshTag();
  ExchangeRequest Receive = Req;
  Receive.Role = ExchangeRequest::kReceive;
  Receive.Queue = 0;
  Receive.PeerRank = static_cast<uint32_t>(Info_.Rank->rank());
  Receive.PeerTag = Tag;
  const std::string ReceiveWhat =
      formatString("Exchange of %zu bytes from rank %d's device %d", Size, Info_.Rank->rank(),
                   static_cast<int>(Info_.ServerDevice));
  Expected<PendingReply> Receiving =
      Dst.Rank->post(MessageKind::Exchange, Receive, MessageKind::StatusReply, ReceiveWhat.c_str(),
                     Dst.ServerDevice);
  if (!Receiving) return Receiving.takeError();
  ExchangeRequest Send = Req;
  Send.Role = ExchangeRequest::kSend;
  Send.PeerRank = static_cast<uint32_t>(Dst.Rank->rank());
  Send.PeerTag = Tag;
  Expected<Reply> Sent = Info_.Rank->request(MessageKind::Exchange, Send, MessageKind::StatusReply,
                                             What.c_str(), Info_.ServerDevice);
  Expected<Reply> Received = Dst.Rank->collect(*Receiving);
  if (!Sent) return Sent.takeError();
  if (!Received) return Received.takeError();
  return {};
}

Expected<void *> MpiDevice::launchEnvironmentImpl(const plugin::KernelLaunch &, void *) {
  return static_cast<void *>(&LaunchEnvironmentMarker);
}

Status MpiDevice::launchImpl(const plugin::KernelLaunch &L, void *Queue) {
  LaunchRequest Req;
  Req.Device = Info_.ServerDevice;
  Req.Queue = queueId(Queue);
  Req.Entry = reinterpret_cast<uintptr_t>(L.Entry);
  Req.NumTeams[0] = static_cast<uint32_t>(L.NumTeams);
  Req.NumTeams[1] = L.TeamsYZ[0];
  Req.NumTeams[2] = L.TeamsYZ[1];
  Req.ThreadLimit[0] = static_cast<uint32_t>(L.ThreadLimit);
  Req.ThreadLimit[1] = L.ThreadsYZ[0];
  Req.ThreadLimit[2] = L.ThreadsYZ[1];
  Req.DynCGroupMem = L.DynCGroupMem;
  Req.KernelArgsVersion = L.KernelArgsVersion;
  Req.IsTeamRegion = L.IsTeamRegion ? 1 : 0;
  Req.LoopTripCount = L.LoopTripCount;
  int32_t First = 0;
  // Our marker in front: the launch environment, which the server's plugin
  // makes (a clang 18/19 kernel); the server gets the version that says so.
  if (L.NumArgs > 0 && L.Args[0] == &LaunchEnvironmentMarker) {
    First = 1;
    Req.KernelArgsVersion = abi::kKernelArgsMinVersionWithLaunchEnv;
  }
  for (int32_t I = First; I < L.NumArgs; ++I) {
    Req.Args.push_back(reinterpret_cast<uintptr_t>(L.Args[I]));
    Req.Offsets.push_back(L.Offsets[I]);
  }
  return sendOnQueue(Req.Queue, MessageKind::Launch, Req, formatString("Launch of %s", L.Name));
}

Expected<void *> MpiDevice::createEventImpl() {
  return std::make_unique<MpiEvent>(NextEvent_.fetch_add(1)).release();
}

Status MpiDevice::destroyEventImpl(void *Event) {
  std::unique_ptr<MpiEvent> Owned(&event(Event));
  if (!Owned->Recorded.load(std::memory_order_acquire)) return {};
  return sendOnQueue(0, MessageKind::DestroyEvent, eventRequest(Info_.ServerDevice, *Owned, 0),
                     "DestroyEvent");
}

// Record and Wait are posted on their queue, like a Launch: the server
// orders the queue's work by its own plugin's event, and no thread here
// waits for a round trip.
Status MpiDevice::recordEventImpl(void *Event, void *Queue) {
  MpiEvent &E = event(Event);
  const uint64_t Q = queueId(Queue);
  if (Status S = sendOnQueue(Q, MessageKind::RecordEvent, eventRequest(Info_.ServerDevice, E, Q),
                             "RecordEvent");
      !S)
    return S;
  // Set once the request is with MPI: a wait sent after it is ordered
  // after it (MPI keeps one sender's order on a tag).
  E.Recorded.store(true, std::memory_order_release);
  return {};
}

Status MpiDevice::waitEventImpl(void *Event, void *Queue) {
  MpiEvent &E = event(Event);
  if (!E.Recorded.load(std::memory_order_acquire)) return {};
  const uint64_t Q = queueId(Queue);
  return sendOnQueue(Q, MessageKind::WaitEvent, eventRequest(Info_.ServerDevice, E, Q),
                     "WaitEvent");
}

Status MpiDevice::syncEventImpl(void *Event) {
  MpiEvent &E = event(Event);
  if (!E.Recorded.load(std::memory_order_acquire)) return {};
  return sendOnQueue(0, MessageKind::SyncEvent, eventRequest(Info_.ServerDevice, E, 0),
                     "SyncEvent");
}

void MpiDevice::describeImpl(plugin::PropertySink &Sink) {
  Sink.add("name", Info_.Name);
  Sink.add("device_type",
           formatString("remote (%s device %d of the server on MPI rank %d)", Info_.Plugin.c_str(),
                        static_cast<int>(Info_.ServerDevice), Info_.Rank->rank()));
  Sink.add("mpi_rank", Info_.Rank->rank());
  Sink.add("host_name", Info_.Rank->hostName());
  Sink.add("remote_plugin", Info_.Plugin);
  Sink.add("remote_device_id", Info_.ServerDevice);
}

}  // namespace omptarget::mpi
