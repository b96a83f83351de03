// The device server's request handling (src/plugins/mpi/server/
// request_handler.h) without MPI: requests as bytes, a recording channel,
// and a one-device plugin of plain memory. Asserted: valid requests work
// (alloc, submit, retrieve with its trailer, free); malformed or foreign
// messages, devices out of range, pointers and kernels the server did not
// hand out are refused with a line on the request's reply tag, their bulk
// bytes are still drained, and the server keeps serving.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "mpi_protocol.h"
#include "request_handler.h"

namespace {

using namespace omptarget;
using namespace omptarget::mpi;

// A plugin of one device whose memory is the heap.
int32_t fakeInit(int32_t) { return 0; }
void *fakeAlloc(int32_t, int64_t Size, void *, int32_t) {
  return std::malloc(static_cast<size_t>(Size));
}
int32_t fakeDelete(int32_t, void *P) {
  std::free(P);
  return 0;
}
int SubmitCalls = 0, RetrieveCalls = 0;
int32_t fakeSubmit(int32_t, void *Tgt, void *Hst, int64_t Size) {
  ++SubmitCalls;
  std::memcpy(Tgt, Hst, static_cast<size_t>(Size));
  return 0;
}
int32_t fakeRetrieve(int32_t, void *Hst, void *Tgt, int64_t Size) {
  ++RetrieveCalls;
  std::memcpy(Hst, Tgt, static_cast<size_t>(Size));
  return 0;
}

ServedPlugin fakePlugin(bool SharesMemory = false) {
  ServedPlugin P;
  P.Name = "fake";
  P.NumDevices = 1;
  P.SharesMemory = SharesMemory;
  P.Fn.init_device = fakeInit;
  P.Fn.data_alloc = fakeAlloc;
  P.Fn.data_delete = fakeDelete;
  P.Fn.data_submit = fakeSubmit;
  P.Fn.data_retrieve = fakeRetrieve;
  return P;
}

struct Sent {
  uint32_t Tag;
  std::vector<std::byte> Bytes;
};

class RecordingChannel final : public Channel {
 public:
  Status reply(uint32_t Tag, std::span<const std::byte> M) override {
    Replies.push_back({Tag, {M.begin(), M.end()}});
    return {};
  }
  Status receiveData(uint32_t, std::span<std::byte> Into) override {
    std::memset(Into.data(), 0x5a, Into.size());
    Received += Into.size();
    return {};
  }
  Status sendData(uint32_t Tag, std::span<const std::byte> B) override {
    Data.push_back({Tag, {B.begin(), B.end()}});
    return {};
  }
  // Rank 2 is the one other server.
  bool isPeerServer(int Rank) const override { return Rank == 2; }
  Status sendToPeer(int, uint32_t Tag, std::span<const std::byte> B) override {
    ToPeer.push_back({Tag, {B.begin(), B.end()}});
    return {};
  }
  Status receiveFromPeer(int, uint32_t, std::span<std::byte> Into) override {
    std::memset(Into.data(), 0x6b, Into.size());
    FromPeer += Into.size();
    return {};
  }
  std::vector<Sent> Replies, Data, ToPeer;
  size_t Received = 0, FromPeer = 0;
};

template <typename P>
std::vector<std::byte> request(MessageKind Kind, const P &Payload, uint64_t DataBytes = 0) {
  Header H;
  H.Kind = Kind;
  H.RequestId = 7;
  H.ReplyTag = 100;
  if (DataBytes) {
    H.DataTag = 100;
    H.DataBytes = DataBytes;
  }
  return encodeMessage(H, Payload);
}

StatusReply statusOf(const Sent &S) {
  Expected<Header> H = decodeHeader(S.Bytes);
  EXPECT_TRUE(H);
  EXPECT_EQ(H->Kind, MessageKind::StatusReply);
  Expected<StatusReply> R = StatusReply::decode(payloadOf(S.Bytes));
  EXPECT_TRUE(R);
  return R ? *R : StatusReply{};
}

TEST(MpiServer, AllocSubmitRetrieveFree) {
  RequestHandler H({fakePlugin()}, "node");
  RecordingChannel C;
  AllocRequest A;
  A.Bytes = 64;
  H.handle(request(MessageKind::Alloc, A), C);
  ASSERT_EQ(C.Replies.size(), 1u);
  Expected<PointerReply> P = PointerReply::decode(payloadOf(C.Replies[0].Bytes));
  ASSERT_TRUE(P);
  ASSERT_NE(P->Pointer, 0u);

  CopyRequest Copy;
  Copy.Pointer = P->Pointer + 16;  // inside the allocation
  Copy.Bytes = 32;
  H.handle(request(MessageKind::Submit, Copy, 32), C);
  EXPECT_EQ(C.Received, 32u);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);

