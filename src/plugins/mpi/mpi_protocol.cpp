#include "mpi_protocol.h"

#include <cinttypes>

namespace omptarget::mpi {

const char *kindName(MessageKind Kind) {
  switch (Kind) {
    case MessageKind::Hello: return "Hello";
    case MessageKind::HelloReply: return "HelloReply";
    case MessageKind::Alloc: return "Alloc";
    case MessageKind::Free: return "Free";
    case MessageKind::Submit: return "Submit";
    case MessageKind::Retrieve: return "Retrieve";
    case MessageKind::Launch: return "Launch";
    case MessageKind::Synchronize: return "Synchronize";
    case MessageKind::Query: return "Query";
    case MessageKind::PointerReply: return "PointerReply";
    case MessageKind::StatusReply: return "StatusReply";
    case MessageKind::Shutdown: return "Shutdown";
    case MessageKind::LoadImage: return "LoadImage";
    case MessageKind::LoadImageReply: return "LoadImageReply";
    case MessageKind::Exchange: return "Exchange";
    case MessageKind::RecordEvent: return "RecordEvent";
    case MessageKind::WaitEvent: return "WaitEvent";
    case MessageKind::SyncEvent: return "SyncEvent";
    case MessageKind::DestroyEvent: return "DestroyEvent";
  }
  return "unknown";
}

// ---- Writer / Reader ----------------------------------------------------------

void Writer::put(uint64_t V, int Bytes) {
  for (int I = 0; I < Bytes; ++I) Bytes_.push_back(static_cast<std::byte>((V >> (8 * I)) & 0xff));
}

void Writer::string(std::string_view S) {
  u32(static_cast<uint32_t>(S.size()));
  for (char C : S) Bytes_.push_back(static_cast<std::byte>(C));
}

void Reader::fail(Error E) {
  if (Failed_) Failed_ = Status(std::move(E));
}

uint64_t Reader::get(int Bytes, const char *Field) {
  if (!Failed_) return 0;
  if (left() < static_cast<size_t>(Bytes)) {
    fail(makeError("field %s: %d bytes needed, %zu left in the message", Field, Bytes, left()));
    return 0;
  }
  uint64_t V = 0;
  for (int I = 0; I < Bytes; ++I)
    V |= static_cast<uint64_t>(static_cast<uint8_t>(Bytes_[Offset_ + static_cast<size_t>(I)]))
         << (8 * I);
  Offset_ += static_cast<size_t>(Bytes);
  return V;
}

std::string Reader::string(const char *Field, uint32_t MaxBytes) {
  const uint32_t Length = u32(Field);
  if (!Failed_) return {};
  if (Length > MaxBytes || Length > left()) {
    fail(makeError("field %s: a string of %" PRIu32 " bytes (at most %" PRIu32
                   ", %zu left in the message)",
                   Field, Length, MaxBytes, left()));
    return {};
  }
  std::string S(reinterpret_cast<const char *>(Bytes_.data() + Offset_), Length);
  Offset_ += Length;
  return S;
}

uint32_t Reader::count(const char *Field, uint32_t Max, size_t ElementBytes) {
  const uint32_t N = u32(Field);
  if (!Failed_) return 0;
  if (N > Max || static_cast<uint64_t>(N) * ElementBytes > left()) {
    fail(makeError("field %s: %" PRIu32 " elements (at most %" PRIu32
                   ", and %zu bytes left hold %zu)",
                   Field, N, Max, left(), ElementBytes ? left() / ElementBytes : size_t{0}));
    return 0;
  }
  return N;
}

Status Reader::finish(const char *What) {
  if (!Failed_) return makeError("%s: %s", What, Failed_.error().message().c_str());
  if (left() != 0) return makeError("%s: %zu bytes left over after the last field", What, left());
  return {};
}

// ---- header -----------------------------------------------------------------

std::vector<std::byte> encodeHeader(const Header &H) {
  Writer W;
  W.u32(H.Magic);
  W.u16(H.Version);
  W.u16(static_cast<uint16_t>(H.Kind));
  W.u64(H.RequestId);
  W.u32(H.PayloadBytes);
  W.u32(H.DataTag);
  W.u64(H.DataBytes);
  W.u32(H.ReplyTag);
  W.u32(0);
  return W.take();
}

Expected<Header> decodeHeader(std::span<const std::byte> Bytes) {
  if (Bytes.size() < kHeaderBytes)
    return makeError("a message of %zu bytes, shorter than the %zu-byte header", Bytes.size(),
                     kHeaderBytes);
  Reader R(Bytes.first(kHeaderBytes));
  Header H;
  H.Magic = R.u32("magic");
  H.Version = R.u16("version");
  const uint16_t Kind = R.u16("kind");
  H.RequestId = R.u64("request id");
  H.PayloadBytes = R.u32("payload size");
  H.DataTag = R.u32("data tag");
  H.DataBytes = R.u64("data size");
  H.ReplyTag = R.u32("reply tag");
  H.Reserved = R.u32("reserved");
  if (Status S = R.finish("header"); !S) return S.takeError();
  if (H.Magic != kProtocolMagic)
    return makeError("not an omptarget MPI message (magic 0x%08" PRIx32 ", expected 0x%08" PRIx32
                     ")",
                     H.Magic, kProtocolMagic);
  if (H.Version != kProtocolVersion)
    return makeError(
        "protocol version %u, this side speaks version %u: run the same omptarget "
        "release on every rank",
        H.Version, kProtocolVersion);
  if (Kind < kFirstKind || Kind > kLastKind)
    return makeError("unknown message kind %u (request %" PRIu64 ")", Kind, H.RequestId);
  H.Kind = static_cast<MessageKind>(Kind);
  if (H.PayloadBytes > kMaxPayloadBytes)
    return makeError("%s message with a %" PRIu32 "-byte payload (at most %" PRIu32 ")",
                     kindName(H.Kind), H.PayloadBytes, kMaxPayloadBytes);
  if (Bytes.size() - kHeaderBytes != H.PayloadBytes)
    return makeError("%s message: the header says %" PRIu32 " payload bytes, %zu arrived",
                     kindName(H.Kind), H.PayloadBytes, Bytes.size() - kHeaderBytes);
  if (H.DataTag > kMaxTag || H.ReplyTag > kMaxTag)
    return makeError("%s message: data tag %" PRIu32 " or reply tag %" PRIu32
                     " above the largest tag, %" PRIu32,
                     kindName(H.Kind), H.DataTag, H.ReplyTag, kMaxTag);
  if ((H.DataTag == 0) != (H.DataBytes == 0))
    return makeError("%s message: data tag %" PRIu32 " with %" PRIu64 " data bytes",
                     kindName(H.Kind), H.DataTag, H.DataBytes);
  return H;
}

// ---- payloads ---------------------------------------------------------------

namespace {
template <typename T, typename ReadFields>
Expected<T> decodeWith(std::span<const std::byte> Payload, const char *What, ReadFields Read) {
  Reader R(Payload);
  T Value;
  Read(R, Value);
  if (Status S = R.finish(What); !S) return S.takeError();
  return Value;
}
}  // namespace

void HelloRequest::encode(Writer &W) const {
  W.u16(Version);
  W.u32(OriginRank);
}
Expected<HelloRequest> HelloRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<HelloRequest>(Payload, "Hello", [](Reader &R, HelloRequest &V) {
    V.Version = R.u16("version");
    V.OriginRank = R.u32("origin rank");
  });
}

