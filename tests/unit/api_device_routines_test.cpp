// The device routines beyond LLVM 14 on the fake plugin, which has none of
// the optional entries they could use (as LLVM 14's plugins): omp_target_memset
// stages through data_submit in 1 MiB chunks on one queue (one synchronize),
// rejects foreign pointers, and after an injected copy failure returns NULL
// and leaves no queue behind; device ids fall back to "<plugin>-<n>" and
// accessibility to 0; the allocation registry's containment lookup.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "allocations.h"
#include "fake_plugin.h"

extern "C" {
void *omp_target_alloc(size_t Size, int DeviceNum);
void omp_target_free(void *Ptr, int DeviceNum);
void *omp_target_memset(void *Ptr, int Value, size_t Count, int DeviceNum);
const char *omp_get_uid_from_device(int DeviceNum);
int omp_get_device_from_uid(const char *Uid);
int omp_target_is_accessible(const void *Ptr, size_t Size, int DeviceNum);
int omptarget_get_device_properties(int DeviceNum,
                                    void (*Fn)(void *Ctx, const char *Key, const char *Value),
                                    void *Ctx);
}

using omptarget::core::AllocationRegistry;

namespace {

class DeviceRoutinesTest : public RuntimeTest, public ::testing::WithParamInterface<bool> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam() ? fake::Personality::Async : fake::Personality::Sync;
    return C;
  }
};

TEST_P(DeviceRoutinesTest, MemsetStagesChunksOnOneQueue) {
  constexpr size_t Size = 3 * (size_t(1) << 20) + 1;
  auto *Dev = static_cast<unsigned char *>(omp_target_alloc(Size, 0));
  ASSERT_NE(Dev, nullptr);
  fake::Counters Before = fake::counters();
  EXPECT_EQ(omp_target_memset(Dev + 1, 0x5c, Size - 1, 0), Dev + 1);
  fake::Counters After = fake::counters();
  EXPECT_EQ(After.Submit - Before.Submit, 3u) << "3 MiB in 1 MiB chunks";
  if (GetParam()) {
    EXPECT_EQ(After.QueueSyncs - Before.QueueSyncs, 1u) << "one synchronize";
  }
  // Fake device memory is host memory: read it directly.
  EXPECT_EQ(Dev[0], fake::kFillByte) << "the byte before the range is untouched";
  size_t Wrong = 0;
  for (size_t I = 1; I < Size; ++I) Wrong += Dev[I] != 0x5c;
  EXPECT_EQ(Wrong, 0u);
  omp_target_free(Dev, 0);
}

TEST_P(DeviceRoutinesTest, MemsetFailureReturnsNullAndLeavesNoQueue) {
  constexpr size_t Size = 2 * (size_t(1) << 20);
  void *Dev = omp_target_alloc(Size, 0);
  fake::failSubmit(2);
  testing::internal::CaptureStderr();
  EXPECT_EQ(omp_target_memset(Dev, 1, Size, 0), nullptr);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("omp_target_memset: filling 2097152 bytes at"), std::string::npos) << Err;
  omp_target_free(Dev, 0);
  // TearDown checks that no queue and no device memory leaked.
}

TEST_P(DeviceRoutinesTest, MemsetRefusesPointersOfAnotherDeviceOrPastTheirBlock) {
  void *Host = omp_target_alloc(64, -1);  // omp_initial_device
  auto *Dev = static_cast<char *>(omp_target_alloc(64, 0));
  fake::Counters Before = fake::counters();
  testing::internal::CaptureStderr();
  EXPECT_EQ(omp_target_memset(Host, 0, 8, 0), nullptr);
  EXPECT_EQ(omp_target_memset(Dev + 60, 0, 8, 0), nullptr);
  EXPECT_EQ(omp_target_memset(Dev, 0, 8, -1), nullptr);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("allocated on the initial device, not on device 0"), std::string::npos) << Err;
  EXPECT_NE(Err.find("8 bytes at"), std::string::npos) << Err;
  EXPECT_NE(Err.find("4 bytes left"), std::string::npos) << Err;
  EXPECT_NE(Err.find("allocated on device 0, not on the initial device"), std::string::npos) << Err;
  EXPECT_EQ(fake::counters().Submit, Before.Submit) << "nothing was copied";
  omp_target_free(Dev, 0);
  omp_target_free(Host, -1);
}

TEST_P(DeviceRoutinesTest, PluginsWithoutTheEntriesGetFallbacks) {
  // The fake plugin is named "fake-async" / "fake-sync", not a library name.
  std::string Expected = std::string(GetParam() ? "fake-async" : "fake-sync") + "-0";
  const char *Uid = omp_get_uid_from_device(0);
  ASSERT_NE(Uid, nullptr);
  EXPECT_EQ(Uid, Expected);
  EXPECT_EQ(omp_get_uid_from_device(0), Uid) << "asked once, the same string after";
  EXPECT_EQ(omp_get_device_from_uid(Uid), 0);
  int HostMemory[4];
  EXPECT_EQ(omp_target_is_accessible(HostMemory, sizeof HostMemory, 0), 0);
  EXPECT_EQ(omp_target_is_accessible(HostMemory, sizeof HostMemory, -1), 1);
}

