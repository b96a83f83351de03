// The wire protocol between the MPI plugin (libomptarget.rtl.mpi.so, in the
// program's rank) and the device server (omptarget-mpi-device, one process
// per device rank), which serves the devices its own plugins find.
//
// Contract:
//  - A control message is one MPI message: a 40-byte Header, then
//    Header::PayloadBytes of payload (at most kMaxPayloadBytes). Bulk bytes
//    (an image, a copy's data) are not in it: they follow as separate
//    messages on the tag Header::DataTag, Header::DataBytes in all, in
//    chunks of at most kMaxChunkBytes, so a large copy is pipelined and
//    never one buffer of its whole size on either side.
//  - Every integer is fixed width and little-endian on the wire (Writer and
//    Reader do the conversion); the two ends need not share a compiler.
//  - A request's RequestId is chosen by the plugin, unique among its
//    requests in flight to one rank; the reply carries the same id.
//  - Tags: requests go to the server on kControlTag. Every request but
//    Shutdown names a ReplyTag, fresh for the request (the plugin takes it
//    from a counter): the request's bulk bytes travel on it (DataTag ==
//    ReplyTag), and so do the server's reply and the reply's bulk bytes, so
//    that several threads may wait for replies from one rank at once. Tags
//    are at most kMaxTag (MPI guarantees less: the transport also checks
//    MPI_TAG_UB).
//  - Every request is answered by its own reply kind or by a StatusReply
//    (kFailed with the server's line: a refused request). A Retrieve's
//    StatusReply (kOk, DataBytes set) is followed by the data on the
//    request's DataTag, then by a second StatusReply on the reply tag that
//    says whether every chunk was read.
//  - Nothing received is trusted. decodeHeader checks the magic, the
//    version and the kind; each payload's decode checks every count and
//    length against its limit and against the bytes that remain, and that
//    no byte is left over. A failed check is an Error naming the field, the
//    value and the bound: the receiver refuses the message with that line
//    (and the server keeps serving others), never acts on part of it.
//    Pointers in a request are checked by the server against what it
//    allocated or loaded; that is the server's job, not the decoder's.
//  - Versions: a peer of another kProtocolVersion is refused at Hello, with
//    a line naming both versions; no other message is read from it.
// Nothing here calls MPI: the plugin and the server send the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"

namespace omptarget::mpi {

inline constexpr uint32_t kProtocolMagic = 0x4d504d4f;  // "OMPM" read as little-endian
// 2: Exchange (copies between remote devices, rank to rank); StatusReply
//    kWorking.
// 3: events on the server (RecordEvent, WaitEvent, SyncEvent,
//    DestroyEvent); a Retrieve's data on a tag of its own.
inline constexpr uint16_t kProtocolVersion = 3;
inline constexpr size_t kHeaderBytes = 40;
// Control payloads are small: argument lists, device lists, error lines.
inline constexpr uint32_t kMaxPayloadBytes = 1u << 20;
inline constexpr uint32_t kMaxChunkBytes = 8u << 20;
inline constexpr uint32_t kMaxStringBytes = 4096;
inline constexpr uint32_t kMaxDevicesPerRank = 1024;
inline constexpr uint32_t kMaxKernelArgs = 4096;
inline constexpr uint32_t kMaxImageEntries = 65536;
inline constexpr uint32_t kMaxTag = 0x7fffffff;
inline constexpr int kControlTag = 1;
// Server -> plugin: StatusReply kWorking while the server has a request of
// that rank in hand (server/keep_alive.h).
inline constexpr int kKeepAliveTag = 2;
// The first tag the plugin's counter hands out (those below are reserved).
inline constexpr uint32_t kFirstReplyTag = 16;

enum class MessageKind : uint16_t {
  Hello = 1,       // plugin -> server: HelloRequest
  HelloReply,      // server -> plugin: HelloReply
  Alloc,           // AllocRequest; reply: PointerReply
  Free,            // FreeRequest; reply: StatusReply
  Submit,          // CopyRequest, DataBytes of data follow; reply: StatusReply
  Retrieve,        // CopyRequest; reply: StatusReply, then DataBytes of data
  Launch,          // LaunchRequest; reply: StatusReply
  Synchronize,     // QueueRequest; reply: StatusReply
  Query,           // QueueRequest; reply: StatusReply (Code kPending: not done)
  PointerReply,    // server -> plugin
  StatusReply,     // server -> plugin
  Shutdown,        // plugin -> server: no payload, no reply
  LoadImage,       // LoadImageRequest, DataBytes of image follow; reply: LoadImageReply
  LoadImageReply,  // server -> plugin
  Exchange,        // ExchangeRequest; reply: StatusReply
  RecordEvent,     // EventRequest; reply: StatusReply
  WaitEvent,       // EventRequest; reply: StatusReply
  SyncEvent,       // EventRequest (no queue); reply: StatusReply once it has happened
  DestroyEvent,    // EventRequest (no queue); reply: StatusReply
};
// The kinds decodeHeader accepts: [first, last].
inline constexpr uint16_t kFirstKind = static_cast<uint16_t>(MessageKind::Hello);
inline constexpr uint16_t kLastKind = static_cast<uint16_t>(MessageKind::DestroyEvent);
const char *kindName(MessageKind Kind);

struct Header {
  uint32_t Magic = kProtocolMagic;
  uint16_t Version = kProtocolVersion;
  MessageKind Kind = MessageKind::Hello;
  uint64_t RequestId = 0;
  uint32_t PayloadBytes = 0;
  uint32_t DataTag = 0;    // the tag of the bulk bytes; 0: none
  uint64_t DataBytes = 0;  // bytes on DataTag that belong to this message
  uint32_t ReplyTag = 0;   // where the reply goes (requests but Shutdown); 0: none
  uint32_t Reserved = 0;   // written 0, ignored
};

// Appends fixed-width little-endian fields to a byte buffer.
class Writer {
 public:
  void u16(uint16_t V) { put(V, 2); }
  void u32(uint32_t V) { put(V, 4); }
  void u64(uint64_t V) { put(V, 8); }
  void i64(int64_t V) { put(static_cast<uint64_t>(V), 8); }
  // A u32 length, then the bytes (no terminator).
  void string(std::string_view S);
  std::vector<std::byte> take() { return std::move(Bytes_); }
  size_t size() const { return Bytes_.size(); }

