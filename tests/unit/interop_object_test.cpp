// Unit tests of the core's interop objects (interop_object.h) on a plugin
// made of a few in-process entries: how an object is described with and
// without the plugin's interop_info entry (LLVM 14's plugins have none: a
// "cuda" plugin is taken as CUDA, any other has untyped handles), how its
// targetsync queue is waited for (an event recorded and synchronized) and
// given back (release_async_info, else synchronize), and a refused queue.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "device.h"
#include "interop_object.h"
#include "plugin.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

// The fake plugin's state: handles it gives and calls it saw.
struct State {
  __tgt_async_info Queue;  // what init_async_info hands out
  bool FailAsyncInfo = false;
  int CreateEvent = 0, RecordEvent = 0, SyncEvent = 0, DestroyEvent = 0;
  int Synchronize = 0, Release = 0;
  __tgt_async_info *Released = nullptr;
} S;
int ContextToken, QueueToken, EventToken;

int32_t initDeviceInfo(int32_t, __tgt_device_info *Info, const char **) {
  Info->Context = &ContextToken;
  Info->Device = reinterpret_cast<void *>(intptr_t{3});
  return 0;
}
int32_t initAsyncInfo(int32_t, __tgt_async_info **AI) {
  if (S.FailAsyncInfo) return -1;
  S.Queue.Queue = &QueueToken;
  *AI = &S.Queue;
  return 0;
}
int32_t synchronize(int32_t, __tgt_async_info *AI) {
  ++S.Synchronize;
  AI->Queue = nullptr;
  return 0;
}
int32_t releaseAsyncInfo(int32_t, __tgt_async_info *AI) {
  ++S.Release;
  S.Released = AI;
  return 0;
}
int32_t createEvent(int32_t, void **E) {
  ++S.CreateEvent;
  *E = &EventToken;
  return 0;
}
int32_t recordEvent(int32_t, void *E, __tgt_async_info *AI) {
  EXPECT_EQ(E, &EventToken);
  EXPECT_EQ(AI, &S.Queue);
  ++S.RecordEvent;
  return 0;
}
int32_t syncEvent(int32_t, void *) {
  ++S.SyncEvent;
  return 0;
}
int32_t destroyEvent(int32_t, void *) {
  ++S.DestroyEvent;
  return 0;
}
int32_t interopInfo(int32_t, uint32_t Version, __tgt_interop_info *Info) {
  if (Version != OMPTARGET_INTEROP_INFO_VERSION) return -1;
  *Info = {};
  Info->FrId = 6;  // level_zero, say
  Info->FrName = "level_zero";
  Info->ContextType = "ze_context_handle_t";
  Info->TargetSyncType = "ze_command_queue_handle_t";
  return 0;
}

PluginFunctions baseFunctions() {
  PluginFunctions F;
  F.init_device_info = initDeviceInfo;
  F.init_async_info = initAsyncInfo;
  F.synchronize = synchronize;
  F.create_event = createEvent;
  F.record_event = recordEvent;
  F.sync_event = syncEvent;
  F.destroy_event = destroyEvent;
  return F;
}

class InteropObjectTest : public ::testing::Test {
 protected:
  void SetUp() override { S = State{}; }
  void make(const std::string &Name, const PluginFunctions &F) {
    P = Plugin::fromFunctions(Name, F);
    D = std::make_unique<Device>(2, *P, 0);
  }
  std::unique_ptr<InteropObject> create(bool TargetSync) {
    Expected<std::unique_ptr<InteropObject>> Obj = InteropObject::create(*D, 2, TargetSync);
    EXPECT_TRUE(Obj) << (Obj ? "" : Obj.error().message());
    return Obj ? std::move(*Obj) : nullptr;
  }
  std::unique_ptr<Plugin> P;
  std::unique_ptr<Device> D;
};

constexpr int kFrId = -1, kFrName = -2, kVendor = -3, kVendorName = -4, kDeviceNum = -5,
              kPlatform = -6, kDevice = -7, kContext = -8, kTargetSync = -9;

