// ObjectPool: objects keep their values and addresses while live, freed slots
// are handed out again (most recently freed first) before new chunks are
// carved, and every create/destroy constructs/destroys exactly once.
#include "object_pool.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace omptarget {
namespace {

int Live = 0;  // Counted objects alive

struct Counted {
  explicit Counted(uint64_t V) : Value(V), Check(~V) { ++Live; }
  ~Counted() { --Live; }
  uint64_t Value;
  uint64_t Check;
};

TEST(ObjectPool, FreedSlotsAreReusedBeforeNewChunks) {
  ObjectPool<Counted, 8> Pool;
  std::vector<Counted *> Objs;
  for (uint64_t I = 0; I < 8; ++I) Objs.push_back(&Pool.create(I));
  EXPECT_EQ(Pool.capacity(), 8u);
  Counted *Freed = Objs[3];
  Pool.destroy(*Freed);
  EXPECT_EQ(Live, 7);
  Counted &Again = Pool.create(42);
  EXPECT_EQ(&Again, Freed) << "the freed slot comes back first";
  EXPECT_EQ(Pool.capacity(), 8u) << "no new chunk while a slot was free";
  Counted &Extra = Pool.create(43);  // the chunk is full now: a second one
  EXPECT_EQ(Pool.capacity(), 16u);
  for (uint64_t I = 0; I < 8; ++I) {
    if (I != 3) {
      EXPECT_EQ(Objs[I]->Value, I);
    }
  }
  // The owner destroys what it created.
  for (uint64_t I = 0; I < 8; ++I) Pool.destroy(I == 3 ? Again : *Objs[I]);
  Pool.destroy(Extra);
  EXPECT_EQ(Live, 0);
}

TEST(ObjectPool, LiveObjectsSurviveRandomCreatesAndDestroys) {
  std::mt19937_64 Rng(5);
  {
    ObjectPool<Counted, 16> Pool;
    std::vector<Counted *> Objs;
    for (int Step = 0; Step < 50000; ++Step) {
      if (Objs.empty() || Rng() % 3 != 0) {
        Objs.push_back(&Pool.create(Rng()));
      } else {
        size_t I = Rng() % Objs.size();
        ASSERT_EQ(Objs[I]->Check, ~Objs[I]->Value) << "a live object was overwritten";
        Pool.destroy(*Objs[I]);
        Objs[I] = Objs.back();
        Objs.pop_back();
      }
    }
    std::set<Counted *> Distinct(Objs.begin(), Objs.end());
    EXPECT_EQ(Distinct.size(), Objs.size()) << "one slot handed out twice";
    for (Counted *O : Objs) {
      EXPECT_EQ(O->Check, ~O->Value);
      Pool.destroy(*O);
    }
    EXPECT_EQ(Live, 0);
  }
}

}  // namespace
}  // namespace omptarget
