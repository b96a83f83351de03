// FutexMutex: mutual exclusion under contention, both through the spin and
// through the sleep (a holder that blocks long enough for waiters to sleep
// in the kernel), and try_lock. Runs under TSan in CI too.
#include "futex_mutex.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace omptarget {
namespace {

TEST(FutexMutex, CountsExactlyUnderContention) {
  FutexMutex M;
  long Counter = 0;  // plain: only the lock protects it
  constexpr int kThreads = 8, kIters = 20000;
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < kIters; ++I) {
        std::lock_guard Lock(M);
        ++Counter;
      }
    });
  for (auto &T : Threads) T.join();
  EXPECT_EQ(Counter, long{kThreads} * kIters);
}

TEST(FutexMutex, WaitersThatSleepAreWokenInTurn) {
  FutexMutex M;
  std::atomic<int> Inside{0};
  int MaxInside = 0, Entered = 0;
  constexpr int kThreads = 4, kRounds = 20;
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&] {
      for (int R = 0; R < kRounds; ++R) {
        std::lock_guard Lock(M);
        int Now = ++Inside;
        if (Now > MaxInside) MaxInside = Now;
        ++Entered;
        // Long enough that the others leave their spin and sleep.
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        --Inside;
      }
    });
  for (auto &T : Threads) T.join();
  EXPECT_EQ(MaxInside, 1);
  EXPECT_EQ(Entered, kThreads * kRounds);
}

TEST(FutexMutex, TryLockFailsWhileHeld) {
  FutexMutex M;
  // Branches on try_lock itself, so that the thread-safety analysis sees
  // which paths hold M.
  if (!M.try_lock()) FAIL() << "try_lock of a free mutex failed";
  std::thread Other([&] { EXPECT_FALSE(M.try_lock()); });
  Other.join();
  M.unlock();
  std::thread Again([&] {
    if (!M.try_lock()) {
      ADD_FAILURE() << "try_lock after unlock failed";
      return;
    }
    M.unlock();
  });
  Again.join();
}

}  // namespace
}  // namespace omptarget
