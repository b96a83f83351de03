// Unit tests of plugin-common's argument validation, queue protocol and image
// loading, on an in-process fake plugin.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "direct_table.h"
#include "generic_plugin.h"

using namespace omptarget;
using namespace omptarget::plugin;

namespace {

int Queues[16], Events[16];  // fake handles: addresses of these slots

class FakeDevice final : public GenericDevice {
 public:
  using GenericDevice::GenericDevice;
  int Submits = 0, Launches = 0, Syncs = 0, Frees = 0;
  std::map<std::string, void *> Symbols;
  int NextQueue = 0, NextEvent = 0;
  // A device of Capacity bytes whose own pool holds PoolHeld of them (given
  // back by trimAllocationPoolImpl); allocations beyond the rest fail.
  size_t Capacity = SIZE_MAX, PoolHeld = 0;
  int AllocCalls = 0, Trims = 0;

 protected:
  Status initImpl() override { return {}; }
  Expected<std::unique_ptr<DeviceImage>> loadImageImpl(const __tgt_device_image &I) override {
    return std::make_unique<DeviceImage>(I);
  }
  Expected<void *> lookup(const char *Name) {
    auto It = Symbols.find(Name);
    if (It == Symbols.end()) return Error("no such symbol");
    return It->second;
  }
  Expected<void *> getKernelImpl(DeviceImage &, const char *Name, size_t) override {
    return lookup(Name);
  }
  Expected<void *> getGlobalImpl(DeviceImage &, const char *Name, size_t, size_t) override {
    return lookup(Name);
  }
  Expected<void *> allocImpl(size_t Size, void *, omptarget::abi::TargetAllocKind) override {
    ++AllocCalls;
    if (Capacity != SIZE_MAX && Size > Capacity - PoolHeld) return Error("out of memory");
    return std::malloc(Size ? Size : 1);
  }
  bool trimAllocationPoolImpl() override {
    ++Trims;
    const bool Gave = PoolHeld > 0;
    PoolHeld = 0;
    return Gave;
  }
  std::optional<uint64_t> freeMemoryBytesImpl() override {
    if (Capacity == SIZE_MAX) return std::nullopt;
    return Capacity - PoolHeld;
  }
  Status freeImpl(void *P) override {
    ++Frees;
    std::free(P);
    return {};
  }
  Expected<void *> createQueueImpl() override { return &Queues[NextQueue++]; }
  Status destroyQueueImpl(void *) override { return {}; }
  Status synchronizeImpl(void *) override {
    ++Syncs;
    return {};
  }
  Status submitImpl(void *T, const void *H, size_t S, void *) override {
    ++Submits;
    std::memcpy(T, H, S);
    return {};
  }
  Status retrieveImpl(void *H, const void *T, size_t S, void *) override {
    std::memcpy(H, T, S);
    return {};
  }
  Status launchImpl(const KernelLaunch &, void *) override {
    ++Launches;
    return {};
  }
  Expected<void *> createEventImpl() override { return &Events[NextEvent++]; }
  Status destroyEventImpl(void *) override { return {}; }
  Status recordEventImpl(void *, void *) override { return {}; }
  Status waitEventImpl(void *, void *) override { return {}; }
  Status syncEventImpl(void *) override { return {}; }
  void describeImpl(PropertySink &Sink) override {
    Sink.add("name", "fake device");
    Sink.addOnOff("memory_pool", PoolHeld > 0);
  }
};

class FakePlugin final : public GenericPlugin {
 public:
  FakePlugin() : GenericPlugin("fake") {}
  int ValidChecks = 0;

