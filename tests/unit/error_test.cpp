// Error / Status / Expected<T>: which state each copy, move and takeError
// leaves behind (the one-pointer representation makes "no error" a null
// pointer, so every path that could confuse the two is pinned here).
#include "error.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace omptarget {
namespace {

Status fails(const char *Why) { return makeError("failed: %s", Why); }

TEST(Status, SuccessStaysSuccessWhenCopiedOrMoved) {
  Status S;
  EXPECT_TRUE(S);
  Status Copy = S;
  EXPECT_TRUE(Copy);
  Status Moved = std::move(Copy);
  EXPECT_TRUE(Moved);
  Copy = Moved;
  EXPECT_TRUE(Copy);
  EXPECT_EQ(sizeof(Status), sizeof(void *));
}

TEST(Status, ErrorKeepsItsMessageThroughCopiesAndStaysAnErrorAfterTakeError) {
  Status S = fails("disk");
  ASSERT_FALSE(S);
  Status Copy = S;
  ASSERT_FALSE(Copy);
  EXPECT_EQ(Copy.error().message(), "failed: disk");
  Error Taken = S.takeError();
  EXPECT_EQ(Taken.message(), "failed: disk");
  EXPECT_FALSE(S) << "a taken error must not turn into a success";
  EXPECT_EQ(S.error().message(), "");
  Status FromTaken = std::move(Taken);
  EXPECT_FALSE(FromTaken);
  // A moved-from Error still makes a failing Status.
  Status FromEmpty = std::move(Taken);
  EXPECT_FALSE(FromEmpty);
}

TEST(Expected, HoldsANonTrivialValueThroughMovesAndCopies) {
  Expected<std::string> E(std::string(100, 'x'));  // heap-allocated string
  ASSERT_TRUE(E);
  Expected<std::string> Copy = E;
  ASSERT_TRUE(Copy);
  EXPECT_EQ(*Copy, std::string(100, 'x'));
  Expected<std::string> Moved = std::move(Copy);
  ASSERT_TRUE(Moved);
  EXPECT_EQ(Moved->size(), 100u);
  Moved = Expected<std::string>(makeError("gone"));
  ASSERT_FALSE(Moved);
  EXPECT_EQ(Moved.error().message(), "gone");
  Moved = E;
  ASSERT_TRUE(Moved);
  EXPECT_EQ(*Moved, *E);
}

TEST(Expected, TakeErrorLeavesAnErrorThatDestroysNoValue) {
  // unique_ptr: destroying a value that is not there would free garbage
  // (ASan/valgrind would see it).
  Expected<std::unique_ptr<int>> E(makeError("no memory for %d ints", 4));
  ASSERT_FALSE(E);
  Error Taken = E.takeError();
  EXPECT_EQ(Taken.message(), "no memory for 4 ints");
  EXPECT_FALSE(E);
  Expected<std::unique_ptr<int>> Moved = std::move(E);
  EXPECT_FALSE(Moved);
  Expected<std::unique_ptr<int>> Value(std::make_unique<int>(7));
  ASSERT_TRUE(Value);
  EXPECT_EQ(**Value, 7);
}

}  // namespace
}  // namespace omptarget
