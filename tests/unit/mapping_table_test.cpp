// MappingTable on its own: lookup semantics, reference counts, shadow pointers.
#include <gtest/gtest.h>

#include <vector>

#include "mapping_table.h"

using namespace omptarget::core;
using omptarget::ScopedLock;

namespace {

class MappingTableTest : public ::testing::Test {
 protected:
  // Host ranges are plain numbers: the table never dereferences them.
  // Each test holds T.Mutex throughout (ScopedLock Lock(T.Mutex)).
  MapEntry &add(uintptr_t Begin, uintptr_t End, bool Hold = false, bool Inf = false)
      REQUIRES(T.Mutex) {
    return T.insert(Begin, Begin, End, Begin + 0x100000, Hold, nullptr, Inf);
  }
  LookupResult look(uintptr_t Begin, int64_t Size) REQUIRES(T.Mutex) {
    return T.lookup(Begin, Size);
  }
  MappingTable T;
};

TEST_F(MappingTableTest, EmptyTableFindsNothing) {
  ScopedLock Lock(T.Mutex);
  LookupResult R = look(0x1000, 16);
  EXPECT_FALSE(R.found());
  EXPECT_EQ(R.Entry, nullptr);
  EXPECT_FALSE(look(0x1000, 0).found());
}

TEST_F(MappingTableTest, ContainedRanges) {
  ScopedLock Lock(T.Mutex);
  MapEntry &E = add(0x1000, 0x1100);
  for (auto [B, S] : std::vector<std::pair<uintptr_t, int64_t>>{{0x1000, 0x100},
                                                                {0x1000, 1},
                                                                {0x10ff, 1},
                                                                {0x1080, 0x80},
                                                                {0x1010, 0}}) {
    LookupResult R = look(B, S);
    EXPECT_TRUE(R.IsContained) << std::hex << B << " " << S;
    EXPECT_FALSE(R.ExtendsBefore);
    EXPECT_FALSE(R.ExtendsAfter);
    EXPECT_EQ(R.Entry, &E);
  }
}

TEST_F(MappingTableTest, ExtendsAfterAndBefore) {
  ScopedLock Lock(T.Mutex);
  MapEntry &E = add(0x1000, 0x1100);
  LookupResult After = look(0x1080, 0x100);
  EXPECT_FALSE(After.IsContained);
  EXPECT_TRUE(After.ExtendsAfter);
  EXPECT_FALSE(After.ExtendsBefore);
  EXPECT_EQ(After.Entry, &E);

  LookupResult Before = look(0x0f80, 0x100);
  EXPECT_FALSE(Before.IsContained);
  EXPECT_TRUE(Before.ExtendsBefore);
  EXPECT_FALSE(Before.ExtendsAfter);
  EXPECT_EQ(Before.Entry, &E);

  LookupResult Both = look(0x0f00, 0x300);
  EXPECT_FALSE(Both.IsContained);
  EXPECT_TRUE(Both.ExtendsBefore);
  EXPECT_TRUE(Both.ExtendsAfter);
  EXPECT_EQ(Both.Entry, &E);
}

TEST_F(MappingTableTest, AdjacentRangesDoNotOverlap) {
  ScopedLock Lock(T.Mutex);
  MapEntry &Lo = add(0x1000, 0x1100);
  MapEntry &Hi = add(0x1100, 0x1200);
  EXPECT_EQ(look(0x10f0, 0x10).Entry, &Lo);
  EXPECT_TRUE(look(0x10f0, 0x10).IsContained);
  EXPECT_EQ(look(0x1100, 0x10).Entry, &Hi);
  EXPECT_TRUE(look(0x1100, 0x10).IsContained);
  // Just below / just above: nothing.
  EXPECT_FALSE(look(0x0f00, 0x100).found());
  EXPECT_FALSE(look(0x1200, 0x100).found());
  EXPECT_FALSE(look(0x1200, 0).found());
  // Spanning the boundary: extends after the lower entry.
  LookupResult Span = look(0x10f0, 0x20);
  EXPECT_FALSE(Span.IsContained);
  EXPECT_TRUE(Span.ExtendsAfter);
  EXPECT_EQ(Span.Entry, &Lo);
  EXPECT_EQ(T.size(), 2u);
}

TEST_F(MappingTableTest, ZeroSizeEntriesAndLookups) {
  ScopedLock Lock(T.Mutex);
  MapEntry &Z = add(0x2000, 0x2000);
  // A zero-sized entry contains exactly its own address, for zero-size lookups.
  LookupResult R = look(0x2000, 0);
  EXPECT_TRUE(R.IsContained);
  EXPECT_EQ(R.Entry, &Z);
  EXPECT_FALSE(look(0x2001, 0).found());
  EXPECT_FALSE(look(0x1fff, 0).found());
  // A sized lookup starting at it does not "extend" an empty range.
  EXPECT_FALSE(look(0x2000, 8).IsContained);

  MapEntry &E = add(0x3000, 0x3010);
  // Zero-size lookups inside a sized entry are contained; at its end they are not.
  EXPECT_EQ(look(0x3008, 0).Entry, &E);
  EXPECT_TRUE(look(0x3008, 0).IsContained);
  EXPECT_TRUE(look(0x3000, 0).IsContained);
  EXPECT_FALSE(look(0x3010, 0).found());
}

TEST_F(MappingTableTest, EraseAndEraseRange) {
  ScopedLock Lock(T.Mutex);
  add(0x1000, 0x1100);
  MapEntry &Mid = add(0x2000, 0x2100);
  add(0x3000, 0x3100);
  T.erase(Mid);
  EXPECT_EQ(T.size(), 2u);
  EXPECT_FALSE(look(0x2000, 1).found());
  EXPECT_EQ(T.eraseRange(0x0, 0x3000), 1u);
  EXPECT_FALSE(look(0x1000, 1).found());
  EXPECT_EQ(T.size(), 1u);
  std::vector<uintptr_t> Seen;
  T.forEach([&](const MapEntry &E) { Seen.push_back(E.HstBegin); });
  EXPECT_EQ(Seen, std::vector<uintptr_t>{0x3000});
}

TEST_F(MappingTableTest, InsertSetsCounts) {
  ScopedLock Lock(T.Mutex);
  MapEntry &Dyn = add(0x1000, 0x1010);
  EXPECT_EQ(Dyn.DynRef, 1u);
  EXPECT_EQ(Dyn.HoldRef, 0u);
  EXPECT_EQ(Dyn.size(), 0x10);
  MapEntry &Hold = add(0x2000, 0x2010, /*Hold=*/true);
  EXPECT_EQ(Hold.DynRef, 0u);
  EXPECT_EQ(Hold.HoldRef, 1u);
  MapEntry &Inf = add(0x3000, 0x3010, false, /*Inf=*/true);
  EXPECT_EQ(Inf.DynRef, kInfiniteRef);
  EXPECT_EQ(Inf.refToString(false), "INF");
  EXPECT_EQ(Inf.refToString(true), "0");
  EXPECT_EQ(Inf.TgtBegin, 0x3000u + 0x100000u);
}

TEST(MapEntryTest, IncDecAndTotal) {
  MapEntry E;  // DynRef 1, HoldRef 0
  E.incRef(false);
  E.incRef(true);
  EXPECT_EQ(E.DynRef, 2u);
  EXPECT_EQ(E.HoldRef, 1u);
  EXPECT_EQ(E.totalRef(), 3u);
  E.decRef(true);
  E.decRef(true);  // never below zero
  EXPECT_EQ(E.HoldRef, 0u);
  E.decRef(false);
  E.decRef(false);
  E.decRef(false);
  EXPECT_EQ(E.DynRef, 0u);
  EXPECT_EQ(E.totalRef(), 0u);
  EXPECT_EQ(E.refToString(false), "0");
}

TEST(MapEntryTest, InfiniteIsSticky) {
  MapEntry E;
  E.DynRef = kInfiniteRef;
  E.incRef(false);
  EXPECT_EQ(E.DynRef, kInfiniteRef);
  E.decRef(false);
  EXPECT_EQ(E.DynRef, kInfiniteRef);
  E.resetRef(false);
  EXPECT_EQ(E.DynRef, kInfiniteRef);
  E.incRef(true);
  EXPECT_EQ(E.totalRef(), kInfiniteRef);
  E.decRef(true);
  EXPECT_FALSE(E.decShouldRemove(false));
  EXPECT_FALSE(E.decShouldRemove(false, /*AfterReset=*/true));
  EXPECT_FALSE(E.decShouldRemove(true, true));  // hold 0, but dyn is INF
}

TEST(MapEntryTest, DecShouldRemove) {
  MapEntry E;  // dyn 1
  EXPECT_TRUE(E.decShouldRemove(false));
  EXPECT_TRUE(E.decShouldRemove(false, true));
  E.incRef(false);  // dyn 2
  EXPECT_FALSE(E.decShouldRemove(false));
  EXPECT_TRUE(E.decShouldRemove(false, /*AfterReset=*/true));
  E.incRef(true);  // dyn 2, hold 1: neither count alone can remove it
  EXPECT_FALSE(E.decShouldRemove(false));
  EXPECT_FALSE(E.decShouldRemove(false, true));
  EXPECT_FALSE(E.decShouldRemove(true));
  E.DynRef = 0;  // hold only
  EXPECT_TRUE(E.decShouldRemove(true));
  EXPECT_TRUE(E.decShouldRemove(true, true));
  // Deleting the dynamic count of a hold-only entry does not remove it.
  EXPECT_FALSE(E.decShouldRemove(false, true));
}

TEST(MapEntryTest, ResetRef) {
  MapEntry E;
  E.DynRef = 5;
  E.HoldRef = 3;
  E.resetRef(false);
  EXPECT_EQ(E.DynRef, 1u);
  EXPECT_EQ(E.HoldRef, 3u);
  E.resetRef(true);
  EXPECT_EQ(E.HoldRef, 1u);
  E.DynRef = 0;
  E.resetRef(false);  // zero stays zero
  EXPECT_EQ(E.DynRef, 0u);
}

TEST(ShadowTest, SetUpdateAndVisit) {
  MappingTable T;
  void *Slots[4] = {};
  int Dummy[4];
  ShadowPointer S0{&Dummy[0], reinterpret_cast<void *>(0xd000), reinterpret_cast<void *>(0xe000)};
  EXPECT_TRUE(T.setShadow(&Slots[1], S0));
  EXPECT_FALSE(T.setShadow(&Slots[1], S0)) << "same device value: no change";
  ShadowPointer S1 = S0;
  S1.TgtPtrValue = reinterpret_cast<void *>(0xe800);
  EXPECT_TRUE(T.setShadow(&Slots[1], S1)) << "new device value is an update";
  ShadowPointer S2 = S1;
  S2.TgtPtrAddr = reinterpret_cast<void *>(0xd800);
  EXPECT_TRUE(T.setShadow(&Slots[1], S2)) << "new device location is an update";
  EXPECT_TRUE(T.setShadow(&Slots[3], S0));

  std::vector<std::pair<void **, ShadowPointer>> Seen;
  auto Collect = [&](void **A, const ShadowPointer &S) { Seen.push_back({A, S}); };
  T.forEachShadow(reinterpret_cast<uintptr_t>(&Slots[0]), reinterpret_cast<uintptr_t>(&Slots[4]),
                  false, Collect);
  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[0].first, &Slots[1]);  // address order
  EXPECT_EQ(Seen[0].second.TgtPtrValue, S2.TgtPtrValue);
  EXPECT_EQ(Seen[0].second.TgtPtrAddr, S2.TgtPtrAddr);
  EXPECT_EQ(Seen[1].first, &Slots[3]);