 protected:
  Expected<int32_t> numberOfDevicesImpl() override { return 2; }
  Expected<std::unique_ptr<GenericDevice>> createDeviceImpl(int32_t Id) override {
    return std::unique_ptr<GenericDevice>(std::make_unique<FakeDevice>(*this, Id));
  }
  bool isValidBinaryImpl(std::span<const std::byte>) override {
    ++ValidChecks;
    return true;
  }
};

bool mentions(const Error &E, const char *Text) {
  return E.message().find(Text) != std::string::npos;
}

class PluginGenericDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Plugin.initialize());
    ASSERT_TRUE(Plugin.initDevice(0));
    Expected<GenericDevice *> D = Plugin.device(0, "test");
    ASSERT_TRUE(D);
    Dev = static_cast<FakeDevice *>(*D);
  }
  void TearDown() override { EXPECT_TRUE(Plugin.deinitialize()); }
  FakePlugin Plugin;
  FakeDevice *Dev = nullptr;
};

TEST_F(PluginGenericDevice, DeviceIdsAreChecked) {
  EXPECT_EQ(Plugin.numberOfDevices(), 2);
  Expected<GenericDevice *> Bad = Plugin.device(7, "data_submit");
  ASSERT_FALSE(Bad);
  EXPECT_TRUE(mentions(Bad.error(), "data_submit"));
  EXPECT_TRUE(mentions(Bad.error(), "invalid device id 7"));
  EXPECT_FALSE(Plugin.device(-1, "x"));
  Expected<GenericDevice *> NotInit = Plugin.device(1, "load_binary");
  ASSERT_FALSE(NotInit);
  EXPECT_TRUE(mentions(NotInit.error(), "not initialised"));
  EXPECT_FALSE(Plugin.initDevice(2));
}

TEST_F(PluginGenericDevice, InvalidBinariesAreRejectedBeforeThePlugin) {
  EXPECT_FALSE(Plugin.isValidBinary(nullptr));
  char Buf[8];
  __tgt_device_image Reversed{Buf + 8, Buf, nullptr, nullptr};
  EXPECT_FALSE(Plugin.isValidBinary(&Reversed));
  __tgt_device_image NullStart{nullptr, Buf, nullptr, nullptr};
  EXPECT_FALSE(Plugin.isValidBinary(&NullStart));
  EXPECT_EQ(Plugin.ValidChecks, 0);
  __tgt_device_image Ok{Buf, Buf + 8, nullptr, nullptr};
  EXPECT_TRUE(Plugin.isValidBinary(&Ok));
}

TEST_F(PluginGenericDevice, TransfersValidateArguments) {
  __tgt_async_info AI;
  int X = 1, Y = 0;
  Status S = Dev->dataSubmit(nullptr, &X, 4, &AI);
  ASSERT_FALSE(S);
  EXPECT_TRUE(mentions(S.error(), "data_submit"));
  EXPECT_TRUE(mentions(S.error(), "size 4"));
  EXPECT_FALSE(Dev->dataSubmit(&Y, &X, -1, &AI));
  EXPECT_FALSE(Dev->dataSubmit(&Y, &X, 4, nullptr));
  EXPECT_FALSE(Dev->dataRetrieve(&Y, nullptr, 4, &AI));
  EXPECT_EQ(Dev->Submits, 0);
  EXPECT_EQ(AI.Queue, nullptr);                            // nothing issued, no queue taken
  EXPECT_TRUE(Dev->dataSubmit(nullptr, nullptr, 0, &AI));  // size 0 is a no-op
  EXPECT_EQ(AI.Queue, nullptr);
}

