// RequestHandler: what the device server (omptarget-mpi-device) does with
// one request, as bytes in and bytes out, with no MPI in it (the server's
// main loop receives and sends; tests drive it directly).
//
// Contract:
//  - handle() takes one control message as it arrived and answers it
//    through the Channel: the reply on the request's ReplyTag, bulk bytes
//    in on it, a Retrieve's bytes out on its CopyRequest::DataTag. Nothing received is trusted: a
//    message that does not decode, names a device out of range, a pointer range outside what this
//    server allocated or loaded, a kernel handle it did not hand out, a
//    size out of range, or a queue beyond the limit, is refused with a
//    StatusReply kFailed whose line says what and why (a message too broken
//    to have a reply tag is only counted and described by lastRefusal());
//    the server keeps serving. Bulk bytes of a refused request are still
//    received (and dropped) so the sender's sends complete.
//  - The devices are those of the plugins given, numbered in their order,
//    each called through its __tgt_rtl_* functions only. A device is
//    initialised on first use. Each (device, plugin-side queue id) has one
//    __tgt_async_info; queue 0 means "no queue": the operation completes
//    before its reply. Copies are ordered after the work of their queue
//    (the queue is synchronized first), then done synchronously: for a
//    plugin whose device memory is this process's memory (SharesMemory,
//    our host plugin), MPI receives into and sends from the device's
//    memory itself; for any other, each chunk goes through one staging
//    buffer the handler keeps (data_submit / data_retrieve).
//  - Exchange: Local copies between two of this server's devices (the
//    plugin's data_exchange when both are its devices and it can, else
//    through the staging buffer, or in memory when both share it); Send
//    and Receive move the bytes between two servers, chunk by chunk, on
//    the request's PeerTag. A Send that is refused or fails sends the
//    receiver an empty chunk; a Receive that is refused drains what the
//    sender sends; so neither side waits for the other's deadline. The
//    program's plugin issues one Send/Receive pair at a time, which keeps
//    two servers from each waiting to send to the other.
//  - Events: an event id of a device names one plugin event, made at its
//    first RecordEvent (on a queue, never 0) and gone at DestroyEvent;
//    WaitEvent (on a queue), SyncEvent and DestroyEvent of an id never
//    recorded are refused. A plugin without events: RecordEvent
//    synchronizes its queue (the event has happened once it is answered),
//    and WaitEvent and SyncEvent have nothing to wait for.
//  - Kernel arguments are values; the server cannot check what a kernel
//    does with them.
// Thread safety: none; the server calls it from one thread.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "error.h"
#include "mpi_protocol.h"
#include "plugin.h"

namespace omptarget::mpi {

// One plugin the server serves: its entries and how many devices it has.
struct ServedPlugin {
  std::string Name;  // "x86_64", "cuda"
  core::PluginFunctions Fn;
  int32_t NumDevices = 0;
  // Its device pointers are addresses of this process (our host plugin):
  // copies need no staging buffer.
  bool SharesMemory = false;
};

// Where a request's reply and bulk bytes go (the server: MPI to the rank
// that sent the request).
class Channel {
 public:
  virtual Status reply(uint32_t Tag, std::span<const std::byte> Message) = 0;
  virtual Status receiveData(uint32_t Tag, std::span<std::byte> Into) = 0;
  virtual Status sendData(uint32_t Tag, std::span<const std::byte> Bytes) = 0;
  // Exchange between two servers: whether Rank is another device server
  // of this job (not the program's rank, not this one), and bulk bytes to
  // or from it on Tag, in chunks of kMaxChunkBytes (a chunk that arrives
  // shorter is an Error: the sender failed; sending no bytes sends one
  // empty chunk, which is how a sender says so).
  virtual bool isPeerServer(int Rank) const = 0;
  virtual Status sendToPeer(int Rank, uint32_t Tag, std::span<const std::byte> Bytes) = 0;
  virtual Status receiveFromPeer(int Rank, uint32_t Tag, std::span<std::byte> Into) = 0;

 protected:
  ~Channel() = default;
};

class RequestHandler {
 public:
  static constexpr uint64_t kMaxAllocBytes = uint64_t{1} << 46;
  static constexpr uint64_t kMaxImageBytes = uint64_t{1} << 31;
  static constexpr size_t kMaxQueuesPerDevice = 4096;
  static constexpr size_t kMaxEventsPerDevice = 65536;

  RequestHandler(std::vector<ServedPlugin> Plugins, std::string HostName);
  ~RequestHandler();
  RequestHandler(const RequestHandler &) = delete;
  RequestHandler &operator=(const RequestHandler &) = delete;

