// CondVar: a waiter on a FutexMutex's condition is woken by notify_one /
// notify_all and never sleeps through a notify (a ping-pong of many rounds
// would hang), and several waiters all wake on notify_all. Written the way
// the runtime uses it (guarded state, a wait loop), so the thread-safety
// analysis checks the test too. Runs under TSan in CI.
#include "cond_var.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "futex_mutex.h"
#include "scoped_lock.h"

namespace omptarget {
namespace {

class PingPong {
 public:
  // Thread Side (0 or 1) waits for its turn, then hands it over, Rounds times.
  void play(int Side, int Rounds) {
    for (int R = 0; R < Rounds; ++R) {
      ScopedLock Lock(M_);
      while (Turn_ != Side) Cv_.wait(M_);
      Turn_ = 1 - Side;
      ++Moves_;
      Cv_.notify_one();
    }
  }
  int moves() {
    ScopedLock Lock(M_);
    return Moves_;
  }

 private:
  FutexMutex M_;
  CondVar Cv_;
  int Turn_ GUARDED_BY(M_) = 0;
  int Moves_ GUARDED_BY(M_) = 0;
};

TEST(CondVar, PingPongNeverMissesANotify) {
  PingPong P;
  constexpr int kRounds = 20000;
  std::thread A([&] { P.play(0, kRounds); });
  std::thread B([&] { P.play(1, kRounds); });
  A.join();
  B.join();
  EXPECT_EQ(P.moves(), 2 * kRounds);
}

class Gate {
 public:
  void waitOpen() {
    ScopedLock Lock(M_);
    ++Waiting_;
    Cv_.notify_all();  // for waitForWaiters
    while (!Open_) Cv_.wait(M_);
    ++Passed_;
  }
  void waitForWaiters(int N) {
    ScopedLock Lock(M_);
    while (Waiting_ < N) Cv_.wait(M_);
  }
  void open() {
    {
      ScopedLock Lock(M_);
      Open_ = true;
    }
    Cv_.notify_all();  // outside the lock, as HostQueue's push does
  }
  int passed() {
    ScopedLock Lock(M_);
    return Passed_;
  }

 private:
  FutexMutex M_;
  CondVar Cv_;
  bool Open_ GUARDED_BY(M_) = false;
  int Waiting_ GUARDED_BY(M_) = 0;
  int Passed_ GUARDED_BY(M_) = 0;
};

TEST(CondVar, NotifyAllWakesEveryWaiter) {
  Gate G;
  constexpr int kWaiters = 6;
  std::vector<std::thread> Threads;
  for (int I = 0; I < kWaiters; ++I) Threads.emplace_back([&] { G.waitOpen(); });
  G.waitForWaiters(kWaiters);
  G.open();
  for (auto &T : Threads) T.join();
  EXPECT_EQ(G.passed(), kWaiters);
}

}  // namespace
}  // namespace omptarget
