// The asynchronous pipeline seen from the core, on the fake plugin with
// events:
//  - entry events: a construct that reuses an entry whose H2D copy is still
//    queued makes its own queue wait on the entry's event (device-side: the
//    host does not block), and its work runs only after the copy;
//  - the lookup path (omp_target_is_present, the exit lookup, translate) never
//    waits; the `present` map modifier still orders the kernel after the copy;
//  - one event per entry, reused for every re-copy (`always`), given back
//    when the entry goes; plugins without events finish the copy under the
//    entry's lock;
//  - one queue and one synchronization per construct;
//  - faults in the middle of a construct (a failed copy, launch, event
//    create/record/wait): a clear error, no entry left claiming data, no
//    queued copy running on freed memory, the queue back, later constructs work.
// Regression tests for core bugs found when this file was written (all
// fixed): references dropped before the construct's synchronization; a failed
// mapping keeping earlier arguments' references; a failed event wait keeping
// its reference; a failed event record freeing memory under a queued copy.
#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <thread>

#include "entry_exit.h"
#include "fake_plugin.h"
#include "map_ops.h"
#include "target_launch.h"

extern "C" int omp_target_is_present(const void *Ptr, int DeviceNum);

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

uint64_t checksum(const int *P, int N) {
  uint64_t S = 0;
  for (int I = 0; I < N; ++I) S = S * 1000003u + static_cast<uint32_t>(P[I]);
  return S;
}

class AsyncMappingTest : public RuntimeTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = fake::Personality::AsyncEvents;
    return C;
  }
  void TearDown() override {
    auto E = fake::eventCounters();
    EXPECT_EQ(E.WaitTimeouts, 0u) << "a queue waited for an event point that never ran";
    EXPECT_EQ(E.StaleAccesses, 0u) << "a queued copy ran after its device memory was freed";
    RuntimeTest::TearDown();
    EXPECT_EQ(fake::liveEventsAtLastReset(), 0u) << "events leaked past Runtime::stop";
  }

  // Runs `Fn` on a thread; says whether it finished within `Ms`.
  template <typename F>
  static bool finishesWithin(std::thread &T, std::atomic<bool> &Done, F &&Fn, int Ms) {
    T = std::thread([&Done, Fn = std::forward<F>(Fn)]() mutable {
      Fn();
      Done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(Ms));
    return Done.load();
  }
};

// ---- entry events ----------------------------------------------------------

TEST_F(AsyncMappingTest, ReuseOfInFlightCopyWaitsOnTheEntryEvent) {
  std::vector<int> A = pattern(1);
  Args Map({{A.data(), kBytes, TO}});

  AsyncInfo First(*D);
  ASSERT_TRUE(dataBegin(*D, Map.M, First));
  auto E = fake::eventCounters();
  EXPECT_EQ(E.Create, 1u);
  EXPECT_EQ(E.Record, 1u) << "the entry's event is recorded after its copy";
  EXPECT_EQ(E.Wait, 0u);
  EntryInfo Ent = entry(A.data(), kBytes);
  ASSERT_TRUE(Ent.Mapped);
  ASSERT_EQ(*static_cast<unsigned char *>(Ent.Tgt), fake::kFillByte)
      << "the fake should still hold the copy in the queue (nothing synchronized)";

  // A second construct finds the entry: no copy, a device-side wait.
  auto Second = std::make_unique<AsyncInfo>(*D);
  ASSERT_TRUE(dataBegin(*D, Map.M, *Second));
  E = fake::eventCounters();
  EXPECT_EQ(fake::counters().Submit, 1u) << "the reuser copied again";
  EXPECT_EQ(E.Wait, 1u) << "the reuser's queue does not wait for the copy in flight";
  EXPECT_EQ(E.Sync, 0u) << "the host blocked on the event";
  EXPECT_EQ(E.Create, 1u);
  EXPECT_EQ(entry(A.data(), kBytes).Dyn, 2u);

  // Work on the second queue after the wait sees the whole copy, even when
  // that queue is synchronized first (from another thread).
  std::vector<int> Seen(kInts, -1);
  ASSERT_TRUE(D->retrieve(Seen.data(), Ent.Tgt, kBytes, *Second->raw()));
  std::atomic<bool> Done{false};
  bool SecondOk = false;
  std::thread T;
  EXPECT_FALSE(finishesWithin(
      T, Done, [&] { SecondOk = static_cast<bool>(Second->synchronize()); }, 100))
      << "the second queue ran before the copy it depends on";
  ASSERT_TRUE(First.synchronize());
  T.join();
  EXPECT_TRUE(SecondOk);
  EXPECT_EQ(Seen, A) << "the reuser saw the device copy before the H2D copy completed";

  ASSERT_TRUE(end({map(A.data(), kBytes, TO)}));
  ASSERT_TRUE(end({map(A.data(), kBytes, TO)}));
  EXPECT_FALSE(entry(A.data(), kBytes).Mapped);
}