  enum class Next { Serve, Stop };
  Next handle(std::span<const std::byte> Message, Channel &C);

  int32_t numDevices() const { return static_cast<int32_t>(Devices_.size()); }
  size_t refusals() const { return Refusals_; }
  const std::string &lastRefusal() const { return LastRefusal_; }

 private:
  struct LoadedImage;
  struct Device;

  Expected<Device *> device(int32_t Id);
  Expected<__tgt_async_info *> queue(Device &D, uint64_t Queue, bool Create);
  Status syncQueue(Device &D, uint64_t Queue);
  static bool inRange(const Device &D, uint64_t Ptr, uint64_t Bytes);
  // The staging buffer, at least N bytes (N <= kMaxChunkBytes), kept
  // between requests so that its pages are not faulted in again each time.
  std::span<std::byte> staging(size_t N);

  // Each answers one request; an Error is the refusal's line.
  Status hello(const Header &H, std::span<const std::byte> P, Channel &C);
  Status alloc(const Header &H, std::span<const std::byte> P, Channel &C);
  Status free(const Header &H, std::span<const std::byte> P, Channel &C);
  Status submit(const Header &H, std::span<const std::byte> P, Channel &C, bool &Drained);
  Status retrieve(const Header &H, std::span<const std::byte> P, Channel &C);
  Status launch(const Header &H, std::span<const std::byte> P, Channel &C);
  Status synchronize(const Header &H, std::span<const std::byte> P, Channel &C, bool Query);
  Status event(const Header &H, std::span<const std::byte> P, Channel &C);
  static bool hasEvents(const ServedPlugin &Pl);
  Status loadImage(const Header &H, std::span<const std::byte> P, Channel &C, bool &Drained);
  Status exchange(const Header &H, std::span<const std::byte> P, Channel &C);
  Status exchangeLocal(const ExchangeRequest &Req);
  Status exchangeSend(const ExchangeRequest &Req, Channel &C);
  Status exchangeReceive(const ExchangeRequest &Req, Channel &C);
  // The chunk loops of the copies between bulk messages and [Ptr, +Bytes)
  // of device D (Submit and an Exchange Receive share the one, Retrieve and
  // an Exchange Send the other): when the plugin shares this process's
  // memory, the step given moves the whole range at once, in place (the
  // transport posts all its chunks together); else chunk by chunk through
  // the staging buffer and data_submit / data_retrieve.
  using ReceiveStep = std::function<Status(std::span<std::byte> Into)>;
  using SendStep = std::function<Status(std::span<const std::byte> Chunk)>;
  // Returns the Error of Receive (no chunk is received after it), else that
  // of the first data_submit that failed (the chunks after it are received
  // and dropped).
  Status receiveChunks(Device &D, uint64_t Ptr, uint64_t Bytes, const ReceiveStep &Receive);
  // After the first data_retrieve that fails (its Error goes in Failed, a
  // success on entry):
  enum class AfterRetrieveFailure {
    SendZeros,  // that chunk and the rest go as zeros (the bytes were promised)
    Stop,       // nothing more is sent
  };
  // Returns the Error of Send (nothing is sent after it).
  Status sendChunks(Device &D, uint64_t Ptr, uint64_t Bytes, AfterRetrieveFailure After,
                    Status &Failed, const SendStep &Send);
  static Status checkPeer(int Peer, const Channel &C);
  // The device Id and that [Ptr, +Bytes) is memory it allocated or loaded.
  Expected<Device *> deviceRange(int32_t Id, uint64_t Ptr, uint64_t Bytes);

  void refuse(const Header *H, const std::string &Line, Channel &C);
  void drain(const Header &H, Channel &C);
  Status replyStatus(const Header &H, int32_t Code, std::string Message, Channel &C,
                     uint64_t DataBytes = 0, uint32_t DataTag = 0);
  // The reply of kind Kind to request H, on its reply tag; DataBytes of
  // bulk bytes follow it on DataTag when not 0.
  template <typename P>
  static Status sendReply(const Header &H, MessageKind Kind, const P &Payload, Channel &C,
                          uint64_t DataBytes = 0, uint32_t DataTag = 0) {
    Header R;
    R.Kind = Kind;
    R.RequestId = H.RequestId;
    if (DataBytes) {
      R.DataTag = DataTag;
      R.DataBytes = DataBytes;
    }
    return C.reply(H.ReplyTag, encodeMessage(R, Payload));
  }

  std::vector<ServedPlugin> Plugins_;
  std::string HostName_;
  std::vector<std::unique_ptr<Device>> Devices_;
  std::vector<std::byte> Staging_;
  size_t Refusals_ = 0;
  std::string LastRefusal_;
};

}  // namespace omptarget::mpi
