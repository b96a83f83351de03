// Unit tests of plugin-common's MemoryManager (the per-device cache of small
// freed blocks), alone on a fake allocator and behind a GenericDevice.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "generic_plugin.h"
#include "memory_manager.h"

using namespace omptarget;
using namespace omptarget::plugin;

namespace {

// The state of a fake backend with a capacity in blocks; records every call.
// Pooled models a driver memory pool: blocks it keeps count against the
// capacity until the trim hook gives them back.
struct FakeAllocator {
  size_t Capacity = 1000;  // blocks that may be live at once
  size_t Pooled = 0;
  bool Quarantine = false;  // freed blocks are not reused (their addresses stay unique)
  std::vector<void *> Quarantined;
  std::mutex Mutex;
  std::set<void *> Live;
  std::vector<size_t> AllocSizes;
  int Allocs = 0, Frees = 0, Failures = 0, Trims = 0;

  ~FakeAllocator() {
    for (void *P : Live) std::free(P);
    for (void *P : Quarantined) std::free(P);
  }
};

// MemoryManager is not movable: the fixture builds it in place on A.
class MemoryManagerTest : public ::testing::Test {
 protected:
  FakeAllocator A;
  MemoryManager MM{[this](size_t S) { return backendAlloc(S); },
                   [this](void *P) { return backendFree(P); }, [this] { backendTrim(); }};
  Expected<void *> backendAlloc(size_t Size) {
    std::lock_guard Lock(A.Mutex);
    if (A.Live.size() + A.Pooled >= A.Capacity) {
      ++A.Failures;
      return Error("out of fake device memory");
    }
    void *P = std::malloc(Size ? Size : 1);
    A.Live.insert(P);
    A.AllocSizes.push_back(Size);
    ++A.Allocs;
    return P;
  }
  Status backendFree(void *P) {
    std::lock_guard Lock(A.Mutex);
    if (A.Live.erase(P) == 0) return Error("fake backend: unknown pointer");
    if (A.Quarantine)
      A.Quarantined.push_back(P);
    else
      std::free(P);
    ++A.Frees;
    return {};
  }
  void backendTrim() {
    std::lock_guard Lock(A.Mutex);
    ++A.Trims;
    A.Pooled = 0;
  }
  void SetUp() override { MM.setThreshold(MemoryManager::kDefaultThreshold); }
  void TearDown() override { EXPECT_TRUE(MM.deinit()); }
};

TEST_F(MemoryManagerTest, FreedBlocksAreReused) {
  Expected<void *> P = MM.allocate(100);
  ASSERT_TRUE(P);
  EXPECT_EQ(A.Allocs, 1);
  EXPECT_EQ(MM.numHandedOut(), 1u);
  EXPECT_TRUE(MM.owns(*P));
  Expected<bool> Taken = MM.deallocate(*P);
  ASSERT_TRUE(Taken);
  EXPECT_TRUE(*Taken);
  EXPECT_EQ(A.Frees, 0);  // kept, not given back
  EXPECT_EQ(MM.numCached(), 1u);
  EXPECT_EQ(MM.numHandedOut(), 0u);
  EXPECT_EQ(MM.cachedBytes(), 128u);
  EXPECT_TRUE(MM.owns(*P));               // cached blocks are still the cache's
  Expected<void *> Q = MM.allocate(128);  // same class (65..128)
  ASSERT_TRUE(Q);
  EXPECT_EQ(*Q, *P);
  EXPECT_EQ(A.Allocs, 1);
  EXPECT_EQ(MM.numCached(), 0u);
  ASSERT_TRUE(MM.deallocate(*Q));
}

TEST_F(MemoryManagerTest, InlineHalvesTakeAndKeepBlocks) {
  EXPECT_EQ(MM.takeCached(100), nullptr);  // nothing cached yet
  Expected<void *> P = MM.allocate(100);
  ASSERT_TRUE(P);
  EXPECT_TRUE(MM.tryKeep(*P));
  EXPECT_FALSE(MM.tryKeep(*P));  // cached: not live, nothing changed
  EXPECT_EQ(MM.numCached(), 1u);
  EXPECT_EQ(MM.takeCached(64), nullptr);  // another class
  EXPECT_EQ(MM.takeCached(120), *P);
  EXPECT_EQ(MM.takeCached(120), nullptr);
  EXPECT_EQ(MM.numHandedOut(), 1u);
  int X;
  EXPECT_FALSE(MM.tryKeep(&X));
  // Last freed, first reused (LIFO), within a class.
  Expected<void *> Q = MM.allocate(100);
  ASSERT_TRUE(Q);
  EXPECT_NE(*Q, *P);
  EXPECT_TRUE(MM.tryKeep(*P));
  EXPECT_TRUE(MM.tryKeep(*Q));
  EXPECT_EQ(MM.takeCached(100), *Q);
  EXPECT_EQ(MM.takeCached(100), *P);
  EXPECT_EQ(A.Allocs, 2);
  ASSERT_TRUE(MM.deallocate(*P));
  ASSERT_TRUE(MM.deallocate(*Q));
}

TEST_F(MemoryManagerTest, SizeClassesArePowersOfTwoFrom64) {
  EXPECT_EQ(MemoryManager::classOf(0), 0u);
  EXPECT_EQ(MemoryManager::classOf(1), 0u);
  EXPECT_EQ(MemoryManager::classOf(64), 0u);
  EXPECT_EQ(MemoryManager::classOf(65), 1u);
  EXPECT_EQ(MemoryManager::classOf(128), 1u);
  EXPECT_EQ(MemoryManager::classOf(129), 2u);
  EXPECT_EQ(MemoryManager::classOf(8192), 7u);
  EXPECT_EQ(MemoryManager::classOf(size_t{1} << 30), 24u);
  EXPECT_EQ(MemoryManager::classSize(0), 64u);
  EXPECT_EQ(MemoryManager::classSize(7), 8192u);
  for (size_t S : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000},
                   size_t{4097}, size_t{8192}})
    EXPECT_GE(MemoryManager::classSize(MemoryManager::classOf(S)), S) << S;

  // The backend is asked for the class size; another class is not reused.
  Expected<void *> Small = MM.allocate(10);
  ASSERT_TRUE(Small);
  EXPECT_EQ(A.AllocSizes.back(), 64u);
  ASSERT_TRUE(MM.deallocate(*Small));
  Expected<void *> Big = MM.allocate(3000);
  ASSERT_TRUE(Big);
  EXPECT_NE(*Big, *Small);
  EXPECT_EQ(A.AllocSizes.back(), 4096u);
  EXPECT_EQ(A.Allocs, 2);
  // Zero bytes still gets a distinct non-null block.
  Expected<void *> Zero = MM.allocate(0);
  ASSERT_TRUE(Zero);
  EXPECT_EQ(*Zero, *Small);  // class 0, reused
  ASSERT_TRUE(MM.deallocate(*Big));
  ASSERT_TRUE(MM.deallocate(*Zero));
  EXPECT_EQ(MM.numCached(), 2u);
  EXPECT_EQ(MM.cachedBytes(), 64u + 4096u);
}

