// The MPI transport's progress thread (src/plugins/mpi/progress_engine.h)
// with fake work instead of MPI requests. Asserted: work added is moved
// until it says it is finished, then never touched again; work a waiting
// thread holds (tryProgress answers at once) is passed over and finished
// later; stop() ends the thread, after which nothing is called and add()
// is ignored. Runs under TSan in the unit-test stage (scripts/test.sh).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "progress_engine.h"

namespace {

using namespace omptarget::mpi;
using namespace std::chrono_literals;

// Finished after Steps calls; counts every call.
class Steps final : public Progressable {
 public:
  explicit Steps(int N) : Left_(N) {}
  bool tryProgress() override {
    Calls.fetch_add(1);
    if (Held.load()) return false;
    return Left_.fetch_sub(1) <= 1;
  }
  std::atomic<int> Calls{0};
  std::atomic<bool> Held{false};

 private:
  std::atomic<int> Left_;
};

// Polls Pred for up to 10 s (the thread may be descheduled for a while on
// a loaded machine).
template <typename P>
bool eventually(P Pred) {
  const auto End = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < End) {
    if (Pred()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return Pred();
}

TEST(MpiProgressEngine, MovesWorkUntilFinishedThenDropsIt) {
  for (bool Yield : {false, true}) {
    ProgressEngine E;
    E.setYield(Yield);
    std::vector<std::shared_ptr<Steps>> Work;
    for (int N : {1, 5, 50}) {
      Work.push_back(std::make_shared<Steps>(N));
      E.add(Work.back());
    }
    for (const auto &W : Work) {
      ASSERT_TRUE(eventually([&] { return W->Calls.load() >= 1; }));
    }
    ASSERT_TRUE(eventually([&] { return Work[2]->Calls.load() == 50; }));
    EXPECT_EQ(Work[0]->Calls.load(), 1);
    EXPECT_EQ(Work[1]->Calls.load(), 5);
    // Finished: dropped by the engine (only this test holds them now), and
    // not called again.
    ASSERT_TRUE(eventually([&] {
      for (const auto &W : Work)
        if (W.use_count() != 1) return false;
      return true;
    }));
    std::this_thread::sleep_for(5ms);
    EXPECT_EQ(Work[2]->Calls.load(), 50);
  }
}

TEST(MpiProgressEngine, HeldWorkIsRetriedAndNothingRunsAfterStop) {
  ProgressEngine E;
  auto W = std::make_shared<Steps>(1);
  W->Held = true;  // a waiting thread has it
  E.add(W);
  ASSERT_TRUE(eventually([&] { return W->Calls.load() >= 3; }));
  W->Held = false;
  ASSERT_TRUE(eventually([&] { return W.use_count() == 1; }));

  auto Late = std::make_shared<Steps>(1000000);
  E.add(Late);
  ASSERT_TRUE(eventually([&] { return Late->Calls.load() >= 1; }));
  E.stop();
  const int Calls = Late->Calls.load();
  EXPECT_EQ(Late.use_count(), 1);  // the engine let it go
  auto AfterStop = std::make_shared<Steps>(1);
  E.add(AfterStop);
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(AfterStop->Calls.load(), 0);
  EXPECT_EQ(Late->Calls.load(), Calls);
}

}  // namespace
