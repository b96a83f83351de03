// Unit tests of the host plugin's asynchronous mode (OMPTARGET_HOST_ASYNC=1):
// HostQueue worker threads, HostEvent generations, error propagation, and the
// same through the HostDevice entry points (GenericDevice API), releases
// ordered in the queue; the immediate-mode device's own direct-table
// functions (host_direct.cpp).
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "direct_table.h"
#include "generic_plugin.h"
#include "host_device.h"
#include "host_queue.h"

using namespace omptarget;
using namespace omptarget::host;
using Clock = std::chrono::steady_clock;

namespace {

HostQueueMode asyncMode(uint32_t DelayUs = 0) { return HostQueueMode{true, DelayUs}; }

Status ok() { return {}; }

TEST(PluginAsyncQueue, ImmediateModeRunsOnTheCallingThread) {
  HostQueue Q;
  EXPECT_FALSE(Q.isAsync());
  std::thread::id Ran;
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
    Ran = std::this_thread::get_id();
    return ok();
  }));
  EXPECT_EQ(Ran, std::this_thread::get_id());
  Status Failed =
      Q.enqueue(HostOp{HostOp::Kernel, 0, "k"}, [] { return Status(makeError("boom")); });
  ASSERT_FALSE(Failed);
  EXPECT_EQ(Failed.error().message(), "boom");  // reported at once, unwrapped
  EXPECT_TRUE(Q.synchronize());
}

TEST(PluginAsyncQueue, RunsManyOperationsInOrder) {
  HostQueue Q(asyncMode());
  ASSERT_TRUE(Q.isAsync());
  std::vector<int> Seen;  // touched by the worker only until synchronize()
  constexpr int N = 20000;
  for (int I = 0; I < N; ++I)
    ASSERT_TRUE(Q.enqueue(HostOp{}, [&Seen, I] {
      Seen.push_back(I);
      return ok();
    }));
  ASSERT_TRUE(Q.synchronize());
  ASSERT_EQ(Seen.size(), static_cast<size_t>(N));
  for (int I = 0; I < N; ++I) ASSERT_EQ(Seen[static_cast<size_t>(I)], I);
}

TEST(PluginAsyncQueue, OperationsRunAfterTheCallReturns) {
  HostQueue Q(asyncMode(20000));  // 20 ms before each operation
  std::atomic<bool> Done{false};
  std::thread::id Ran;
  int Src = 42, Dst = 0;
  ASSERT_TRUE(Q.enqueue(HostOp{HostOp::Submit, sizeof(int)}, [&Dst, P = &Src] {
    std::memcpy(&Dst, P, sizeof(int));
    return ok();
  }));
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
    Ran = std::this_thread::get_id();
    Done.store(true);
    return ok();
  }));
  EXPECT_FALSE(Done.load());  // still sleeping before the first operation
  ASSERT_TRUE(Q.synchronize());
  EXPECT_TRUE(Done.load());
  EXPECT_EQ(Dst, 42);
  EXPECT_NE(Ran, std::this_thread::get_id());
}

TEST(PluginAsyncQueue, ErrorsReachSynchronizeWithTheOperationName) {
  HostQueue Q(asyncMode());
  HostEvent E;
  int Ran = 0;
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
    ++Ran;
    return ok();
  }));
  ASSERT_TRUE(
      Q.enqueue(HostOp{HostOp::Kernel, 0, "vadd"}, [] { return Status(makeError("boom")); }));
  ASSERT_TRUE(Q.enqueue(HostOp{HostOp::Submit, 64}, [] { return Status(makeError("second")); }));
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
    ++Ran;
    return ok();
  }));                       // skipped: after an error
  ASSERT_TRUE(E.record(Q));  // event records still run after an error
  E.sync();                  // so this does not hang
  Status S = Q.synchronize();
  ASSERT_FALSE(S);
  EXPECT_EQ(S.error().message(), "kernel vadd failed: boom");  // the first error only
  EXPECT_EQ(Ran, 1);
  // The error was consumed; the queue works again.
  EXPECT_TRUE(Q.synchronize());
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
    ++Ran;
    return ok();
  }));
  EXPECT_TRUE(Q.synchronize());
  EXPECT_EQ(Ran, 2);
}