// Once the copying construct has synchronized, reusers do not wait at all.
TEST_F(AsyncMappingTest, NoWaitOnceTheCopyIsComplete) {
  std::vector<int> A = pattern(2);
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | PARAM)}));
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  EXPECT_EQ(fake::eventCounters().Wait, 0u) << "waited on an event whose copy had completed";
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}

TEST_F(AsyncMappingTest, LookupPathDoesNotWait) {
  std::vector<int> A = pattern(3);
  Args Map({{A.data(), kBytes, TO}});
  AsyncInfo First(*D);
  ASSERT_TRUE(dataBegin(*D, Map.M, First));
  void *Tgt = entry(A.data(), kBytes).Tgt;
  auto Before = fake::eventCounters();

  EXPECT_EQ(omp_target_is_present(A.data(), D->id()), 1);
  EXPECT_EQ(translate(*D, A.data(), kBytes), Tgt);
  {
    // The exit path's lookup, for a member that rides on its parent.
    AsyncInfo Exit(*D);
    EntryExits Exits(*D, Exit);
    ExitRule R;
    R.HstBegin = A.data();
    R.Size = kBytes;
    Expected<bool> Found = Exits.leave(R);
    ASSERT_TRUE(Found);
    EXPECT_TRUE(*Found);
  }

  auto After = fake::eventCounters();
  EXPECT_EQ(After.Wait, Before.Wait) << "a lookup made a queue wait";
  EXPECT_EQ(After.Sync, Before.Sync) << "a lookup blocked on the entry's event";
  EXPECT_EQ(After.QueuesTaken, Before.QueuesTaken) << "a lookup took a queue";
  ASSERT_TRUE(First.synchronize());
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}

// map(present, to: a) in a target region: the lookup must find the entry,
// and the kernel still runs only after the copy in flight.
TEST_F(AsyncMappingTest, PresentModifierStillOrdersTheKernel) {
  std::vector<int> A = pattern(4);
  Args Map({{A.data(), kBytes, TO}});
  AsyncInfo First(*D);
  ASSERT_TRUE(dataBegin(*D, Map.M, First));

  std::atomic<uint64_t> Seen{0};
  fake::setKernel(0, [&](const std::vector<void *> &KArgs) {
    Seen = checksum(static_cast<const int *>(KArgs[0]), kInts);
  });
  std::atomic<bool> Done{false};
  bool RegionOk = false;
  std::thread T;
  EXPECT_FALSE(finishesWithin(
      T, Done,
      [&] {
        RegionOk = static_cast<bool>(target(0, {map(A.data(), kBytes, TO | kMapPresent | PARAM)}));
      },
      100))
      << "the region completed before the copy it depends on";
  EXPECT_EQ(fake::eventCounters().Wait, 1u);
  ASSERT_TRUE(First.synchronize());
  T.join();
  EXPECT_TRUE(RegionOk);
  EXPECT_EQ(Seen.load(), checksum(A.data(), kInts)) << "the kernel saw an incomplete copy";
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}

