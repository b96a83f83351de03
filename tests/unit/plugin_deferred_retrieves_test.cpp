// DeferredRetrieves (plugin-common): pinned slots for small device-to-host
// copies, landed in order at synchronize. "Pinned" memory here is malloc'ed
// and counted, so the tests see every allocation and free.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "deferred_retrieves.h"

using omptarget::plugin::DeferredRetrieves;
using omptarget::plugin::PinnedMemoryFns;

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

class DeferredRetrievesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Allocations = Frees = 0;
    FailAllocation = false;
  }
  static PinnedMemoryFns fns() { return {countingAlloc, countingFree}; }
  // Plays the device: the "DMA" fills the slot at once.
  static void queueCopy(DeferredRetrieves &D, void *Slot, void *Dst, const void *Src, size_t Size) {
    std::memcpy(Slot, Src, Size);
    D.commit(Slot, Dst, Size);
  }
};

TEST_F(DeferredRetrievesTest, CopiesLandOnlyAtLandInIssueOrder) {
  DeferredRetrieves D(4096, fns());
  int Host[4] = {0, 0, 0, 0};
  const int First[4] = {1, 2, 3, 4};
  const int Second[2] = {7, 8};
  void *S1 = D.slotFor(sizeof First);
  ASSERT_NE(S1, nullptr);
  queueCopy(D, S1, Host, First, sizeof First);
  void *S2 = D.slotFor(sizeof Second);
  ASSERT_NE(S2, nullptr);
  EXPECT_NE(S1, S2) << "a committed slot is not handed out again before land()";
  queueCopy(D, S2, Host + 1, Second, sizeof Second);  // overlaps the first copy
  EXPECT_EQ(Host[0], 0) << "nothing reaches the destination before land()";
  EXPECT_EQ(D.pending(), 2u);
  D.land();
  EXPECT_EQ(Host[0], 1);
  EXPECT_EQ(Host[1], 7) << "the later copy wins where they overlap";
  EXPECT_EQ(Host[2], 8);
  EXPECT_EQ(Host[3], 4);
  EXPECT_EQ(D.pending(), 0u);
  EXPECT_EQ(Allocations, 1);
}

TEST_F(DeferredRetrievesTest, DiscardDropsPendingCopies) {
  DeferredRetrieves D(4096, fns());
  int Host = 5;
  const int Value = 9;
  queueCopy(D, D.slotFor(sizeof Value), &Host, &Value, sizeof Value);
  D.discard();
  D.land();
  EXPECT_EQ(Host, 5) << "a failed queue's copies never land";
}

TEST_F(DeferredRetrievesTest, LargeCopiesAndAFullBufferGoDirect) {
  DeferredRetrieves D(1024, fns());
  EXPECT_EQ(D.slotFor(257), nullptr) << "more than a quarter of the buffer";
  EXPECT_EQ(D.slotFor(0), nullptr);
  char Dst[4][256];
  char Src[256] = {};
  for (auto &Row : Dst) {
    void *Slot = D.slotFor(sizeof Src);
    ASSERT_NE(Slot, nullptr);
    queueCopy(D, Slot, Row, Src, sizeof Src);
  }
  EXPECT_EQ(D.slotFor(1), nullptr) << "the buffer is full until land()";
  D.land();
  EXPECT_NE(D.slotFor(256), nullptr) << "land() frees the buffer for the next construct";
}

TEST_F(DeferredRetrievesTest, PinnedAllocationFailureMeansDirectCopiesWithoutRetrying) {
  FailAllocation = true;
  DeferredRetrieves D(4096, fns());
  EXPECT_EQ(D.slotFor(16), nullptr);
  FailAllocation = false;
  EXPECT_EQ(D.slotFor(16), nullptr) << "not retried on every copy";
  EXPECT_EQ(Allocations, 0);
}

TEST_F(DeferredRetrievesTest, ZeroCapacityDisablesAndBufferIsFreedOnce) {
  {
    DeferredRetrieves Off(0, fns());
    EXPECT_EQ(Off.slotFor(1), nullptr);
  }
  EXPECT_EQ(Allocations, 0);
  {
    DeferredRetrieves D(4096, fns());
    ASSERT_NE(D.slotFor(8), nullptr);
    ASSERT_NE(D.slotFor(8), nullptr);
  }
  EXPECT_EQ(Allocations, 1) << "allocated lazily, once";
  EXPECT_EQ(Frees, 1);
}

}  // namespace
