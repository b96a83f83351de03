// Queue-ordered allocation and release seen from the core, on the fake
// plugin with QueueOrderedAllocation (an allocation on a queue is usable
// when the queue reaches it, a release frees the memory when the queue
// reaches it; work that touches memory outside that window counts as a
// stale access):
//  - a construct's allocations, copies, kernel, copies back and releases go
//    on its one queue, which it synchronizes once;
//  - a release is never reached before the work queued before it (the fake
//    would count the kernel or the copy back as stale);
//  - another construct that finds an entry whose allocation is still queued
//    waits for it on the device;
//  - an entry's event means the end of every fill in flight: after the
//    allocating construct synchronized, a later construct still waits for
//    an `always` copy that another construct has in flight (the "sticky
//    event": the event recorded for the allocation must not be taken for
//    the end of that copy);
//  - first-private buffers are allocated and released on the queue too;
//  - a plugin without the asynchronous entries (LLVM 14's) keeps the old
//    route: synchronous allocation, release after the synchronize.
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fake_plugin.h"
#include "map_ops.h"

using namespace omptarget;
using namespace omptarget::core;
using namespace omptarget::abi;
using namespace std::chrono_literals;

namespace {

constexpr int64_t TO = kMapTo, FROM = kMapFrom, PARAM = kMapTargetParam;
constexpr int kInts = fake::kPatternInts;
constexpr int64_t kBytes = fake::kPatternBytes;
using fake::pattern;

using Args = fake::ConstructArgs;

// The operations of the log on one queue, in order (event records left out:
// whether a fill records one depends on the copy policy).
std::vector<fake::OpKind> kindsOn(const std::vector<fake::OpRecord> &Log, uint64_t Queue) {
  std::vector<fake::OpKind> K;
  for (const auto &R : Log)
    if (R.Queue == Queue && R.Kind != fake::OpKind::Record) K.push_back(R.Kind);
  return K;
}

class QueueOrderedAllocTest : public RuntimeTest,
                              public ::testing::WithParamInterface<fake::Personality> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam();
    C.QueueOrderedAllocation = true;
    return C;
  }
  void TearDown() override {
    auto E = fake::eventCounters();
    EXPECT_EQ(E.WaitTimeouts, 0u) << "a queue waited for an event point that never ran";
    EXPECT_EQ(E.StaleAccesses, 0u)
        << "work touched device memory before its allocation or after its release";
    RuntimeTest::TearDown();
  }
};

using K = fake::OpKind;

TEST_P(QueueOrderedAllocTest, OneQueueFromAllocationToReleaseAndOneSynchronize) {
  ASSERT_TRUE(D->ordersAllocationOnQueue());
  std::vector<int> A = pattern(1), B(kInts, 0);
  fake::setKernel(0, [](const std::vector<void *> &Args) {
    auto *In = static_cast<int *>(Args[0]);
    auto *Out = static_cast<int *>(Args[1]);
    for (int I = 0; I < kInts; ++I) Out[I] = In[I] + 1;
  });
  ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | PARAM), map(B.data(), kBytes, FROM | PARAM)}));
  for (int I = 0; I < kInts; ++I) ASSERT_EQ(B[I], A[I] + 1) << I;
  EXPECT_EQ(fake::counters().AllocAsync, 2u) << "the mappings were not allocated on the queue";
  EXPECT_EQ(fake::counters().DeleteAsync, 2u) << "the mappings were not released on the queue";
  EXPECT_EQ(fake::counters().QueueSyncs, 1u) << "the construct synchronized more than once";
  // Everything of the construct on one queue, releases after the copy back.
  std::vector<fake::OpRecord> Issued = fake::issued();
  ASSERT_FALSE(Issued.empty());
  uint64_t Q = Issued.front().Queue;
  ASSERT_NE(Q, 0u);
  std::vector<K> Expected = {K::Alloc, K::Submit, K::Alloc, K::Launch, K::Retrieve, K::Delete,
                             K::Delete};
  EXPECT_EQ(kindsOn(Issued, Q), Expected);
  EXPECT_EQ(kindsOn(Issued, 0), std::vector<K>{}) << "a synchronous allocation or release";
  EXPECT_EQ(tableSize(), 0u);
}

