// RemoteRank: the MPI plugin's requests to one device server, each a
// control message (plus bulk bytes) and its reply, with the deadline of
// OMPTARGET_MPI_TIMEOUT_MS, counted from the last sign of life of the
// server (for a reply and for bulk bytes alike): a reply, or a keep-alive (kKeepAliveTag) it sends
// while it has a request in hand (server/keep_alive.h), so a long kernel and the requests queued
// behind it wait as long as the server says it is busy.
//
// Contract: request() sends one request and returns the reply of the kind
// asked for; post() sends one and posts its bulk bytes' sends (the
// transport's progress thread moves them meanwhile) and returns at once,
// and collect() later finishes those sends and takes its reply, as
// request() would have (the bytes must stay unchanged until then; a queued
// Launch, Submit or Retrieve: its reply is taken when its queue is
// synchronized, so the program's thread does not wait a round trip per
// operation; the reply waits in MPI meanwhile, on its own tag).
// postRetrieve() posts the receives of a Retrieve's data into the
// program's memory before it sends the request, so the server's sends
// complete whenever it gets to them, and collect() waits for them (the
// memory must stay valid until then). A StatusReply kFailed (the
// server refused or failed) is an Error with the server's line. Every
// Error names the rank, its host, the device and the operation ("MPI
// device rank 2 (node7) did not answer Submit of 4096 bytes within 30000
// ms"). A rank that missed a deadline is marked unanswering: later
// requests to it fail at once, without waiting again, and shutdown skips
// it.
// Thread safety: any thread may call request() at once (the transport and
// its tags allow it); Unanswering_ and LastHeardMs_ are atomic (any waiting
// thread takes the keep-alives for all); everything else is immutable.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "error.h"
#include "mpi_protocol.h"
#include "mpi_transport.h"

namespace omptarget::mpi {

struct Reply {
  Header H;
  std::vector<std::byte> Payload;
};

// A request sent whose reply is not taken yet (RemoteRank::post).
struct PendingReply {
  uint64_t RequestId = 0;
  uint32_t Tag = 0;
  MessageKind Expect = MessageKind::StatusReply;
  int32_t Device = -1;
  std::string What;
  // The request's bulk bytes leaving (post with Out), and a Retrieve's
  // data arriving in the program's memory (postRetrieve).
  std::shared_ptr<PostedTransfer> Out;
  std::shared_ptr<PostedTransfer> In;
  uint64_t InBytes = 0;
};

class RemoteRank {
 public:
  RemoteRank(Transport &T, int Rank, int TimeoutMs) : T_(T), Rank_(Rank), TimeoutMs_(TimeoutMs) {}

  int rank() const { return Rank_; }
  const std::string &hostName() const { return Host_; }
  void setHostName(std::string Host) { Host_ = std::move(Host); }
  bool unanswering() const { return Unanswering_.load(std::memory_order_acquire); }
  // A tag no request in flight uses (the transport's counter): for bytes
  // that go between two servers (Exchange).
  uint32_t freshTag() { return T_.newTag(); }

  // Sends Kind with Payload (and Out as its bulk bytes); waits for a reply
  // of kind Expect (or a StatusReply). What names the operation in errors
  // ("Submit of 4096 bytes"), Device the server's device (-1: none).
  template <typename P>
  Expected<Reply> request(MessageKind Kind, const P &Payload, MessageKind Expect, const char *What,
                          int32_t Device, std::span<const std::byte> Out = {}) {
    Expected<PendingReply> Posted =
        post(Kind, Payload, Expect, What, Device, Out, /*Background=*/false);
    if (!Posted) return Posted.takeError();
    return collect(*Posted);
  }
  // Background: Out's bytes are moved by the transport's progress thread
  // until collect() (false when collect() follows at once).
  template <typename P>
  Expected<PendingReply> post(MessageKind Kind, const P &Payload, MessageKind Expect,
                              const char *What, int32_t Device, std::span<const std::byte> Out = {},
                              bool Background = true) {
    Writer W;
    Payload.encode(W);
    return postBytes(Kind, W.take(), Expect, What, Device, Out, Background);
  }
  // A Retrieve of Req (its DataTag set here) whose data lands in Into
  // (moved in the background when Req is on a queue).
  Expected<PendingReply> postRetrieve(CopyRequest Req, std::span<std::byte> Into, const char *What);
  // The reply of a posted request (with a Retrieve's data and trailer).
  Expected<Reply> collect(const PendingReply &P);
  // Whether collect(P) would find its bytes moved and its reply (a
  // Retrieve's data) arrived, without blocking.
  bool ready(const PendingReply &P);
  // Shutdown: no reply; skipped for an unanswering rank.
  Status shutdown();

 private:
  Expected<PendingReply> postBytes(MessageKind Kind, std::vector<std::byte> Payload,
                                   MessageKind Expect, const char *What, int32_t Device,
                                   std::span<const std::byte> Out, bool Background);
  Error failure(const char *What, int32_t Device, const Error &E, const Failure &F);
  // One message on Tag, waiting in slices of the keep-alive interval; at
  // each slice's end the keep-alives that came restart the deadline.
  Expected<Received> receiveWhileAlive(int Tag, Failure &F);
  // Takes every keep-alive waiting from this rank (LastHeardMs_).
  void drainKeepAlives();
  // After drainKeepAlives: whether TimeoutMs_ passed since the last sign
  // of life (a keep-alive, or Start, when a wait began).
  bool pastDeadline(int64_t Start);
  // Waits for a posted transfer as receiveWhileAlive waits for a message:
  // the server may be busy with an earlier request (a long kernel) before
  // it takes or sends these bytes.
  Status waitWhileAlive(PostedTransfer &X, Failure &F);
  static int keepAliveIntervalMs(int TimeoutMs);
  static int64_t nowMs();
  std::string who(int32_t Device) const;

  Transport &T_;
  const int Rank_;
  const int TimeoutMs_;
  std::string Host_;  // set once, after Hello, before the rank is shared
  std::atomic<bool> Unanswering_{false};
  std::atomic<int64_t> LastHeardMs_{0};  // the last keep-alive taken (nowMs)
};

}  // namespace omptarget::mpi
