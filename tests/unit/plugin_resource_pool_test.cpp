// Unit tests of plugin-common's ResourcePool.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "resource_pool.h"

using omptarget::Error;
using omptarget::Expected;
using omptarget::Status;
using omptarget::plugin::ResourcePool;

namespace {

// Hands out increasing integers; can be told to fail. The pool runs its
// create hook outside its lock, so the hook must be thread safe.
struct Counter {
  std::atomic<int> Next{1};
  std::atomic<int> Destroyed{0};
  std::atomic<bool> FailCreate{false};
  ResourcePool<int> makePool() {
    return ResourcePool<int>(
        "widget",
        [this]() -> Expected<int> {
          if (FailCreate) return Error("no more widgets");
          return Next++;
        },
        [this](int) -> Status {
          ++Destroyed;
          return {};
        });
  }
};

TEST(PluginResourcePool, InitCreatesInitialResources) {
  Counter C;
  auto Pool = C.makePool();
  ASSERT_TRUE(Pool.init(3));
  EXPECT_EQ(Pool.numCreated(), 3u);
  EXPECT_EQ(Pool.numFree(), 3u);
  EXPECT_TRUE(Pool.deinit());
  EXPECT_EQ(C.Destroyed, 3);
}

TEST(PluginResourcePool, GrowsOnDemandAndReuses) {
  Counter C;
  auto Pool = C.makePool();
  ASSERT_TRUE(Pool.init(1));
  Expected<int> A = Pool.acquire(), B = Pool.acquire();
  ASSERT_TRUE(A);
  ASSERT_TRUE(B);
  EXPECT_NE(*A, *B);
  EXPECT_EQ(Pool.numCreated(), 2u);
  EXPECT_EQ(Pool.numInUse(), 2u);
  ASSERT_TRUE(Pool.giveBack(*B));
  Expected<int> D = Pool.acquire();
  ASSERT_TRUE(D);
  EXPECT_EQ(*D, *B);  // reused, not created
  EXPECT_EQ(Pool.numCreated(), 2u);
  ASSERT_TRUE(Pool.giveBack(*A));
  ASSERT_TRUE(Pool.giveBack(*D));
  EXPECT_TRUE(Pool.deinit());
}

TEST(PluginResourcePool, ZeroInitialSizeIsFine) {
  Counter C;
  auto Pool = C.makePool();
  ASSERT_TRUE(Pool.init(0));
  EXPECT_EQ(Pool.numCreated(), 0u);
  ASSERT_TRUE(Pool.acquire());
  EXPECT_EQ(Pool.numCreated(), 1u);
}

TEST(PluginResourcePool, ReleaseOfUnknownOrTwiceIsAnError) {
  Counter C;
  auto Pool = C.makePool();
  ASSERT_TRUE(Pool.init(1));
  Status S = Pool.giveBack(42);
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("widget"), std::string::npos);
  Expected<int> A = Pool.acquire();
  ASSERT_TRUE(A);
  ASSERT_TRUE(Pool.giveBack(*A));
  EXPECT_FALSE(Pool.giveBack(*A));
  EXPECT_EQ(Pool.numFree(), 1u);  // unchanged by the bad release
}

TEST(PluginResourcePool, CreationFailureIsReported) {
  Counter C;
  C.FailCreate = true;
  auto Pool = C.makePool();
  Status S = Pool.init(2);
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("no more widgets"), std::string::npos);
  Expected<int> A = Pool.acquire();
  ASSERT_FALSE(A);
  EXPECT_NE(A.error().message().find("no more widgets"), std::string::npos);
}

TEST(PluginResourcePool, DeinitDestroysResourcesStillInUse) {
  Counter C;
  auto Pool = C.makePool();
  ASSERT_TRUE(Pool.init(2));
  ASSERT_TRUE(Pool.acquire());
  Status S = Pool.deinit();
  EXPECT_FALSE(S);
  EXPECT_NE(S.error().message().find("still in use"), std::string::npos);
  EXPECT_EQ(C.Destroyed, 2);
  EXPECT_EQ(Pool.numCreated(), 0u);
}

TEST(PluginResourcePool, ConcurrentAcquireReleaseNeverSharesAResource) {
  Counter C;
  auto Pool = C.makePool();
  ASSERT_TRUE(Pool.init(1));
  constexpr int kThreads = 8, kRounds = 2000;
  std::vector<std::atomic<int>> Owners(kThreads * kRounds + 2);
  std::atomic<int> Errors{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&] {
      for (int R = 0; R < kRounds; ++R) {
        Expected<int> H = Pool.acquire();
        if (!H) {
          ++Errors;
          continue;
        }
        if (Owners[*H].fetch_add(1) != 0) ++Errors;  // someone else holds it
        Owners[*H].fetch_sub(1);
        if (!Pool.giveBack(*H)) ++Errors;
      }
    });
  for (auto &T : Threads) T.join();
  EXPECT_EQ(Errors.load(), 0);
  EXPECT_LE(Pool.numCreated(), static_cast<size_t>(kThreads));
  EXPECT_EQ(Pool.numInUse(), 0u);
  EXPECT_TRUE(Pool.deinit());
}

}  // namespace