TEST_F(MemoryManagerTest, ThresholdBoundsTheCachedSizes) {
  EXPECT_TRUE(MM.handles(0));
  EXPECT_TRUE(MM.handles(8192));
  EXPECT_FALSE(MM.handles(8193));
  MM.setThreshold(100);
  EXPECT_TRUE(MM.handles(100));
  EXPECT_FALSE(MM.handles(101));
  MM.setThreshold(size_t{1} << 40);
  EXPECT_EQ(MM.threshold(), MemoryManager::kMaxThreshold);
}

TEST_F(MemoryManagerTest, ThresholdZeroDisablesTheCache) {
  MM.setThreshold(0);
  EXPECT_FALSE(MM.handles(0));
  EXPECT_FALSE(MM.handles(1));
  int X;
  Expected<bool> Taken = MM.deallocate(&X);
  ASSERT_TRUE(Taken);
  EXPECT_FALSE(*Taken);
  EXPECT_EQ(MM.numCached(), 0u);
}

TEST_F(MemoryManagerTest, ForeignPointersAreLeftToTheCaller) {
  int X;
  Expected<bool> Taken = MM.deallocate(&X);
  ASSERT_TRUE(Taken);
  EXPECT_FALSE(*Taken);
  EXPECT_FALSE(MM.owns(&X));
  EXPECT_EQ(A.Frees, 0);
  // A pointer inside a cache block is not the block.
  Expected<void *> P = MM.allocate(200);
  ASSERT_TRUE(P);
  void *Inside = static_cast<char *>(*P) + 8;
  Taken = MM.deallocate(Inside);
  ASSERT_TRUE(Taken);
  EXPECT_FALSE(*Taken);
  EXPECT_EQ(MM.numHandedOut(), 1u);
  ASSERT_TRUE(MM.deallocate(*P));
  EXPECT_EQ(MM.numCached(), 1u);
}