TEST(PluginAsyncQueue, DescribesOperations) {
  EXPECT_EQ((HostOp{HostOp::Submit, 64}.describe()), "copy of 64 bytes host→device");
  EXPECT_EQ((HostOp{HostOp::Retrieve, 8}.describe()), "copy of 8 bytes device→host");
  EXPECT_EQ((HostOp{HostOp::Exchange, 1}.describe()), "copy of 1 bytes device→device");
  EXPECT_EQ((HostOp{HostOp::Kernel, 0, "k"}.describe()), "kernel k");
  EXPECT_EQ((HostOp{HostOp::Release, 64}.describe()), "release of 64 bytes of device memory");
}

TEST(PluginAsyncQueue, DestroyIdleBusyAndUnused) {
  { HostQueue Unused(asyncMode()); }
  {
    HostQueue Q(asyncMode());
    ASSERT_TRUE(Q.enqueue(HostOp{}, ok));
    ASSERT_TRUE(Q.synchronize());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // worker asleep
  }
  bool Ran = false;
  {
    HostQueue Q(asyncMode(2000));
    ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
      Ran = true;
      return ok();
    }));
  }  // the destructor drains the queue, then joins
  EXPECT_TRUE(Ran);
}

TEST(PluginAsyncEvent, QueueWaitsForAnotherQueuesEvent) {
  HostQueue A(asyncMode(30000)), B(asyncMode());
  HostEvent E;
  int X = 0, Seen = -1;  // plain ints: the event must order them (TSan checks)
  std::atomic<bool> ADone{false};
  ASSERT_TRUE(A.enqueue(HostOp{}, [&] {
    X = 42;
    ADone.store(true);
    return ok();
  }));
  ASSERT_TRUE(E.record(A));
  ASSERT_TRUE(E.waitOn(B));  // the host does not block
  EXPECT_FALSE(ADone.load());
  ASSERT_TRUE(B.enqueue(HostOp{}, [&] {
    Seen = X;
    return ok();
  }));
  ASSERT_TRUE(B.synchronize());
  EXPECT_EQ(Seen, 42);
  ASSERT_TRUE(A.synchronize());
}

// queues_persist: another thread records an event on a queue its owner is
// still filling (or has synchronized), then orders its own queue after it.
TEST(PluginAsyncEvent, LateRecordFromAnotherThreadOrdersAfterEarlierWork) {
  HostQueue A(asyncMode(2000)), B(asyncMode());
  HostEvent E;
  int X = 0;  // plain: only the event orders the owner's write and B's read (TSan checks)
  std::atomic<bool> Issued{false};
  std::thread Owner([&] {
    ASSERT_TRUE(A.enqueue(HostOp{HostOp::Submit, 4}, [&] {
      X = 7;
      return ok();
    }));
    Issued.store(true, std::memory_order_release);
    for (int I = 0; I < 20; ++I) ASSERT_TRUE(A.enqueue(HostOp{}, ok));  // keeps filling A
    ASSERT_TRUE(A.synchronize());
  });
  while (!Issued.load(std::memory_order_acquire)) std::this_thread::yield();
  int Seen = -1;
  ASSERT_TRUE(E.record(A));  // not A's owner
  ASSERT_TRUE(E.waitOn(B));
  ASSERT_TRUE(B.enqueue(HostOp{}, [&] {
    Seen = X;
    return ok();
  }));
  ASSERT_TRUE(B.synchronize());
  EXPECT_EQ(Seen, 7);
  Owner.join();
  // After the owner's synchronize: a record on the idle queue completes too.
  ASSERT_TRUE(E.record(A));
  E.sync();
  ASSERT_TRUE(A.synchronize());
}

TEST(PluginAsyncEvent, SyncBlocksTheHostUntilTheRecordRuns) {
  HostQueue A(asyncMode(30000));
  HostEvent E;
  std::atomic<bool> Done{false};
  ASSERT_TRUE(A.enqueue(HostOp{}, [&] {
    Done.store(true);
    return ok();
  }));
  ASSERT_TRUE(E.record(A));
  auto Before = Clock::now();
  E.sync();
  EXPECT_TRUE(Done.load());
  EXPECT_GE(Clock::now() - Before, std::chrono::milliseconds(50));  // two delayed operations
  ASSERT_TRUE(A.synchronize());
}

