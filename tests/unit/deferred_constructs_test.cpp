// Deferred `nowait` constructs (deferred_constructs.h) on the fake plugin,
// whose queued work runs only when a query_async lets it (QueryNotReady
// "still running" answers first) or at synchronize:
//  - a region that queued its work is deferred: its handle goes into the
//    slot, and until a query finds the queue done nothing has run and
//    nothing was copied back; the query that finds it done runs the work,
//    copies back, releases the mapping and empties the slot;
//  - a region that failed while queuing, or whose device completes work
//    when issued, is never deferred;
//  - a handle that is not one of ours is cleared with an error, never used;
//  - constructs deferred on some threads and queried on others (libomp
//    moves a re-enqueued task between threads), many at once: every result
//    right, every queue given back (run under TSan in CI);
//  - constructs still deferred when the runtime stops complete then.
#include <array>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "deferred_constructs.h"
#include "fake_plugin.h"

using namespace omptarget;
using namespace omptarget::core;
using namespace omptarget::abi;

namespace {

constexpr int64_t TOFROM = kMapTo | kMapFrom, PARAM = kMapTargetParam;

class DeferredTest : public RuntimeTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = fake::Personality::Async;
    C.QueryNotReady = 3;
    return C;
  }
  void SetUp() override {
    RuntimeTest::SetUp();
    // Kernel 0 adds 1 to the 4 ints it gets.
    fake::setKernel(0, [](const std::vector<void *> &Args) {
      for (int I = 0; I < 4; ++I) static_cast<int *>(Args[0])[I] += 1;
    });
  }
  // One region on A, deferred into *Slot when it queued its work.
  Status deferRegion(int *A, void **Slot) {
    auto C = std::make_unique<DeferredConstruct>(*D, "test region", nullptr);
    Status S = targetDeferrable(0, {map(A, 4 * sizeof(int), TOFROM | PARAM)}, C->async());
    return Runtime::get().deferred().finishOrDefer(std::move(C), Slot, std::move(S));
  }
};

TEST_F(DeferredTest, CompletesOnlyWhenAQueryFindsTheQueueDone) {
  int A[4] = {1, 2, 3, 4};
  void *Slot = nullptr;
  ASSERT_TRUE(deferRegion(A, &Slot));
  ASSERT_NE(Slot, nullptr) << "the region's work was queued: it must be deferred";
  for (int Q = 0; Q < 3; ++Q) {
    Runtime::get().deferred().query(&Slot);
    ASSERT_NE(Slot, nullptr) << "query " << Q + 1 << " found the queue still running";
    EXPECT_EQ(A[0], 1) << "nothing may be copied back before the queue is done";
    EXPECT_TRUE(entry(A).Mapped) << "the region still holds its mapping";
  }
  Runtime::get().deferred().query(&Slot);
  EXPECT_EQ(Slot, nullptr) << "done: the slot is emptied";
  EXPECT_EQ(fake::launches().size(), 1u);
  EXPECT_EQ(A[0], 2);
  EXPECT_EQ(A[3], 5);
  EXPECT_FALSE(entry(A).Mapped) << "the region's mapping is released when it completes";
  EXPECT_EQ(fake::counters().Query, 4u);
}

TEST_F(DeferredTest, NoSlotMeansTheConstructCompletesBeforeReturning) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(deferRegion(A, nullptr));
  EXPECT_EQ(A[0], 2) << "without a slot the construct synchronizes";
  EXPECT_EQ(fake::counters().Query, 0u);
}

TEST_F(DeferredTest, AFailedRegionIsNotDeferred) {
  int A[4] = {1, 2, 3, 4};
  fake::failLaunch(1);
  void *Slot = nullptr;
  EXPECT_FALSE(deferRegion(A, &Slot));
  EXPECT_EQ(Slot, nullptr);
  EXPECT_FALSE(entry(A).Mapped) << "a failed region drops its references";
}

TEST_F(DeferredTest, AHandleNotOursIsClearedNeverUsed) {
  int Unrelated = 0;
  void *Slot = &Unrelated;
  testing::internal::CaptureStderr();
  Runtime::get().deferred().query(&Slot);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Slot, nullptr);
  EXPECT_EQ(Unrelated, 0);
  EXPECT_NE(Err.find("was not made by this runtime"), std::string::npos) << Err;
}

TEST_F(DeferredTest, ManyThreadsDeferAndQueryEachOthersConstructs) {
  constexpr int kThreads = 4, kRounds = 50;
  std::vector<std::array<int, 4>> Data(kThreads * kRounds);
  for (auto &A : Data) A = {10, 20, 30, 40};
  std::vector<void *> Slots(Data.size(), nullptr);
  std::atomic<int> Deferred{0};
  // Each thread defers its share, then queries another thread's share
  // until every one of those is done.
  auto Work = [&](int T) {
    for (int R = 0; R < kRounds; ++R) {
      size_t I = static_cast<size_t>(T * kRounds + R);
      if (!deferRegion(Data[I].data(), &Slots[I])) ADD_FAILURE() << "region " << I;
      if (Slots[I]) ++Deferred;
    }
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T) Threads.emplace_back(Work, T);
  for (auto &Th : Threads) Th.join();
  EXPECT_EQ(Deferred.load(), kThreads * kRounds);
  Threads.clear();
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      const int Other = (T + 1) % kThreads;
      for (bool Left = true; Left;) {
        Left = false;
        for (int R = 0; R < kRounds; ++R) {
          void *&Slot = Slots[static_cast<size_t>(Other * kRounds + R)];
          if (!Slot) continue;
          Runtime::get().deferred().query(&Slot);
          Left |= Slot != nullptr;
        }
      }
    });
  for (auto &Th : Threads) Th.join();
  for (size_t I = 0; I < Data.size(); ++I) {
    EXPECT_EQ(Data[I][0], 11) << "region " << I;
    EXPECT_EQ(Data[I][3], 41) << "region " << I;
  }
  EXPECT_EQ(fake::liveQueues(), 0u);
}

TEST_F(DeferredTest, ConstructsLeftAtStopCompleteThen) {
  int A[4] = {1, 2, 3, 4};
  void *Slot = nullptr;
  ASSERT_TRUE(deferRegion(A, &Slot));
  ASSERT_NE(Slot, nullptr);
  Runtime::stop();  // the runtime's teardown, as at exit()
  EXPECT_EQ(A[0], 2) << "the deferred region's work ran and was copied back";
  EXPECT_EQ(fake::liveQueues(), 0u);
  Runtime::start();  // for the fixture's TearDown
  Runtime::get().devices().addPlugin(fake::makePlugin());
}

class DeferredOnImmediateDevice : public DeferredTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = fake::Personality::CompletesSync;
    return C;
  }
};

TEST_F(DeferredOnImmediateDevice, WorkDoneWhenIssuedIsNeverDeferred) {
  int A[4] = {1, 2, 3, 4};
  void *Slot = nullptr;
  ASSERT_TRUE(deferRegion(A, &Slot));
  EXPECT_EQ(Slot, nullptr);
  EXPECT_EQ(A[0], 2);
}

}  // namespace