TEST_F(MemoryManagerTest, DoubleFreeOfACachedBlockIsAnError) {
  Expected<void *> P = MM.allocate(32);
  ASSERT_TRUE(P);
  ASSERT_TRUE(MM.deallocate(*P));
  Expected<bool> Again = MM.deallocate(*P);
  ASSERT_FALSE(Again);
  EXPECT_NE(Again.error().message().find("already freed"), std::string::npos);
  EXPECT_EQ(MM.numCached(), 1u);  // unchanged: still one cached block
  EXPECT_EQ(MM.numHandedOut(), 0u);
  // Still detected after the block was handed out and freed again.
  Expected<void *> Q = MM.allocate(32);
  ASSERT_TRUE(Q);
  EXPECT_EQ(*Q, *P);
  ASSERT_TRUE(MM.deallocate(*Q));
  EXPECT_FALSE(MM.deallocate(*Q));
}

TEST_F(MemoryManagerTest, OutOfMemoryReleasesTheCacheTrimsAndRetriesOnce) {
  A.Capacity = 2;
  Expected<void *> P = MM.allocate(10), Q = MM.allocate(20);
  ASSERT_TRUE(P);
  ASSERT_TRUE(Q);
  ASSERT_TRUE(MM.deallocate(*P));
  ASSERT_TRUE(MM.deallocate(*Q));
  EXPECT_EQ(MM.numCached(), 2u);
  EXPECT_EQ(A.Trims, 0);
  // Another class: the backend is full of cached blocks, fails once, gets
  // them back (and a trim) and succeeds on the retry.
  Expected<void *> R = MM.allocate(1000);
  ASSERT_TRUE(R);
  EXPECT_EQ(A.Failures, 1);
  EXPECT_EQ(A.Frees, 2);
  EXPECT_EQ(A.Trims, 1);
  EXPECT_EQ(A.Allocs, 3);
  EXPECT_EQ(MM.numCached(), 0u);
  EXPECT_EQ(MM.cachedBytes(), 0u);
  EXPECT_EQ(MM.numHandedOut(), 1u);
  // A released block is forgotten: freeing it again goes to the caller.
  EXPECT_FALSE(MM.owns(*P));
  Expected<bool> Old = MM.deallocate(*P);
  ASSERT_TRUE(Old);
  EXPECT_FALSE(*Old);
  ASSERT_TRUE(MM.deallocate(*R));
  // The cache works on after the release.
  Expected<void *> S = MM.allocate(10);
  ASSERT_TRUE(S);
  ASSERT_TRUE(MM.deallocate(*S));
  EXPECT_EQ(MM.numCached(), 2u);
}

