// The core's handling of declare-target constructor and destructor kernels
// (entries flagged omptarget::abi::kEntryCtor / kEntryDtor) on the fake plugin: when
// they run, on which devices, how they are launched, and what a failing
// constructor leaves.
#include <vector>

#include "fake_plugin.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

constexpr int kCtor = 2, kDtor = 3;  // fake kernels standing for them

class EntryKernelsTest : public RuntimeTest {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.NumDevices = 2;
    return C;
  }
  // A second binary: one constructor kernel, one destructor kernel.
  void SetUp() override {
    RuntimeTest::SetUp();
    Entries = {{fake::region(kCtor), const_cast<char *>("ctor"), 0, omptarget::abi::kEntryCtor, 0},
               {fake::region(kDtor), const_cast<char *>("dtor"), 0, omptarget::abi::kEntryDtor, 0}};
    Image = {Bin.desc()->DeviceImages[0].ImageStart, Bin.desc()->DeviceImages[0].ImageEnd,
             Entries.data(), Entries.data() + Entries.size()};
    Desc = {1, &Image, Entries.data(), Entries.data() + Entries.size()};
    Runtime::get().registerLib(&Desc);
  }
  std::vector<fake::LaunchRecord> launchesOf(int Kernel) {
    std::vector<fake::LaunchRecord> Found;
    for (const fake::LaunchRecord &R : fake::launches())
      if (R.Kernel == Kernel) Found.push_back(R);
    return Found;
  }
  std::vector<__tgt_offload_entry> Entries;
  __tgt_device_image Image{};
  __tgt_bin_desc Desc{};
};

TEST_F(EntryKernelsTest, ConstructorsRunOncePerDeviceBeforeUseDestructorsAtUnregistration) {
  EXPECT_TRUE(launchesOf(kCtor).empty());  // registration loads nothing
  ASSERT_TRUE(Runtime::get().readyDevice(0, "test"));
  std::vector<fake::LaunchRecord> Ctors = launchesOf(kCtor);
  ASSERT_EQ(Ctors.size(), 1u);
  EXPECT_EQ(Ctors[0].DeviceId, 0);
  EXPECT_TRUE(Ctors[0].Teams);  // LLVM 14's launch: a team region of 1 x 1, no arguments
  EXPECT_EQ(Ctors[0].NumTeams, 1);
  EXPECT_EQ(Ctors[0].ThreadLimit, 1);
  EXPECT_TRUE(Ctors[0].Args.empty());
  ASSERT_TRUE(Runtime::get().readyDevice(0, "test"));
  EXPECT_EQ(launchesOf(kCtor).size(), 1u);  // once per device
  EXPECT_TRUE(launchesOf(kDtor).empty());

  ASSERT_TRUE(Runtime::get().readyDevice(1, "test"));
  ASSERT_EQ(launchesOf(kCtor).size(), 2u);
  EXPECT_EQ(launchesOf(kCtor)[1].DeviceId, 1);

  Runtime::get().unregisterLib(&Desc);
  std::vector<fake::LaunchRecord> Dtors = launchesOf(kDtor);
  ASSERT_EQ(Dtors.size(), 2u);
  EXPECT_EQ(Dtors[0].DeviceId, 0);
  EXPECT_EQ(Dtors[1].DeviceId, 1);
  EXPECT_EQ(Dtors[0].NumTeams, 1);
  EXPECT_EQ(Dtors[0].ThreadLimit, 1);
}

TEST_F(EntryKernelsTest, NoDestructorWhereNoConstructorRan) {
  ASSERT_TRUE(Runtime::get().readyDevice(1, "test"));  // device 0 never loads this binary
  Runtime::get().unregisterLib(&Desc);
  std::vector<fake::LaunchRecord> Dtors = launchesOf(kDtor);
  ASSERT_EQ(Dtors.size(), 1u);
  EXPECT_EQ(Dtors[0].DeviceId, 1);
}

TEST_F(EntryKernelsTest, AFailedConstructorFailsTheDeviceAndSkipsItsDestructors) {
  fake::failLaunch(1);
  Expected<Device *> First = Runtime::get().readyDevice(0, "__tgt_target");
  ASSERT_FALSE(First);
  EXPECT_NE(First.error().message().find("__tgt_target: device 0: the constructor kernel ctor of a "
                                         "declare-target global"),
            std::string::npos)
      << First.error().message();
  // Not run twice: the device stays unusable for this program.
  Expected<Device *> Again = Runtime::get().readyDevice(0, "__tgt_target");
  ASSERT_FALSE(Again);
  EXPECT_NE(Again.error().message().find("failed on this device earlier"), std::string::npos)
      << Again.error().message();
  Runtime::get().unregisterLib(&Desc);
  EXPECT_TRUE(launchesOf(kDtor).empty());
}

}  // namespace
