// forEachNonContigRun (src/core/non_contig.h): the runs of a non-contiguous
// `target update`, folded trailing dimensions, empty sections, and the
// descriptors it refuses before visiting anything (found by
// fuzz/noncontig_update.cpp, whose corpus keeps the input as near_top: a
// section near the top of the address space made wrapped addresses).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "non_contig.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

using Runs = std::vector<std::pair<uintptr_t, int64_t>>;  // offset from the base, size

Expected<Runs> walk(uintptr_t Base, std::vector<__tgt_target_non_contig> Dims) {
  Runs Visited;
  Status S = forEachNonContigRun(reinterpret_cast<void *>(Base), Dims.data(),
                                 static_cast<int32_t>(Dims.size()),
                                 [&](void *Begin, int64_t Size) {
                                   Visited.emplace_back(reinterpret_cast<uintptr_t>(Begin) - Base,
                                                        Size);
                                   return Status::success();
                                 });
  if (!S) return S.takeError();
  return Visited;
}

constexpr uintptr_t kBase = 0x10000;

TEST(NonContigRuns, RowsOfATwoDimensionalSection) {
  // int m[4][5]; m[0:2][1:3]: outermost first, the last descriptor the element.
  Expected<Runs> R = walk(kBase, {{0, 2, 20}, {1, 3, 4}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(*R, (Runs{{4, 12}, {24, 12}}));
}

TEST(NonContigRuns, StridedElements) {
  // int a[16]; a[2:5:2]: five runs of one element, 8 bytes apart.
  Expected<Runs> R = walk(kBase, {{2, 5, 8}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(*R, (Runs{{8, 4}, {16, 4}, {24, 4}, {32, 4}, {40, 4}}));
}

TEST(NonContigRuns, FullyCoveredTrailingDimensionsFold) {
  // int m[3][4][4]; m[1:2][0:4][0:4]: whole rows, one run of 128 bytes.
  Expected<Runs> R = walk(kBase, {{1, 2, 64}, {0, 4, 16}, {0, 4, 4}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(*R, (Runs{{64, 128}}));
  // m[0:3][1:2][0:4]: the innermost folds into its row, 32 bytes a run.
  R = walk(kBase, {{0, 3, 64}, {1, 2, 16}, {0, 4, 4}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(*R, (Runs{{16, 32}, {80, 32}, {144, 32}}));
}

TEST(NonContigRuns, AnEmptyOuterDimensionHasNoRun) {
  Expected<Runs> R = walk(kBase, {{0, 0, 20}, {1, 3, 4}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->empty());
  // Even with an outer dimension of 2^40 elements before it.
  R = walk(kBase, {{0, uint64_t{1} << 40, 64}, {0, 0, 8}, {1, 2, 4}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->empty());
}

TEST(NonContigRuns, DescriptorsPastTheAddressSpaceAreRefused) {
  // Near the top of the address space (the fuzzer's input): offsets wrap.
  Expected<Runs> R = walk(UINTPTR_MAX - 32, {{0, 4, 16}, {0, 1, 4}});
  ASSERT_FALSE(R);
  EXPECT_NE(R.error().message().find("reach past the end of the address space"),
            std::string::npos)
      << R.error().message();
  // A product that wraps.
  EXPECT_FALSE(walk(kBase, {{0, 8, uint64_t{1} << 62}, {0, 3, 4}, {0, 1, 4}}));
  EXPECT_FALSE(walk(kBase, {{uint64_t{1} << 62, 2, 16}, {0, 1, 4}}));
  // A run larger than INT64_MAX bytes (a negative size before).
  EXPECT_FALSE(walk(0, {{0, uint64_t{1} << 61, 4}}));
  // Just fitting is fine.
  R = walk(UINTPTR_MAX - 64, {{0, 4, 16}, {0, 1, 4}});
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->size(), 4u);
}

TEST(NonContigRuns, TheFirstFailureStopsTheWalk) {
  std::vector<__tgt_target_non_contig> Dims = {{0, 1000, 64}, {0, 1000, 8}, {0, 1, 4}};
  int Visits = 0;
  Status S = forEachNonContigRun(reinterpret_cast<void *>(kBase), Dims.data(), 3,
                                 [&](void *, int64_t) {
                                   return ++Visits == 3 ? makeError("copy failed")
                                                        : Status::success();
                                 });
  ASSERT_FALSE(S);
  EXPECT_EQ(S.error().message(), "copy failed");
  EXPECT_EQ(Visits, 3);
}

TEST(NonContigRuns, ManyDimensionsCostNoStack) {
  std::vector<__tgt_target_non_contig> Dims(100000, {0, 1, 8});
  Dims.back() = {0, 1, 4};
  Expected<Runs> R = walk(kBase, Dims);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(*R, (Runs{{0, 4}}));
}

}  // namespace