TEST(PluginAsyncEvent, NeverRecordedIsComplete) {
  HostQueue B(asyncMode());
  HostEvent E;
  E.sync();
  ASSERT_TRUE(E.waitOn(B));
  bool Ran = false;
  ASSERT_TRUE(B.enqueue(HostOp{}, [&] {
    Ran = true;
    return ok();
  }));
  ASSERT_TRUE(B.synchronize());
  EXPECT_TRUE(Ran);
}

// A wait refers to the record most recent when it was issued: re-recording on
// a faster queue neither releases an older wait early nor makes a newer wait
// depend on the older record.
TEST(PluginAsyncEvent, ReRecordingRearmsTheEvent) {
  HostQueue Slow(asyncMode(150000)), Fast(asyncMode()), B(asyncMode()), D(asyncMode());
  HostEvent E;
  std::atomic<bool> SlowDone{false};
  bool SeenByB = false, SeenByD = true;
  ASSERT_TRUE(Slow.enqueue(HostOp{}, [&] {
    SlowDone.store(true);
    return ok();
  }));
  ASSERT_TRUE(E.record(Slow));  // generation 1
  ASSERT_TRUE(E.waitOn(B));     // waits for generation 1
  ASSERT_TRUE(B.enqueue(HostOp{}, [&] {
    SeenByB = SlowDone.load();
    return ok();
  }));
  ASSERT_TRUE(E.record(Fast));  // generation 2, completes at once
  ASSERT_TRUE(E.waitOn(D));     // waits for generation 2 only
  ASSERT_TRUE(D.enqueue(HostOp{}, [&] {
    SeenByD = SlowDone.load();
    return ok();
  }));
  ASSERT_TRUE(D.synchronize());
  EXPECT_FALSE(SeenByD);  // D did not wait for the slow queue (300 ms away)
  E.sync();               // generation 2: returns without the slow queue
  EXPECT_FALSE(SlowDone.load());
  ASSERT_TRUE(B.synchronize());
  EXPECT_TRUE(SeenByB);  // B did wait for generation 1
  ASSERT_TRUE(Slow.synchronize());
  ASSERT_TRUE(Fast.synchronize());
}

// Several host threads, each with its own queue: one produces into a buffer
// and records the shared event, the others make their queues wait on it and
// read the buffer on their workers. Plain memory: TSan checks the ordering.
TEST(PluginAsyncEvent, ThreadsSharingOneEvent) {
  constexpr int kThreads = 4, kRounds = 150;
  HostEvent E;
  std::vector<int> Buffer(256, -1);
  std::atomic<int> Mismatches{0};
  std::barrier Sync(kThreads);
  auto Body = [&](int T) {
    HostQueue Q(asyncMode(T == 0 ? 50 : 0));
    for (int R = 0; R < kRounds; ++R) {
      if (T == 0) {
        ASSERT_TRUE(Q.enqueue(HostOp{}, [&Buffer, R] {
          for (int &V : Buffer) V = R;
          return ok();
        }));
        ASSERT_TRUE(E.record(Q));
      }
      Sync.arrive_and_wait();  // the record precedes every wait of this round
      if (T != 0) {
        ASSERT_TRUE(E.waitOn(Q));
        ASSERT_TRUE(Q.enqueue(HostOp{}, [&Buffer, &Mismatches, R] {
          for (int V : Buffer)
            if (V != R) Mismatches.fetch_add(1);
          return ok();
        }));
        if (R % 3 == 0) E.sync();
      }
      ASSERT_TRUE(Q.synchronize());
      Sync.arrive_and_wait();  // readers done before the next write
    }
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T) Threads.emplace_back(Body, T);
  for (auto &Th : Threads) Th.join();
  EXPECT_EQ(Mismatches.load(), 0);
}

