// The device server's keep-alive thread (src/plugins/mpi/server/
// keep_alive.h) without MPI: a recording transport. Asserted: while a
// request is in hand, StatusReply kWorking messages go to its rank on
// kKeepAliveTag with its request id; none before attach(), none once the
// request is done, none after stop(); a transport that fails a send stops
// the keep-alives of that request. Run under ThreadSanitizer by
// scripts/test.sh (the thread against begin/end/stop).
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "keep_alive.h"
#include "mpi_protocol.h"
#include "mpi_transport.h"

namespace {

using namespace omptarget;
using namespace omptarget::mpi;
using namespace std::chrono_literals;

struct SentMessage {
  int Rank;
  int Tag;
  std::vector<std::byte> Bytes;
};

// Records send(); every other call is not used by KeepAlive and fails.
class RecordingTransport final : public Transport {
 public:
  int rank() const override { return 1; }
  int size() const override { return 2; }
  const std::string &hostName() const override { return Host_; }
  uint32_t newTag() override { return kFirstReplyTag; }
  uint64_t newRequestId() override { return 1; }
  Status send(int Rank, int Tag, std::span<const std::byte> Bytes, int, Failure *) override {
    std::lock_guard<std::mutex> Lock(Mutex_);
    ++Attempts_;
    if (FailSends_) return makeError("the test's transport refuses every send");
    Sent_.push_back({Rank, Tag, {Bytes.begin(), Bytes.end()}});
    return {};
  }
  Expected<Received> receive(int, int, size_t, int, Failure *) override {
    return makeError("not used");
  }
  bool hasMessage(int, int) override { return false; }
  Expected<std::unique_ptr<PostedTransfer>> postSendData(int, int, std::span<const std::byte>,
                                                         bool) override {
    return makeError("not used");
  }
  Expected<std::unique_ptr<PostedTransfer>> postReceiveData(int, int, std::span<std::byte>,
                                                            bool) override {
    return makeError("not used");
  }
  void close(bool) override {}

  std::vector<SentMessage> sent() {
    std::lock_guard<std::mutex> Lock(Mutex_);
    return Sent_;
  }
  int attempts() {
    std::lock_guard<std::mutex> Lock(Mutex_);
    return Attempts_;
  }
  void failSends() {
    std::lock_guard<std::mutex> Lock(Mutex_);
    FailSends_ = true;
  }

 private:
  std::string Host_ = "test";
  std::mutex Mutex_;
  std::vector<SentMessage> Sent_;
  int Attempts_ = 0;
  bool FailSends_ = false;
};

// Polls Done every millisecond for up to 5 s (a loaded machine may starve
// the keep-alive thread for a while): whether it came true.
template <typename F>
bool eventually(F Done) {
  for (int I = 0; I < 5000; ++I) {
    if (Done()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return Done();
}

Header request(uint64_t Id) {
  Header H;
  H.Kind = MessageKind::Launch;
  H.RequestId = Id;
  return H;
}

TEST(MpiKeepAlive, SignsOfLifeWhileARequestIsInHand) {
  RecordingTransport T;
  KeepAlive KA(10, 1000);
  KA.attach(T);
  KA.begin(3, request(42));
  const bool Two = eventually([&] { return T.sent().size() >= 2; });
  KA.end();
  ASSERT_TRUE(Two) << "a request in hand for 5 s (500 intervals) got fewer than 2 keep-alives";
  const std::vector<SentMessage> During = T.sent();
  for (const SentMessage &M : During) {
    EXPECT_EQ(M.Rank, 3);
    EXPECT_EQ(M.Tag, kKeepAliveTag);
    Expected<Header> H = decodeHeader(M.Bytes);
    ASSERT_TRUE(static_cast<bool>(H)) << H.error().message();
    EXPECT_EQ(H->Kind, MessageKind::StatusReply);
    EXPECT_EQ(H->RequestId, 42u);
    Expected<StatusReply> R = StatusReply::decode(payloadOf(M.Bytes));
    ASSERT_TRUE(static_cast<bool>(R)) << R.error().message();
    EXPECT_EQ(R->Code, StatusReply::kWorking);
  }
  // Done: no more, however long the server then waits for a request.
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(T.sent().size(), During.size());
  KA.stop();
  KA.stop();  // once; a second stop does nothing
}

TEST(MpiKeepAlive, NothingBeforeAttachOrAfterStop) {
  RecordingTransport T;
  {
    KeepAlive KA(10, 1000);
    KA.begin(2, request(7));  // no transport yet: nothing to send through
    std::this_thread::sleep_for(40ms);
    KA.end();
    KA.attach(T);
    KA.stop();
    KA.begin(2, request(8));  // stopped: the thread is gone
    std::this_thread::sleep_for(40ms);
    KA.end();
  }
  EXPECT_EQ(T.attempts(), 0);
}

TEST(MpiKeepAlive, AFailedSendStopsThatRequestsKeepAlives) {
  RecordingTransport T;
  T.failSends();
  KeepAlive KA(10, 1000);
  KA.attach(T);
  KA.begin(1, request(5));
  const bool Tried = eventually([&] { return T.attempts() >= 1; });
  std::this_thread::sleep_for(60ms);
  KA.end();
  // One try, then none for the rest of that request (6 intervals or more).
  EXPECT_TRUE(Tried);
  EXPECT_EQ(T.attempts(), 1);
  EXPECT_TRUE(T.sent().empty());
}

}  // namespace