 private:
  void put(uint64_t V, int Bytes);
  std::vector<std::byte> Bytes_;
};

// Reads what a Writer wrote, each read checked against the bytes left.
// The first failed read is kept (error()); later reads return 0 and ""
// and keep it, so a decoder reads every field and checks once.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> Bytes) : Bytes_(Bytes) {}
  uint16_t u16(const char *Field) { return static_cast<uint16_t>(get(2, Field)); }
  uint32_t u32(const char *Field) { return static_cast<uint32_t>(get(4, Field)); }
  uint64_t u64(const char *Field) { return get(8, Field); }
  int64_t i64(const char *Field) { return static_cast<int64_t>(get(8, Field)); }
  // A string of at most MaxBytes.
  std::string string(const char *Field, uint32_t MaxBytes = kMaxStringBytes);
  // A count of at most Max whose elements take at least ElementBytes each:
  // refused when the bytes left cannot hold that many.
  uint32_t count(const char *Field, uint32_t Max, size_t ElementBytes);
  // Fails unless every byte was read and no read failed.
  Status finish(const char *What);
  size_t left() const { return Bytes_.size() - Offset_; }

 private:
  uint64_t get(int Bytes, const char *Field);
  void fail(Error E);
  std::span<const std::byte> Bytes_;
  size_t Offset_ = 0;
  Status Failed_;
};

std::vector<std::byte> encodeHeader(const Header &H);
// Checks magic, version and kind, and PayloadBytes against the bytes that
// arrived (Bytes is the whole control message).
Expected<Header> decodeHeader(std::span<const std::byte> Bytes);
// The payload of a control message whose header decoded.
inline std::span<const std::byte> payloadOf(std::span<const std::byte> Message) {
  return Message.subspan(kHeaderBytes);
}

// ---- payloads ---------------------------------------------------------------

struct HelloRequest {
  uint16_t Version = kProtocolVersion;
  uint32_t OriginRank = 0;
  void encode(Writer &W) const;
  static Expected<HelloRequest> decode(std::span<const std::byte> Payload);
};

struct RemoteDevice {
  std::string Plugin;   // "x86_64", "cuda"
  std::string Name;     // the device's own name ("NVIDIA H100 80GB HBM3")
  int32_t LocalId = 0;  // its number among the server's devices
};

struct HelloReply {
  uint16_t Version = kProtocolVersion;
  std::string HostName;
  std::vector<RemoteDevice> Devices;
  void encode(Writer &W) const;
  static Expected<HelloReply> decode(std::span<const std::byte> Payload);
};

struct AllocRequest {
  int32_t Device = 0;
  int32_t Kind = 0;  // TARGET_ALLOC_*
  uint64_t Bytes = 0;
  uint64_t Queue = 0;  // the server's queue id; 0: synchronous
  void encode(Writer &W) const;
  static Expected<AllocRequest> decode(std::span<const std::byte> Payload);
};

struct FreeRequest {
  int32_t Device = 0;
  int32_t Kind = 0;
  uint64_t Pointer = 0;
  uint64_t Queue = 0;
  void encode(Writer &W) const;
  static Expected<FreeRequest> decode(std::span<const std::byte> Payload);
};

// Submit (the header's DataBytes follow) and Retrieve (the reply's follow,
// on DataTag).
struct CopyRequest {
  int32_t Device = 0;
  uint64_t Pointer = 0;  // device address
  uint64_t Bytes = 0;
  uint64_t Queue = 0;
  // Retrieve: the tag of its data, fresh and not the reply tag (the
  // plugin's receives for it are posted before the request is sent, so
  // that they take the data and nothing else). Submit: 0.
  uint32_t DataTag = 0;
  void encode(Writer &W) const;
  static Expected<CopyRequest> decode(std::span<const std::byte> Payload);
};