// Every thread records and waits on the same event concurrently (no ordering
// claim, only that nothing hangs, races or loses operations).
TEST(PluginAsyncEvent, ConcurrentRecordsAndWaits) {
  constexpr int kThreads = 4, kRounds = 300;
  HostEvent E;
  std::vector<int> Counts(kThreads, 0);
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      HostQueue Q(asyncMode());
      for (int R = 0; R < kRounds; ++R) {
        ASSERT_TRUE(Q.enqueue(HostOp{}, [&Counts, T] {
          ++Counts[static_cast<size_t>(T)];
          return ok();
        }));
        ASSERT_TRUE(E.record(Q));
        ASSERT_TRUE(E.waitOn(Q));
        if (R % 10 == 0) E.sync();
        if (R % 7 == 0) {
          ASSERT_TRUE(Q.synchronize());
        }
      }
      ASSERT_TRUE(Q.synchronize());
    });
  for (auto &Th : Threads) Th.join();
  for (int C : Counts) EXPECT_EQ(C, kRounds);
  E.sync();
}

// ---- Through the device entry points ----

class TestPlugin final : public plugin::GenericPlugin {
 public:
  TestPlugin() : GenericPlugin("x86_64-test") {}

 protected:
  Expected<int32_t> numberOfDevicesImpl() override { return 1; }
  Expected<std::unique_ptr<plugin::GenericDevice>> createDeviceImpl(int32_t) override {
    return makeError("unused");
  }
  bool isValidBinaryImpl(std::span<const std::byte>) override { return false; }
};

struct PluginAsyncDevice : ::testing::Test {
  TestPlugin Plugin;
  RunnerPool Runners;  // outlives Dev, as the plugin's does
  std::unique_ptr<HostDevice> Dev;
  void start(HostQueueMode Mode) {
    Dev = std::make_unique<HostDevice>(Plugin, 0, Mode, Runners);
    ASSERT_TRUE(Dev->init());
  }
  void TearDown() override {
    if (Dev) {
      EXPECT_TRUE(Dev->deinit());
    }
  }
  // The generic direct table of Dev, before specializeDirect.
  __tgt_direct_device genericDirectTable() {
    namespace direct = omptarget::plugin::direct;
    return {Dev.get(),          direct::dataAlloc,    direct::dataDelete,
            direct::dataSubmit, direct::dataRetrieve, direct::launch};
  }
};

TEST_F(PluginAsyncDevice, AsyncCopiesAndEventsAcrossAsyncInfos) {
  start(asyncMode(20000));
  constexpr int64_t N = 1024;
  std::vector<char> Src(N, 'a'), Dst(N, 0);
  Expected<void *> Tgt = Dev->dataAlloc(N, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Tgt);
  Expected<void *> Ev = Dev->createEvent();
  ASSERT_TRUE(Ev);
  __tgt_async_info A{}, B{};
  ASSERT_TRUE(Dev->dataSubmit(*Tgt, Src.data(), N, &A));
  ASSERT_TRUE(Dev->recordEvent(*Ev, &A));
  ASSERT_TRUE(Dev->waitEvent(*Ev, &B));
  ASSERT_TRUE(Dev->dataRetrieve(Dst.data(), *Tgt, N, &B));
  EXPECT_EQ(Dst[0], 0);  // nothing ran yet: every operation waits 20 ms first
  ASSERT_TRUE(Dev->synchronize(&B));
  EXPECT_EQ(B.Queue, nullptr);
  EXPECT_EQ(std::memcmp(Src.data(), Dst.data(), N), 0);
  ASSERT_TRUE(Dev->syncEvent(*Ev));
  ASSERT_TRUE(Dev->synchronize(&A));
  ASSERT_TRUE(Dev->destroyEvent(*Ev));
  ASSERT_TRUE(Dev->dataDelete(*Tgt, nullptr));
  EXPECT_EQ(Dev->numQueuesCreated(), 2u);
}