TEST_F(AsyncMappingTest, OneEventPerEntryReusedAcrossRecopies) {
  std::vector<int> A = pattern(5), B = pattern(6);
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  EXPECT_EQ(fake::eventCounters().Create, 1u);

  uint64_t Seen = 0;
  fake::setKernel(0, [&](const std::vector<void *> &KArgs) {
    Seen = checksum(static_cast<const int *>(KArgs[0]), kInts);
  });
  for (int Round = 0; Round < 3; ++Round) {
    A[0] = 1000 + Round;  // always: the region copies again
    ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | kMapAlways | PARAM)}));
    EXPECT_EQ(Seen, checksum(A.data(), kInts));
  }
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO | kMapAlways)}));
  auto E = fake::eventCounters();
  EXPECT_EQ(fake::counters().Submit, 5u);
  EXPECT_EQ(E.Record, 5u) << "every copy records the entry's event";
  EXPECT_EQ(E.Create, 1u) << "an event per copy instead of one per entry";
  EXPECT_EQ(E.Destroy, 0u);

  // Two live entries have two events.
  ASSERT_TRUE(begin({map(B.data(), kBytes, TO)}));
  EXPECT_EQ(fake::eventCounters().Create, 2u);
  EXPECT_EQ(fake::liveEvents(), 2u);

  // The entry goes: its event goes back (destroyed, or to a pool a later
  // entry takes it from) — never one more live event per entry ever mapped.
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
  ASSERT_FALSE(entry(A.data(), kBytes).Mapped);
  std::vector<int> C = pattern(7);
  ASSERT_TRUE(begin({map(C.data(), kBytes, TO)}));
  E = fake::eventCounters();
  EXPECT_EQ(fake::liveEvents(), 2u) << "A's event was neither destroyed nor reused";
  EXPECT_EQ(E.Create - E.Destroy, 2u);
  ASSERT_TRUE(end({map(B.data(), kBytes, kMapDelete), map(C.data(), kBytes, kMapDelete)}));
  EXPECT_EQ(tableSize(), 0u);
}

// An entry never copied to (map(from:) / alloc) needs no event.
TEST_F(AsyncMappingTest, NoEventWithoutCopy) {
  std::vector<int> A(kInts);
  ASSERT_TRUE(begin({map(A.data(), kBytes, FROM)}));
  ASSERT_TRUE(begin({map(A.data(), kBytes, FROM)}));
  EXPECT_EQ(fake::eventCounters().Create, 0u);
  EXPECT_EQ(fake::eventCounters().Wait, 0u);
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}

// ---- queue per construct -----------------------------------------------------

TEST_F(AsyncMappingTest, OneQueueAndOneSynchronizePerConstruct) {
  float A[256], B[256], C[256];
  for (int I = 0; I < 256; ++I) A[I] = float(I), B[I] = 2.0f * float(I);
  fake::setKernel(1, [](const std::vector<void *> &KArgs) {
    auto *X = static_cast<float *>(KArgs[0]), *Y = static_cast<float *>(KArgs[1]);
    auto *Z = static_cast<float *>(KArgs[2]);
    for (int I = 0; I < 256; ++I) Z[I] = X[I] + Y[I];
  });
  struct Snap {
    uint64_t Queues, Syncs, Calls;
  };
  auto snap = [] {
    return Snap{fake::eventCounters().QueuesTaken, fake::counters().Synchronize,
                fake::counters().AsyncCalls};
  };
  auto expectOne = [&](const Snap &B0, uint64_t Calls, const char *What) {
    Snap N = snap();
    EXPECT_EQ(N.Queues - B0.Queues, 1u) << What << ": queues taken";
    EXPECT_EQ(N.Syncs - B0.Syncs, 1u) << What << ": synchronizations";
    EXPECT_EQ(N.Calls - B0.Calls, Calls) << What << ": asynchronous plugin calls";
  };

  // target map(to: a, b) map(from: c): 2 H2D + launch + 1 D2H on one queue.
  Snap S0 = snap();
  ASSERT_TRUE(target(1, {map(A, sizeof A, TO | PARAM), map(B, sizeof B, TO | PARAM),
                         map(C, sizeof C, FROM | PARAM)}));
  expectOne(S0, 4, "target region");
  for (int I = 0; I < 256; ++I) ASSERT_EQ(C[I], 3.0f * float(I));

  S0 = snap();
  ASSERT_TRUE(begin({map(A, sizeof A, TO), map(B, sizeof B, TO), map(C, sizeof C, FROM)}));
  expectOne(S0, 2, "enter data");
  S0 = snap();
  ASSERT_TRUE(update({map(A, sizeof A, TO), map(C, sizeof C, FROM)}));
  expectOne(S0, 2, "update");
  // Everything present, nothing to copy: no queue at all.
  S0 = snap();
  ASSERT_TRUE(begin({map(A, sizeof A, TO), map(B, sizeof B, TO)}));
  EXPECT_EQ(snap().Queues, S0.Queues) << "a construct with no device work took a queue";
  EXPECT_EQ(snap().Syncs, S0.Syncs);
  ASSERT_TRUE(end({map(A, sizeof A, TO), map(B, sizeof B, TO)}));
  S0 = snap();
  ASSERT_TRUE(end({map(A, sizeof A, FROM), map(B, sizeof B, FROM), map(C, sizeof C, FROM)}));
  expectOne(S0, 3, "exit data");
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveQueues(), 0u);
}

