// Faults inside a user-defined mapper: when the device allocation of a
// mapper's component fails, the list item the mapper expands must leave no
// reference behind: the components mapped before the failing one are given
// back (their entries removed, their device memory freed), in `target enter
// data` / `target data` as in a `target` region, on every kind of plugin.
// Whole list items before the failing one keep their references in a data
// construct (LLVM 14's behaviour, see FailedSubmitInEnterData) and give them
// back in a target region (nothing outlives a failed region).
#include <cstring>
#include <string>

#include "fake_plugin.h"

using namespace omptarget::abi;

extern "C" void __tgt_push_mapper_component(void *Handle, void *Base, void *Begin, int64_t Size,
                                            int64_t Type, void *Name);

namespace {

constexpr int64_t TO = kMapTo, FROM = kMapFrom, TOFROM = kMapTo | kMapFrom;
constexpr int64_t PARAM = kMapTargetParam;
constexpr int64_t memberOf(int Parent) { return static_cast<int64_t>(uint64_t(Parent + 1) << 48); }

// declare mapper(struct Vec v) map(v, v.Data[0:v.N]): the struct, then its
// array through the pointer member (what clang 14 emits for it).
struct Vec {
  int N;
  int *Data;
};
void mapperOfVec(void *Handle, void *Base, void *Begin, int64_t, int64_t Type, void *) {
  auto *V = static_cast<Vec *>(Begin);
  int64_t Motion = Type & (TO | FROM);
  __tgt_push_mapper_component(Handle, Base, Begin, sizeof(Vec), Type & ~PARAM, nullptr);
  __tgt_push_mapper_component(Handle, &V->Data, V->Data, V->N * int64_t(sizeof(int)),
                              memberOf(0) | kMapPtrAndObj | Motion, nullptr);
}

// declare mapper(struct Pair p) map(p.X[0:4], p.Y[0:4], p.Z[0:4]): three
// components with references of their own, none a member of another.
struct Pair {
  int X[4], Y[4], Z[4];
};
void mapperOfPair(void *Handle, void *, void *Begin, int64_t, int64_t Type, void *) {
  auto *P = static_cast<Pair *>(Begin);
  int64_t Motion = Type & (TO | FROM);
  __tgt_push_mapper_component(Handle, P->X, P->X, sizeof P->X, Motion, nullptr);
  __tgt_push_mapper_component(Handle, P->Y, P->Y, sizeof P->Y, Motion, nullptr);
  __tgt_push_mapper_component(Handle, P->Z, P->Z, sizeof P->Z, Motion, nullptr);
}

class MapperFaultTest : public RuntimeTest,
                        public ::testing::WithParamInterface<fake::Personality> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam();
    return C;
  }
  // Nothing of [P, P + Size) is mapped, by any entry.
  bool unmapped(const void *P, int64_t Size) {
    for (int64_t I = 0; I < Size; ++I)
      if (entry(static_cast<const char *>(P) + I).Mapped) return false;
    return true;
  }
  void TearDown() override {
    EXPECT_EQ(fake::eventCounters().StaleAccesses, 0u) << "a queued copy ran on freed memory";
    RuntimeTest::TearDown();
  }
};

TEST_P(MapperFaultTest, SecondComponentFailsInEnterData) {
  int Data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Vec V{8, Data};
  Arg Item{&V, &V, sizeof V, TO, reinterpret_cast<void *>(&mapperOfVec)};
  fake::failAlloc(2);  // the struct's allocation succeeds, its array's fails
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({Item}));
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("Call to getTargetPointer returned null pointer"), std::string::npos) << Err;
  EXPECT_EQ(fake::counters().Alloc, 2u) << "the fault did not hit the second component";
  EXPECT_TRUE(unmapped(&V, sizeof V)) << "the struct kept the reference its failed mapper took "
                                         "(DynRef "
                                      << entry(&V).Dyn << ")";
  EXPECT_TRUE(unmapped(Data, sizeof Data));
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveAllocations(), 0u) << "the struct's device copy leaked";
  EXPECT_EQ(V.Data, Data) << "the host pointer was left changed";

  // The runtime keeps working: the item maps afresh, with its data.
  ASSERT_TRUE(begin({Item}));
  EXPECT_EQ(entry(&V).Dyn, 1u);
  auto *DevV = static_cast<Vec *>(entry(&V).Tgt);
  ASSERT_NE(DevV, nullptr);
  EXPECT_EQ(DevV->Data, entry(Data).Tgt) << "the device struct points at the device array";
  EXPECT_EQ(static_cast<int *>(entry(Data).Tgt)[7], 8);
  ASSERT_TRUE(end({Item}));
  EXPECT_EQ(tableSize(), 0u);
}

