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
struct FakeAllocator {
  size_t Capacity = 1000;  // blocks that may be live at once
  std::mutex Mutex;
  std::set<void *> Live;
  std::vector<size_t> AllocSizes;
  int Allocs = 0, Frees = 0, Failures = 0;

  ~FakeAllocator() {
    for (void *P : Live) std::free(P);
  }
};

// MemoryManager is not movable: the fixture builds it in place on A.
class MemoryManagerTest : public ::testing::Test {
 protected:
  FakeAllocator A;
  MemoryManager MM{[this](size_t S) { return backendAlloc(S); },
                   [this](void *P) { return backendFree(P); }};
  Expected<void *> backendAlloc(size_t Size) {
    std::lock_guard Lock(A.Mutex);
    if (A.Live.size() >= A.Capacity) {
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
    std::free(P);
    ++A.Frees;
    return {};
  }
  void SetUp() override { MM.setThreshold(MemoryManager::kDefaultThreshold); }
  void TearDown() override { EXPECT_TRUE(MM.deinit()); }
};

TEST_F(MemoryManagerTest, FreedBlocksAreReused) {
  Expected<void *> P = MM.allocate(100);
  ASSERT_TRUE(P);
  EXPECT_EQ(A.Allocs, 1);
  EXPECT_EQ(MM.numHandedOut(), 1u);
  Expected<bool> Taken = MM.deallocate(*P);
  ASSERT_TRUE(Taken);
  EXPECT_TRUE(*Taken);
  EXPECT_EQ(A.Frees, 0);  // kept, not given back
  EXPECT_EQ(MM.numCached(), 1u);
  EXPECT_EQ(MM.cachedBytes(), 128u);
  Expected<void *> Q = MM.allocate(128);  // same class (65..128)
  ASSERT_TRUE(Q);
  EXPECT_EQ(*Q, *P);
  EXPECT_EQ(A.Allocs, 1);
  EXPECT_EQ(MM.numCached(), 0u);
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
}

TEST_F(MemoryManagerTest, ThresholdBoundsTheCachedSizes) {
  EXPECT_TRUE(MM.handles(0));
  EXPECT_TRUE(MM.handles(8192));
  EXPECT_FALSE(MM.handles(8193));
  MM.setThreshold(100);
  EXPECT_TRUE(MM.handles(100));
  EXPECT_FALSE(MM.handles(101));
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
  EXPECT_EQ(A.Frees, 0);
}

TEST_F(MemoryManagerTest, DoubleFreeOfACachedBlockIsAnError) {
  Expected<void *> P = MM.allocate(32);
  ASSERT_TRUE(P);
  ASSERT_TRUE(MM.deallocate(*P));
  Expected<bool> Again = MM.deallocate(*P);
  ASSERT_FALSE(Again);
  EXPECT_NE(Again.error().message().find("already freed"), std::string::npos);
  EXPECT_EQ(MM.numCached(), 1u);  // unchanged: still one cached block
}

TEST_F(MemoryManagerTest, OutOfMemoryReleasesTheCacheAndRetriesOnce) {
  A.Capacity = 2;
  Expected<void *> P = MM.allocate(10), Q = MM.allocate(20);
  ASSERT_TRUE(P);
  ASSERT_TRUE(Q);
  ASSERT_TRUE(MM.deallocate(*P));
  ASSERT_TRUE(MM.deallocate(*Q));
  EXPECT_EQ(MM.numCached(), 2u);
  // Another class: the backend is full of cached blocks, fails once, gets
  // them back and succeeds on the retry.
  Expected<void *> R = MM.allocate(1000);
  ASSERT_TRUE(R);
  EXPECT_EQ(A.Failures, 1);
  EXPECT_EQ(A.Frees, 2);
  EXPECT_EQ(MM.numCached(), 0u);
  // A released block is forgotten: freeing it again goes to the caller.
  Expected<bool> Old = MM.deallocate(*P);
  ASSERT_TRUE(Old);
  EXPECT_FALSE(*Old);
  // Sizes above the threshold retry the same way through retryAfterReleasing.
  ASSERT_TRUE(MM.deallocate(*R));
  A.Capacity = 1;
  Expected<void *> Large = MM.retryAfterReleasing([&] { return backendAlloc(100000); });
  ASSERT_TRUE(Large);
  EXPECT_EQ(A.Failures, 2);
  ASSERT_TRUE(backendFree(*Large));
  // Nothing cached: the failure is reported after one attempt.
  A.Capacity = 0;
  int Before = A.Failures;
  Expected<void *> None = MM.allocate(10);
  ASSERT_FALSE(None);
  EXPECT_EQ(A.Failures, Before + 1);
  EXPECT_NE(None.error().message().find("out of fake device memory"), std::string::npos);
}

TEST_F(MemoryManagerTest, DeinitGivesCachedBlocksBack) {
  Expected<void *> P = MM.allocate(10), Q = MM.allocate(5000);
  ASSERT_TRUE(P);
  ASSERT_TRUE(Q);
  ASSERT_TRUE(MM.deallocate(*P));
  ASSERT_TRUE(MM.deallocate(*Q));
  EXPECT_TRUE(MM.deinit());
  EXPECT_EQ(A.Frees, 2);
  EXPECT_TRUE(A.Live.empty());
}

TEST_F(MemoryManagerTest, ConcurrentUseNeverHandsOutABlockTwice) {
  constexpr int kThreads = 6, kRounds = 3000;
  std::mutex OwnedMutex;
  std::set<void *> Owned;
  std::atomic<int> Errors{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      for (int R = 0; R < kRounds; ++R) {
        Expected<void *> P = MM.allocate(static_cast<size_t>((T * 37 + R) % 300));
        if (!P) {
          ++Errors;
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
  EXPECT_LE(static_cast<size_t>(A.Allocs), static_cast<size_t>(kThreads) * 4);
}

// ---- Behind a GenericDevice ----

int Queues[4], Events[4];

class MMDevice final : public GenericDevice {
 public:
  using GenericDevice::GenericDevice;
  int Allocs = 0, Frees = 0;
  bool FailNextAlloc = false;

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
    if (FailNextAlloc) {
      FailNextAlloc = false;
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
  // Other kinds and large sizes bypass the cache.
  Expected<void *> Dev = D->dataAlloc(40, nullptr, omptarget::abi::kAllocDevice, nullptr);
  Expected<void *> Big = D->dataAlloc(100000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Dev);
  ASSERT_TRUE(Big);
  ASSERT_TRUE(D->dataDelete(*Dev, nullptr));
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

TEST(PluginMemoryManagerDevice, FailedAllocationReleasesTheCacheAndRetries) {
  MMPlugin P;
  MMDevice *D = initDevice(P, "4096");
  ASSERT_NE(D, nullptr);
  Expected<void *> A = D->dataAlloc(100, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(A);
  ASSERT_TRUE(D->dataDelete(*A, nullptr));
  EXPECT_EQ(D->memoryManager().numCached(), 1u);
  D->FailNextAlloc = true;
  Expected<void *> Big = D->dataAlloc(10000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Big);
  EXPECT_EQ(D->Frees, 1);  // the cached block went back to the device
  EXPECT_EQ(D->memoryManager().numCached(), 0u);
  ASSERT_TRUE(D->dataDelete(*Big, nullptr));
  EXPECT_TRUE(P.deinitialize());
}

}  // namespace