// A construct keeps its references until its queued work is done: here a
// region's kernel is still queued when another construct drops the entry's
// other reference (e.g. `target exit data` on another thread while a `target
// nowait` region runs). The entry, and its device memory, must outlive the
// kernel; dropping the region's reference before its synchronization lets the
// exit data free the memory under the kernel.
// Core bug [1] (see the top of this file).
TEST_F(AsyncMappingTest, ReferencesHeldUntilTheConstructSynchronizes) {
  std::vector<int> A = pattern(16);
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));  // enter data: DynRef 1

  Args Region({{A.data(), kBytes, TO | PARAM}});
  AsyncInfo Q(*D);
  ASSERT_TRUE(dataBegin(*D, Region.M, Q));  // the region maps a: DynRef 2
  void *Tgt = entry(A.data(), kBytes).Tgt;
  std::vector<int> Seen(kInts, -1);
  // The region's "kernel": a D2H read of a's device copy, queued.
  ASSERT_TRUE(D->retrieve(Seen.data(), Tgt, kBytes, *Q.raw()));
  ASSERT_TRUE(dataEnd(*D, Region.M, Q));  // the region ends, not yet synchronized

  // exit data on another thread: its reference was not the last one.
  ASSERT_TRUE(end({map(A.data(), kBytes, TO)}));
  EXPECT_TRUE(entry(A.data(), kBytes).Mapped)
      << "the entry went while a construct using it had work queued";
  EXPECT_EQ(fake::liveAllocations(), 1u) << "device memory freed under queued work";

  ASSERT_TRUE(Q.synchronize());
  EXPECT_EQ(fake::eventCounters().StaleAccesses, 0u) << "queued work ran on freed device memory";
  EXPECT_EQ(Seen, A);
  EXPECT_FALSE(entry(A.data(), kBytes).Mapped) << "the last reference (the region's) dropped";
  EXPECT_EQ(fake::liveAllocations(), 0u);
}

// ---- plugins without events ---------------------------------------------------

class NoEventsTest : public RuntimeTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = fake::Personality::Async;
    return C;
  }
};

TEST_F(NoEventsTest, CopyIsCompleteWhenTheEntryLockIsReleased) {
  std::vector<int> A = pattern(8);
  Args Map({{A.data(), kBytes, TO}});
  AsyncInfo First(*D);
  uint64_t Syncs = fake::counters().Synchronize;
  ASSERT_TRUE(dataBegin(*D, Map.M, First));
  EntryInfo Ent = entry(A.data(), kBytes);
  ASSERT_TRUE(Ent.Mapped);
  EXPECT_EQ(std::memcmp(Ent.Tgt, A.data(), kBytes), 0)
      << "without events the copy must be finished before others can use the entry";
  EXPECT_GT(fake::counters().Synchronize, Syncs);
  EXPECT_EQ(fake::eventCounters().Create, 0u);
  ASSERT_TRUE(First.synchronize());
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}

// ---- many threads, shared read-only data ---------------------------------------