TEST_F(MemoryManagerTest, OutOfMemoryTrimsTheDriverPoolEvenWithNothingCached) {
  // The backend's pool holds the only free block: only the trim frees it.
  A.Capacity = 1;
  A.Pooled = 1;
  Expected<void *> P = MM.allocate(10);
  ASSERT_TRUE(P);
  EXPECT_EQ(A.Failures, 1);
  EXPECT_EQ(A.Trims, 1);
  EXPECT_EQ(A.Frees, 0);
  ASSERT_TRUE(MM.deallocate(*P));
  // The same through retryAfterReleasing (the caller's other sizes).
  ASSERT_EQ(MM.freeCache(), 1u);
  A.Pooled = 1;
  Expected<void *> Large = MM.retryAfterReleasing([&] { return backendAlloc(100000); });
  ASSERT_TRUE(Large);
  EXPECT_EQ(A.Failures, 2);
  EXPECT_EQ(A.Trims, 2);
  ASSERT_TRUE(backendFree(*Large));
}

TEST_F(MemoryManagerTest, OutOfMemoryRetriesExactlyOnceAndReturnsTheSecondFailure) {
  A.Capacity = 0;
  Expected<void *> None = MM.allocate(10);
  ASSERT_FALSE(None);
  EXPECT_EQ(A.Failures, 2);  // the attempt and one retry
  EXPECT_EQ(A.Trims, 1);
  EXPECT_NE(None.error().message().find("out of fake device memory"), std::string::npos);
  EXPECT_EQ(MM.numHandedOut(), 0u);

  // retryAfterReleasing: the cache goes back and the trim runs before the one
  // retry, whose error is the result.
  A.Capacity = 1000;
  Expected<void *> P = MM.allocate(10);
  ASSERT_TRUE(P);
  ASSERT_TRUE(MM.deallocate(*P));
  int Calls = 0;
  size_t CachedAtRetry = 99;
  int TrimsAtRetry = -1;
  Expected<void *> Failed = MM.retryAfterReleasing([&]() -> Expected<void *> {
    if (++Calls == 2) {
      CachedAtRetry = MM.numCached();
      TrimsAtRetry = A.Trims;
    }
    return Error(formatString("attempt %d failed", Calls));
  });
  ASSERT_FALSE(Failed);
  EXPECT_EQ(Calls, 2);
  EXPECT_EQ(Failed.error().message(), "attempt 2 failed");
  EXPECT_EQ(CachedAtRetry, 0u);
  EXPECT_EQ(TrimsAtRetry, 2);
  EXPECT_EQ(A.Frees, 1);

  // A first success neither releases nor trims.
  ASSERT_TRUE(MM.deallocate(*MM.allocate(10)));
  int Local;
  Calls = 0;
  Expected<void *> Ok = MM.retryAfterReleasing([&]() -> Expected<void *> {
    ++Calls;
    return static_cast<void *>(&Local);
  });
  ASSERT_TRUE(Ok);
  EXPECT_EQ(*Ok, &Local);
  EXPECT_EQ(Calls, 1);
  EXPECT_EQ(A.Trims, 2);
  EXPECT_EQ(MM.numCached(), 1u);
}

// A released block's record serves the next new block of its class: the old
// address is not taken for the new block.
TEST_F(MemoryManagerTest, ReleasedBlocksAreForgottenWhenTheirRecordIsReused) {
  A.Quarantine = true;
  Expected<void *> P = MM.allocate(10);
  ASSERT_TRUE(P);
  ASSERT_TRUE(MM.tryKeep(*P));
  ASSERT_EQ(MM.freeCache(), 1u);
  EXPECT_EQ(MM.freeCache(), 0u);
  Expected<void *> Q = MM.allocate(10);
  ASSERT_TRUE(Q);
  ASSERT_NE(*Q, *P);
  EXPECT_FALSE(MM.tryKeep(*P));
  EXPECT_FALSE(MM.owns(*P));
  Expected<bool> Old = MM.deallocate(*P);
  ASSERT_TRUE(Old);
  EXPECT_FALSE(*Old);
  EXPECT_EQ(MM.numHandedOut(), 1u);
  EXPECT_TRUE(MM.tryKeep(*Q));
  EXPECT_EQ(MM.numCached(), 1u);
}