  // Retrieve: the data on the request's data tag, the reply and its
  // trailer on the reply tag.
  Copy.DataTag = 101;
  H.handle(request(MessageKind::Retrieve, Copy), C);
  ASSERT_EQ(C.Data.size(), 1u);
  EXPECT_EQ(C.Data[0].Tag, 101u);
  EXPECT_EQ(C.Data[0].Bytes.size(), 32u);
  EXPECT_EQ(C.Data[0].Bytes[5], std::byte{0x5a});
  ASSERT_GE(C.Replies.size(), 4u);  // the reply and its trailer
  Expected<Header> First = decodeHeader(C.Replies[C.Replies.size() - 2].Bytes);
  ASSERT_TRUE(First);
  EXPECT_EQ(First->DataTag, 101u);
  EXPECT_EQ(First->DataBytes, 32u);
  EXPECT_EQ(C.Replies.back().Tag, 100u);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);

  FreeRequest F;
  F.Pointer = P->Pointer;
  H.handle(request(MessageKind::Free, F), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
  EXPECT_EQ(H.refusals(), 0u);

  // Freed: neither a copy nor a second free is accepted now.
  H.handle(request(MessageKind::Free, F), C);
  StatusReply R = statusOf(C.Replies.back());
  EXPECT_EQ(R.Code, StatusReply::kFailed);
  EXPECT_NE(R.Message.find("is not an allocation"), std::string::npos) << R.Message;
}

// A block of Bytes on device 0 (its address; 0 when refused).
uint64_t allocate(RequestHandler &H, RecordingChannel &C, uint64_t Bytes) {
  AllocRequest A;
  A.Bytes = Bytes;
  H.handle(request(MessageKind::Alloc, A), C);
  Expected<PointerReply> P = PointerReply::decode(payloadOf(C.Replies.back().Bytes));
  return P ? P->Pointer : 0;
}

// Frees a block allocate() made (the handler frees nothing itself).
void release(RequestHandler &H, RecordingChannel &C, uint64_t Block) {
  FreeRequest F;
  F.Pointer = Block;
  H.handle(request(MessageKind::Free, F), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
}

// The copies with each kind of plugin: the staged one above (its copy
// entries move the bytes) and one whose device memory is the server's own
// (our host plugin: the bytes go between MPI and the allocation itself).
// Each test starts a handler of its own and the plugin's call counts at 0.
class MpiServerCopies : public ::testing::TestWithParam<bool> {
 protected:
  MpiServerCopies() { SubmitCalls = RetrieveCalls = 0; }

  const bool Shares = GetParam();
  RequestHandler H{{fakePlugin(Shares)}, "node"};
  RecordingChannel C;
};

INSTANTIATE_TEST_SUITE_P(MpiServer, MpiServerCopies, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &I) {
                           return I.param ? "SharesMemory" : "Staged";
                         });