// Threads run target regions that map the same two arrays (in both orders)
// and checksum them in the kernel; entries come and go as references drop
// to zero, so first-mappers copy while others reuse. Every kernel must see
// complete data, and opposite mapping orders must not deadlock.
template <bool Events>
class SharedReadersTest : public RuntimeTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = Events ? fake::Personality::AsyncEvents : fake::Personality::Async;
    C.DelayUs = 20;
    return C;
  }
  void run() {
    constexpr int kThreads = 4, kIters = 150;
    static std::vector<int> A = pattern(9), B = pattern(10);
    const uint64_t Want = checksum(A.data(), kInts) ^ (checksum(B.data(), kInts) << 1);
    std::atomic<int> Bad{0}, Failed{0};
    fake::setKernel(2, [&](const std::vector<void *> &KArgs) {
      uint64_t Got = checksum(static_cast<const int *>(KArgs[0]), kInts) ^
                     (checksum(static_cast<const int *>(KArgs[1]), kInts) << 1);
      if (Got != Want) ++Bad;
    });
    fake::setKernel(3, [&](const std::vector<void *> &KArgs) {  // (b, a)
      uint64_t Got = checksum(static_cast<const int *>(KArgs[1]), kInts) ^
                     (checksum(static_cast<const int *>(KArgs[0]), kInts) << 1);
      if (Got != Want) ++Bad;
    });
    std::vector<std::thread> Threads;
    for (int T = 0; T < kThreads; ++T)
      Threads.emplace_back([&, T] {
        for (int I = 0; I < kIters; ++I) {
          bool Swap = (I + T) % 2;
          Status S =
              Swap ? target(3,
                            {map(B.data(), kBytes, TO | PARAM), map(A.data(), kBytes, TO | PARAM)})
                   : target(2,
                            {map(A.data(), kBytes, TO | PARAM), map(B.data(), kBytes, TO | PARAM)});
          if (!S) ++Failed;
        }
      });
    for (auto &Th : Threads) Th.join();
    EXPECT_EQ(Failed.load(), 0);
    EXPECT_EQ(Bad.load(), 0) << "kernels saw incomplete copies";
    EXPECT_EQ(fake::launches().size(), size_t(kThreads * kIters));
    EXPECT_EQ(tableSize(), 0u);
    auto E = fake::eventCounters();
    EXPECT_EQ(E.WaitTimeouts, 0u);
    EXPECT_EQ(E.StaleAccesses, 0u);
    if (Events) {
      EXPECT_GT(E.Wait, 0u)
          << "no construct ever reused an entry in flight: the test lost its point";
      RecordProperty("event_waits", static_cast<int>(E.Wait));
    }
  }
};
using SharedReadersWithEvents = SharedReadersTest<true>;
using SharedReadersWithoutEvents = SharedReadersTest<false>;
// Core bug [1] (see the top of this file).
TEST_F(SharedReadersWithEvents, KernelsSeeCompleteData) { run(); }
// Core bug [1] (see the top of this file).
TEST_F(SharedReadersWithoutEvents, KernelsSeeCompleteData) { run(); }

// ---- faults in the middle of a construct ------------------------------------------

// A's copy is queued and its event recorded, then B's copy fails: the region
// fails, neither entry stays, A's queued copy does not land in freed memory.
// Core bug [2] (see the top of this file).
TEST_F(AsyncMappingTest, FailedSecondCopyAfterFirstRecorded) {
  std::vector<int> A = pattern(11), B = pattern(12);
  fake::failSubmit(2);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(target(0, {map(A.data(), kBytes, TO | PARAM), map(B.data(), kBytes, TO | PARAM)}));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(fake::counters().Launch, 0u);
  EXPECT_FALSE(entry(A.data(), kBytes).Mapped) << "A stays mapped after its region failed";
  EXPECT_FALSE(entry(B.data(), kBytes).Mapped) << "B claims data that never arrived";
  EXPECT_EQ(fake::liveQueues(), 0u) << "the failed construct kept its queue";
  EXPECT_EQ(fake::eventCounters().StaleAccesses, 0u) << "a queued copy ran on freed memory";
  EXPECT_EQ(fake::liveAllocations(), 0u);

  uint64_t Seen = 0;
  fake::setKernel(0, [&](const std::vector<void *> &KArgs) {
    Seen = checksum(static_cast<const int *>(KArgs[1]), kInts);
  });
  ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | PARAM), map(B.data(), kBytes, TO | PARAM)}));
  EXPECT_EQ(Seen, checksum(B.data(), kInts));
}