TEST_F(MemoryManagerTest, BackendFreeFailuresAreCountedAndReportedByDeinit) {
  Expected<void *> P = MM.allocate(10);
  ASSERT_TRUE(P);
  ASSERT_TRUE(MM.deallocate(*P));
  {
    std::lock_guard Lock(A.Mutex);  // the backend no longer knows the block
    A.Live.erase(*P);
  }
  EXPECT_EQ(MM.freeCache(), 1u);
  EXPECT_EQ(MM.numBackendFailures(), 1u);
  Status S = MM.deinit();
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("1 cached block(s) could not be freed"), std::string::npos);
  EXPECT_EQ(MM.numBackendFailures(), 0u);
  std::free(*P);
}

TEST_F(MemoryManagerTest, DeinitGivesCachedBlocksBackAndForgetsTheOthers) {
  Expected<void *> P = MM.allocate(10), Q = MM.allocate(5000), Out = MM.allocate(300);
  ASSERT_TRUE(P);
  ASSERT_TRUE(Q);
  ASSERT_TRUE(Out);
  ASSERT_TRUE(MM.deallocate(*P));
  ASSERT_TRUE(MM.deallocate(*Q));
  EXPECT_TRUE(MM.deinit());
  EXPECT_EQ(A.Frees, 2);
  EXPECT_EQ(A.Live, std::set<void *>{*Out});  // still handed out: the caller's
  EXPECT_EQ(MM.numCached(), 0u);
  EXPECT_EQ(MM.cachedBytes(), 0u);
  EXPECT_EQ(MM.numHandedOut(), 0u);
  EXPECT_FALSE(MM.owns(*Out));
  Expected<bool> Forgotten = MM.deallocate(*Out);
  ASSERT_TRUE(Forgotten);
  EXPECT_FALSE(*Forgotten);
  ASSERT_TRUE(backendFree(*Out));
  // Usable again afterwards.
  Expected<void *> R = MM.allocate(10);
  ASSERT_TRUE(R);
  ASSERT_TRUE(MM.deallocate(*R));
  EXPECT_EQ(MM.numCached(), 1u);
}

// Thousands of blocks: the index grows, and purges the tombstones that
// releases leave; every block stays found.
TEST_F(MemoryManagerTest, ManyBlocksAcrossReleases) {
  A.Capacity = 100000;
  std::vector<void *> Blocks;
  for (int Round = 0; Round < 3; ++Round) {
    for (int I = 0; I < 3000; ++I) {
      Expected<void *> P = MM.allocate(static_cast<size_t>(I % 9000));
      ASSERT_TRUE(P);
      Blocks.push_back(*P);
    }
    EXPECT_EQ(std::set<void *>(Blocks.begin(), Blocks.end()).size(), Blocks.size());
    EXPECT_EQ(MM.numHandedOut(), Blocks.size());
    for (size_t I = 0; I < Blocks.size(); ++I) {
      EXPECT_TRUE(MM.owns(Blocks[I]));
      if (I % 2) {
        ASSERT_TRUE(MM.tryKeep(Blocks[I]));
      } else {
        Expected<bool> Kept = MM.deallocate(Blocks[I]);
        ASSERT_TRUE(Kept && *Kept);
      }
    }
    EXPECT_EQ(MM.numCached(), Blocks.size());
    EXPECT_EQ(MM.numHandedOut(), 0u);
    EXPECT_EQ(MM.freeCache(), Blocks.size());
    for (void *P : Blocks) EXPECT_FALSE(MM.owns(P));
    // The index's own marks (empty, tombstone) are not blocks.
    for (uintptr_t Mark : {0, 1}) {
      EXPECT_FALSE(MM.owns(reinterpret_cast<void *>(Mark)));
      EXPECT_FALSE(MM.tryKeep(reinterpret_cast<void *>(Mark)));
      Expected<bool> Kept = MM.deallocate(reinterpret_cast<void *>(Mark));
      ASSERT_TRUE(Kept);
      EXPECT_FALSE(*Kept);
    }
    Blocks.clear();
    EXPECT_TRUE(A.Live.empty());
  }
  EXPECT_EQ(A.Allocs, 9000);
  EXPECT_EQ(A.Frees, 9000);
}