// A copy between two remote devices. Local: both on the server that gets
// it (Src to Dst). Send: this server's Src to PeerRank, whose server gets
// the matching Receive; the bytes go server to server on PeerTag, in
// chunks of kMaxChunkBytes (a sender that fails sends an empty chunk, so
// the receiver stops). Receive: from PeerRank on PeerTag into this
// server's Dst. The device and pointer of the other side are unused.
struct ExchangeRequest {
  static constexpr uint32_t kLocal = 0, kSend = 1, kReceive = 2;
  uint32_t Role = kLocal;
  int32_t SrcDevice = 0;
  uint64_t SrcPointer = 0;
  int32_t DstDevice = 0;
  uint64_t DstPointer = 0;
  uint64_t Bytes = 0;
  uint64_t Queue = 0;  // the queue of the side this server holds (Local: Src's)
  uint32_t PeerRank = 0;
  uint32_t PeerTag = 0;
  void encode(Writer &W) const;
  static Expected<ExchangeRequest> decode(std::span<const std::byte> Payload);
};

struct LaunchRequest {
  int32_t Device = 0;
  uint64_t Queue = 0;
  uint64_t Entry = 0;  // the kernel's handle from the server's image load
  uint32_t NumTeams[3] = {0, 0, 0};
  uint32_t ThreadLimit[3] = {0, 0, 0};
  uint32_t DynCGroupMem = 0;
  uint32_t KernelArgsVersion = 0;
  int32_t IsTeamRegion = 0;
  uint64_t LoopTripCount = 0;
  std::vector<uint64_t> Args;    // device addresses or literal values
  std::vector<int64_t> Offsets;  // one per argument
  void encode(Writer &W) const;
  static Expected<LaunchRequest> decode(std::span<const std::byte> Payload);
};

struct QueueRequest {
  int32_t Device = 0;
  uint64_t Queue = 0;
  void encode(Writer &W) const;
  static Expected<QueueRequest> decode(std::span<const std::byte> Payload);
};

// An event of the server's device, named by the plugin's id for it (1, 2,
// ... per device, never reused): the server creates its plugin's event at
// the first record. Record: on Queue, after the queue's work so far. Wait:
// Queue's later work waits for the last record (none yet: nothing to wait
// for). Sync: answered once the last record has happened. Destroy: the
// server's event is gone (the id is never used again).
struct EventRequest {
  int32_t Device = 0;
  uint64_t Queue = 0;  // Record and Wait; 0 for Sync and Destroy
  uint64_t Event = 0;
  void encode(Writer &W) const;
  static Expected<EventRequest> decode(std::span<const std::byte> Payload);
};

struct PointerReply {
  uint64_t Pointer = 0;  // 0 with Message set: the allocation failed
  std::string Message;
  void encode(Writer &W) const;
  static Expected<PointerReply> decode(std::span<const std::byte> Payload);
};

struct StatusReply {
  // kWorking: a keep-alive (on kKeepAliveTag, never a request's answer):
  // the server has a request in hand and is alive.
  static constexpr int32_t kOk = 0, kFailed = 1, kPending = 2, kWorking = 3;
  int32_t Code = kOk;
  std::string Message;  // the server's error line when Code is kFailed
  void encode(Writer &W) const;
  static Expected<StatusReply> decode(std::span<const std::byte> Payload);
};

// One offload entry of an image, as the program's descriptor lists it:
// the server builds the host entry table its plugin resolves from these.
struct ImageEntry {
  std::string Name;
  uint64_t HostAddress = 0;  // the program's address (indirect calls map it)
  uint64_t Size = 0;         // 0: a kernel
  uint32_t Flags = 0;
  uint32_t Data = 0;  // __tgt_offload_entry::reserved (clang 19's requires flags)
};

// LoadImage: the image's bytes follow on DataTag (DataBytes of them).
struct LoadImageRequest {
  int32_t Device = 0;
  std::vector<ImageEntry> Entries;
  void encode(Writer &W) const;
  static Expected<LoadImageRequest> decode(std::span<const std::byte> Payload);
};

// The loaded image's entries, in the request's order: Address is the
// server device's address of each (a kernel's handle for Launch, a
// global's device address for copies); Size and Flags as loaded.
struct LoadImageReply {
  uint64_t Image = 0;               // the server's handle of the loaded image
  std::vector<ImageEntry> Entries;  // HostAddress holds the device address
  void encode(Writer &W) const;
  static Expected<LoadImageReply> decode(std::span<const std::byte> Payload);
};

// A whole control message: header (Kind, RequestId, data fields from H)
// and payload, PayloadBytes filled in.
template <typename Payload>
std::vector<std::byte> encodeMessage(Header H, const Payload &P) {
  Writer W;
  P.encode(W);
  std::vector<std::byte> Body = W.take();
  H.PayloadBytes = static_cast<uint32_t>(Body.size());
  std::vector<std::byte> Message = encodeHeader(H);
  Message.insert(Message.end(), Body.begin(), Body.end());
  return Message;
}

}  // namespace omptarget::mpi
