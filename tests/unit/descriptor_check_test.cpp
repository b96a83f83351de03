// checkDescriptor (src/core/descriptor_check.h): a descriptor of clang 14's
// shape passes; a flawed one is refused with the kind of its flaw, which
// decides what __tgt_register_lib does (tests/offload/reg_malformed_desc.c):
// another compiler's entry layout is ignored, corruption is fatal.
#include "descriptor_check.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

namespace omptarget::core {
namespace {

struct LargerEntry {  // a compiler's entry record with one more field: 40 bytes
  __tgt_offload_entry Entry;
  uint64_t Extra;
};

struct Fixture {
  char RegionA = 0, RegionB = 0, ImageBytes[64] = {};
  char NameA[8] = "a", NameB[8] = "b";
  __tgt_offload_entry Entries[2] = {{&RegionA, NameA, 0, 0, 0}, {&RegionB, NameB, 0, 0, 0}};
  LargerEntry Larger[3] = {};
  __tgt_device_image Image = {ImageBytes, ImageBytes + sizeof ImageBytes, Entries, Entries + 2};
  __tgt_bin_desc Desc = {1, &Image, Entries, Entries + 2};
};

// Checks the descriptor after `Change` flawed it: refused, with the kind
// expected (the out-parameter starts as the other kind, so it must be set).
void expectFlaw(const char *What, const std::function<void(Fixture &)> &Change,
                DescriptorFlaw Expected) {
  Fixture F;
  Change(F);
  DescriptorFlaw Got =
      Expected == DescriptorFlaw::Layout ? DescriptorFlaw::Corrupt : DescriptorFlaw::Layout;
  Status S = checkDescriptor(F.Desc, Got);
  ASSERT_FALSE(S) << What;
  EXPECT_TRUE(S.error().message().starts_with("descriptor ")) << What;
  EXPECT_EQ(Got, Expected) << What << ": " << S.error().message();
  EXPECT_FALSE(checkDescriptor(F.Desc)) << What;
}

TEST(DescriptorCheckTest, ClangsShapePasses) {
  Fixture F;
  DescriptorFlaw Flaw;
  EXPECT_TRUE(checkDescriptor(F.Desc, Flaw));
  EXPECT_TRUE(checkDescriptor(F.Desc));
  F.Desc.NumDeviceImages = 0;  // no image at all
  EXPECT_TRUE(checkDescriptor(F.Desc));
}

TEST(DescriptorCheckTest, AnotherCompilersLayoutIsALayoutFlaw) {
  constexpr auto Layout = DescriptorFlaw::Layout;
  expectFlaw(
      "host table of 40-byte records",
      [](Fixture &F) {
        F.Desc.HostEntriesBegin = reinterpret_cast<__tgt_offload_entry *>(F.Larger);
        F.Desc.HostEntriesEnd = reinterpret_cast<__tgt_offload_entry *>(F.Larger + 3);
      },
      Layout);
  expectFlaw(
      "image table of 40-byte records",
      [](Fixture &F) {
        F.Image.EntriesBegin = reinterpret_cast<__tgt_offload_entry *>(F.Larger);
        F.Image.EntriesEnd = reinterpret_cast<__tgt_offload_entry *>(F.Larger + 3);
      },
      Layout);
  expectFlaw(
      "record without a name", [](Fixture &F) { F.Entries[1].name = nullptr; }, Layout);
  expectFlaw(
      "record without an address", [](Fixture &F) { F.Entries[0].addr = nullptr; }, Layout);
  expectFlaw(
      "image with another count", [](Fixture &F) { F.Image.EntriesEnd = F.Entries + 1; }, Layout);
}

TEST(DescriptorCheckTest, ImpossibleCountsAndBoundsAreCorruption) {
  constexpr auto Corrupt = DescriptorFlaw::Corrupt;
  expectFlaw(
      "reversed host table",
      [](Fixture &F) {
        F.Desc.HostEntriesBegin = F.Entries + 2;
        F.Desc.HostEntriesEnd = F.Entries;
      },
      Corrupt);
  expectFlaw(
      "host table with one null bound", [](Fixture &F) { F.Desc.HostEntriesBegin = nullptr; },
      Corrupt);
  expectFlaw(
      "negative image count", [](Fixture &F) { F.Desc.NumDeviceImages = -1; }, Corrupt);
  expectFlaw(
      "null image array", [](Fixture &F) { F.Desc.DeviceImages = nullptr; }, Corrupt);
  expectFlaw(
      "image with a null bound", [](Fixture &F) { F.Image.ImageEnd = nullptr; }, Corrupt);
  expectFlaw(
      "reversed image",
      [](Fixture &F) {
        F.Image.ImageStart = F.ImageBytes + sizeof F.ImageBytes;
        F.Image.ImageEnd = F.ImageBytes;
      },
      Corrupt);
  expectFlaw(
      "image table with one null bound", [](Fixture &F) { F.Image.EntriesEnd = nullptr; }, Corrupt);
  expectFlaw(
      "reversed image table",
      [](Fixture &F) {
        F.Image.EntriesBegin = F.Entries + 2;
        F.Image.EntriesEnd = F.Entries;
      },
      Corrupt);
}

}  // namespace
}  // namespace omptarget::core