// Threads allocate and free blocks of mixed classes through both halves,
// holding several at once, while another thread keeps releasing the cache:
// no block is ever handed out twice and the counters add up.
TEST_F(MemoryManagerTest, ConcurrentUseNeverHandsOutABlockTwice) {
  constexpr int kThreads = 6, kRounds = 3000, kHeld = 40;  // some hundred blocks: the index grows
  std::mutex OwnedMutex;
  std::set<void *> Owned;
  std::atomic<int> Errors{0};
  std::atomic<bool> Done{false};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      void *Held[kHeld] = {};
      for (int R = 0; R < kRounds; ++R) {
        size_t Size = static_cast<size_t>((T * 37 + R * 11) % 600);
        void *P = (R % 2) ? MM.takeCached(Size) : nullptr;
        if (!P) {
          Expected<void *> Q = MM.allocate(Size);
          if (!Q) {
            ++Errors;
            continue;
          }
          P = *Q;
        }
        {
          std::lock_guard Lock(OwnedMutex);
          if (!Owned.insert(P).second) ++Errors;  // handed out twice
        }
        std::memset(P, T, Size);  // a block is as large as asked
        int Slot = R % kHeld;
        if (void *Old = Held[Slot]) {
          {
            std::lock_guard Lock(OwnedMutex);
            Owned.erase(Old);
          }
          if (!(R % 3 == 0 && MM.tryKeep(Old))) {
            Expected<bool> Taken = MM.deallocate(Old);
            if (!Taken || !*Taken) ++Errors;
          }
        }
        Held[Slot] = P;
      }
      for (void *P : Held) {
        if (!P) continue;
        {
          std::lock_guard Lock(OwnedMutex);
          Owned.erase(P);
        }
        Expected<bool> Taken = MM.deallocate(P);
        if (!Taken || !*Taken) ++Errors;
      }
    });
  std::thread Releaser([&] {
    while (!Done.load()) {
      MM.freeCache();
      (void)MM.numCached();
      (void)MM.numHandedOut();
      std::this_thread::yield();
    }
  });
  for (auto &T : Threads) T.join();
  Done = true;
  Releaser.join();
  EXPECT_EQ(Errors.load(), 0);
  EXPECT_TRUE(Owned.empty());
  EXPECT_EQ(MM.numHandedOut(), 0u);
  // Every block the backend still has is in the cache, and nothing else is.
  EXPECT_EQ(MM.numCached(), A.Live.size());
  EXPECT_EQ(static_cast<size_t>(A.Allocs - A.Frees), A.Live.size());
  for (void *P : A.Live) EXPECT_TRUE(MM.owns(P));
  size_t Bytes = MM.cachedBytes();  // classes of 64 to 1024 bytes
  EXPECT_GE(Bytes, 64 * A.Live.size());
  EXPECT_LE(Bytes, 1024 * A.Live.size());
  size_t Cached = A.Live.size();
  EXPECT_EQ(MM.freeCache(), Cached);
  EXPECT_TRUE(A.Live.empty());
}

// The same without a releaser, on a backend too small for all threads: the
// out-of-memory path runs concurrently with the other threads' frees.
TEST_F(MemoryManagerTest, ConcurrentOutOfMemory) {
  constexpr int kThreads = 4, kRounds = 2000;
  A.Capacity = 3;  // fewer blocks than the 5 classes one thread cycles through
  std::mutex OwnedMutex;
  std::set<void *> Owned;
  std::atomic<int> Errors{0}, Failed{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      for (int R = 0; R < kRounds; ++R) {
        Expected<void *> P = MM.allocate(MemoryManager::classSize((T + R) % 5));
        if (!P) {
          ++Failed;
          continue;
        }
        {
          std::lock_guard Lock(OwnedMutex);
          if (!Owned.insert(*P).second) ++Errors;
        }
        {
          std::lock_guard Lock(OwnedMutex);
          Owned.erase(*P);
        }
        Expected<bool> Taken = MM.deallocate(*P);
        if (!Taken || !*Taken) ++Errors;
      }
    });
  for (auto &T : Threads) T.join();
  EXPECT_EQ(Errors.load(), 0);
  EXPECT_EQ(MM.numHandedOut(), 0u);
  EXPECT_GT(A.Trims, 0);  // the classes outgrew the backend
  EXPECT_LE(A.Live.size(), A.Capacity);
  EXPECT_EQ(MM.numCached(), A.Live.size());
  EXPECT_EQ(A.Failures, A.Trims + Failed.load());  // each trim before one retry
}