TEST_F(PluginGenericDevice, QueueProtocolMatchesLLVM) {
  __tgt_async_info AI;
  int X = 5, Y = 0;
  EXPECT_TRUE(Dev->synchronize(&AI));  // empty AsyncInfo: nothing to do
  EXPECT_EQ(Dev->Syncs, 0);
  ASSERT_TRUE(Dev->dataSubmit(&Y, &X, 4, &AI));
  void *Q = AI.Queue;
  ASSERT_NE(Q, nullptr);
  ASSERT_TRUE(Dev->dataRetrieve(&X, &Y, 4, &AI));
  EXPECT_EQ(AI.Queue, Q);  // one queue per AsyncInfo
  ASSERT_TRUE(Dev->synchronize(&AI));
  EXPECT_EQ(AI.Queue, nullptr);
  EXPECT_EQ(Dev->Syncs, 1);
  EXPECT_EQ(Y, 5);
  // Two live AsyncInfos get two queues; the pool grows.
  __tgt_async_info A, B;
  ASSERT_TRUE(Dev->dataSubmit(&Y, &X, 4, &A));
  ASSERT_TRUE(Dev->dataSubmit(&Y, &X, 4, &B));
  EXPECT_NE(A.Queue, B.Queue);
  EXPECT_GE(Dev->numQueuesCreated(), 2u);
  ASSERT_TRUE(Dev->synchronize(&A));
  ASSERT_TRUE(Dev->synchronize(&B));
  // A queue that is not this device's is refused.
  __tgt_async_info Foreign;
  Foreign.Queue = &X;
  EXPECT_FALSE(Dev->synchronize(&Foreign));
}

// init_async_info's objects (interop targetsync queues) hold a queue until
// release_async_info, which waits for it and gives it back; a second release,
// or one of an object the device never made, is refused.
TEST_F(PluginGenericDevice, AsyncInfoForInteropIsReleased) {
  Expected<__tgt_async_info *> A = Dev->initAsyncInfo();
  ASSERT_TRUE(A);
  void *Q = (*A)->Queue;
  ASSERT_NE(Q, nullptr);
  Expected<__tgt_async_info *> B = Dev->initAsyncInfo();
  ASSERT_TRUE(B);
  EXPECT_NE((*B)->Queue, Q);  // each holds its own queue
  int Syncs = Dev->Syncs;
  ASSERT_TRUE(Dev->releaseAsyncInfo(*A));
  EXPECT_EQ(Dev->Syncs, Syncs + 1);  // waited for
  Status Again = Dev->releaseAsyncInfo(*A);
  ASSERT_FALSE(Again);
  EXPECT_TRUE(mentions(Again.error(), "was not returned by init_async_info on this device"));
  __tgt_async_info Foreign;
  EXPECT_FALSE(Dev->releaseAsyncInfo(&Foreign));
  // The released queue went back to the pool: the next construct gets it.
  __tgt_async_info C;
  int X = 1, Y = 0;
  ASSERT_TRUE(Dev->dataSubmit(&Y, &X, 4, &C));
  EXPECT_EQ(C.Queue, Q);
  ASSERT_TRUE(Dev->synchronize(&C));
  ASSERT_TRUE(Dev->releaseAsyncInfo(*B));
}

TEST_F(PluginGenericDevice, InteropInfoDefaultsToNothing) {
  __tgt_interop_info Info;
  Info.FrId = 7;
  Info.FrName = "stale";
  Dev->interopInfo(Info);
  EXPECT_EQ(Info.FrId, 0);
  EXPECT_EQ(Info.FrName, nullptr);
  EXPECT_EQ(Info.TargetSyncType, nullptr);
}