TEST_F(InteropObjectTest, LlvmCudaPluginIsDescribedAsCuda) {
  make("/some/dir/libomptarget.rtl.cuda.so", baseFunctions());
  auto Obj = create(true);
  ASSERT_TRUE(Obj);
  EXPECT_EQ(Obj->property(kFrId).Int, 1);  // omp_ifr_cuda
  EXPECT_STREQ(Obj->property(kFrName).Str, "cuda");
  EXPECT_EQ(Obj->property(kVendor).Int, 11);
  EXPECT_STREQ(Obj->property(kVendorName).Str, "nvidia");
  EXPECT_EQ(Obj->property(kDeviceNum).Int, 2);
  EXPECT_FALSE(Obj->property(kPlatform).HasValue);
  const InteropProperty &Dev = Obj->property(kDevice);
  EXPECT_EQ(Dev.Type, PropertyType::Int);  // the CUdevice ordinal
  EXPECT_TRUE(Dev.HasValue);
  EXPECT_EQ(Dev.Int, 3);
  EXPECT_EQ(Obj->property(kContext).Ptr, &ContextToken);
  const InteropProperty &Sync = Obj->property(kTargetSync);
  EXPECT_TRUE(Sync.HasValue);
  EXPECT_EQ(Sync.Type, PropertyType::Ptr);
  EXPECT_EQ(Sync.Ptr, &QueueToken);
  ASSERT_NE(Sync.TypeDesc, nullptr);
  EXPECT_NE(std::strstr(Sync.TypeDesc, "CUstream"), nullptr);
  // Without release_async_info the queue goes back through synchronize.
  ASSERT_TRUE(Obj->releaseQueue());
  EXPECT_EQ(S.Synchronize, 1);
  EXPECT_FALSE(Obj->targetSync());
}

TEST_F(InteropObjectTest, UnknownPluginHasUntypedHandles) {
  make("libomptarget.rtl.other.so", baseFunctions());
  auto Obj = create(false);
  ASSERT_TRUE(Obj);
  EXPECT_FALSE(Obj->property(kFrId).HasValue);
  EXPECT_FALSE(Obj->property(kFrName).HasValue);
  const InteropProperty &Dev = Obj->property(kDevice);
  EXPECT_EQ(Dev.Type, PropertyType::Ptr);
  EXPECT_TRUE(Dev.HasValue);
  EXPECT_STREQ(Dev.TypeDesc, "void *");
  EXPECT_FALSE(Obj->property(kTargetSync).HasValue);  // a target object
  EXPECT_EQ(Obj->property(kTargetSync).TypeDesc, nullptr);
  ASSERT_TRUE(Obj->releaseQueue());  // nothing to give back
  EXPECT_EQ(S.Synchronize, 0);
}

TEST_F(InteropObjectTest, PluginDescriptionWinsAndQueueIsReleased) {
  PluginFunctions F = baseFunctions();
  F.interop_info = interopInfo;
  F.release_async_info = releaseAsyncInfo;
  make("libomptarget.rtl.cuda.so", F);  // the name no longer matters
  auto Obj = create(true);
  ASSERT_TRUE(Obj);
  EXPECT_EQ(Obj->property(kFrId).Int, 6);
  EXPECT_STREQ(Obj->property(kFrName).Str, "level_zero");
  EXPECT_FALSE(Obj->property(kVendor).HasValue);
  EXPECT_FALSE(Obj->property(kDevice).HasValue);  // no DeviceType: not reported
  EXPECT_STREQ(Obj->property(kContext).TypeDesc, "ze_context_handle_t");
  // use: one event, recorded and waited for each time.
  ASSERT_TRUE(Obj->waitForQueue());
  ASSERT_TRUE(Obj->waitForQueue());
  EXPECT_EQ(S.CreateEvent, 1);
  EXPECT_EQ(S.RecordEvent, 2);
  EXPECT_EQ(S.SyncEvent, 2);
  ASSERT_TRUE(Obj->releaseQueue());
  EXPECT_EQ(S.Release, 1);
  EXPECT_EQ(S.Released, &S.Queue);
  EXPECT_EQ(S.Synchronize, 0);
  EXPECT_EQ(S.DestroyEvent, 1);
  ASSERT_TRUE(Obj->waitForQueue());  // no queue any more: nothing to wait for
  EXPECT_EQ(S.RecordEvent, 2);
}

TEST_F(InteropObjectTest, RefusedQueueFailsTheObject) {
  make("libomptarget.rtl.cuda.so", baseFunctions());
  S.FailAsyncInfo = true;
  Expected<std::unique_ptr<InteropObject>> Obj = InteropObject::create(*D, 2, true);
  ASSERT_FALSE(Obj);
  EXPECT_NE(Obj.error().message().find("init_async_info failed"), std::string::npos);
  EXPECT_NE(Obj.error().message().find("device 2"), std::string::npos);
}

TEST_F(InteropObjectTest, RegistryKnowsLiveObjectsOnly) {
  make("x", baseFunctions());
  InteropRegistry Reg;
  void *H = Reg.add(create(false));
  EXPECT_NE(Reg.find(H), nullptr);
  EXPECT_EQ(Reg.find(&ContextToken), nullptr);
  std::shared_ptr<InteropObject> Obj = Reg.remove(H);
  EXPECT_NE(Obj, nullptr);
  EXPECT_EQ(Reg.find(H), nullptr);
  EXPECT_EQ(Reg.remove(H), nullptr);
}

}  // namespace
