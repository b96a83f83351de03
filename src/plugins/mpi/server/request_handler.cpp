#include "request_handler.h"

#include <sched.h>
#include <algorithm>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <thread>

namespace omptarget::mpi {

// An image as the server's plugin loaded it: the bytes and the host entry
// table it was given, which must stay as long as the image is loaded.
struct RequestHandler::LoadedImage {
  std::vector<std::byte> Bytes;
  std::deque<std::string> Names;
  std::vector<__tgt_offload_entry> Entries;
  __tgt_device_image Image{};
};

struct RequestHandler::Device {
  size_t Plugin = 0;  // index into Plugins_
  int32_t Local = 0;  // the plugin's device id
  bool Started = false;
  std::map<uint64_t, uint64_t> Ranges;  // start -> bytes: allocations and loaded globals
  std::set<uint64_t> Allocations;       // what Alloc handed out (Free takes only these)
  std::set<uint64_t> Kernels;           // kernel handles of loaded images
  std::map<uint64_t, std::unique_ptr<__tgt_async_info>> Queues;
  // Event id -> the plugin's event (null for a plugin without events).
  std::map<uint64_t, void *> Events;
  std::vector<std::unique_ptr<LoadedImage>> Images;
};

RequestHandler::RequestHandler(std::vector<ServedPlugin> Plugins, std::string HostName)
    : Plugins_(std::move(Plugins)), HostName_(std::move(HostName)) {
  for (size_t P = 0; P < Plugins_.size(); ++P)
    for (int32_t I = 0; I < Plugins_[P].NumDevices; ++I) {
      auto D = std::make_unique<Device>();
      D->Plugin = P;
      D->Local = I;
      Devices_.push_back(std::move(D));
    }
}

RequestHandler::~RequestHandler() {
  for (const std::unique_ptr<Device> &D : Devices_) {
    const ServedPlugin &P = Plugins_[D->Plugin];
    for (const auto &[Id, Event] : D->Events)
      if (Event && P.Fn.destroy_event) (void)P.Fn.destroy_event(D->Local, Event);
  }
}

Expected<RequestHandler::Device *> RequestHandler::device(int32_t Id) {
  if (Id < 0 || Id >= numDevices())
    return makeError("device %d out of range (this server has %d)", static_cast<int>(Id),
                     static_cast<int>(numDevices()));
  Device &D = *Devices_[static_cast<size_t>(Id)];
  if (!D.Started) {
    const ServedPlugin &P = Plugins_[D.Plugin];
    if (P.Fn.init_device(D.Local) != 0)
      return makeError("device %d (%s device %d) did not start", static_cast<int>(Id),
                       P.Name.c_str(), static_cast<int>(D.Local));
    D.Started = true;
  }
  return &D;
}

Expected<__tgt_async_info *> RequestHandler::queue(Device &D, uint64_t Queue, bool Create) {
  auto It = D.Queues.find(Queue);
  if (It != D.Queues.end()) return It->second.get();
  if (!Create) return nullptr;
  if (D.Queues.size() >= kMaxQueuesPerDevice)
    return makeError("queue %" PRIu64 ": the device has %zu queues already, the most it keeps",
                     Queue, D.Queues.size());
  auto [New, Inserted] = D.Queues.emplace(Queue, std::make_unique<__tgt_async_info>());
  return New->second.get();
}

Status RequestHandler::syncQueue(Device &D, uint64_t Queue) {
  if (Queue == 0) return {};
  Expected<__tgt_async_info *> AI = queue(D, Queue, false);
  if (!AI) return AI.takeError();
  if (!*AI || !(*AI)->Queue) return {};
  const ServedPlugin &P = Plugins_[D.Plugin];
  if (!P.Fn.synchronize || P.Fn.synchronize(D.Local, *AI) != 0)
    return makeError("queue %" PRIu64 ": synchronize failed (the server's error line says why)",
                     Queue);
  return {};
}

bool RequestHandler::inRange(const Device &D, uint64_t Ptr, uint64_t Bytes) {
  if (Bytes == 0 || Ptr + Bytes < Ptr) return false;
  auto It = D.Ranges.upper_bound(Ptr);
  if (It == D.Ranges.begin()) return false;
  --It;
  return Ptr >= It->first && Ptr + Bytes <= It->first + It->second;
}

Status RequestHandler::replyStatus(const Header &H, int32_t Code, std::string Message, Channel &C,
                                   uint64_t DataBytes, uint32_t DataTag) {
  StatusReply S;
  S.Code = Code;
  S.Message = std::move(Message);
  return sendReply(H, MessageKind::StatusReply, S, C, DataBytes, DataTag);
}

void RequestHandler::refuse(const Header *H, const std::string &Line, Channel &C) {
  ++Refusals_;
  LastRefusal_ = Line;
  if (H && H->ReplyTag != 0) {
    if (Status S = replyStatus(*H, StatusReply::kFailed, Line, C); !S)
      std::fprintf(stderr,
                   "omptarget-mpi-device: refusing a request: %s; the refusal was not sent: %s\n",
                   Line.c_str(), S.error().message().c_str());
    return;
  }
  std::fprintf(stderr, "omptarget-mpi-device: refused a message: %s\n", Line.c_str());
}

std::span<std::byte> RequestHandler::staging(size_t N) {
  if (Staging_.size() < N) Staging_.resize(N);
  return std::span<std::byte>(Staging_.data(), N);
}

void RequestHandler::drain(const Header &H, Channel &C) {
  for (uint64_t Off = 0; Off < H.DataBytes; Off += kMaxChunkBytes) {
    const size_t N = static_cast<size_t>(std::min<uint64_t>(kMaxChunkBytes, H.DataBytes - Off));
    if (!C.receiveData(H.DataTag, staging(N))) return;
  }
}

RequestHandler::Next RequestHandler::handle(std::span<const std::byte> Message, Channel &C) {
  Expected<Header> H = decodeHeader(Message);
  if (!H) {
    // The reply tag of a header that does not decode (another version, a
    // bad field) is still used when it is plausible: the sender then learns
    // why it was refused.
    Header Guess;
    if (Message.size() >= kHeaderBytes) {
      Reader R(Message.first(kHeaderBytes));
      R.u32("magic");
      R.u16("version");
      R.u16("kind");
      Guess.RequestId = R.u64("request id");
      R.u32("payload size");
      R.u32("data tag");
      R.u64("data size");
      Guess.ReplyTag = R.u32("reply tag");
      if (Guess.ReplyTag < kFirstReplyTag || Guess.ReplyTag > kMaxTag) Guess.ReplyTag = 0;
    }
    refuse(&Guess, "a message that does not decode: " + H.error().message(), C);
    return Next::Serve;
  }
  if (H->Kind == MessageKind::Shutdown) return Next::Stop;
  const std::span<const std::byte> P = payloadOf(Message);
  bool Drained = false;
  Status S;
  if (H->ReplyTag < kFirstReplyTag) {
    S = makeError("%s request %" PRIu64 " without a reply tag", kindName(H->Kind), H->RequestId);
  } else {
    switch (H->Kind) {
      case MessageKind::Hello: S = hello(*H, P, C); break;
      case MessageKind::Alloc: S = alloc(*H, P, C); break;
      case MessageKind::Free: S = free(*H, P, C); break;
      case MessageKind::Submit: S = submit(*H, P, C, Drained); break;
      case MessageKind::Retrieve: S = retrieve(*H, P, C); break;
      case MessageKind::Launch: S = launch(*H, P, C); break;
      case MessageKind::Synchronize: S = synchronize(*H, P, C, false); break;
      case MessageKind::Query: S = synchronize(*H, P, C, true); break;
      case MessageKind::LoadImage: S = loadImage(*H, P, C, Drained); break;
      case MessageKind::Exchange: S = exchange(*H, P, C); break;
      case MessageKind::RecordEvent:
      case MessageKind::WaitEvent:
      case MessageKind::SyncEvent:
      case MessageKind::DestroyEvent: S = event(*H, P, C); break;
      default: S = makeError("a %s message, which is not a request", kindName(H->Kind)); break;
    }
  }
  if (!S) {
    if (!Drained) drain(*H, C);
    refuse(&*H, formatString("%s: %s", kindName(H->Kind), S.error().message().c_str()), C);
  }
  return Next::Serve;
}

// ---- requests ------------------------------------------------------------------

Status RequestHandler::hello(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<HelloRequest> Req = HelloRequest::decode(P);
  if (!Req) return Req.takeError();
  if (Req->Version != kProtocolVersion)
    return makeError("protocol version %u, this server speaks version %u", Req->Version,
                     kProtocolVersion);
  HelloReply Reply;
  Reply.HostName = HostName_;
  for (int32_t Id = 0; Id < numDevices(); ++Id) {
    const Device &D = *Devices_[static_cast<size_t>(Id)];
    const ServedPlugin &Pl = Plugins_[D.Plugin];
    RemoteDevice R;
    R.Plugin = Pl.Name;
    R.LocalId = Id;
    R.Name = Pl.Name + " device " + std::to_string(D.Local);
    if (Pl.Fn.device_properties) {
      auto Collect = [](void *Ctx, const char *Key, const char *Value) {
        if (std::string_view(Key) == "name") *static_cast<std::string *>(Ctx) = Value;
      };
      (void)Pl.Fn.device_properties(D.Local, Collect, &R.Name);
    }
    Reply.Devices.push_back(std::move(R));
  }
  return sendReply(H, MessageKind::HelloReply, Reply, C);
}

Status RequestHandler::alloc(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<AllocRequest> Req = AllocRequest::decode(P);
  if (!Req) return Req.takeError();
  Expected<Device *> D = device(Req->Device);
  if (!D) return D.takeError();
  if (Req->Bytes == 0 || Req->Bytes > kMaxAllocBytes)
    return makeError("a size of %" PRIu64 " bytes (1 to %" PRIu64 ")", Req->Bytes, kMaxAllocBytes);
  if (Req->Kind < 0 || Req->Kind > 3)
    return makeError("allocation kind %d (0 to 3)", static_cast<int>(Req->Kind));
  const ServedPlugin &Pl = Plugins_[(*D)->Plugin];
  void *Ptr = Pl.Fn.data_alloc((*D)->Local, static_cast<int64_t>(Req->Bytes), nullptr, Req->Kind);
  PointerReply Reply;
  if (!Ptr) {
    Reply.Message = formatString("%s device %d could not allocate %" PRIu64 " bytes",
                                 Pl.Name.c_str(), static_cast<int>((*D)->Local), Req->Bytes);
  } else {
    const auto Addr = reinterpret_cast<uintptr_t>(Ptr);
    (*D)->Ranges[Addr] = Req->Bytes;
    (*D)->Allocations.insert(Addr);
    Reply.Pointer = Addr;
  }
  return sendReply(H, MessageKind::PointerReply, Reply, C);
}

Status RequestHandler::free(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<FreeRequest> Req = FreeRequest::decode(P);
  if (!Req) return Req.takeError();
  Expected<Device *> D = device(Req->Device);
  if (!D) return D.takeError();
  if (!(*D)->Allocations.count(Req->Pointer))
    return makeError("pointer 0x%" PRIx64 " is not an allocation of this server's device %d",
                     Req->Pointer, static_cast<int>(Req->Device));
  if (Status S = syncQueue(**D, Req->Queue); !S) return S;
  const ServedPlugin &Pl = Plugins_[(*D)->Plugin];
  if (Pl.Fn.data_delete((*D)->Local, reinterpret_cast<void *>(Req->Pointer)) != 0)
    return makeError("data_delete of 0x%" PRIx64 " failed", Req->Pointer);
  (*D)->Allocations.erase(Req->Pointer);
  (*D)->Ranges.erase(Req->Pointer);
  return replyStatus(H, StatusReply::kOk, "", C);
}

Status RequestHandler::submit(const Header &H, std::span<const std::byte> P, Channel &C,
                              bool &Drained) {
  Expected<CopyRequest> Req = CopyRequest::decode(P);
  if (!Req) return Req.takeError();
  if (Req->Bytes != H.DataBytes)
    return makeError("a copy of %" PRIu64 " bytes with %" PRIu64 " data bytes", Req->Bytes,
                     H.DataBytes);
  Expected<Device *> D = deviceRange(Req->Device, Req->Pointer, Req->Bytes);
  if (!D) return D.takeError();
  if (Status S = syncQueue(**D, Req->Queue); !S) return S;
  auto Receive = [&](std::span<std::byte> Into) -> Status {
    if (Status S = C.receiveData(H.DataTag, Into); !S)
      return makeError("receiving its data: %s", S.error().message().c_str());
    return {};
  };
  Drained = true;
  if (Status S = receiveChunks(**D, Req->Pointer, Req->Bytes, Receive); !S) return S;
  return replyStatus(H, StatusReply::kOk, "", C);
}

Status RequestHandler::retrieve(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<CopyRequest> Req = CopyRequest::decode(P);
  if (!Req) return Req.takeError();
  if (Req->DataTag < kFirstReplyTag || Req->DataTag > kMaxTag || Req->DataTag == H.ReplyTag)
    return makeError("data tag %" PRIu32 " (%" PRIu32 " to %" PRIu32 ", not the reply tag)",
                     Req->DataTag, kFirstReplyTag, kMaxTag);
  Expected<Device *> D = deviceRange(Req->Device, Req->Pointer, Req->Bytes);
  if (!D) return D.takeError();
  if (Status S = syncQueue(**D, Req->Queue); !S) return S;
  // The reply says the bytes follow (on the request's data tag); the
  // trailer says whether they are the device's (a chunk that fails to copy
  // goes as zeros).
  if (Status S = replyStatus(H, StatusReply::kOk, "", C, Req->Bytes, Req->DataTag); !S) return {};
  auto Send = [&](std::span<const std::byte> Chunk) { return C.sendData(Req->DataTag, Chunk); };
  Status Failed;
  if (Status S =
          sendChunks(**D, Req->Pointer, Req->Bytes, AfterRetrieveFailure::SendZeros, Failed, Send);
      !S) {
    std::fprintf(stderr, "omptarget-mpi-device: Retrieve: sending its data: %s\n",
                 S.error().message().c_str());
    return {};
  }
  (void)replyStatus(H, Failed ? StatusReply::kOk : StatusReply::kFailed,
                    Failed ? std::string() : Failed.error().message(), C);
  return {};
}

Status RequestHandler::receiveChunks(Device &D, uint64_t Ptr, uint64_t Bytes,
                                     const ReceiveStep &Receive) {
  const ServedPlugin &Pl = Plugins_[D.Plugin];
  // In place: the whole range at once (the transport posts every chunk's
  // receive together, so they overlap).
  if (Pl.SharesMemory)
    return Receive(std::span<std::byte>(reinterpret_cast<std::byte *>(Ptr), Bytes));
  Status Failed;
  for (uint64_t Off = 0; Off < Bytes; Off += kMaxChunkBytes) {
    const size_t N = static_cast<size_t>(std::min<uint64_t>(kMaxChunkBytes, Bytes - Off));
    std::span<std::byte> Into = staging(N);
    if (Status S = Receive(Into); !S) return S;
    if (!Failed) continue;  // dropped after a failure
    if (Pl.Fn.data_submit(D.Local, reinterpret_cast<void *>(Ptr + Off), Into.data(),
                          static_cast<int64_t>(N)) != 0)
      Failed = makeError("data_submit of %zu bytes at 0x%" PRIx64 " failed", N, Ptr + Off);
  }
  return Failed;
}

Status RequestHandler::sendChunks(Device &D, uint64_t Ptr, uint64_t Bytes,
                                  AfterRetrieveFailure After, Status &Failed,
                                  const SendStep &Send) {
  const ServedPlugin &Pl = Plugins_[D.Plugin];
  // In place: the whole range at once (its chunks' sends posted together).
  if (Pl.SharesMemory)
    return Send(std::span<const std::byte>(reinterpret_cast<std::byte *>(Ptr), Bytes));
  for (uint64_t Off = 0; Off < Bytes; Off += kMaxChunkBytes) {
    const size_t N = static_cast<size_t>(std::min<uint64_t>(kMaxChunkBytes, Bytes - Off));
    std::span<std::byte> Chunk = staging(N);
    // After a failure the staging buffer holds zeros: later chunks are
    // not retrieved.
    if (Failed && Pl.Fn.data_retrieve(D.Local, Chunk.data(), reinterpret_cast<void *>(Ptr + Off),
                                      static_cast<int64_t>(N)) != 0) {
      Failed = makeError("data_retrieve of %zu bytes at 0x%" PRIx64 " failed", N, Ptr + Off);
      if (After == AfterRetrieveFailure::Stop) return {};
      std::fill(Chunk.begin(), Chunk.end(), std::byte{0});
    }
    if (Status S = Send(Chunk); !S) return S;
  }
  return {};
}

Expected<RequestHandler::Device *> RequestHandler::deviceRange(int32_t Id, uint64_t Ptr,
                                                               uint64_t Bytes) {
  Expected<Device *> D = device(Id);
  if (!D) return D.takeError();
  if (!inRange(**D, Ptr, Bytes))
    return makeError("[0x%" PRIx64 ", +%" PRIu64
                     ") is not inside memory this server's device %d allocated or loaded",
                     Ptr, Bytes, static_cast<int>(Id));
  return D;
}

Status RequestHandler::exchange(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<ExchangeRequest> Req = ExchangeRequest::decode(P);
  if (!Req) return Req.takeError();
  Status S;
  switch (Req->Role) {
    case ExchangeRequest::kLocal: S = exchangeLocal(*Req); break;
    case ExchangeRequest::kSend: S = exchangeSend(*Req, C); break;
    default: S = exchangeReceive(*Req, C); break;
  }
  if (!S) return S;
  return replyStatus(H, StatusReply::kOk, "", C);
}

Status RequestHandler::exchangeLocal(const ExchangeRequest &Req) {
  Expected<Device *> Src = deviceRange(Req.SrcDevice, Req.SrcPointer, Req.Bytes);
  if (!Src) return Src.takeError();
  Expected<Device *> Dst = deviceRange(Req.DstDevice, Req.DstPointer, Req.Bytes);
  if (!Dst) return Dst.takeError();
  if (Status S = syncQueue(**Src, Req.Queue); !S) return S;
  const ServedPlugin &SrcPl = Plugins_[(*Src)->Plugin];
  const ServedPlugin &DstPl = Plugins_[(*Dst)->Plugin];
  auto *SrcMem = reinterpret_cast<std::byte *>(Req.SrcPointer);
  auto *DstMem = reinterpret_cast<std::byte *>(Req.DstPointer);
  if (SrcPl.SharesMemory && DstPl.SharesMemory) {
    std::memmove(DstMem, SrcMem, static_cast<size_t>(Req.Bytes));
    return {};
  }
  // The plugin's own device-to-device path (one plugin, two devices it says
  // can exchange; a copy within one device always can).
  if (&SrcPl == &DstPl && SrcPl.Fn.data_exchange &&
      ((*Src)->Local == (*Dst)->Local ||
       (SrcPl.Fn.is_data_exchangable &&
        SrcPl.Fn.is_data_exchangable((*Src)->Local, (*Dst)->Local)))) {
    if (SrcPl.Fn.data_exchange((*Src)->Local, SrcMem, (*Dst)->Local, DstMem,
                               static_cast<int64_t>(Req.Bytes)) != 0)
      return makeError("data_exchange of %" PRIu64 " bytes failed", Req.Bytes);
    return {};
  }
  for (uint64_t Off = 0; Off < Req.Bytes; Off += kMaxChunkBytes) {
    const size_t N = static_cast<size_t>(std::min<uint64_t>(kMaxChunkBytes, Req.Bytes - Off));
    std::span<std::byte> Chunk = staging(N);
    if (SrcPl.Fn.data_retrieve((*Src)->Local, Chunk.data(), SrcMem + Off,
                               static_cast<int64_t>(N)) != 0)
      return makeError("data_retrieve of %zu bytes at 0x%" PRIx64 " failed", N,
                       Req.SrcPointer + Off);
    if (DstPl.Fn.data_submit((*Dst)->Local, DstMem + Off, Chunk.data(), static_cast<int64_t>(N)) !=
        0)
      return makeError("data_submit of %zu bytes at 0x%" PRIx64 " failed", N, Req.DstPointer + Off);
  }
  return {};
}

Status RequestHandler::checkPeer(int Peer, const Channel &C) {
  if (!C.isPeerServer(Peer))
    return makeError("rank %d is not another device server of this job", Peer);
  return {};
}

Status RequestHandler::exchangeSend(const ExchangeRequest &Req, Channel &C) {
  const int Peer = static_cast<int>(Req.PeerRank);
  if (Status S = checkPeer(Peer, C); !S) return S;
  // Whatever stops this side, the receiver gets an empty chunk and stops.
  auto Fail = [&](Error E) -> Status {
    (void)C.sendToPeer(Peer, Req.PeerTag, {});
    return E;
  };
  Expected<Device *> Src = deviceRange(Req.SrcDevice, Req.SrcPointer, Req.Bytes);
  if (!Src) return Fail(Src.takeError());
  if (Status S = syncQueue(**Src, Req.Queue); !S) return Fail(S.error());
  auto Send = [&](std::span<const std::byte> Chunk) -> Status {
    if (Status S = C.sendToPeer(Peer, Req.PeerTag, Chunk); !S)
      return makeError("sending to rank %d: %s", Peer, S.error().message().c_str());
    return {};
  };
  Status Failed;
  if (Status S =
          sendChunks(**Src, Req.SrcPointer, Req.Bytes, AfterRetrieveFailure::Stop, Failed, Send);
      !S)
    return S;
  if (!Failed) return Fail(Failed.takeError());
  return {};
}

Status RequestHandler::exchangeReceive(const ExchangeRequest &Req, Channel &C) {
  const int Peer = static_cast<int>(Req.PeerRank);
  if (Status S = checkPeer(Peer, C); !S) return S;
  // Refused: take (and drop) what the sender sends, until it ends or stops.
  auto Refuse = [&](Error E) -> Status {
    for (uint64_t Off = 0; Off < Req.Bytes; Off += kMaxChunkBytes) {
      const size_t N = static_cast<size_t>(std::min<uint64_t>(kMaxChunkBytes, Req.Bytes - Off));
      if (!C.receiveFromPeer(Peer, Req.PeerTag, staging(N))) break;
    }
    return E;
  };
  Expected<Device *> Dst = deviceRange(Req.DstDevice, Req.DstPointer, Req.Bytes);
  if (!Dst) return Refuse(Dst.takeError());
  if (Status S = syncQueue(**Dst, Req.Queue); !S) return Refuse(S.error());
  return receiveChunks(**Dst, Req.DstPointer, Req.Bytes, [&](std::span<std::byte> Into) -> Status {
    if (Status S = C.receiveFromPeer(Peer, Req.PeerTag, Into); !S)
      return makeError("receiving from rank %d: %s", Peer, S.error().message().c_str());
    return {};
  });
}

Status RequestHandler::launch(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<LaunchRequest> Req = LaunchRequest::decode(P);
  if (!Req) return Req.takeError();
  Expected<Device *> D = device(Req->Device);
  if (!D) return D.takeError();
  if (!(*D)->Kernels.count(Req->Entry))
    return makeError("kernel 0x%" PRIx64 " is not a kernel this server's device %d loaded",
                     Req->Entry, static_cast<int>(Req->Device));
  const ServedPlugin &Pl = Plugins_[(*D)->Plugin];
  std::unique_ptr<__tgt_async_info> Temporary;
  __tgt_async_info *AI = nullptr;
  if (Req->Queue == 0) {
    Temporary = std::make_unique<__tgt_async_info>();
    AI = Temporary.get();
  } else {
    Expected<__tgt_async_info *> Q = queue(**D, Req->Queue, true);
    if (!Q) return Q.takeError();
    AI = *Q;
  }
  std::vector<void *> Args(Req->Args.size());
  std::vector<ptrdiff_t> Offsets(Req->Args.size());
  for (size_t I = 0; I < Args.size(); ++I) {
    Args[I] = reinterpret_cast<void *>(Req->Args[I]);
    Offsets[I] = static_cast<ptrdiff_t>(Req->Offsets[I]);
  }
  void *Entry = reinterpret_cast<void *>(Req->Entry);
  const auto NumArgs = static_cast<int32_t>(Args.size());
  int32_t Rc = 1;
  const bool Extended = Req->KernelArgsVersion != 0 || Req->DynCGroupMem != 0 || Req->NumTeams[1] ||
                        Req->NumTeams[2] || Req->ThreadLimit[1] || Req->ThreadLimit[2];
  if (Extended || !Pl.Fn.run_target_team_region_async) {
    if (!Pl.Fn.launch_kernel_async)
      return makeError("the %s plugin has no launch_kernel_async for this kernel", Pl.Name.c_str());
    __tgt_kernel_launch L{};
    L.Version = OMPTARGET_KERNEL_LAUNCH_VERSION;
    L.KernelArgsVersion = Req->KernelArgsVersion;
    std::copy(std::begin(Req->NumTeams), std::end(Req->NumTeams), L.NumTeams);
    std::copy(std::begin(Req->ThreadLimit), std::end(Req->ThreadLimit), L.ThreadLimit);
    L.DynCGroupMem = Req->DynCGroupMem;
    L.IsTeamRegion = Req->IsTeamRegion;
    L.LoopTripCount = Req->LoopTripCount;
    Rc =
        Pl.Fn.launch_kernel_async((*D)->Local, Entry, Args.data(), Offsets.data(), NumArgs, &L, AI);
  } else if (Req->IsTeamRegion) {
    Rc = Pl.Fn.run_target_team_region_async((*D)->Local, Entry, Args.data(), Offsets.data(),
                                            NumArgs, static_cast<int32_t>(Req->NumTeams[0]),
                                            static_cast<int32_t>(Req->ThreadLimit[0]),
                                            Req->LoopTripCount, AI);
  } else {
    Rc =
        Pl.Fn.run_target_region_async((*D)->Local, Entry, Args.data(), Offsets.data(), NumArgs, AI);
  }
  if (Temporary && Temporary->Queue && Pl.Fn.synchronize &&
      Pl.Fn.synchronize((*D)->Local, Temporary.get()) != 0)
    Rc = 1;
  if (Rc != 0) return makeError("the kernel failed (the server's error line says why)");
  return replyStatus(H, StatusReply::kOk, "", C);
}

Status RequestHandler::synchronize(const Header &H, std::span<const std::byte> P, Channel &C,
                                   bool Query) {
  Expected<QueueRequest> Req = QueueRequest::decode(P);
  if (!Req) return Req.takeError();
  Expected<Device *> D = device(Req->Device);
  if (!D) return D.takeError();
  Expected<__tgt_async_info *> AI = queue(**D, Req->Queue, false);
  if (!AI) return AI.takeError();
  const ServedPlugin &Pl = Plugins_[(*D)->Plugin];
  if (Query && *AI && (*AI)->Queue && Pl.Fn.query_async) {
    if (Pl.Fn.query_async((*D)->Local, *AI) != 0)
      return makeError("queue %" PRIu64 ": its work failed", Req->Queue);
    return replyStatus(H, (*AI)->Queue ? StatusReply::kPending : StatusReply::kOk, "", C);
  }
  if (Status S = syncQueue(**D, Req->Queue); !S) return S;
  return replyStatus(H, StatusReply::kOk, "", C);
}

bool RequestHandler::hasEvents(const ServedPlugin &Pl) {
  return Pl.Fn.create_event && Pl.Fn.record_event && Pl.Fn.wait_event && Pl.Fn.sync_event &&
         Pl.Fn.destroy_event;
}

Status RequestHandler::event(const Header &H, std::span<const std::byte> P, Channel &C) {
  Expected<EventRequest> Req = EventRequest::decode(P);
  if (!Req) return Req.takeError();
  Expected<Device *> D = device(Req->Device);
  if (!D) return D.takeError();
  Device &Dev = **D;
  const ServedPlugin &Pl = Plugins_[Dev.Plugin];
  const bool OnQueue = H.Kind == MessageKind::RecordEvent || H.Kind == MessageKind::WaitEvent;
  if (OnQueue != (Req->Queue != 0))
    return makeError(OnQueue ? "no queue given" : "queue %" PRIu64 " given, which it takes none",
                     Req->Queue);
  auto It = Dev.Events.find(Req->Event);
  if (H.Kind == MessageKind::RecordEvent) {
    Expected<__tgt_async_info *> Q = queue(Dev, Req->Queue, true);
    if (!Q) return Q.takeError();
    if (It == Dev.Events.end()) {
      if (Req->Event == 0) return makeError("event 0, which names none");
      if (Dev.Events.size() >= kMaxEventsPerDevice)
        return makeError("event %" PRIu64 ": the device has %zu events already, the most it keeps",
                         Req->Event, Dev.Events.size());
      void *Made = nullptr;
      if (hasEvents(Pl) && Pl.Fn.create_event(Dev.Local, &Made) != 0)
        return makeError("event %" PRIu64 ": create_event failed", Req->Event);
      It = Dev.Events.emplace(Req->Event, Made).first;
    }
    if (!It->second) {
      if (Status S = syncQueue(Dev, Req->Queue); !S) return S;
    } else if (Pl.Fn.record_event(Dev.Local, It->second, *Q) != 0) {
      return makeError("event %" PRIu64 ": record_event on queue %" PRIu64 " failed", Req->Event,
                       Req->Queue);
    }
    return replyStatus(H, StatusReply::kOk, "", C);
  }
  if (It == Dev.Events.end())
    return makeError("event %" PRIu64 " was never recorded on this server's device %d", Req->Event,
                     static_cast<int>(Req->Device));
  void *Event = It->second;
  int32_t Rc = 0;
  if (H.Kind == MessageKind::WaitEvent) {
    Expected<__tgt_async_info *> Q = queue(Dev, Req->Queue, true);
    if (!Q) return Q.takeError();
    if (Event) Rc = Pl.Fn.wait_event(Dev.Local, Event, *Q);
  } else if (H.Kind == MessageKind::SyncEvent) {
    if (Event) Rc = Pl.Fn.sync_event(Dev.Local, Event);
  } else {
    if (Event) Rc = Pl.Fn.destroy_event(Dev.Local, Event);
    Dev.Events.erase(It);
  }
  if (Rc != 0)
    return makeError("event %" PRIu64 ": %s failed (the server's error line says why)", Req->Event,
                     kindName(H.Kind));
  return replyStatus(H, StatusReply::kOk, "", C);
}

Status RequestHandler::loadImage(const Header &H, std::span<const std::byte> P, Channel &C,
                                 bool &Drained) {
  Expected<LoadImageRequest> Req = LoadImageRequest::decode(P);
  if (!Req) return Req.takeError();
  if (H.DataBytes == 0 || H.DataBytes > kMaxImageBytes)
    return makeError("an image of %" PRIu64 " bytes (1 to %" PRIu64 ")", H.DataBytes,
                     kMaxImageBytes);
  Expected<Device *> D = device(Req->Device);
  if (!D) return D.takeError();
  auto Img = std::make_unique<LoadedImage>();
  Img->Bytes.resize(static_cast<size_t>(H.DataBytes));
  Drained = true;
  if (Status S = C.receiveData(H.DataTag, Img->Bytes); !S)
    return makeError("receiving the image: %s", S.error().message().c_str());
  Img->Entries.resize(Req->Entries.size());
  for (size_t I = 0; I < Req->Entries.size(); ++I) {
    const ImageEntry &E = Req->Entries[I];
    Img->Names.push_back(E.Name);
    __tgt_offload_entry &T = Img->Entries[I];
    T.addr = reinterpret_cast<void *>(E.HostAddress);
    T.name = Img->Names.back().data();
    T.size = E.Size;
    T.flags = static_cast<int32_t>(E.Flags);
    T.reserved = static_cast<int32_t>(E.Data);
  }
  Img->Image.ImageStart = Img->Bytes.data();
  Img->Image.ImageEnd = Img->Bytes.data() + Img->Bytes.size();
  Img->Image.EntriesBegin = Img->Entries.data();
  Img->Image.EntriesEnd = Img->Entries.data() + Img->Entries.size();
  const ServedPlugin &Pl = Plugins_[(*D)->Plugin];
  if (!Pl.Fn.is_valid_binary(&Img->Image))
    return makeError("the %s plugin does not run this image (%" PRIu64 " bytes)", Pl.Name.c_str(),
                     H.DataBytes);
  __tgt_target_table *Table = Pl.Fn.load_binary((*D)->Local, &Img->Image);
  if (!Table) return makeError("load_binary failed (the server's error line says why)");
  const size_t N = static_cast<size_t>(Table->EntriesEnd - Table->EntriesBegin);
  if (N != Img->Entries.size())
    return makeError("the loaded image has %zu entries, the request %zu", N, Img->Entries.size());
  LoadImageReply Reply;
  Reply.Image = reinterpret_cast<uintptr_t>(&Img->Image);
  for (size_t I = 0; I < N; ++I) {
    const __tgt_offload_entry &T = Table->EntriesBegin[I];
    ImageEntry E;
    E.Name = Req->Entries[I].Name;
    E.HostAddress = reinterpret_cast<uintptr_t>(T.addr);
    E.Size = T.size;
    E.Flags = static_cast<uint32_t>(T.flags);
    E.Data = static_cast<uint32_t>(T.reserved);
    if (T.addr && T.size == 0) (*D)->Kernels.insert(E.HostAddress);
    if (T.addr && T.size > 0) (*D)->Ranges[E.HostAddress] = T.size;
    Reply.Entries.push_back(std::move(E));
  }
  (*D)->Images.push_back(std::move(Img));
  return sendReply(H, MessageKind::LoadImageReply, Reply, C);
}

}  // namespace omptarget::mpi