TEST_F(PluginGenericDevice, AllocationValidatesArguments) {
  Expected<void *> Neg = Dev->dataAlloc(-8, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_FALSE(Neg);
  EXPECT_TRUE(mentions(Neg.error(), "negative size -8"));
  EXPECT_FALSE(Dev->dataAlloc(8, nullptr, 99, nullptr));
  Expected<void *> P = Dev->dataAlloc(8, nullptr, omptarget::abi::kAllocHost, nullptr);
  ASSERT_TRUE(P);
  EXPECT_TRUE(Dev->dataDelete(*P, nullptr));
  EXPECT_TRUE(Dev->dataDelete(nullptr, nullptr));  // like free(NULL)
  EXPECT_EQ(Dev->Frees, 1);                        // host memory is not cached
}

// Out of memory: the cache goes first, then the device's pool; then exactly
// one retry; the failure names the size, the device and its free memory.
TEST_F(PluginGenericDevice, OutOfMemoryTrimsTheDevicePoolAndRetriesOnce) {
  Dev->Capacity = 1000000;
  Dev->PoolHeld = 600000;
  Expected<void *> P = Dev->dataAlloc(500000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(P);
  EXPECT_EQ(Dev->AllocCalls, 2);
  EXPECT_EQ(Dev->Trims, 1);
  EXPECT_TRUE(Dev->dataDelete(*P, nullptr));

  Dev->AllocCalls = Dev->Trims = 0;
  Expected<void *> Big = Dev->dataAlloc(2000000, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_FALSE(Big);
  EXPECT_EQ(Dev->AllocCalls, 2);  // the attempt and its one retry
  EXPECT_EQ(Dev->Trims, 1);
  EXPECT_TRUE(mentions(Big.error(), "data_alloc: device 0: cannot allocate 2000000 bytes"))
      << Big.error().message();
  EXPECT_TRUE(mentions(Big.error(), "(the device has 1000000 bytes free)"))
      << Big.error().message();

  // A size of the memory manager's: its own retry, then the pool's.
  Dev->AllocCalls = Dev->Trims = 0;
  Dev->PoolHeld = 1000000;
  Expected<void *> Small = Dev->dataAlloc(4096, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Small);
  EXPECT_EQ(Dev->Trims, 1);
  EXPECT_TRUE(Dev->dataDelete(*Small, nullptr));
  Dev->Capacity = SIZE_MAX;
}

TEST_F(PluginGenericDevice, LoadBinaryResolvesEntriesAndNamesMissingOnes) {
  static int Kernel, Global;
  Dev->Symbols = {{"kern", &Kernel}, {"glob", &Global}};
  char KName[] = "kern", GName[] = "glob", Missing[] = "nope";
  __tgt_offload_entry Entries[] = {{nullptr, KName, 0, 0, 0}, {nullptr, GName, 4, 0, 0}};
  char Img[4];
  __tgt_device_image Image{Img, Img + 4, Entries, Entries + 2};
  Expected<__tgt_target_table *> T = Dev->loadBinary(Image);
  ASSERT_TRUE(T);
  ASSERT_EQ((*T)->EntriesEnd - (*T)->EntriesBegin, 2);
  EXPECT_EQ((*T)->EntriesBegin[0].addr, &Kernel);
  EXPECT_EQ((*T)->EntriesBegin[1].addr, &Global);
  EXPECT_EQ(Dev->kernelName(&Kernel), std::optional<std::string>("kern"));

  __tgt_async_info AI;
  EXPECT_TRUE(Dev->launchKernel(&Kernel, nullptr, nullptr, 0, 1, 0, 0, false, &AI));
  Status Unknown = Dev->launchKernel(&Global, nullptr, nullptr, 0, 1, 0, 0, false, &AI);
  ASSERT_FALSE(Unknown);
  EXPECT_TRUE(mentions(Unknown.error(), "not a kernel"));
  EXPECT_FALSE(
      Dev->launchKernel(&Kernel, nullptr, nullptr, 2, 1, 0, 0, true, &AI));  // args missing
  EXPECT_EQ(Dev->Launches, 1);
  EXPECT_TRUE(Dev->synchronize(&AI));

  __tgt_offload_entry Bad[] = {{nullptr, Missing, 0, 0, 0}};
  __tgt_device_image BadImage{Img, Img + 4, Bad, Bad + 1};
  Expected<__tgt_target_table *> B = Dev->loadBinary(BadImage);
  ASSERT_FALSE(B);
  EXPECT_TRUE(mentions(B.error(), "'nope'"));
}

// load_binary can be called by any core (LLVM 14's checks nothing): an
// image whose entry table is malformed is refused with a message before any
// record is read or anything is loaded.
TEST_F(PluginGenericDevice, LoadBinaryRefusesMalformedEntryTables) {
  static int Kernel;
  Dev->Symbols = {{"kern", &Kernel}};
  char KName[] = "kern";
  __tgt_offload_entry Entries[3] = {{nullptr, KName, 0, 0, 0},
                                    {nullptr, KName, 0, 0, 0},
                                    {nullptr, KName, 0, 0, 0}};
  char Img[4];
  auto Load = [&](__tgt_offload_entry *B, __tgt_offload_entry *E) {
    return Dev->loadBinary(__tgt_device_image{Img, Img + 4, B, E});
  };
  // 40-byte records (a larger layout): 80 bytes is not a whole number of 32.
  auto *Larger = reinterpret_cast<__tgt_offload_entry *>(reinterpret_cast<char *>(Entries) + 80);
  Expected<__tgt_target_table *> Size = Load(Entries, Larger);
  ASSERT_FALSE(Size);
  EXPECT_TRUE(mentions(Size.error(), "load_binary: device 0"));
  EXPECT_TRUE(
      mentions(Size.error(), "is 80 bytes, not a multiple of the 32-byte __tgt_offload_entry"));
  EXPECT_TRUE(mentions(Size.error(), "rebuild it with clang 14"));
  Expected<__tgt_target_table *> Reversed = Load(Entries + 2, Entries);
  ASSERT_FALSE(Reversed);
  EXPECT_TRUE(mentions(Reversed.error(), "ends before it begins"));
  Expected<__tgt_target_table *> OneNull = Load(nullptr, Entries + 1);
  ASSERT_FALSE(OneNull);
  EXPECT_TRUE(mentions(OneNull.error(), "one null bound"));
  Entries[1].name = nullptr;
  Expected<__tgt_target_table *> NoName = Load(Entries, Entries + 3);
  ASSERT_FALSE(NoName);
  EXPECT_TRUE(mentions(NoName.error(), "entry 1 of the image has no name"));
  EXPECT_EQ(Dev->numImages(), 0u);
  // An empty table is fine (both bounds null or equal).
  EXPECT_TRUE(Load(nullptr, nullptr));
  EXPECT_TRUE(Load(Entries, Entries));
}

// The generic direct table: well-formed calls reach the hooks as the entries
// would; anything else gets the entries' checks and the same error lines.
TEST_F(PluginGenericDevice, DirectTableDoesWhatTheCheckedMethodsDo) {
  namespace direct = omptarget::plugin::direct;
  constexpr int32_t Ok = omptarget::abi::kOffloadSuccess, Fail = omptarget::abi::kOffloadFail;
  __tgt_async_info AI;
  int X = 5, Y = 0, Z = 0;
  ASSERT_EQ(direct::dataSubmit(Dev, &Y, &X, 4, &AI), Ok);
  EXPECT_EQ(Dev->Submits, 1);
  void *Q = AI.Queue;
  EXPECT_NE(Q, nullptr) << "the first operation takes a queue, as queueOf does";
  ASSERT_EQ(direct::dataRetrieve(Dev, &Z, &Y, 4, &AI), Ok);
  EXPECT_EQ(Z, 5);
  EXPECT_EQ(AI.Queue, Q);
  ASSERT_TRUE(Dev->synchronize(&AI));

  // Bad arguments: refused before the hooks, with the checked method's line.
  Status Checked = Dev->dataSubmit(nullptr, &X, 4, &AI);
  ASSERT_FALSE(Checked);
  testing::internal::CaptureStderr();
  EXPECT_EQ(direct::dataSubmit(Dev, nullptr, &X, 4, &AI), Fail);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find(Checked.error().message()), std::string::npos) << Err;
  EXPECT_EQ(Dev->Submits, 1);
  EXPECT_EQ(AI.Queue, nullptr);

  // Allocation through the memory manager; a second free is reported.
  void *P = direct::dataAlloc(Dev, 8, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(direct::dataDelete(Dev, P, nullptr), Ok);
  testing::internal::CaptureStderr();
  EXPECT_EQ(direct::dataDelete(Dev, P, nullptr), Fail);
  EXPECT_EQ(direct::dataAlloc(Dev, -8, nullptr, omptarget::abi::kAllocDefault, nullptr), nullptr);
  Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("data_delete: device 0: cannot free"), std::string::npos) << Err;
  EXPECT_NE(Err.find("data_alloc: device 0: negative size -8"), std::string::npos) << Err;
  EXPECT_EQ(direct::dataDelete(Dev, nullptr, nullptr), Ok);  // like free(NULL)

  // Launches: a loaded kernel runs; anything else is named and refused.
  static int Kernel, Global;
  Dev->Symbols = {{"kern", &Kernel}, {"glob", &Global}};
  char KName[] = "kern", GName[] = "glob";
  __tgt_offload_entry Entries[] = {{nullptr, KName, 0, 0, 0}, {nullptr, GName, 4, 0, 0}};
  char Img[4];
  __tgt_device_image Image{Img, Img + 4, Entries, Entries + 2};
  ASSERT_TRUE(Dev->loadBinary(Image));
  const __tgt_kernel_launch
      TeamLaunch{OMPTARGET_KERNEL_LAUNCH_VERSION, 0, {8, 0, 0}, {64, 0, 0}, 0, 1, 1000};
  const __tgt_kernel_launch
      PlainLaunch{OMPTARGET_KERNEL_LAUNCH_VERSION, 0, {1, 0, 0}, {0, 0, 0}, 0, 0, 0};
  EXPECT_EQ(direct::launch(Dev, &Kernel, nullptr, nullptr, 0, &TeamLaunch, &AI), Ok);
  EXPECT_EQ(Dev->Launches, 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(direct::launch(Dev, &Global, nullptr, nullptr, 0, &PlainLaunch, &AI), Fail);
  EXPECT_EQ(direct::launch(Dev, &Kernel, nullptr, nullptr, 2, &PlainLaunch, &AI), Fail);
  // A description of another version is refused, never guessed at.
  __tgt_kernel_launch Unknown = TeamLaunch;
  Unknown.Version = 99;
  EXPECT_EQ(direct::launch(Dev, &Kernel, nullptr, nullptr, 0, &Unknown, &AI), Fail);
  EXPECT_EQ(Dev->Launches, 1);
  Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("run_target_region: device 0: "), std::string::npos) << Err;
  EXPECT_NE(Err.find("launch_kernel_async: device 0: unknown launch description"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("is not a kernel loaded on this device"), std::string::npos) << Err;
  EXPECT_NE(Err.find("invalid arguments"), std::string::npos) << Err;
  EXPECT_EQ(Dev->Launches, 1);
  EXPECT_TRUE(Dev->synchronize(&AI));
}

TEST_F(PluginGenericDevice, EventsAreTracked) {
  Expected<void *> E = Dev->createEvent();
  ASSERT_TRUE(E);
  __tgt_async_info AI;
  EXPECT_TRUE(Dev->recordEvent(*E, &AI));
  EXPECT_TRUE(Dev->waitEvent(*E, &AI));
  EXPECT_TRUE(Dev->syncEvent(*E));
  EXPECT_TRUE(Dev->synchronize(&AI));
  int NotAnEvent;
  EXPECT_FALSE(Dev->recordEvent(&NotAnEvent, &AI));
  EXPECT_FALSE(Dev->syncEvent(&NotAnEvent));
  EXPECT_TRUE(Dev->destroyEvent(*E));
  Status Twice = Dev->destroyEvent(*E);
  ASSERT_FALSE(Twice);
  EXPECT_TRUE(mentions(Twice.error(), "destroy_event"));
}

TEST_F(PluginGenericDevice, LockValidatesArguments) {
  int X;
  Expected<void *> L = Dev->dataLock(&X, sizeof X);
  ASSERT_TRUE(L);
  EXPECT_EQ(*L, &X);
  EXPECT_FALSE(Dev->dataLock(nullptr, 4));
  EXPECT_FALSE(Dev->dataLock(&X, 0));
  EXPECT_TRUE(Dev->dataUnlock(&X));
  EXPECT_FALSE(Dev->dataUnlock(nullptr));
}

// Collects describe's properties in order.
class ListSink final : public PropertySink {
 public:
  using PropertySink::add;
  void add(const char *Key, const std::string &Value) override { Props.emplace_back(Key, Value); }
  std::string value(const std::string &Key) const {
    for (const auto &[K, V] : Props)
      if (K == Key) return V;
    return "(absent)";
  }
  std::vector<std::pair<std::string, std::string>> Props;
};

TEST_F(PluginGenericDevice, DescribeListsTheDevicesOwnPropertiesThenTheGenericOnes) {
  ListSink Before;
  Dev->describe(Before);
  std::vector<std::string> Keys;
  for (const auto &KV : Before.Props) Keys.push_back(KV.first);
  EXPECT_EQ(Keys, (std::vector<std::string>{"name", "memory_pool", "loaded_images",
                                            "queues_created", "events_created",
                                            "memory_manager_threshold_bytes", "cached_blocks",
                                            "cached_bytes", "pinned_ranges", "pinned_bytes"}));
  EXPECT_EQ(Before.value("name"), "fake device");
  EXPECT_EQ(Before.value("memory_pool"), "off");
  EXPECT_EQ(Before.value("loaded_images"), "0");
  EXPECT_EQ(Before.value("pinned_ranges"), "0");
  EXPECT_EQ(Before.value("cached_blocks"), "0");
  // A lock and a block the memory manager keeps show.
  static char Buffer[4096];
  ASSERT_TRUE(Dev->dataLock(Buffer, sizeof Buffer));
  Expected<void *> Block = Dev->dataAlloc(100, nullptr, omptarget::abi::kAllocDefault, nullptr);
  ASSERT_TRUE(Block);
  ASSERT_TRUE(Dev->dataDelete(*Block, nullptr));
  ListSink After;
  Dev->describe(After);
  EXPECT_EQ(After.value("pinned_ranges"), "1");
  EXPECT_EQ(After.value("pinned_bytes"), "4096");
  EXPECT_EQ(After.value("cached_blocks"), "1");
  EXPECT_EQ(After.value("cached_bytes"), "128") << "100 bytes take the 128-byte class";
  EXPECT_TRUE(Dev->dataUnlock(Buffer));
}

TEST_F(PluginGenericDevice, PrintInfoPrintsDescribesPropertiesWithLabels) {
  testing::internal::CaptureStdout();
  Dev->printInfo();
  std::string Out = testing::internal::GetCapturedStdout();
  EXPECT_NE(Out.find("    Name:                          fake device\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("    Memory pool:                   off\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("    Memory manager threshold:      8192 bytes (8.0 KiB)\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("    Pinned host ranges:            0\n"), std::string::npos) << Out;
}

TEST(PluginGenericDeviceEnv, InitialQueuesFromEnvironment) {
  ::setenv("LIBOMPTARGET_NUM_INITIAL_STREAMS", "5", 1);
  ::setenv("LIBOMPTARGET_NUM_INITIAL_EVENTS", "3", 1);
  FakePlugin Plugin;
  ASSERT_TRUE(Plugin.initialize());
  ASSERT_TRUE(Plugin.initDevice(1));
  ::unsetenv("LIBOMPTARGET_NUM_INITIAL_STREAMS");
  ::unsetenv("LIBOMPTARGET_NUM_INITIAL_EVENTS");
  Expected<GenericDevice *> D = Plugin.device(1, "test");
  ASSERT_TRUE(D);
  EXPECT_EQ((*D)->numQueuesCreated(), 5u);
  EXPECT_EQ((*D)->numEventsCreated(), 3u);
  EXPECT_TRUE(Plugin.deinitialize());
}

}  // namespace
