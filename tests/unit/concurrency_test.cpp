// Many threads mapping and unmapping overlapping sets of host arrays on one
// device. Meant to run under TSan too (OMPTARGET_SANITIZER=thread).
#include <algorithm>
#include <atomic>
#include <random>
#include <thread>

#include "fake_plugin.h"

using namespace omptarget::abi;

namespace {

constexpr int kThreads = 8;
constexpr int kArrays = 16;
constexpr int kInts = 64;
constexpr int kIterations = 2000;  // per thread

int Arrays[kArrays][kInts];

int expected(int Array, int I) { return Array * 1000 + I; }

class ConcurrencyTest : public RuntimeTest, public ::testing::WithParamInterface<bool> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam() ? fake::Personality::Async : fake::Personality::Sync;
    C.DelayUs = 5;  // widen the windows between a copy's issue and its completion
    return C;
  }

  void worker(int Seed, std::atomic<int> &Failures) {
    std::mt19937 Rng(static_cast<unsigned>(Seed));
    std::vector<int> Order(kArrays);
    for (int I = 0; I < kArrays; ++I) Order[I] = I;
    for (int It = 0; It < kIterations; ++It) {
      std::shuffle(Order.begin(), Order.end(), Rng);
      int N = 1 + static_cast<int>(Rng() % 4);
      bool Hold = Rng() % 4 == 0;
      std::vector<Arg> Args;
      for (int K = 0; K < N; ++K) {
        int64_t Type =
            (Rng() % 2 ? kMapTo : kMapTo | kMapFrom) | (Hold ? int64_t(kMapOmpxHold) : int64_t(0));
        Args.push_back(map(Arrays[Order[K]], sizeof Arrays[0], Type));
      }
      if (!begin(Args)) {
        ++Failures;
        continue;
      }
      // While this thread holds a reference the device copy must be complete.
      for (int K = 0; K < N; ++K) {
        EntryInfo E = entry(Arrays[Order[K]], sizeof Arrays[0]);
        if (!E.Mapped || (Hold ? E.Hold : E.Dyn) == 0) {
          ++Failures;
          continue;
        }
        const int *Dev = static_cast<const int *>(E.Tgt);
        for (int I = 0; I < kInts; ++I)
          if (Dev[I] != expected(Order[K], I)) {
            ++Failures;
            break;
          }
      }
      std::shuffle(Args.begin(), Args.end(), Rng);  // exit in another order
      if (!end(Args)) ++Failures;
    }
  }
};

TEST_P(ConcurrencyTest, OverlappingMapUnmap) {
  for (int A = 0; A < kArrays; ++A)
    for (int I = 0; I < kInts; ++I) Arrays[A][I] = expected(A, I);
  std::atomic<int> Failures{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([this, T, &Failures] { worker(1234 + T, Failures); });
  for (auto &Th : Threads) Th.join();
  EXPECT_EQ(Failures.load(), 0);
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveAllocations(), 0u);
  auto C = fake::counters();
  EXPECT_EQ(C.Alloc, C.Delete);
  EXPECT_GT(C.Alloc, 0u);
  for (int A = 0; A < kArrays; ++A)
    for (int I = 0; I < kInts; ++I) ASSERT_EQ(Arrays[A][I], expected(A, I));
}

INSTANTIATE_TEST_SUITE_P(Plugin, ConcurrencyTest, ::testing::Values(true, false),
                         [](const auto &Info) { return Info.param ? "Async" : "Sync"; });

}  // namespace