// The launch fails after both copies were queued and recorded.
TEST_F(AsyncMappingTest, FailedLaunchAfterRecordedCopies) {
  std::vector<int> A = pattern(13);
  fake::failLaunch(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(target(0, {map(A.data(), kBytes, TO | PARAM)}));
  testing::internal::GetCapturedStderr();
  EXPECT_FALSE(entry(A.data(), kBytes).Mapped);
  EXPECT_EQ(fake::liveQueues(), 0u);
  EXPECT_EQ(fake::eventCounters().StaleAccesses, 0u) << "a queued copy ran on freed memory";
  EXPECT_EQ(fake::liveAllocations(), 0u);
  uint64_t Seen = 0;
  fake::setKernel(0, [&](const std::vector<void *> &KArgs) {
    Seen = checksum(static_cast<const int *>(KArgs[0]), kInts);
  });
  ASSERT_TRUE(target(0, {map(A.data(), kBytes, TO | PARAM)}));
  EXPECT_EQ(Seen, checksum(A.data(), kInts));
}

// Recording (or creating) the entry's event fails after the copy was queued:
// without its event the entry cannot be reused safely, so it must go — but
// its memory only after the queued copy into it has run.
class EventFaultTest : public AsyncMappingTest, public ::testing::WithParamInterface<int> {};

// Core bug [4] (see the top of this file).
TEST_P(EventFaultTest, FailedEventOnNewEntry) {
  std::vector<int> A = pattern(14);
  if (GetParam() == 0)
    fake::failCreateEvent(1);
  else
    fake::failRecordEvent(1);
  testing::internal::CaptureStderr();
  Status S = begin({map(A.data(), kBytes, TO)});
  testing::internal::GetCapturedStderr();
  EXPECT_FALSE(S);
  if (!S) {
    EXPECT_NE(S.error().message().find("event"), std::string::npos) << S.error().message();
  }
  EXPECT_FALSE(entry(A.data(), kBytes).Mapped) << "an entry without its event stays mapped";
  EXPECT_EQ(fake::liveQueues(), 0u);
  EXPECT_EQ(fake::eventCounters().StaleAccesses, 0u)
      << "the entry's memory was freed while its copy was still queued";
  EXPECT_EQ(fake::liveAllocations(), 0u);

  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  EXPECT_EQ(std::memcmp(entry(A.data(), kBytes).Tgt, A.data(), kBytes), 0);
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}
INSTANTIATE_TEST_SUITE_P(Async, EventFaultTest, ::testing::Values(0, 1),
                         [](const auto &Info) { return Info.param ? "Record" : "Create"; });

// The wait on an in-flight entry fails: the reusing construct fails and its
// reference is dropped; the entry and the first construct are unaffected.
// Core bug [3] (see the top of this file).
TEST_F(AsyncMappingTest, FailedWaitOnReuse) {
  std::vector<int> A = pattern(15);
  Args Map({{A.data(), kBytes, TO}});
  AsyncInfo First(*D);
  ASSERT_TRUE(dataBegin(*D, Map.M, First));
  fake::failWaitEvent(1);
  testing::internal::CaptureStderr();
  Status S = begin({map(A.data(), kBytes, TO)});
  testing::internal::GetCapturedStderr();
  EXPECT_FALSE(S) << "a failed event wait was ignored";
  EXPECT_EQ(entry(A.data(), kBytes).Dyn, 1u) << "the failed construct kept its reference";
  ASSERT_TRUE(First.synchronize());
  EXPECT_EQ(std::memcmp(entry(A.data(), kBytes).Tgt, A.data(), kBytes), 0);
  ASSERT_TRUE(begin({map(A.data(), kBytes, TO)}));
  EXPECT_EQ(entry(A.data(), kBytes).Dyn, 2u);
  ASSERT_TRUE(end({map(A.data(), kBytes, kMapDelete)}));
}

}  // namespace
