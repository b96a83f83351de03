// FlatHashMap: lookups, replacement, erase with the backward shift (also
// across the end of the table), growth; checked against std::unordered_map
// under a long random mix of operations.
#include "flat_hash_map.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

namespace omptarget {
namespace {

TEST(FlatHashMap, FindsWhatWasInsertedAndNothingElse) {
  FlatHashMap<uintptr_t, int *> M;
  int A = 0, B = 0;
  EXPECT_EQ(M.find(0x1000), nullptr);
  M.insert(0x1000, &A);
  M.insert(0, &B);  // key 0 is an ordinary key
  EXPECT_EQ(M.find(0x1000), &A);
  EXPECT_EQ(M.find(0), &B);
  EXPECT_EQ(M.find(0x2000), nullptr);
  EXPECT_EQ(M.size(), 2u);
  M.insert(0x1000, &B);  // replaces
  EXPECT_EQ(M.find(0x1000), &B);
  EXPECT_EQ(M.size(), 2u);
}

TEST(FlatHashMap, EraseKeepsTheRestOfAProbeRunReachable) {
  // Seven keys in 16 slots collide into runs; erasing every other key must
  // leave each remaining one findable behind the holes.
  FlatHashMap<uint64_t, uint32_t> M;
  for (uint64_t K = 1; K <= 7; ++K) M.insert(K << 32, static_cast<uint32_t>(K));
  for (uint64_t K = 1; K <= 7; K += 2) EXPECT_TRUE(M.erase(K << 32));
  EXPECT_FALSE(M.erase(1ull << 32));
  for (uint64_t K = 1; K <= 7; ++K)
    EXPECT_EQ(M.find(K << 32), K % 2 ? 0u : static_cast<uint32_t>(K)) << K;
  EXPECT_EQ(M.size(), 3u);
}

TEST(FlatHashMap, MatchesUnorderedMapUnderRandomInsertsAndErases) {
  // Few distinct keys in a small table: long runs that wrap around the end.
  for (uint64_t KeySpace : {24ull, 1000ull, 1ull << 40}) {
    FlatHashMap<uint64_t, uint32_t> M;
    std::unordered_map<uint64_t, uint32_t> Ref;
    std::mt19937_64 Rng(KeySpace);
    for (int Step = 0; Step < 200000; ++Step) {
      uint64_t K = (Rng() % KeySpace) * 64;
      switch (Rng() % 3) {
        case 0: {
          auto V = static_cast<uint32_t>(Rng() % 1000 + 1);
          M.insert(K, V);
          Ref[K] = V;
          break;
        }
        case 1: ASSERT_EQ(M.erase(K), Ref.erase(K) == 1) << "step " << Step; break;
        default: {
          auto It = Ref.find(K);
          ASSERT_EQ(M.find(K), It == Ref.end() ? 0u : It->second) << "step " << Step;
        }
      }
      ASSERT_EQ(M.size(), Ref.size());
    }
    for (const auto &[K, V] : Ref) ASSERT_EQ(M.find(K), V);
    M.clear();
    EXPECT_EQ(M.size(), 0u);
    EXPECT_EQ(M.find(Ref.empty() ? 0 : Ref.begin()->first), 0u);
  }
}

}  // namespace
}  // namespace omptarget
