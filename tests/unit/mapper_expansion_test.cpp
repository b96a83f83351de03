// MapperExpansion: a mapper's components become arguments of their own, and
// the outer clause's always / close / present / ompx_hold reach each of
// them (clang puts only the mapper's own map type on a component), nested
// mappers' components too; the outer clause's other bits (delete,
// MEMBER_OF, TARGET_PARAM) do not, and a member list item's first
// component rides on its parent.
#include <gtest/gtest.h>

#include "mappers.h"

using namespace omptarget;
using namespace omptarget::core;

extern "C" void __tgt_push_mapper_component(void *Handle, void *Base, void *Begin, int64_t Size,
                                            int64_t Type, void *Name);

namespace {

struct Pair {
  int A;
  int B;
};

constexpr int64_t kTo = omptarget::abi::kMapTo, kFrom = omptarget::abi::kMapFrom;

// The nested mapper of B: pushes B with the mapper's own type (tofrom).
void nestedMapper(void *Handle, void *Base, void *Begin, int64_t Size, int64_t, void *) {
  __tgt_push_mapper_component(Handle, Base, Begin, Size, kTo | kFrom, nullptr);
}

// declare mapper(Pair p) map(to: p.A) map(p.B) with B through nestedMapper,
// as clang emits it: the component types come from the mapper alone.
void pairMapper(void *Handle, void *Base, void *Begin, int64_t, int64_t Type, void *) {
  auto *P = static_cast<Pair *>(Begin);
  __tgt_push_mapper_component(Handle, Base, &P->A, sizeof P->A, kTo, nullptr);
  nestedMapper(Handle, Base, &P->B, sizeof P->B, Type, nullptr);
}

MapperExpansion expand(Pair &P, int64_t OuterType) {
  static void *Bases[1], *Begins[1], *Mappers[1];
  static int64_t Sizes[1], Types[1];
  Bases[0] = Begins[0] = &P;
  Sizes[0] = sizeof P;
  Types[0] = OuterType;
  Mappers[0] = reinterpret_cast<void *>(&pairMapper);
  MapArgs A;
  A.Num = 1;
  A.Bases = Bases;
  A.Begins = Begins;
  A.Sizes = Sizes;
  A.Types = Types;
  A.Mappers = Mappers;
  return MapperExpansion(A, 0);
}

TEST(MapperExpansionTest, OuterModifiersReachEveryComponent) {
  Pair P{1, 2};
  for (int64_t Modifier :
       {int64_t(omptarget::abi::kMapAlways), int64_t(omptarget::abi::kMapClose),
        int64_t(omptarget::abi::kMapPresent), int64_t(omptarget::abi::kMapOmpxHold)}) {
    MapperExpansion E =
        expand(P, kFrom | Modifier | omptarget::abi::kMapTargetParam | omptarget::abi::kMapDelete);
    const MapArgs &A = E.args();
    ASSERT_EQ(A.Num, 2);
    EXPECT_EQ(A.Begins[0], &P.A);
    EXPECT_EQ(A.Begins[1], &P.B);
    EXPECT_EQ(A.Types[0], kTo | Modifier) << "the mapper's own type keeps its to/from";
    EXPECT_EQ(A.Types[1], kTo | kFrom | Modifier) << "a nested mapper's component";
    EXPECT_FALSE(A.FirstRidesOnParent);
  }
}

TEST(MapperExpansionTest, PlainOuterClauseAddsNothing) {
  Pair P{1, 2};
  MapperExpansion E = expand(P, kTo | kFrom);
  EXPECT_EQ(E.args().Types[0], kTo);
  EXPECT_EQ(E.args().Types[1], kTo | kFrom);
}

TEST(MapperExpansionTest, MemberListItemRidesOnItsParent) {
  Pair P{1, 2};
  MapperExpansion E = expand(P, kTo | (int64_t(1) << 48));
  EXPECT_TRUE(E.args().FirstRidesOnParent);
  EXPECT_EQ(E.args().Types[0], kTo) << "MEMBER_OF is not inherited";
}

}  // namespace
