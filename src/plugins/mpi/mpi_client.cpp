#include "mpi_client.h"

#include <algorithm>
#include <chrono>

namespace omptarget::mpi {

std::string RemoteRank::who(int32_t Device) const {
  std::string S = formatString("MPI device rank %d (%s)", Rank_,
                               Host_.empty() ? "host not known yet" : Host_.c_str());
  if (Device >= 0) S += formatString(", its device %d,", static_cast<int>(Device));
  return S;
}

Error RemoteRank::failure(const char *What, int32_t Device, const Error &E, const Failure &F) {
  if (F.TimedOut) {
    Unanswering_.store(true, std::memory_order_release);
    return makeError("%s did not answer %s within %d ms", who(Device).c_str(), What, TimeoutMs_);
  }
  return makeError("%s: %s failed: %s", who(Device).c_str(), What, E.message().c_str());
}

Expected<PendingReply> RemoteRank::postBytes(MessageKind Kind, std::vector<std::byte> Payload,
                                             MessageKind Expect, const char *What, int32_t Device,
                                             std::span<const std::byte> Out, bool Background) {
  if (unanswering())
    return makeError("%s stopped answering earlier; %s was not sent", who(Device).c_str(), What);
  Header H;
  H.Kind = Kind;
  H.RequestId = T_.newRequestId();
  H.ReplyTag = T_.newTag();
  if (!Out.empty()) {
    H.DataTag = H.ReplyTag;
    H.DataBytes = Out.size();
  }
  H.PayloadBytes = static_cast<uint32_t>(Payload.size());
  std::vector<std::byte> Message = encodeHeader(H);
  Message.insert(Message.end(), Payload.begin(), Payload.end());
  Failure F;
  if (Status S = T_.send(Rank_, kControlTag, Message, TimeoutMs_, &F); !S)
    return failure(What, Device, S.error(), F);
  PendingReply P{H.RequestId, H.ReplyTag, Expect, Device, What, nullptr, nullptr, 0};
  if (!Out.empty()) {
    Expected<std::unique_ptr<PostedTransfer>> Sending =
        T_.postSendData(Rank_, static_cast<int>(H.ReplyTag), Out, Background);
    if (!Sending) return failure(What, Device, Sending.error(), F);
    P.Out = std::move(*Sending);
  }
  return P;
}

Expected<PendingReply> RemoteRank::postRetrieve(CopyRequest Req, std::span<std::byte> Into,
                                                const char *What) {
  if (unanswering())
    return makeError("%s stopped answering earlier; %s was not sent", who(Req.Device).c_str(),
                     What);
  Req.DataTag = T_.newTag();
  std::shared_ptr<PostedTransfer> Data;
  if (!Into.empty()) {
    Expected<std::unique_ptr<PostedTransfer>> Posted =
        T_.postReceiveData(Rank_, static_cast<int>(Req.DataTag), Into, Req.Queue != 0);
    if (!Posted) return failure(What, Req.Device, Posted.error(), Failure{});
    Data = std::move(*Posted);
  }
  Expected<PendingReply> P =
      post(MessageKind::Retrieve, Req, MessageKind::StatusReply, What, Req.Device, {}, false);
  if (!P) return P.takeError();  // Data's receives are cancelled
  P->In = std::move(Data);
  P->InBytes = Into.size();
  return P;
}

Expected<Reply> RemoteRank::collect(const PendingReply &P) {
  const char *What = P.What.c_str();
  const int32_t Device = P.Device;
  const MessageKind Expect = P.Expect;
  const int Tag = static_cast<int>(P.Tag);
  Failure F;
  // The request's own bytes first: the server answers once it has them.
  if (P.Out)
    if (Status S = waitWhileAlive(*P.Out, F); !S) return failure(What, Device, S.error(), F);
  auto ReceiveReply = [&]() -> Expected<Reply> {
    Expected<Received> R = receiveWhileAlive(Tag, F);
    if (!R) return failure(What, Device, R.error(), F);
    Expected<Header> RH = decodeHeader(R->Bytes);
    if (!RH)
      return failure(What, Device, makeError("its reply: %s", RH.error().message().c_str()), F);
    if (RH->RequestId != P.RequestId)
      return failure(What, Device,
                     makeError("a reply to request %llu, not to %llu",
                               static_cast<unsigned long long>(RH->RequestId),
                               static_cast<unsigned long long>(P.RequestId)),
                     F);
    Reply Out;
    Out.H = *RH;
    Out.Payload.assign(R->Bytes.begin() + kHeaderBytes, R->Bytes.end());
    return Out;
  };
  Expected<Reply> First = ReceiveReply();
  if (!First) return First.takeError();
  if (First->H.Kind == MessageKind::StatusReply) {
    Expected<StatusReply> S = StatusReply::decode(First->Payload);
    if (!S) return failure(What, Device, S.error(), F);
    if (S->Code == StatusReply::kFailed)
      return makeError("%s refused %s: %s", who(Device).c_str(), What, S->Message.c_str());
  }
  if (First->H.Kind != Expect)
    return failure(What, Device,
                   makeError("a %s reply, %s expected", kindName(First->H.Kind), kindName(Expect)),
                   F);
  if (!P.In) return First;
  // The bulk bytes, then the trailer that says whether all were read.
  if (First->H.DataBytes != P.InBytes)
    return failure(What, Device,
                   makeError("a reply with %llu data bytes, %llu expected",
                             static_cast<unsigned long long>(First->H.DataBytes),
                             static_cast<unsigned long long>(P.InBytes)),
                   F);
  if (Status S = waitWhileAlive(*P.In, F); !S) return failure(What, Device, S.error(), F);
  Expected<Reply> Trailer = ReceiveReply();
  if (!Trailer) return Trailer.takeError();
  Expected<StatusReply> TS =
      Trailer->H.Kind == MessageKind::StatusReply
          ? StatusReply::decode(Trailer->Payload)
          : Expected<StatusReply>(makeError("a %s trailer", kindName(Trailer->H.Kind)));
  if (!TS) return failure(What, Device, TS.error(), F);
  if (TS->Code != StatusReply::kOk)
    return makeError("%s: %s failed on the device: %s", who(Device).c_str(), What,
                     TS->Message.c_str());
  return First;
}

bool RemoteRank::ready(const PendingReply &P) {
  if (P.Out && !P.Out->done()) return false;
  if (!T_.hasMessage(Rank_, static_cast<int>(P.Tag))) return false;
  return !P.In || P.In->done();
}

int RemoteRank::keepAliveIntervalMs(int TimeoutMs) { return std::clamp(TimeoutMs / 4, 10, 1000); }

void RemoteRank::drainKeepAlives() {
  for (;;) {
    Failure F;
    Expected<Received> K = T_.receive(Rank_, kKeepAliveTag, kHeaderBytes + kMaxPayloadBytes, 0, &F);
    if (!K) return;  // none waiting
    LastHeardMs_.store(nowMs(), std::memory_order_release);
  }
}

bool RemoteRank::pastDeadline(int64_t Start) {
  drainKeepAlives();
  const int64_t Heard = std::max(Start, LastHeardMs_.load(std::memory_order_acquire));
  return nowMs() - Heard >= TimeoutMs_;
}

Status RemoteRank::waitWhileAlive(PostedTransfer &X, Failure &F) {
  const int Slice = keepAliveIntervalMs(TimeoutMs_);
  const int64_t Start = nowMs();
  for (;;) {
    Failure SliceF;
    Status S = X.waitSome(Slice, SliceF);
    if (S || !SliceF.TimedOut) {
      F = SliceF;
      return S;
    }
    if (pastDeadline(Start)) {
      // Past the deadline: the rest is cancelled (a wait of 0 ms).
      (void)X.wait(0, &F);
      F.TimedOut = true;
      return makeError("no answer within %d ms", TimeoutMs_);
    }
  }
}

Expected<Received> RemoteRank::receiveWhileAlive(int Tag, Failure &F) {
  const int Slice = keepAliveIntervalMs(TimeoutMs_);
  const int64_t Start = nowMs();
  for (;;) {
    Failure SliceF;
    Expected<Received> R = T_.receive(Rank_, Tag, kHeaderBytes + kMaxPayloadBytes, Slice, &SliceF);
    if (R || !SliceF.TimedOut) {
      F = SliceF;
      return R;
    }
    if (pastDeadline(Start)) {
      F.TimedOut = true;
      return makeError("no message within %d ms", TimeoutMs_);
    }
  }
}

int64_t RemoteRank::nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Status RemoteRank::shutdown() {
  if (unanswering()) return {};
  Header H;
  H.Kind = MessageKind::Shutdown;
  H.RequestId = T_.newRequestId();
  Failure F;
  if (Status S = T_.send(Rank_, kControlTag, encodeHeader(H), TimeoutMs_, &F); !S)
    return failure("Shutdown", -1, S.error(), F);
  return {};
}

}  // namespace omptarget::mpi
