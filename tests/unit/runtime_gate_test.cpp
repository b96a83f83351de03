// The runtime's shutdown gate (src/core/runtime.h): stop() waits for the
// calls in flight on other threads, refuses later calls, never destroys the
// runtime under a call of its own thread, and gives up waiting (leaving the
// runtime in place) after Runtime::kShutdownWaitMs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime.h"

using namespace omptarget::core;
using Clock = std::chrono::steady_clock;

namespace {

// Starts the runtime; the test's end leaves it stopped and destroyed, as the
// fixtures of the other tests expect to find it.
class RuntimeGate : public ::testing::Test {
 protected:
  void SetUp() override { Runtime::start(); }
  void TearDown() override {
    Runtime::start();  // a test may have left the gate closed
    Runtime::stop();
  }
};

// A thread that holds a RuntimeUse from its start until release().
class Holder {
 public:
  Holder() {
    T_ = std::thread([this] {
      RuntimeUse Use;
      Held_.store(static_cast<bool>(Use));
      Entered_.store(true);
      while (!Release_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      Released_.store(true);  // before ~RuntimeUse gives the hold back
    });
    while (!Entered_.load()) std::this_thread::yield();
  }
  ~Holder() {
    release();
    T_.join();
  }
  void release() { Release_.store(true); }
  bool held() const { return Held_.load(); }
  bool released() const { return Released_.load(); }

 private:
  std::atomic<bool> Entered_{false}, Held_{false}, Release_{false}, Released_{false};
  std::thread T_;
};

TEST_F(RuntimeGate, StopWaitsForOtherThreadsCallsThenRefusesNewOnes) {
  Runtime *Before = &Runtime::get();
  Holder H;
  ASSERT_TRUE(H.held());
  std::thread Releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    H.release();
  });
  Runtime::stop();
  // stop() returned only after the other thread's call ended.
  EXPECT_TRUE(H.released());
  Releaser.join();
  EXPECT_TRUE(Runtime::stopped());
  RuntimeUse Late;
  EXPECT_FALSE(static_cast<bool>(Late)) << "a call after stop() must be refused";
  // start() opens the gate again (tests restart the runtime).
  Runtime::start();
  RuntimeUse Again;
  EXPECT_TRUE(static_cast<bool>(Again));
  EXPECT_NE(&Runtime::get(), nullptr);
  (void)Before;
}

TEST_F(RuntimeGate, StopInsideACallLeavesTheRuntimeInPlace) {
  Runtime *Before = &Runtime::get();
  {
    RuntimeUse Outer;
    ASSERT_TRUE(static_cast<bool>(Outer));
    RuntimeUse Nested;  // a nested call shares the outer hold
    ASSERT_TRUE(static_cast<bool>(Nested));
    auto T0 = Clock::now();
    Runtime::stop();  // exit() from inside a call: must not wait for itself
    EXPECT_LT(Clock::now() - T0, std::chrono::milliseconds(Runtime::kShutdownWaitMs / 2));
    EXPECT_EQ(&Runtime::get(), Before) << "the runtime was destroyed under its caller";
    RuntimeUse AfterStop;  // still inside the outer call: nested calls share its hold
    EXPECT_TRUE(static_cast<bool>(AfterStop)) << "nested in a held call: shares the hold";
  }
  RuntimeUse Late;
  EXPECT_FALSE(static_cast<bool>(Late));
}

TEST_F(RuntimeGate, StopGivesUpAfterTheWaitAndLeavesTheRuntimeInPlace) {
  Runtime *Before = &Runtime::get();
  Holder H;  // never released during stop()
  auto T0 = Clock::now();
  Runtime::stop();
  auto Waited = Clock::now() - T0;
  EXPECT_GE(Waited, std::chrono::milliseconds(Runtime::kShutdownWaitMs));
  EXPECT_FALSE(H.released());
  EXPECT_EQ(&Runtime::get(), Before) << "destroyed while another thread was inside a call";
}

TEST_F(RuntimeGate, NestedCallsOnOneThreadCountOnce) {
  {
    RuntimeUse A;
    RuntimeUse B;
    ASSERT_TRUE(static_cast<bool>(A) && static_cast<bool>(B));
  }
  // Both released: stop() must not wait at all.
  auto T0 = Clock::now();
  Runtime::stop();
  EXPECT_LT(Clock::now() - T0, std::chrono::milliseconds(Runtime::kShutdownWaitMs / 2));
}

}  // namespace