TEST_F(PluginAsyncDevice, DeinitWithWorkInFlight) {
  start(asyncMode(5000));
  static int Src = 7;
  Expected<void *> Tgt =
      Dev->dataAlloc(sizeof(int), nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Tgt);
  __tgt_async_info A{};
  ASSERT_TRUE(Dev->dataSubmit(*Tgt, &Src, sizeof(int), &A));
  // A was never synchronized: deinit reports its queue as still in use, and
  // destroying the queue drains it (the copy runs) and joins its worker.
  Status S = Dev->deinit();
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("still in use"), std::string::npos);
  Dev.reset();
}

TEST_F(PluginAsyncDevice, SyncModeStaysImmediate) {
  start(HostQueueMode{});
  int Src = 5, Dst = 0;
  Expected<void *> Tgt =
      Dev->dataAlloc(sizeof(int), nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Tgt);
  __tgt_async_info A{};
  ASSERT_TRUE(Dev->dataSubmit(*Tgt, &Src, sizeof(int), &A));
  ASSERT_TRUE(Dev->dataRetrieve(&Dst, *Tgt, sizeof(int), &A));
  EXPECT_EQ(Dst, 5);  // already done before synchronize
  ASSERT_TRUE(Dev->synchronize(&A));
  ASSERT_TRUE(Dev->dataDelete(*Tgt, nullptr));
}

// The host device's one fast path: in immediate mode its own functions
// replace the generic copies and launch; what maySkipChecks refuses goes to
// the generic functions, with the checked call's error line. Asynchronous
// mode keeps the generic table.
TEST_F(PluginAsyncDevice, HostDirectTable) {
  namespace direct = omptarget::plugin::direct;
  constexpr int32_t Ok = omptarget::abi::kOffloadSuccess, Fail = omptarget::abi::kOffloadFail;
  start(HostQueueMode{});
  __tgt_direct_device Table = genericDirectTable();
  Dev->specializeDirect(Table);
  EXPECT_NE(Table.data_submit_async, &direct::dataSubmit);
  EXPECT_NE(Table.data_retrieve_async, &direct::dataRetrieve);
  EXPECT_NE(Table.launch_async, &direct::launch);
  EXPECT_EQ(Table.data_alloc, &direct::dataAlloc);

  int Src = 9, Dst = 0;
  void *Tgt =
      Table.data_alloc(Dev.get(), sizeof(int), nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_NE(Tgt, nullptr);
  __tgt_async_info A{};
  ASSERT_EQ(Table.data_submit_async(Dev.get(), Tgt, &Src, sizeof(int), &A), Ok);
  EXPECT_NE(A.Queue, nullptr) << "the construct takes the device's shared queue";
  ASSERT_EQ(Table.data_retrieve_async(Dev.get(), &Dst, Tgt, sizeof(int), &A), Ok);
  EXPECT_EQ(Dst, 9);
  EXPECT_EQ(Table.data_submit_async(Dev.get(), Tgt, &Src, 0, &A), Ok);  // nothing to do

  Status Checked = Dev->dataSubmit(nullptr, &Src, sizeof(int), &A);
  ASSERT_FALSE(Checked);
  testing::internal::CaptureStderr();
  EXPECT_EQ(Table.data_submit_async(Dev.get(), nullptr, &Src, sizeof(int), &A), Fail);
  const __tgt_kernel_launch
      Plain{OMPTARGET_KERNEL_LAUNCH_VERSION, 0, {1, 0, 0}, {0, 0, 0}, 0, 0, 0};
  EXPECT_EQ(Table.launch_async(Dev.get(), &Src, nullptr, nullptr, 0, &Plain, &A), Fail);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find(Checked.error().message()), std::string::npos) << Err;
  EXPECT_NE(Err.find("run_target_region: device 0: "), std::string::npos) << Err;
  EXPECT_NE(Err.find("is not a kernel loaded on this device"), std::string::npos) << Err;
  ASSERT_TRUE(Dev->synchronize(&A));
  EXPECT_EQ(Table.data_delete(Dev.get(), Tgt, nullptr), Ok);
}

// ---- Release ordered in the queue (asynchronous mode) ----

// Above the memory manager's threshold: released by the device, not cached.
constexpr int64_t kReleasedBytes = 64 * 1024;