// Submit and Retrieve: in place when the plugin shares the server's
// memory, never through its copy entries; through them when staged.
TEST_P(MpiServerCopies, SharedMemoryCopiesInPlace) {
  const uint64_t Block = allocate(H, C, 64);
  ASSERT_NE(Block, 0u);
  auto *Mem = reinterpret_cast<unsigned char *>(Block);
  std::memset(Mem, 0x11, 64);

  CopyRequest Copy;
  Copy.Pointer = Block + 16;
  Copy.Bytes = 32;
  H.handle(request(MessageKind::Submit, Copy, 32), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
  EXPECT_EQ(Mem[15], 0x11);
  EXPECT_EQ(Mem[16], 0x5a);
  EXPECT_EQ(Mem[47], 0x5a);
  EXPECT_EQ(Mem[48], 0x11);
  EXPECT_EQ(SubmitCalls, Shares ? 0 : 1);

  Mem[20] = 0x77;
  Copy.DataTag = 101;
  H.handle(request(MessageKind::Retrieve, Copy), C);
  ASSERT_EQ(C.Data.size(), 1u);
  ASSERT_EQ(C.Data[0].Bytes.size(), 32u);
  EXPECT_EQ(C.Data[0].Bytes[4], std::byte{0x77});
  EXPECT_EQ(C.Data[0].Bytes[31], std::byte{0x5a});
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
  EXPECT_EQ(RetrieveCalls, Shares ? 0 : 1);
  EXPECT_EQ(H.refusals(), 0u);
  release(H, C, Block);
}

// Exchange: within the server (in memory, or staged through the plugin's
// copy entries), to another server (the bytes on the peer tag; a refusal
// still sends an empty chunk), and from one (a refusal drains the bytes).
TEST_P(MpiServerCopies, Exchange) {
  const uint64_t B0 = allocate(H, C, 64), B1 = allocate(H, C, 64);
  ASSERT_TRUE(B0 && B1);
  auto *M0 = reinterpret_cast<unsigned char *>(B0);
  auto *M1 = reinterpret_cast<unsigned char *>(B1);
  for (int I = 0; I < 64; ++I) M0[I] = static_cast<unsigned char>(I), M1[I] = 0;

  ExchangeRequest X;
  X.Role = ExchangeRequest::kLocal;
  X.SrcPointer = B0 + 8;
  X.DstPointer = B1;
  X.Bytes = 16;
  H.handle(request(MessageKind::Exchange, X), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
  EXPECT_EQ(M1[0], 8);
  EXPECT_EQ(M1[15], 23);
  EXPECT_EQ(M1[16], 0);
  EXPECT_EQ(RetrieveCalls, Shares ? 0 : 1);
  EXPECT_EQ(SubmitCalls, Shares ? 0 : 1);

  X.Role = ExchangeRequest::kSend;
  X.PeerRank = 2;
  X.PeerTag = 40;
  H.handle(request(MessageKind::Exchange, X), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
  ASSERT_EQ(C.ToPeer.size(), 1u);
  EXPECT_EQ(C.ToPeer[0].Tag, 40u);
  ASSERT_EQ(C.ToPeer[0].Bytes.size(), 16u);
  EXPECT_EQ(C.ToPeer[0].Bytes[0], std::byte{8});

  X.Role = ExchangeRequest::kReceive;
  X.DstPointer = B1 + 32;
  H.handle(request(MessageKind::Exchange, X), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kOk);
  EXPECT_EQ(M1[31], 0);
  EXPECT_EQ(M1[32], 0x6b);
  EXPECT_EQ(M1[47], 0x6b);
  EXPECT_EQ(M1[48], 0);
  EXPECT_EQ(C.FromPeer, 16u);
  EXPECT_EQ(H.refusals(), 0u);

  // Refusals: a source outside its block sends the receiver an empty
  // chunk; a destination outside its block drains the sender's bytes; a
  // peer that is not another server gets nothing.
  X.Role = ExchangeRequest::kSend;
  X.SrcPointer = B0 + 60;
  H.handle(request(MessageKind::Exchange, X), C);
  StatusReply R = statusOf(C.Replies.back());
  EXPECT_EQ(R.Code, StatusReply::kFailed);
  EXPECT_NE(R.Message.find("is not inside memory"), std::string::npos) << R.Message;
  ASSERT_EQ(C.ToPeer.size(), 2u);
  EXPECT_TRUE(C.ToPeer[1].Bytes.empty());

  X.Role = ExchangeRequest::kReceive;
  X.DstPointer = B1 + 60;
  H.handle(request(MessageKind::Exchange, X), C);
  EXPECT_EQ(statusOf(C.Replies.back()).Code, StatusReply::kFailed);
  EXPECT_EQ(C.FromPeer, 32u);
  EXPECT_EQ(M1[60], 0);

  X.PeerRank = 0;  // the program's rank
  X.DstPointer = B1;
  H.handle(request(MessageKind::Exchange, X), C);
  R = statusOf(C.Replies.back());
  EXPECT_EQ(R.Code, StatusReply::kFailed);
  EXPECT_NE(R.Message.find("not another device server"), std::string::npos) << R.Message;
  EXPECT_EQ(C.FromPeer, 32u);
  EXPECT_EQ(H.refusals(), 3u);
  release(H, C, B0);
  release(H, C, B1);
}

TEST(MpiServer, RefusesWhatItDidNotHandOut) {
  RequestHandler H({fakePlugin()}, "node");
  RecordingChannel C;
  auto ExpectRefused = [&](std::vector<std::byte> M, const char *Part) {
    const size_t Before = C.Replies.size();
    EXPECT_EQ(H.handle(M, C), RequestHandler::Next::Serve);
    ASSERT_EQ(C.Replies.size(), Before + 1);
    EXPECT_EQ(C.Replies.back().Tag, 100u);
    StatusReply R = statusOf(C.Replies.back());
    EXPECT_EQ(R.Code, StatusReply::kFailed);
    EXPECT_NE(R.Message.find(Part), std::string::npos) << R.Message;
  };
  CopyRequest Copy;
  Copy.Pointer = 0x1000;
  Copy.Bytes = 4096;
  ExpectRefused(request(MessageKind::Submit, Copy, 4096), "is not inside memory");
  EXPECT_EQ(C.Received, 4096u);  // drained all the same
  ExpectRefused(request(MessageKind::Retrieve, Copy), "data tag 0");
  Copy.DataTag = 100;  // the reply tag: its data would be taken for the reply
  ExpectRefused(request(MessageKind::Retrieve, Copy), "not the reply tag");
  Copy.DataTag = 101;
  ExpectRefused(request(MessageKind::Retrieve, Copy), "is not inside memory");
  Copy.Device = 3;
  ExpectRefused(request(MessageKind::Retrieve, Copy), "device 3 out of range (this server has 1)");
  LaunchRequest L;
  L.Entry = 0x4000;
  ExpectRefused(request(MessageKind::Launch, L), "is not a kernel this server's device 0 loaded");
  AllocRequest A;
  A.Bytes = uint64_t{1} << 60;
  ExpectRefused(request(MessageKind::Alloc, A), "a size of");
  // A payload that does not decode (a byte too many).
  std::vector<std::byte> M = request(MessageKind::Alloc, AllocRequest{});
  M.push_back(std::byte{0});
  M[16] = static_cast<std::byte>(static_cast<unsigned char>(M[16]) + 1);  // payload size + 1
  ExpectRefused(M, "left over");

  // Another version: refused on its reply tag too, with both versions.
  M = request(MessageKind::Hello, HelloRequest{});
  M[4] = std::byte{kProtocolVersion + 1};
  ExpectRefused(M, formatString("protocol version %d, this side speaks version %d",
                                kProtocolVersion + 1, kProtocolVersion)
                       .c_str());
  // Garbage: no reply tag to answer on; counted, the server goes on.
  const size_t Before = C.Replies.size();
  std::vector<std::byte> Garbage(13, std::byte{0x33});
  EXPECT_EQ(H.handle(Garbage, C), RequestHandler::Next::Serve);
  EXPECT_EQ(C.Replies.size(), Before);
  EXPECT_NE(H.lastRefusal().find("does not decode"), std::string::npos) << H.lastRefusal();

  Header S;
  S.Kind = MessageKind::Shutdown;
  EXPECT_EQ(H.handle(encodeHeader(S), C), RequestHandler::Next::Stop);
}

TEST(MpiServer, HelloListsTheDevices) {
  RequestHandler H({fakePlugin()}, "node9");
  RecordingChannel C;
  H.handle(request(MessageKind::Hello, HelloRequest{}), C);
  ASSERT_EQ(C.Replies.size(), 1u);
  Expected<HelloReply> R = HelloReply::decode(payloadOf(C.Replies[0].Bytes));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->HostName, "node9");
  ASSERT_EQ(R->Devices.size(), 1u);
  EXPECT_EQ(R->Devices[0].Plugin, "fake");
}

// Events: a plugin with events gets one event per id, made at the first
// record and destroyed at DestroyEvent (or with the handler); waits and
// syncs go to that event, on the queue named. A plugin without them has
// its queue synchronized at the record, and nothing to wait for after.
std::vector<std::string> EventCalls;
int32_t fakeCreateEvent(int32_t, void **E) {
  static int Made = 0;
  *E = reinterpret_cast<void *>(static_cast<uintptr_t>(0x1000 + ++Made));
  EventCalls.push_back("create");
  return 0;
}
int32_t fakeRecordEvent(int32_t, void *E, __tgt_async_info *AI) {
  EventCalls.push_back(formatString("record %p %p", E, static_cast<void *>(AI)));
  return 0;
}
int32_t fakeWaitEvent(int32_t, void *E, __tgt_async_info *AI) {
  EventCalls.push_back(formatString("wait %p %p", E, static_cast<void *>(AI)));
  return 0;
}
int32_t fakeSyncEvent(int32_t, void *E) {
  EventCalls.push_back(formatString("sync %p", E));
  return 0;
}
int32_t fakeDestroyEvent(int32_t, void *E) {
  EventCalls.push_back(formatString("destroy %p", E));
  return 0;
}
int32_t fakeSynchronize(int32_t, __tgt_async_info *AI) {
  EventCalls.push_back(formatString("synchronize %p", static_cast<void *>(AI)));
  AI->Queue = nullptr;
  return 0;
}

std::vector<std::byte> eventMessage(MessageKind Kind, uint64_t Queue, uint64_t Event) {
  EventRequest E;
  E.Queue = Queue;
  E.Event = Event;
  return request(Kind, E);
}

TEST(MpiServer, EventsAreThePluginsEvents) {
  EventCalls.clear();
  ServedPlugin P = fakePlugin();
  P.Fn.create_event = fakeCreateEvent;
  P.Fn.record_event = fakeRecordEvent;
  P.Fn.wait_event = fakeWaitEvent;
  P.Fn.sync_event = fakeSyncEvent;
  P.Fn.destroy_event = fakeDestroyEvent;
  P.Fn.synchronize = fakeSynchronize;
  {
    RequestHandler H({P}, "node");
    RecordingChannel C;
    H.handle(eventMessage(MessageKind::RecordEvent, 3, 1), C);
    H.handle(eventMessage(MessageKind::WaitEvent, 4, 1), C);
    H.handle(eventMessage(MessageKind::RecordEvent, 4, 1), C);  // re-recorded: the same event
    H.handle(eventMessage(MessageKind::SyncEvent, 0, 1), C);
    H.handle(eventMessage(MessageKind::RecordEvent, 3, 2), C);  // left for the handler to destroy
    H.handle(eventMessage(MessageKind::DestroyEvent, 0, 1), C);
    EXPECT_EQ(H.refusals(), 0u) << H.lastRefusal();
    for (const Sent &R : C.Replies) EXPECT_EQ(statusOf(R).Code, StatusReply::kOk);
    ASSERT_EQ(EventCalls.size(), 8u);
    EXPECT_EQ(EventCalls[0], "create");
    // The waits and records name one event; queues 3 and 4 differ.
    const std::string E1 = EventCalls[1].substr(7, EventCalls[1].find(' ', 7) - 7);
    const std::string Q3 = EventCalls[1].substr(EventCalls[1].rfind(' ') + 1);
    const std::string Q4 = EventCalls[2].substr(EventCalls[2].rfind(' ') + 1);
    EXPECT_EQ(EventCalls[1], "record " + E1 + " " + Q3);
    EXPECT_EQ(EventCalls[2], "wait " + E1 + " " + Q4);
    EXPECT_NE(Q3, Q4);
    EXPECT_EQ(EventCalls[3], "record " + E1 + " " + Q4);
    EXPECT_EQ(EventCalls[4], "sync " + E1);
    EXPECT_EQ(EventCalls[5], "create");
    EXPECT_NE(EventCalls[6], "record " + E1 + " " + Q3);  // another event
    EXPECT_EQ(EventCalls[6].substr(EventCalls[6].rfind(' ') + 1), Q3);
    EXPECT_EQ(EventCalls[7], "destroy " + E1);

    // Destroyed: waiting on it now is refused; so are a record without a
    // queue and a sync with one.
    auto ExpectRefused = [&](std::vector<std::byte> M, const char *Part) {
      H.handle(M, C);
      StatusReply R = statusOf(C.Replies.back());
      EXPECT_EQ(R.Code, StatusReply::kFailed);
      EXPECT_NE(R.Message.find(Part), std::string::npos) << R.Message;
    };
    ExpectRefused(eventMessage(MessageKind::WaitEvent, 3, 1), "event 1 was never recorded");
    ExpectRefused(eventMessage(MessageKind::RecordEvent, 0, 5), "no queue given");
    ExpectRefused(eventMessage(MessageKind::SyncEvent, 3, 2), "queue 3 given");
    ExpectRefused(eventMessage(MessageKind::RecordEvent, 3, 0), "event 0");
    EXPECT_EQ(EventCalls.size(), 8u);
  }
  // The handler destroyed event 2 as it went.
  ASSERT_EQ(EventCalls.size(), 9u);
  const std::string E2 = EventCalls[6].substr(7, EventCalls[6].find(' ', 7) - 7);
  EXPECT_EQ(EventCalls[8], "destroy " + E2);
}

TEST(MpiServer, EventsWithoutPluginEventsAreAnswered) {
  EventCalls.clear();
  ServedPlugin P = fakePlugin();
  P.Fn.synchronize = fakeSynchronize;
  RequestHandler H({P}, "node");
  RecordingChannel C;
  H.handle(eventMessage(MessageKind::RecordEvent, 3, 1), C);
  // Queue 3 was just made, with nothing on it: nothing to synchronize
  // (with work on it, the record synchronizes it: syncQueue).
  EXPECT_TRUE(EventCalls.empty());
  H.handle(eventMessage(MessageKind::WaitEvent, 4, 1), C);
  H.handle(eventMessage(MessageKind::SyncEvent, 0, 1), C);
  H.handle(eventMessage(MessageKind::DestroyEvent, 0, 1), C);
  EXPECT_EQ(H.refusals(), 0u) << H.lastRefusal();
  for (const Sent &R : C.Replies) EXPECT_EQ(statusOf(R).Code, StatusReply::kOk);
  EXPECT_TRUE(EventCalls.empty());
}

}  // namespace