// The release goes after the work that uses the memory, in execution order
// too: the fake frees the memory when its queue reaches the release, so a
// release issued early would make the kernel or the copy back stale.
TEST_P(QueueOrderedAllocTest, ReleaseIsReachedAfterTheWorkThatUsesTheMemory) {
  std::vector<int> A = pattern(2);
  fake::setKernel(1, [](const std::vector<void *> &Args) {
    auto *P = static_cast<int *>(Args[0]);
    for (int I = 0; I < kInts; ++I) P[I] *= 2;
  });
  for (int Round = 0; Round < 3; ++Round)
    ASSERT_TRUE(target(1, {map(A.data(), kBytes, TO | FROM | PARAM)}));
  for (int I = 0; I < kInts; ++I) ASSERT_EQ(A[I], pattern(2)[I] * 8) << I;
  std::vector<fake::OpRecord> Done = fake::executed();
  // In execution order: each region's Delete comes after its Retrieve.
  int Retrieves = 0, Deletes = 0;
  for (const auto &R : Done) {
    if (R.Kind == K::Retrieve) ++Retrieves;
    if (R.Kind == K::Delete) {
      ++Deletes;
      EXPECT_EQ(Retrieves, Deletes) << "a release ran before the copy back that reads the memory";
    }
  }
  EXPECT_EQ(Deletes, 3);
  EXPECT_EQ(fake::liveAllocations(), 0u);
}

// A construct that finds an entry whose allocation is still queued on
// another construct's queue waits for it on the device: its kernel runs
// only once the allocation was reached, even when its queue is
// synchronized first.
TEST_P(QueueOrderedAllocTest, AnotherConstructWaitsForAQueuedAllocation) {
  std::vector<int> X(kInts, 0);
  Args Alloc({{X.data(), kBytes, 0}});  // map(alloc:)
  AsyncInfo First(*D);
  ASSERT_TRUE(dataBegin(*D, Alloc.M, First));
  EXPECT_EQ(fake::counters().AllocAsync, 1u);

  std::atomic<int> Runs{0};
  fake::setKernel(2, [&](const std::vector<void *> &Args) {
    static_cast<int *>(Args[0])[0] = 7;
    ++Runs;
  });
  std::thread Second([&] {
    std::vector<Arg> A = {map(X.data(), kBytes, PARAM)};
    EXPECT_TRUE(target(2, A));
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(Runs.load(), 0) << "the kernel ran before the allocation it uses was reached";
  ASSERT_TRUE(First.synchronize());
  Second.join();
  EXPECT_EQ(Runs.load(), 1);
  EXPECT_GE(fake::eventCounters().Wait, 1u);
  ASSERT_TRUE(end({map(X.data(), kBytes, kMapDelete)}));
}

// The sticky-event problem. A allocates X on its queue (the entry's event
// is recorded for the allocation); B copies into X with `always` (in
// flight); A synchronizes. A construct C that finds X now must still wait
// for B's copy: the event recorded for A's allocation, complete, must not
// be taken for the end of B's copy. C's kernel must see B's data.
TEST_P(QueueOrderedAllocTest, AnEventRecordedForTheAllocationIsNotTakenForALaterCopy) {
  std::vector<int> X = pattern(3);
  Args Alloc({{X.data(), kBytes, 0}});
  AsyncInfo A(*D);
  ASSERT_TRUE(dataBegin(*D, Alloc.M, A));

  Args Copy({{X.data(), kBytes, TO | kMapAlways}});
  AsyncInfo B(*D);
  ASSERT_TRUE(dataBegin(*D, Copy.M, B));
  ASSERT_TRUE(A.synchronize());

  std::vector<int> Seen(kInts, -1);
  fake::setKernel(3, [&](const std::vector<void *> &Args) {
    std::memcpy(Seen.data(), Args[0], kBytes);
  });
  std::thread C([&] { EXPECT_TRUE(target(3, {map(X.data(), kBytes, PARAM)})); });
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(B.synchronize());
  C.join();
  EXPECT_EQ(Seen, X) << "the kernel ran before the `always` copy in flight had landed";

  // Two references (A's enter and B's): both go, and so does the entry.
  ASSERT_TRUE(end({map(X.data(), kBytes, kMapDelete)}));
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(QueueOrderedAllocTest, FirstPrivateBuffersAreAllocatedAndReleasedOnTheQueue) {
  int Value = 41;
  int Seen = 0;
  fake::setKernel(0, [&](const std::vector<void *> &Args) { Seen = *static_cast<int *>(Args[0]); });
  ASSERT_TRUE(target(0, {map(&Value, sizeof Value, kMapPrivate | TO | PARAM)}));
  EXPECT_EQ(Seen, 41);
  EXPECT_EQ(fake::counters().AllocAsync, 1u);
  EXPECT_EQ(fake::counters().DeleteAsync, 1u);
  EXPECT_EQ(fake::counters().QueueSyncs, 1u);
  EXPECT_EQ(fake::liveAllocations(), 0u);
}

// A copy back that cannot be issued keeps the entry with its last
// reference: the data is never dropped unseen, and a second exit retries.
TEST_P(QueueOrderedAllocTest, FailedCopyBackKeepsTheEntry) {
  std::vector<int> A = pattern(4);
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  static_cast<int *>(entry(A.data()).Tgt)[0] = 10;
  fake::failRetrieve(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(end({map(A.data(), kBytes, FROM)}));
  testing::internal::GetCapturedStderr();
  EXPECT_TRUE(entry(A.data()).Mapped);
  EXPECT_EQ(entry(A.data()).Dyn, 1u);
  ASSERT_TRUE(end({map(A.data(), kBytes, FROM)}));
  EXPECT_EQ(A[0], 10);
  EXPECT_EQ(tableSize(), 0u);
}

// An allocation that fails after an earlier one of the same construct was
// queued: the construct fails with one message naming the size and the
// device, the queued allocation is released (no half-made mapping), and the
// next construct works.
TEST_P(QueueOrderedAllocTest, FailedAllocationLeavesNothingBehind) {
  std::vector<int> A = pattern(6), B = pattern(7);
  fake::failAlloc(2);
  testing::internal::CaptureStderr();
  Status S = target(0, {map(A.data(), kBytes, TO | FROM | PARAM),
                        map(B.data(), kBytes, TO | FROM | PARAM)});
  testing::internal::GetCapturedStderr();
  ASSERT_FALSE(S);
  std::string Err = S.error().message();
  EXPECT_NE(Err.find("could not allocate " + std::to_string(kBytes) + " bytes"), std::string::npos)
      << Err;
  EXPECT_NE(Err.find("device 0"), std::string::npos) << Err;
  EXPECT_EQ(tableSize(), 0u) << "a mapping of the failed construct was left behind";
  EXPECT_EQ(fake::liveAllocations(), 0u) << "the allocation queued before the failure leaked";
  EXPECT_EQ(fake::counters().Launch, 0u);
  EXPECT_EQ(A, pattern(6)) << "host data changed by a failed construct";
  ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | FROM | PARAM),
                         map(B.data(), kBytes, TO | FROM | PARAM)}));
  EXPECT_EQ(tableSize(), 0u);
}

