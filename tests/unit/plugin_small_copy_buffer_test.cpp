// SmallCopyBuffer (plugin-common): pinned slots for small copies; held until
// the queue completes, device-to-host ones landed in order there. "Pinned" memory here is malloc'ed
// and counted, so the tests see every allocation and free.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "small_copy_buffer.h"

using omptarget::plugin::PinnedMemoryFns;
using omptarget::plugin::SmallCopyBuffer;

namespace {

int Allocations = 0, Frees = 0;
bool FailAllocation = false;

void *countingAlloc(size_t Size) {
  if (FailAllocation) return nullptr;
  ++Allocations;
  return std::malloc(Size);
}
void countingFree(void *P) {
  ++Frees;
  std::free(P);
}

class SmallCopyBufferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Allocations = Frees = 0;
    FailAllocation = false;
  }
  static PinnedMemoryFns fns() { return {countingAlloc, countingFree}; }
  // Plays the device: the "DMA" fills the slot at once.
  static void queueCopy(SmallCopyBuffer &D, void *Slot, void *Dst, const void *Src, size_t Size) {
    std::memcpy(Slot, Src, Size);
    D.landAtComplete(Slot, Dst, Size);
  }
};

TEST_F(SmallCopyBufferTest, LandingsHappenOnlyAtCompleteInIssueOrder) {
  SmallCopyBuffer D(4096, fns());
  int Host[4] = {0, 0, 0, 0};
  const int First[4] = {1, 2, 3, 4};
  const int Second[2] = {7, 8};
  void *S1 = D.slotFor(sizeof First);
  ASSERT_NE(S1, nullptr);
  queueCopy(D, S1, Host, First, sizeof First);
  void *S2 = D.slotFor(sizeof Second);
  ASSERT_NE(S2, nullptr);
  EXPECT_NE(S1, S2) << "a committed slot is not handed out again before complete()";
  queueCopy(D, S2, Host + 1, Second, sizeof Second);  // overlaps the first copy
  EXPECT_EQ(Host[0], 0) << "nothing reaches the destination before complete()";
  EXPECT_EQ(D.pendingLandings(), 2u);
  D.complete();
  EXPECT_EQ(Host[0], 1);
  EXPECT_EQ(Host[1], 7) << "the later copy wins where they overlap";
  EXPECT_EQ(Host[2], 8);
  EXPECT_EQ(Host[3], 4);
  EXPECT_EQ(D.pendingLandings(), 0u);
  EXPECT_EQ(Allocations, 1);
}

TEST_F(SmallCopyBufferTest, DiscardDropsPendingCopies) {
  SmallCopyBuffer D(4096, fns());
  int Host = 5;
  const int Value = 9;
  queueCopy(D, D.slotFor(sizeof Value), &Host, &Value, sizeof Value);
  D.discard();
  D.complete();
  EXPECT_EQ(Host, 5) << "a failed queue's copies never land";
}

TEST_F(SmallCopyBufferTest, LargeCopiesAndAFullBufferGoDirect) {
  SmallCopyBuffer D(1024, fns());
  EXPECT_EQ(D.slotFor(257), nullptr) << "more than a quarter of the buffer";
  EXPECT_EQ(D.slotFor(0), nullptr);
  char Dst[4][256];
  char Src[256] = {};
  for (auto &Row : Dst) {
    void *Slot = D.slotFor(sizeof Src);
    ASSERT_NE(Slot, nullptr);
    queueCopy(D, Slot, Row, Src, sizeof Src);
  }
  EXPECT_EQ(D.slotFor(1), nullptr) << "the buffer is full until complete()";
  D.complete();
  EXPECT_NE(D.slotFor(256), nullptr) << "complete() frees the buffer for the next construct";
}

TEST_F(SmallCopyBufferTest, PinnedAllocationFailureMeansDirectCopiesWithoutRetrying) {
  FailAllocation = true;
  SmallCopyBuffer D(4096, fns());
  EXPECT_EQ(D.slotFor(16), nullptr);
  FailAllocation = false;
  EXPECT_EQ(D.slotFor(16), nullptr) << "not retried on every copy";
  EXPECT_EQ(Allocations, 0);
}

TEST_F(SmallCopyBufferTest, ZeroCapacityDisablesAndBufferIsFreedOnce) {
  {
    SmallCopyBuffer Off(0, fns());
    EXPECT_EQ(Off.slotFor(1), nullptr);
  }
  EXPECT_EQ(Allocations, 0);
  {
    SmallCopyBuffer D(4096, fns());
    ASSERT_NE(D.slotFor(8), nullptr);
    ASSERT_NE(D.slotFor(8), nullptr);
  }
  EXPECT_EQ(Allocations, 1) << "allocated lazily, once";
  EXPECT_EQ(Frees, 1);
}

TEST_F(SmallCopyBufferTest, HeldSlotsAreNotReusedBeforeComplete) {
  SmallCopyBuffer D(1024, fns());
  void *First = D.slotFor(100);
  ASSERT_NE(First, nullptr);
  D.hold(First, 100);  // a host-to-device DMA may still read it
  void *Second = D.slotFor(100);
  ASSERT_NE(Second, nullptr);
  EXPECT_GE(static_cast<char *>(Second), static_cast<char *>(First) + 100)
      << "no overlap with a held slot";
  EXPECT_EQ(D.pendingLandings(), 0u) << "holding lands nothing";
  D.hold(Second, 100);
  D.discard();
  EXPECT_EQ(D.slotFor(100), First) << "a failed queue's slots are free again too";
}

}  // namespace