// ---- Behind a GenericDevice ----

int Queues[4], Events[4];

class MMDevice final : public GenericDevice {
 public:
  using GenericDevice::GenericDevice;
  int Allocs = 0, Frees = 0, Trims = 0;
  int FailAllocs = 0;  // the next so many allocations fail
  int FreesAtTrim = -1;

 protected:
  Status initImpl() override { return {}; }
  Expected<std::unique_ptr<DeviceImage>> loadImageImpl(const __tgt_device_image &I) override {
    return std::make_unique<DeviceImage>(I);
  }
  Expected<void *> getKernelImpl(DeviceImage &, const char *, size_t) override {
    return Error("none");
  }
  Expected<void *> getGlobalImpl(DeviceImage &, const char *, size_t, size_t) override {
    return Error("none");
  }
  Expected<void *> allocImpl(size_t Size, void *, omptarget::abi::TargetAllocKind) override {
    if (FailAllocs > 0) {
      --FailAllocs;
      return Error("device full");
    }
    ++Allocs;
    return std::malloc(Size ? Size : 1);
  }
  Status freeImpl(void *P) override {
    ++Frees;
    std::free(P);
    return {};
  }
  bool trimAllocationPoolImpl() override {
    ++Trims;
    FreesAtTrim = Frees;
    return false;  // nothing of a pool: the retry still happens once
  }
  Expected<void *> createQueueImpl() override { return &Queues[0]; }
  Status destroyQueueImpl(void *) override { return {}; }
  Status synchronizeImpl(void *) override { return {}; }
  Status submitImpl(void *, const void *, size_t, void *) override { return {}; }
  Status retrieveImpl(void *, const void *, size_t, void *) override { return {}; }
  Status launchImpl(const KernelLaunch &, void *) override { return {}; }
  Expected<void *> createEventImpl() override { return &Events[0]; }
  Status destroyEventImpl(void *) override { return {}; }
  Status recordEventImpl(void *, void *) override { return {}; }
  Status waitEventImpl(void *, void *) override { return {}; }
  Status syncEventImpl(void *) override { return {}; }
};

class MMPlugin final : public GenericPlugin {
 public:
  MMPlugin() : GenericPlugin("mmfake") {}

 protected:
  Expected<int32_t> numberOfDevicesImpl() override { return 1; }
  Expected<std::unique_ptr<GenericDevice>> createDeviceImpl(int32_t Id) override {
    return std::unique_ptr<GenericDevice>(std::make_unique<MMDevice>(*this, Id));
  }
  bool isValidBinaryImpl(std::span<const std::byte>) override { return true; }
};

MMDevice *initDevice(MMPlugin &P, const char *Threshold) {
  if (Threshold)
    ::setenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD", Threshold, 1);
  else
    ::unsetenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD");
  bool Ok = P.initialize() && P.initDevice(0);
  ::unsetenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD");
  if (!Ok) return nullptr;
  Expected<GenericDevice *> D = P.device(0, "test");
  return D ? static_cast<MMDevice *>(*D) : nullptr;
}