// Opens when destroyed too, so a failed assertion never leaves a worker
// blocked (deinit drains every queue).
struct Gate {
  std::atomic<bool> Open{false};
  ~Gate() { open(); }
  void open() { Open.store(true, std::memory_order_release); }
  void waitOpen() const {
    while (!Open.load(std::memory_order_acquire)) std::this_thread::yield();
  }
};

// The block released on A stays allocated and intact while the work queued
// before the release has not run: a copy held back behind a gate still reads
// it after data_delete_async returned. The registry forgot the block at once:
// a second release, on the queue or synchronous, is an error, not a crash.
TEST_F(PluginAsyncDevice, ReleaseOnQueueWaitsForTheWorkQueuedBeforeIt) {
  start(asyncMode());
  const HostAllocations &Allocs = Dev->allocations();
  std::vector<char> Src(kReleasedBytes), Dst(kReleasedBytes, 0);
  for (size_t I = 0; I < Src.size(); ++I) Src[I] = static_cast<char>(I * 7 + 1);
  __tgt_async_info A{};
  Expected<void *> Tgt = Dev->dataAlloc(kReleasedBytes, nullptr, omptarget::abi::kAllocDefault, &A);
  ASSERT_TRUE(Tgt);
  ASSERT_NE(A.Queue, nullptr) << "an allocation on a queue takes the construct's queue";
  size_t Live = Allocs.liveBlocks();
  ASSERT_TRUE(Dev->dataSubmit(*Tgt, Src.data(), kReleasedBytes, &A));
  Gate G;
  auto &Q = *static_cast<HostQueue *>(A.Queue);
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&G] {
    G.waitOpen();
    return ok();
  }));
  ASSERT_TRUE(Dev->dataRetrieve(Dst.data(), *Tgt, kReleasedBytes, &A));
  size_t ReleasingBeforeTheRelease = 0;
  ASSERT_TRUE(Q.enqueue(HostOp{}, [&] {
    ReleasingBeforeTheRelease = Allocs.releasingBlocks();
    return ok();
  }));
  ASSERT_TRUE(Dev->dataDelete(*Tgt, &A));
  // Issued, not done: forgotten by the registry, not freed.
  EXPECT_EQ(Allocs.liveBlocks(), Live - 1);
  EXPECT_EQ(Allocs.releasingBlocks(), 1u);
  for (__tgt_async_info *Again : {&A, static_cast<__tgt_async_info *>(nullptr)}) {
    Status Twice = Dev->dataDelete(*Tgt, Again);
    ASSERT_FALSE(Twice);
    EXPECT_NE(Twice.error().message().find("not a live allocation"), std::string::npos)
        << Twice.error().message();
  }
  EXPECT_EQ(Allocs.releasingBlocks(), 1u);
  G.open();
  ASSERT_TRUE(Dev->synchronize(&A));
  EXPECT_EQ(ReleasingBeforeTheRelease, 1u);  // the worker reached the copy first
  EXPECT_EQ(std::memcmp(Src.data(), Dst.data(), Src.size()), 0);
  EXPECT_EQ(Allocs.releasingBlocks(), 0u);
  EXPECT_EQ(Allocs.liveBlocks(), Live - 1);
}

// A queue that failed skips its copies and kernels but still frees the
// memory released on it.
TEST_F(PluginAsyncDevice, ReleaseOnQueueRunsAfterAnError) {
  start(asyncMode());
  const HostAllocations &Allocs = Dev->allocations();
  size_t Live = Allocs.liveBlocks();
  __tgt_async_info A{};
  Expected<void *> Tgt = Dev->dataAlloc(kReleasedBytes, nullptr, omptarget::abi::kAllocDefault, &A);
  ASSERT_TRUE(Tgt);
  auto &Q = *static_cast<HostQueue *>(A.Queue);
  ASSERT_TRUE(Q.enqueue(HostOp{HostOp::Kernel, 0, "k"}, [] { return Status(makeError("boom")); }));
  ASSERT_TRUE(Dev->dataDelete(*Tgt, &A));
  Status S = Dev->synchronize(&A);
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("kernel k failed: boom"), std::string::npos);
  EXPECT_EQ(Allocs.releasingBlocks(), 0u);
  EXPECT_EQ(Allocs.liveBlocks(), Live);
}

