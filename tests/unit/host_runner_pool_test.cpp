// Unit tests of the host plugin's RunnerPool (runner_pool.h): calls run on a
// thread other than the caller's and return their status; one runner is
// reused by consecutive calls; concurrent callers each get a runner of their
// own (they never wait for each other's calls, checked by calls that only
// return once all of them run at the same time); a call may itself call
// run(); the destructor joins every runner. Runs under TSan in CI, which
// checks the hand-off of the call and its result between the two threads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "runner_pool.h"

using namespace omptarget;
using namespace omptarget::host;

namespace {

TEST(HostRunnerPool, RunsOnAnotherThreadAndReturnsTheStatus) {
  RunnerPool Pool;
  std::thread::id Ran;
  int Value = 0;  // written by the runner, read here after run() returned
  ASSERT_TRUE(Pool.run([&]() -> Status {
    Ran = std::this_thread::get_id();
    Value = 42;
    return {};
  }));
  EXPECT_NE(Ran, std::this_thread::get_id());
  EXPECT_EQ(Value, 42);
  Status Failed = Pool.run([]() -> Status { return makeError("kernel %d failed", 7); });
  ASSERT_FALSE(Failed);
  EXPECT_EQ(Failed.error().message(), "kernel 7 failed");
}

TEST(HostRunnerPool, ConsecutiveCallsReuseOneRunner) {
  RunnerPool Pool;
  std::set<std::thread::id> Seen;
  for (int I = 0; I < 1000; ++I)
    ASSERT_TRUE(Pool.run([&]() -> Status {
      Seen.insert(std::this_thread::get_id());
      return {};
    }));
  EXPECT_EQ(Seen.size(), 1u);
  EXPECT_EQ(Pool.threadCount(), 1u);
}

// Each call waits until all kCallers calls are running at once: a pool that
// made one caller wait for another's call would never get there (the wait is
// bounded, so such a pool fails instead of hanging).
TEST(HostRunnerPool, ConcurrentCallersRunAtTheSameTime) {
  constexpr int kCallers = 6;
  constexpr int kRounds = 20;
  RunnerPool Pool;
  std::atomic<int> Failures{0};
  for (int Round = 0; Round < kRounds; ++Round) {
    std::atomic<int> Running{0};
    std::vector<std::thread> Callers;
    for (int C = 0; C < kCallers; ++C)
      Callers.emplace_back([&] {
        Status S = Pool.run([&]() -> Status {
          Running.fetch_add(1);
          auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
          while (Running.load() < kCallers) {
            if (std::chrono::steady_clock::now() > Until) return makeError("calls were serialized");
            std::this_thread::yield();
          }
          return {};
        });
        if (!S) Failures.fetch_add(1);
      });
    for (std::thread &T : Callers) T.join();
    ASSERT_EQ(Failures.load(), 0) << "round " << Round;
  }
  // Runners are reused across rounds: never more than the callers of one.
  EXPECT_EQ(Pool.threadCount(), static_cast<size_t>(kCallers));
}

TEST(HostRunnerPool, ACallMayRunAnotherCall) {
  RunnerPool Pool;
  std::thread::id Outer, Inner;
  ASSERT_TRUE(Pool.run([&]() -> Status {
    Outer = std::this_thread::get_id();
    return Pool.run([&]() -> Status {
      Inner = std::this_thread::get_id();
      return {};
    });
  }));
  EXPECT_NE(Outer, Inner);
  EXPECT_EQ(Pool.threadCount(), 2u);
}

// Many threads, many short calls, each writing its caller's slot: every call
// runs once and its effect is visible to its caller when run() returns.
TEST(HostRunnerPool, ManyShortCallsFromManyThreads) {
  constexpr int kCallers = 4;
  constexpr int kCalls = 2000;
  RunnerPool Pool;
  std::vector<long> Sums(kCallers, 0);
  std::vector<std::thread> Callers;
  for (int C = 0; C < kCallers; ++C)
    Callers.emplace_back([&, C] {
      for (int I = 1; I <= kCalls; ++I) {
        long Before = Sums[C];
        ASSERT_TRUE(Pool.run([&]() -> Status {
          Sums[C] += I;
          return {};
        }));
        ASSERT_EQ(Sums[C], Before + I);
      }
    });
  for (std::thread &T : Callers) T.join();
  for (long S : Sums) EXPECT_EQ(S, static_cast<long>(kCalls) * (kCalls + 1) / 2);
  EXPECT_LE(Pool.threadCount(), static_cast<size_t>(kCallers));
}

}  // namespace