TEST(PluginMemoryManagerDevice, DefaultKindSmallBlocksAreCachedAndReused) {
  MMPlugin P;
  MMDevice *D = initDevice(P, nullptr);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->memoryManager().threshold(), MemoryManager::kDefaultThreshold);
  Expected<void *> A = D->dataAlloc(40, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(A);
  ASSERT_TRUE(D->dataDelete(*A, nullptr));
  EXPECT_EQ(D->Frees, 0);
  Expected<void *> B = D->dataAlloc(48, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(B);
  EXPECT_EQ(*B, *A);
  EXPECT_EQ(D->Allocs, 1);
  // A double free of the cached block is reported, not passed on.
  ASSERT_TRUE(D->dataDelete(*B, nullptr));
  Status Twice = D->dataDelete(*B, nullptr);
  ASSERT_FALSE(Twice);
  EXPECT_NE(Twice.error().message().find("data_delete: device 0: cannot free"), std::string::npos);
  EXPECT_EQ(D->Frees, 0);
  // Device memory (llvm_omp_target_alloc_device) shares the cache: the
  // same memory as the default kind.
  Expected<void *> Dev = D->dataAlloc(40, nullptr, omptarget::abi::kAllocDevice, nullptr);
  ASSERT_TRUE(Dev);
  EXPECT_EQ(*Dev, *A);
  EXPECT_EQ(D->Allocs, 1);
  ASSERT_TRUE(D->dataDelete(*Dev, nullptr));
  // Host and shared memory and large sizes bypass the cache.
  Expected<void *> Host = D->dataAlloc(40, nullptr, omptarget::abi::kAllocHost, nullptr);
  Expected<void *> Big = D->dataAlloc(100000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Host);
  ASSERT_TRUE(Big);
  ASSERT_TRUE(D->dataDelete(*Host, nullptr));
  ASSERT_TRUE(D->dataDelete(*Big, nullptr));
  EXPECT_EQ(D->Frees, 2);
  // Teardown gives the cached block back.
  EXPECT_TRUE(P.deinitialize());
}

TEST(PluginMemoryManagerDevice, ThresholdZeroFromTheEnvironmentDisablesTheCache) {
  MMPlugin P;
  MMDevice *D = initDevice(P, "0");
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->memoryManager().threshold(), 0u);
  Expected<void *> A = D->dataAlloc(40, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(A);
  ASSERT_TRUE(D->dataDelete(*A, nullptr));
  EXPECT_EQ(D->Frees, 1);
  EXPECT_EQ(D->memoryManager().numCached(), 0u);
  EXPECT_TRUE(P.deinitialize());
}

TEST(PluginMemoryManagerDevice, FailedAllocationReleasesTheCacheTrimsAndRetries) {
  MMPlugin P;
  MMDevice *D = initDevice(P, "4096");
  ASSERT_NE(D, nullptr);
  Expected<void *> A = D->dataAlloc(100, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(A);
  ASSERT_TRUE(D->dataDelete(*A, nullptr));
  EXPECT_EQ(D->memoryManager().numCached(), 1u);
  D->FailAllocs = 1;
  Expected<void *> Big = D->dataAlloc(10000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Big);
  EXPECT_EQ(D->Frees, 1);  // the cached block went back to the device
  EXPECT_EQ(D->Trims, 1);
  EXPECT_EQ(D->FreesAtTrim, 1);  // the cache first, then the driver's pool
  EXPECT_EQ(D->memoryManager().numCached(), 0u);
  ASSERT_TRUE(D->dataDelete(*Big, nullptr));
  // A cached size, nothing cached: trimmed, retried once.
  D->FailAllocs = 1;
  Expected<void *> Small = D->dataAlloc(100, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Small);
  EXPECT_EQ(D->Trims, 2);
  ASSERT_TRUE(D->dataDelete(*Small, nullptr));
  // Two failures in a row: reported, after one trim.
  D->FailAllocs = 2;
  int Allocs = D->Allocs;
  Expected<void *> None = D->dataAlloc(10000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_FALSE(None);
  EXPECT_NE(None.error().message().find("device full"), std::string::npos);
  EXPECT_EQ(D->Trims, 3);
  EXPECT_EQ(D->FailAllocs, 0);  // both attempts made, no third
  EXPECT_EQ(D->Allocs, Allocs);
  EXPECT_TRUE(P.deinitialize());
}

}  // namespace
