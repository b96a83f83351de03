// ChunkedOrderedMap against std::map: neighbours of any key, ranges, order,
// and the chunk bookkeeping (splits, merges, removal of empty chunks) under
// ascending, descending and random inserts and erases.
#include "chunked_ordered_map.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <random>
#include <vector>

namespace omptarget {
namespace {

using Map = ChunkedOrderedMap<uint32_t>;

// Checks every observable of M against Ref, probing around each key.
void expectSame(const Map &M, const std::map<uintptr_t, uint32_t> &Ref) {
  ASSERT_EQ(M.size(), Ref.size());
  std::vector<std::pair<uintptr_t, uint32_t>> Seen;
  M.forEach([&](uintptr_t K, uint32_t V) { Seen.emplace_back(K, V); });
  using Pairs = std::vector<std::pair<uintptr_t, uint32_t>>;
  ASSERT_EQ(Seen, Pairs(Ref.begin(), Ref.end()));
  std::vector<uintptr_t> Probes{0, 1, ~uintptr_t(0)};
  for (const auto &[K, V] : Ref) Probes.insert(Probes.end(), {K - 1, K, K + 1});
  for (uintptr_t P : Probes) {
    auto N = M.around(P);
    auto Upper = Ref.upper_bound(P);
    if (Upper == Ref.begin()) {
      EXPECT_FALSE(N.AtOrBefore) << P;
    } else {
      ASSERT_TRUE(N.AtOrBefore) << P;
      EXPECT_EQ(N.AtOrBefore->Key, std::prev(Upper)->first);
      EXPECT_EQ(N.AtOrBefore->Val, std::prev(Upper)->second);
    }
    if (Upper == Ref.end()) {
      EXPECT_FALSE(N.After) << P;
    } else {
      ASSERT_TRUE(N.After) << P;
      EXPECT_EQ(N.After->Key, Upper->first);
      EXPECT_EQ(N.After->Val, Upper->second);
    }
  }
}

TEST(ChunkedOrderedMap, EmptyMapHasNoNeighbours) {
  Map M;
  EXPECT_TRUE(M.empty());
  EXPECT_FALSE(M.around(42).AtOrBefore);
  EXPECT_FALSE(M.around(42).After);
  EXPECT_FALSE(M.erase(42));
  EXPECT_TRUE(M.range(0, ~uintptr_t(0)).empty());
}

TEST(ChunkedOrderedMap, RejectsDuplicateKeys) {
  Map M;
  EXPECT_TRUE(M.insert(0x100, 1));
  EXPECT_FALSE(M.insert(0x100, 2));
  EXPECT_EQ(M.size(), 1u);
  EXPECT_EQ(M.around(0x100).AtOrBefore->Val, 1u);
}

TEST(ChunkedOrderedMap, AscendingAndDescendingFillsSplitAndDrainToNothing) {
  for (bool Ascending : {true, false}) {
    Map M;
    std::map<uintptr_t, uint32_t> Ref;
    const uint32_t N = 10 * Map::kChunk + 7;
    for (uint32_t I = 0; I < N; ++I) {
      uintptr_t K = 0x1000 + 0x40 * static_cast<uintptr_t>(Ascending ? I : N - I);
      ASSERT_TRUE(M.insert(K, I));
      Ref[K] = I;
    }
    expectSame(M, Ref);
    EXPECT_GE(M.numChunks(), N / Map::kChunk);
    // Range: exactly the keys in [Begin, End).
    auto R = M.range(0x1000 + 0x40 * 100, 0x1000 + 0x40 * 200);
    ASSERT_EQ(R.size(), 100u);
    EXPECT_EQ(R.front().Key, 0x1000u + 0x40 * 100);
    EXPECT_EQ(R.back().Key, 0x1000u + 0x40 * 199);
    for (const auto &[K, V] : Ref) ASSERT_TRUE(M.erase(K));
    EXPECT_TRUE(M.empty());
    EXPECT_LE(M.numChunks(), 1u);  // at most the one empty chunk that stays
    EXPECT_FALSE(M.around(0x1000).AtOrBefore);
    EXPECT_FALSE(M.around(0x1000).After);
    // Refilling the drained map works from the kept chunk.
    ASSERT_TRUE(M.insert(0x2000, 5));
    ASSERT_TRUE(M.insert(0x1000, 4));
    EXPECT_EQ(M.around(0x1800).AtOrBefore->Val, 4u);
    EXPECT_EQ(M.around(0x1800).After->Val, 5u);
  }
}

TEST(ChunkedOrderedMap, MatchesStdMapUnderRandomInsertsAndErases) {
  std::mt19937_64 Rng(7);
  Map M;
  std::map<uintptr_t, uint32_t> Ref;
  for (int Round = 0; Round < 40; ++Round) {
    // Alternate growing and shrinking phases so chunks split and merge.
    bool Grow = Round % 2 == 0;
    for (int Step = 0; Step < 2000; ++Step) {
      uintptr_t K = (Rng() % 5000) * 16;
      if (Grow ? Rng() % 4 != 0 : Rng() % 4 == 0) {
        uint32_t V = static_cast<uint32_t>(Rng());
        bool Fresh = Ref.find(K) == Ref.end();
        ASSERT_EQ(M.insert(K, V), Fresh);
        if (Fresh) Ref[K] = V;
      } else {
        ASSERT_EQ(M.erase(K), Ref.erase(K) == 1);
      }
    }
    expectSame(M, Ref);
    // Chunks stay reasonably full: no more than one per 8 entries (plus one).
    EXPECT_LE(M.numChunks(), Ref.size() / 8 + 2) << "round " << Round;
  }
}

// A lookup then an insert of the same key (the mapping table's pattern) reuses
// the lookup's position; any change in between must make it search again.
TEST(ChunkedOrderedMap, InsertAfterLookupOfTheSameKeyMatchesStdMap) {
  std::mt19937_64 Rng(11);
  Map M;
  std::map<uintptr_t, uint32_t> Ref;
  for (int Step = 0; Step < 20000; ++Step) {
    uintptr_t K = (Rng() % 3000) * 16;
    (void)M.around(K);
    switch (Rng() % 4) {
      case 0: {  // a change to another key in between
        uintptr_t Other = (Rng() % 3000) * 16;
        if (Rng() % 2) {
          bool Fresh = Ref.find(Other) == Ref.end();
          ASSERT_EQ(M.insert(Other, 1), Fresh);
          if (Fresh) Ref[Other] = 1;
        } else {
          ASSERT_EQ(M.erase(Other), Ref.erase(Other) == 1);
        }
        break;
      }
      case 1:  // a lookup of another key in between
        (void)M.around((Rng() % 3000) * 16);
        break;
      default: break;
    }
    if (Rng() % 3 == 0) {
      ASSERT_EQ(M.erase(K), Ref.erase(K) == 1);
    } else {
      uint32_t V = static_cast<uint32_t>(Rng());
      bool Fresh = Ref.find(K) == Ref.end();
      ASSERT_EQ(M.insert(K, V), Fresh);
      if (Fresh) Ref[K] = V;
    }
    if (Step % 2000 == 0) expectSame(M, Ref);
  }
  expectSame(M, Ref);
}

}  // namespace
}  // namespace omptarget