void HelloReply::encode(Writer &W) const {
  W.u16(Version);
  W.string(HostName);
  W.u32(static_cast<uint32_t>(Devices.size()));
  for (const RemoteDevice &D : Devices) {
    W.string(D.Plugin);
    W.string(D.Name);
    W.u32(static_cast<uint32_t>(D.LocalId));
  }
}
Expected<HelloReply> HelloReply::decode(std::span<const std::byte> Payload) {
  return decodeWith<HelloReply>(Payload, "HelloReply", [](Reader &R, HelloReply &V) {
    V.Version = R.u16("version");
    V.HostName = R.string("host name");
    // Each device: two string lengths and its id, 12 bytes at the least.
    const uint32_t N = R.count("device count", kMaxDevicesPerRank, 12);
    V.Devices.resize(N);
    for (RemoteDevice &D : V.Devices) {
      D.Plugin = R.string("device plugin");
      D.Name = R.string("device name");
      D.LocalId = static_cast<int32_t>(R.u32("device id"));
    }
  });
}

void AllocRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  W.u32(static_cast<uint32_t>(Kind));
  W.u64(Bytes);
  W.u64(Queue);
}
Expected<AllocRequest> AllocRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<AllocRequest>(Payload, "Alloc", [](Reader &R, AllocRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    V.Kind = static_cast<int32_t>(R.u32("allocation kind"));
    V.Bytes = R.u64("size");
    V.Queue = R.u64("queue");
  });
}

void FreeRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  W.u32(static_cast<uint32_t>(Kind));
  W.u64(Pointer);
  W.u64(Queue);
}
Expected<FreeRequest> FreeRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<FreeRequest>(Payload, "Free", [](Reader &R, FreeRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    V.Kind = static_cast<int32_t>(R.u32("allocation kind"));
    V.Pointer = R.u64("pointer");
    V.Queue = R.u64("queue");
  });
}

void CopyRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  W.u64(Pointer);
  W.u64(Bytes);
  W.u64(Queue);
  W.u32(DataTag);
}
Expected<CopyRequest> CopyRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<CopyRequest>(Payload, "copy", [](Reader &R, CopyRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    V.Pointer = R.u64("pointer");
    V.Bytes = R.u64("size");
    V.Queue = R.u64("queue");
    V.DataTag = R.u32("data tag");
  });
}

void ExchangeRequest::encode(Writer &W) const {
  W.u32(Role);
  W.u32(static_cast<uint32_t>(SrcDevice));
  W.u64(SrcPointer);
  W.u32(static_cast<uint32_t>(DstDevice));
  W.u64(DstPointer);
  W.u64(Bytes);
  W.u64(Queue);
  W.u32(PeerRank);
  W.u32(PeerTag);
}
Expected<ExchangeRequest> ExchangeRequest::decode(std::span<const std::byte> Payload) {
  Expected<ExchangeRequest> E =
      decodeWith<ExchangeRequest>(Payload, "exchange", [](Reader &R, ExchangeRequest &V) {
        V.Role = R.u32("role");
        V.SrcDevice = static_cast<int32_t>(R.u32("source device"));
        V.SrcPointer = R.u64("source pointer");
        V.DstDevice = static_cast<int32_t>(R.u32("destination device"));
        V.DstPointer = R.u64("destination pointer");
        V.Bytes = R.u64("size");
        V.Queue = R.u64("queue");
        V.PeerRank = R.u32("peer rank");
        V.PeerTag = R.u32("peer tag");
      });
  if (!E) return E;
  if (E->Role > ExchangeRequest::kReceive)
    return makeError("exchange: role %" PRIu32 " is none of local (0), send (1), receive (2)",
                     E->Role);
  if (E->Role != ExchangeRequest::kLocal && (E->PeerTag < kFirstReplyTag || E->PeerTag > kMaxTag))
    return makeError("exchange: peer tag %" PRIu32 " outside [%" PRIu32 ", %" PRIu32 "]",
                     E->PeerTag, kFirstReplyTag, kMaxTag);
  return E;
}

void LaunchRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  W.u64(Queue);
  W.u64(Entry);
  for (uint32_t T : NumTeams) W.u32(T);
  for (uint32_t T : ThreadLimit) W.u32(T);
  W.u32(DynCGroupMem);
  W.u32(KernelArgsVersion);
  W.u32(static_cast<uint32_t>(IsTeamRegion));
  W.u64(LoopTripCount);
  W.u32(static_cast<uint32_t>(Args.size()));
  for (size_t I = 0; I < Args.size(); ++I) {
    W.u64(Args[I]);
    W.i64(I < Offsets.size() ? Offsets[I] : 0);
  }
}
Expected<LaunchRequest> LaunchRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<LaunchRequest>(Payload, "Launch", [](Reader &R, LaunchRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    V.Queue = R.u64("queue");
    V.Entry = R.u64("kernel");
    for (uint32_t &T : V.NumTeams) T = R.u32("teams");
    for (uint32_t &T : V.ThreadLimit) T = R.u32("thread limit");
    V.DynCGroupMem = R.u32("dynamic group memory");
    V.KernelArgsVersion = R.u32("kernel arguments version");
    V.IsTeamRegion = static_cast<int32_t>(R.u32("team region"));
    V.LoopTripCount = R.u64("trip count");
    const uint32_t N = R.count("argument count", kMaxKernelArgs, 16);
    V.Args.resize(N);
    V.Offsets.resize(N);
    for (uint32_t I = 0; I < N; ++I) {
      V.Args[I] = R.u64("argument");
      V.Offsets[I] = R.i64("argument offset");
    }
  });
}

void QueueRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  W.u64(Queue);
}
Expected<QueueRequest> QueueRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<QueueRequest>(Payload, "queue request", [](Reader &R, QueueRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    V.Queue = R.u64("queue");
  });
}

void EventRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  W.u64(Queue);
  W.u64(Event);
}
Expected<EventRequest> EventRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<EventRequest>(Payload, "event request", [](Reader &R, EventRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    V.Queue = R.u64("queue");
    V.Event = R.u64("event");
  });
}

void PointerReply::encode(Writer &W) const {
  W.u64(Pointer);
  W.string(Message);
}
Expected<PointerReply> PointerReply::decode(std::span<const std::byte> Payload) {
  return decodeWith<PointerReply>(Payload, "PointerReply", [](Reader &R, PointerReply &V) {
    V.Pointer = R.u64("pointer");
    V.Message = R.string("message");
  });
}

void StatusReply::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Code));
  W.string(Message);
}
Expected<StatusReply> StatusReply::decode(std::span<const std::byte> Payload) {
  Expected<StatusReply> V =
      decodeWith<StatusReply>(Payload, "StatusReply", [](Reader &R, StatusReply &V) {
        V.Code = static_cast<int32_t>(R.u32("status code"));
        V.Message = R.string("message");
      });
  if (V && (V->Code < kOk || V->Code > kWorking))
    return makeError("StatusReply: unknown status code %d", static_cast<int>(V->Code));
  return V;
}

namespace {
void encodeEntries(Writer &W, const std::vector<ImageEntry> &Entries) {
  W.u32(static_cast<uint32_t>(Entries.size()));
  for (const ImageEntry &E : Entries) {
    W.string(E.Name);
    W.u64(E.HostAddress);
    W.u64(E.Size);
    W.u32(E.Flags);
    W.u32(E.Data);
  }
}
void decodeEntries(Reader &R, std::vector<ImageEntry> &Entries) {
  // Each entry: a name's length, two u64, flags and data: 28 bytes at least.
  const uint32_t N = R.count("entry count", kMaxImageEntries, 28);
  Entries.resize(N);
  for (ImageEntry &E : Entries) {
    E.Name = R.string("entry name");
    E.HostAddress = R.u64("entry address");
    E.Size = R.u64("entry size");
    E.Flags = R.u32("entry flags");
    E.Data = R.u32("entry data");
  }
}
}  // namespace

void LoadImageRequest::encode(Writer &W) const {
  W.u32(static_cast<uint32_t>(Device));
  encodeEntries(W, Entries);
}
Expected<LoadImageRequest> LoadImageRequest::decode(std::span<const std::byte> Payload) {
  return decodeWith<LoadImageRequest>(Payload, "LoadImage", [](Reader &R, LoadImageRequest &V) {
    V.Device = static_cast<int32_t>(R.u32("device"));
    decodeEntries(R, V.Entries);
  });
}

void LoadImageReply::encode(Writer &W) const {
  W.u64(Image);
  encodeEntries(W, Entries);
}
Expected<LoadImageReply> LoadImageReply::decode(std::span<const std::byte> Payload) {
  return decodeWith<LoadImageReply>(Payload, "LoadImageReply", [](Reader &R, LoadImageReply &V) {
    V.Image = R.u64("image");
    decodeEntries(R, V.Entries);
  });
}

}  // namespace omptarget::mpi