// Allocation and release in loops from several threads, each on its own
// arrays and all on one shared read-only array: every result right, nothing
// stale, nothing left.
TEST_P(QueueOrderedAllocTest, ThreadsCreatingAndDeletingMappings) {
  constexpr int kThreads = 4, kRounds = 40;
  std::vector<int> Shared = pattern(9);
  fake::setKernel(1, [](const std::vector<void *> &Args) {
    auto *P = static_cast<int *>(Args[0]);
    auto *S = static_cast<int *>(Args[1]);
    for (int I = 0; I < kInts; ++I) P[I] += S[I] - S[I] + 1;
  });
  std::vector<std::thread> Threads;
  std::atomic<int> Failures{0};
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      std::vector<int> Own = pattern(T);
      for (int R = 0; R < kRounds; ++R)
        if (!target(1, {map(Own.data(), kBytes, TO | FROM | PARAM),
                        map(Shared.data(), kBytes, TO | PARAM)}))
          ++Failures;
      std::vector<int> Want = pattern(T);
      for (int &V : Want) V += kRounds;
      if (Own != Want) ++Failures;
    });
  for (auto &T : Threads) T.join();
  EXPECT_EQ(Failures.load(), 0);
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveAllocations(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Fake, QueueOrderedAllocTest,
                         ::testing::Values(fake::Personality::AsyncEvents,
                                           fake::Personality::PersistentQueues),
                         [](const auto &Info) { return std::string(fake::name(Info.param)); });

// LLVM 14's plugins have no asynchronous allocation: the core allocates
// synchronously and releases after the construct's synchronize.
class NoQueueOrderedAllocTest : public RuntimeTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = fake::Personality::AsyncEvents;
    return C;
  }
};

TEST_F(NoQueueOrderedAllocTest, SynchronousAllocationAndReleaseAfterTheSynchronize) {
  EXPECT_FALSE(D->ordersAllocationOnQueue());
  std::vector<int> A = pattern(5);
  ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | FROM | PARAM)}));
  EXPECT_EQ(fake::counters().AllocAsync, 0u);
  EXPECT_EQ(fake::counters().DeleteAsync, 0u);
  EXPECT_EQ(fake::counters().Delete, 1u);
  EXPECT_EQ(fake::eventCounters().StaleAccesses, 0u);
  EXPECT_EQ(tableSize(), 0u);
}

}  // namespace