  // Half-open range: [Slots[1], Slots[3]) sees only Slots[1]; erase it.
  Seen.clear();
  T.forEachShadow(reinterpret_cast<uintptr_t>(&Slots[1]), reinterpret_cast<uintptr_t>(&Slots[3]),
                  true, Collect);
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_EQ(Seen[0].first, &Slots[1]);
  Seen.clear();
  T.forEachShadow(0, UINTPTR_MAX, false, Collect);
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_EQ(Seen[0].first, &Slots[3]);
  // After erasure the same slot is new again.
  EXPECT_TRUE(T.setShadow(&Slots[1], S0));
}

TEST(ShadowTest, EraseAllInRangeWhileVisiting) {
  MappingTable T;
  void *Slots[8] = {};
  for (int I = 0; I < 8; ++I)
    T.setShadow(&Slots[I], ShadowPointer{reinterpret_cast<void *>(I + 1), nullptr, nullptr});
  int Visited = 0;
  T.forEachShadow(reinterpret_cast<uintptr_t>(&Slots[2]), reinterpret_cast<uintptr_t>(&Slots[6]),
                  true, [&](void **A, const ShadowPointer &S) {
                    *A = S.HstPtrValue;  // how dataEnd restores host pointers
                    ++Visited;
                  });
  EXPECT_EQ(Visited, 4);
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Slots[I], (I >= 2 && I < 6) ? reinterpret_cast<void *>(I + 1) : nullptr) << I;
  Visited = 0;
  T.forEachShadow(0, UINTPTR_MAX, false, [&](void **, const ShadowPointer &) { ++Visited; });
  EXPECT_EQ(Visited, 4);
}

}  // namespace