// Three independent components, the second fails: the first goes again, the
// third was never mapped; a whole list item before the mapper keeps its
// reference (data constructs do not undo earlier list items).
TEST_P(MapperFaultTest, MiddleComponentFailsInTargetData) {
  int Before[4] = {9, 9, 9, 9};
  Pair P{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
  Arg Item{&P, &P, sizeof P, TOFROM, reinterpret_cast<void *>(&mapperOfPair)};
  fake::failAlloc(3);  // Before, then X, then Y fails
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(Before, sizeof Before, TO), Item}));
  testing::internal::GetCapturedStderr();
  EXPECT_TRUE(unmapped(P.X, sizeof P.X))
      << "X kept the reference its failed mapper took (DynRef " << entry(P.X).Dyn << ")";
  EXPECT_TRUE(unmapped(P.Y, sizeof P.Y));
  EXPECT_TRUE(unmapped(P.Z, sizeof P.Z));
  EXPECT_EQ(entry(Before).Dyn, 1u) << "an earlier list item is kept, as LLVM 14 keeps it";
  EXPECT_EQ(fake::liveAllocations(), 1u) << "only Before's device copy is live";

  // `target data` ends: the item is not mapped, so its exit ignores it.
  ASSERT_TRUE(end({map(Before, sizeof Before, kMapDelete), Item}));
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(P.X[0], 1) << "nothing was copied back over host data";
}

TEST_P(MapperFaultTest, SecondComponentFailsInTargetRegion) {
  int Before[4] = {9, 9, 9, 9};
  int Data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Vec V{8, Data};
  Arg Item{&V, &V, sizeof V, TOFROM | PARAM, reinterpret_cast<void *>(&mapperOfVec)};
  fake::failAlloc(3);  // Before, the struct, then its array fails
  testing::internal::CaptureStderr();
  EXPECT_FALSE(target(0, {map(Before, sizeof Before, TOFROM | PARAM), Item}));
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("Call to targetDataBegin failed, abort target."), std::string::npos) << Err;
  EXPECT_EQ(fake::counters().Launch, 0u);
  EXPECT_TRUE(unmapped(&V, sizeof V)) << "the struct kept the reference its failed mapper took "
                                         "(DynRef "
                                      << entry(&V).Dyn << ")";
  EXPECT_TRUE(unmapped(Data, sizeof Data));
  EXPECT_TRUE(unmapped(Before, sizeof Before)) << "the failed region kept an earlier argument";
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveAllocations(), 0u) << "device memory leaked";
  EXPECT_EQ(V.Data, Data);
  EXPECT_EQ(Before[0], 9);

  fake::setKernel(0, [](const std::vector<void *> &Args) {
    auto *DevV = static_cast<Vec *>(Args[1]);
    DevV->Data[0] = 100;
  });
  ASSERT_TRUE(target(0, {map(Before, sizeof Before, TOFROM | PARAM), Item}));
  EXPECT_EQ(Data[0], 100);
  EXPECT_EQ(V.Data, Data);
  EXPECT_EQ(tableSize(), 0u);
}

// The mapper's item is already mapped (enter data) when a region maps it
// again and the region's later argument fails: the item's references go
// back to what they were, the entries stay.
TEST_P(MapperFaultTest, PresentItemKeepsItsOwnReferences) {
  Pair P{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
  int After[4] = {0, 0, 0, 0};
  Arg Item{&P, &P, sizeof P, TO, reinterpret_cast<void *>(&mapperOfPair)};
  ASSERT_TRUE(begin({Item}));
  Arg InRegion = Item;
  InRegion.Type = TO | PARAM;
  fake::failAlloc(1);  // After fails
  testing::internal::CaptureStderr();
  EXPECT_FALSE(target(0, {InRegion, map(After, sizeof After, TO | PARAM)}));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(entry(P.X).Dyn, 1u);
  EXPECT_EQ(entry(P.Y).Dyn, 1u);
  EXPECT_EQ(entry(P.Z).Dyn, 1u);
  EXPECT_TRUE(unmapped(After, sizeof After));
  ASSERT_TRUE(end({Item}));
  EXPECT_EQ(tableSize(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Plugin, MapperFaultTest, ::testing::ValuesIn(fake::kAllPersonalities),
                         [](const auto &Info) { return fake::name(Info.param); });

}  // namespace