using PropertyList = std::vector<std::pair<std::string, std::string>>;
void collect(void *Ctx, const char *Key, const char *Value) {
  static_cast<PropertyList *>(Ctx)->emplace_back(Key, Value);
}

TEST_P(DeviceRoutinesTest, DevicePropertiesAreTheCoresWithoutThePluginEntry) {
  // The fake has no device_properties and no data exchange: the core's six.
  std::string Plugin = GetParam() ? "fake-async" : "fake-sync";
  PropertyList Props;
  EXPECT_EQ(omptarget_get_device_properties(0, collect, &Props), 0);
  ASSERT_EQ(Props.size(), 6u);
  // mapped_entries: the table's entries, the fake binary's declare-target
  // globals included; one more while a map clause holds one.
  const std::string Globals = Props[5].second;
  EXPECT_EQ(Props, (PropertyList{{"device_num", "0"},
                                 {"plugin", Plugin},
                                 {"plugin_device_id", "0"},
                                 {"uid", Plugin + "-0"},
                                 {"peers", ""},
                                 {"mapped_entries", Globals}}));
  EXPECT_EQ(tableSize(), 0u);
  std::vector<char> Data(64);
  ASSERT_TRUE(static_cast<bool>(begin({map(Data.data(), 64, omptarget::abi::kMapTo)})));
  PropertyList Mapped;
  EXPECT_EQ(omptarget_get_device_properties(0, collect, &Mapped), 0);
  ASSERT_EQ(Mapped.size(), 6u);
  EXPECT_EQ(Mapped[5], (std::pair<std::string, std::string>{
                           "mapped_entries", std::to_string(std::stoi(Globals) + 1)}));
  ASSERT_TRUE(static_cast<bool>(end({map(Data.data(), 64, omptarget::abi::kMapTo)})));
  PropertyList After;
  EXPECT_EQ(omptarget_get_device_properties(0, collect, &After), 0);
  EXPECT_EQ(After, Props);
  PropertyList None;
  testing::internal::CaptureStderr();
  EXPECT_NE(omptarget_get_device_properties(1, collect, &None), 0);
  EXPECT_NE(omptarget_get_device_properties(-1, collect, &None), 0);
  EXPECT_NE(omptarget_get_device_properties(0, nullptr, nullptr), 0);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("Libomptarget error: omptarget_get_device_properties: invalid device number 1 "
                     "(there are 1 devices; valid numbers are 0..0)"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("invalid device number -1"), std::string::npos) << Err;
  EXPECT_NE(Err.find("null callback"), std::string::npos) << Err;
  EXPECT_TRUE(None.empty());
}

INSTANTIATE_TEST_SUITE_P(SyncAndAsync, DeviceRoutinesTest, ::testing::Bool());

TEST(AllocationRegistry, ContainingFindsTheBlockOfAnInteriorAddress) {
  AllocationRegistry R;
  // The blocks start 16 bytes into the buffer, so that the address before
  // the first one is inside it too.
  alignas(16) static char Buffer[16 + 256];
  char *Memory = Buffer + 16;
  R.add(Memory, 0, 64, 3);
  R.add(Memory + 64, 1, 32, 1);
  R.add(Memory + 128, AllocationRegistry::kInitialDeviceKey, 16, 0);
  EXPECT_FALSE(R.containing(Buffer + 15));
  ASSERT_TRUE(R.containing(Memory + 63));
  EXPECT_EQ(R.containing(Memory + 63)->DeviceId, 0);
  EXPECT_EQ(R.containing(Memory + 64)->DeviceId, 1);
  EXPECT_EQ(R.containing(Memory + 95)->Kind, 1);
  EXPECT_FALSE(R.containing(Memory + 96)) << "one past the end of a block";
  EXPECT_EQ(R.containing(Memory + 130)->DeviceId, AllocationRegistry::kInitialDeviceKey);
  EXPECT_FALSE(R.containing(Memory + 144));
  EXPECT_FALSE(R.find(Memory + 1)) << "find wants the block's start";
  EXPECT_FALSE(R.remove(Memory, 1)) << "wrong device";
  ASSERT_TRUE(R.remove(Memory, 0));
  EXPECT_FALSE(R.containing(Memory + 10));
  EXPECT_STREQ(AllocationRegistry::allocatorName(1), "llvm_omp_target_alloc_host");
  EXPECT_EQ(AllocationRegistry::ownerName(-1), "the initial device");
  EXPECT_EQ(AllocationRegistry::ownerName(3), "device 3");
}

}  // namespace
