// ArgsWithEnvironment (the argument lists of a kernel that takes clang 19's
// launch environment first) and the SmallArray it is built on.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "launch_arguments.h"
#include "small_array.h"

namespace {

using omptarget::SmallArray;
using omptarget::plugin::ArgsWithEnvironment;

// N arguments with distinct pointers and offsets, the environment first.
void checkShifted(int32_t N) {
  std::vector<int> Storage(static_cast<size_t>(N) + 1);
  std::vector<void *> Args;
  std::vector<ptrdiff_t> Offsets;
  for (int32_t I = 0; I < N; ++I) {
    Args.push_back(&Storage[static_cast<size_t>(I)]);
    Offsets.push_back(8 * I + 1);
  }
  ArgsWithEnvironment Lists(Args.data(), Offsets.data(), N);
  ASSERT_EQ(Lists.numArgs(), N + 1);
  EXPECT_EQ(Lists.args()[0], nullptr) << "the environment's slot, until set";
  EXPECT_EQ(Lists.offsets()[0], 0);
  for (int32_t I = 0; I < N; ++I) {
    EXPECT_EQ(Lists.args()[I + 1], Args[static_cast<size_t>(I)]) << "argument " << I;
    EXPECT_EQ(Lists.offsets()[I + 1], Offsets[static_cast<size_t>(I)]) << "offset " << I;
  }
  int Env = 0;
  Lists.setEnvironment(&Env);
  EXPECT_EQ(Lists.args()[0], &Env);
  if (N > 0) {
    EXPECT_EQ(Lists.args()[1], Args[0]) << "setting the environment moves nothing";
  }
}

TEST(ArgsWithEnvironment, NoArguments) { checkShifted(0); }
TEST(ArgsWithEnvironment, AFewArguments) { checkShifted(3); }
// 15 arguments and the environment fill the inline storage; 40 go to the heap.
TEST(ArgsWithEnvironment, InlineStorageFull) { checkShifted(15); }
TEST(ArgsWithEnvironment, ManyArguments) { checkShifted(40); }

TEST(SmallArray, AppendKeepsEarlierElementsAcrossGrowth) {
  SmallArray<int, 4> A;
  A.push_back(-1);
  const int More[6] = {10, 11, 12, 13, 14, 15};
  A.append(More, 2);      // still inline
  A.append(More + 2, 4);  // past the inline 4: on the heap
  ASSERT_EQ(A.size(), 7u);
  const std::vector<int> Want = {-1, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(std::vector<int>(A.begin(), A.end()), Want);
  A.append(More, 0);
  EXPECT_EQ(A.size(), 7u);
}

}  // namespace