// Releases still queued when the device goes (a queue never synchronized)
// run while deinit drains the queue: nothing leaks, nothing is freed twice.
TEST_F(PluginAsyncDevice, DeinitRunsQueuedReleases) {
  start(asyncMode(2000));
  __tgt_async_info A{};
  for (int I = 0; I < 3; ++I) {
    Expected<void *> Tgt =
        Dev->dataAlloc(kReleasedBytes, nullptr, omptarget::abi::kAllocDefault, &A);
    ASSERT_TRUE(Tgt);
    ASSERT_TRUE(Dev->dataDelete(*Tgt, &A));
  }
  EXPECT_GT(Dev->allocations().releasingBlocks(), 0u);  // 2 ms before each operation
  Status S = Dev->deinit();
  ASSERT_FALSE(S);  // A's queue is still in use
  EXPECT_EQ(Dev->allocations().releasingBlocks(), 0u);
  EXPECT_EQ(Dev->allocations().liveBlocks(), 0u);
  Dev.reset();
}

// Immediate mode: nothing is pending on its queue, a release frees at once.
TEST_F(PluginAsyncDevice, ImmediateModeReleasesAtOnce) {
  start(HostQueueMode{});
  const HostAllocations &Allocs = Dev->allocations();
  size_t Live = Allocs.liveBlocks();
  __tgt_async_info A{};
  Expected<void *> Tgt = Dev->dataAlloc(kReleasedBytes, nullptr, omptarget::abi::kAllocDefault, &A);
  ASSERT_TRUE(Tgt);
  char Byte = 1;
  ASSERT_TRUE(Dev->dataSubmit(*Tgt, &Byte, 1, &A));
  ASSERT_NE(A.Queue, nullptr);  // the shared queue
  ASSERT_TRUE(Dev->dataDelete(*Tgt, &A));
  EXPECT_EQ(Allocs.releasingBlocks(), 0u);
  EXPECT_EQ(Allocs.liveBlocks(), Live);
  ASSERT_FALSE(Dev->dataDelete(*Tgt, &A));
  ASSERT_TRUE(Dev->synchronize(&A));
}

// The generic direct table's data_delete with a queue takes the same route.
TEST_F(PluginAsyncDevice, DirectTableReleaseOnQueue) {
  constexpr int32_t Ok = omptarget::abi::kOffloadSuccess, Fail = omptarget::abi::kOffloadFail;
  start(asyncMode());
  __tgt_direct_device Table = genericDirectTable();
  Dev->specializeDirect(Table);
  __tgt_async_info A{};
  void *Tgt =
      Table.data_alloc(Dev.get(), kReleasedBytes, nullptr, omptarget::abi::kAllocDefault, &A);
  ASSERT_NE(Tgt, nullptr);
  Gate G;
  ASSERT_TRUE(static_cast<HostQueue *>(A.Queue)->enqueue(HostOp{}, [&G] {
    G.waitOpen();
    return ok();
  }));
  EXPECT_EQ(Table.data_delete(Dev.get(), Tgt, &A), Ok);
  EXPECT_EQ(Dev->allocations().releasingBlocks(), 1u);
  testing::internal::CaptureStderr();
  EXPECT_EQ(Table.data_delete(Dev.get(), Tgt, &A), Fail);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("not a live allocation"), std::string::npos) << Err;
  G.open();
  ASSERT_TRUE(Dev->synchronize(&A));
  EXPECT_EQ(Dev->allocations().releasingBlocks(), 0u);
}

TEST_F(PluginAsyncDevice, AsyncModeKeepsTheGenericDirectTable) {
  namespace direct = omptarget::plugin::direct;
  start(asyncMode());
  __tgt_direct_device Table = genericDirectTable();
  Dev->specializeDirect(Table);
  EXPECT_EQ(Table.data_submit_async, &direct::dataSubmit);
  EXPECT_EQ(Table.data_retrieve_async, &direct::dataRetrieve);
  EXPECT_EQ(Table.launch_async, &direct::launch);
}

}  // namespace
