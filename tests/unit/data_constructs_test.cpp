// Data constructs (dataBegin / dataEnd / dataUpdate) on the fake plugin, with
// and without the plugin's asynchronous entries.
#include <cstring>

#include "fake_plugin.h"

using namespace omptarget::abi;

namespace {

constexpr int64_t TO = kMapTo, FROM = kMapFrom, TOFROM = kMapTo | kMapFrom;
constexpr int64_t memberOf(int Parent) { return static_cast<int64_t>(uint64_t(Parent + 1) << 48); }
constexpr uint32_t kFill32 = 0xA5A5A5A5u;

class DataTest : public RuntimeTest, public ::testing::WithParamInterface<fake::Personality> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam();
    return C;
  }
  int *dev(const void *Hst) { return static_cast<int *>(entry(Hst).Tgt); }
};

TEST_P(DataTest, AsyncEntriesUsedOnlyWhenPresent) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TOFROM)}));
  ASSERT_TRUE(end({map(A, sizeof A, TOFROM)}));
  if (GetParam() != fake::Personality::Sync)
    EXPECT_GT(fake::counters().AsyncCalls, 0u);
  else
    EXPECT_EQ(fake::counters().AsyncCalls, 0u);
}

TEST_P(DataTest, ToCopiesInFromCopiesOut) {
  int A[8];
  for (int I = 0; I < 8; ++I) A[I] = I;
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  EntryInfo E = entry(A, sizeof A);
  ASSERT_TRUE(E.Mapped);
  EXPECT_EQ(E.Dyn, 1u);
  EXPECT_EQ(E.Hold, 0u);
  EXPECT_TRUE(fake::isDeviceBuffer(E.Tgt));
  EXPECT_EQ(std::memcmp(E.Tgt, A, sizeof A), 0);
  EXPECT_EQ(fake::counters().Submit, 1u);

  // exit with `to` only: nothing comes back.
  A[0] = 100;
  dev(A)[1] = -1;
  ASSERT_TRUE(end({map(A, sizeof A, TO)}));
  EXPECT_EQ(A[0], 100);
  EXPECT_EQ(A[1], 1);
  EXPECT_EQ(fake::counters().Retrieve, 0u);
  EXPECT_EQ(tableSize(), 0u);

  ASSERT_TRUE(begin({map(A, sizeof A, TOFROM)}));
  for (int I = 0; I < 8; ++I) dev(A)[I] = 10 * I;
  ASSERT_TRUE(end({map(A, sizeof A, TOFROM)}));
  for (int I = 0; I < 8; ++I) EXPECT_EQ(A[I], 10 * I);
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(DataTest, AllocDoesNotCopy) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, 0)}));
  EXPECT_EQ(fake::counters().Submit, 0u);
  EXPECT_EQ(static_cast<uint32_t>(dev(A)[2]), kFill32);
  ASSERT_TRUE(end({map(A, sizeof A, 0)}));
  EXPECT_EQ(fake::counters().Retrieve, 0u);
  EXPECT_EQ(A[2], 3);
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(DataTest, DynamicRefcountNesting) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  EXPECT_EQ(entry(A).Dyn, 2u);
  EXPECT_EQ(fake::counters().Submit, 1u) << "present data is not copied again";
  for (int I = 0; I < 4; ++I) dev(A)[I] = 9;

  ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
  EXPECT_EQ(entry(A).Dyn, 1u);
  EXPECT_EQ(A[0], 1) << "not the last reference: no copy back";
  EXPECT_EQ(fake::counters().Retrieve, 0u);

  ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
  EXPECT_FALSE(entry(A).Mapped);
  for (int V : A) EXPECT_EQ(V, 9);
  EXPECT_EQ(fake::counters().Delete, 1u);
}

TEST_P(DataTest, ReleaseOfTheLastReferenceFreesWithoutCopying) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  dev(A)[0] = 7;
  ASSERT_TRUE(end({map(A, sizeof A, 0)}));  // release
  EXPECT_EQ(entry(A).Dyn, 1u);
  EXPECT_EQ(fake::counters().Delete, 0u);
  ASSERT_TRUE(end({map(A, sizeof A, 0)}));
  EXPECT_FALSE(entry(A).Mapped);
  EXPECT_EQ(fake::counters().Delete, 1u)
      << "the device copy is freed by the construct that drops it";
  EXPECT_EQ(fake::counters().Retrieve, 0u);
  EXPECT_EQ(A[0], 1) << "release copies nothing back";
  // The host range can be mapped anew at once.
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  EXPECT_EQ(dev(A)[0], 1);
  ASSERT_TRUE(end({map(A, sizeof A, 0)}));
}

TEST_P(DataTest, DeleteForcesRemoval) {
  int A[4] = {1, 2, 3, 4};
  for (int I = 0; I < 3; ++I) ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  EXPECT_EQ(entry(A).Dyn, 3u);
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete)}));
  EXPECT_FALSE(entry(A).Mapped);
  EXPECT_EQ(fake::counters().Retrieve, 0u);

  // delete + from: the reset count makes it the last reference, so it copies back.
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  dev(A)[3] = 40;
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete | FROM)}));
  EXPECT_FALSE(entry(A).Mapped);
  EXPECT_EQ(A[3], 40);
  // Deleting what is not mapped is not an error.
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete)}));
}

TEST_P(DataTest, AlwaysCopiesRegardlessOfRefcount) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  A[0] = 50;
  ASSERT_TRUE(begin({map(A, sizeof A, TO | kMapAlways)}));
  EXPECT_EQ(dev(A)[0], 50);
  EXPECT_EQ(entry(A).Dyn, 2u);
  dev(A)[1] = 60;
  ASSERT_TRUE(end({map(A, sizeof A, FROM | kMapAlways)}));
  EXPECT_EQ(A[1], 60);
  EXPECT_EQ(entry(A).Dyn, 1u);
  ASSERT_TRUE(end({map(A, sizeof A, 0)}));
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(DataTest, PresentModifier) {
  int A[4] = {1, 2, 3, 4}, B[4] = {};
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(A, sizeof A, TO | kMapPresent)}));
  EXPECT_EQ(tableSize(), 0u) << "a failed present check creates no entry";
  EXPECT_EQ(fake::counters().Alloc, 0u);
  EXPECT_FALSE(end({map(A, sizeof A, FROM | kMapPresent)}));
  EXPECT_FALSE(update({map(A, sizeof A, TO | kMapPresent)}));
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("'present' map type modifier"), std::string::npos) << Err;

  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  ASSERT_TRUE(begin({map(A, sizeof A, TO | kMapPresent)}));
  EXPECT_EQ(entry(A).Dyn, 2u);
  // The failing item in a list stops the construct; the earlier one stays mapped.
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(A, sizeof A, TO), map(B, sizeof B, TO | kMapPresent)}));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(entry(A).Dyn, 3u);
  EXPECT_FALSE(entry(B).Mapped);
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete)}));
}

TEST_P(DataTest, UnmappedItemsAreIgnoredOnExitAndUpdate) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
  ASSERT_TRUE(update({map(A, sizeof A, TO)}));
  ASSERT_TRUE(update({map(A, sizeof A, FROM)}));
  EXPECT_EQ(fake::counters().Submit + fake::counters().Retrieve, 0u);
  // A zero-length section maps nothing.
  ASSERT_TRUE(begin({map(A, 0, TO)}));
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::counters().Alloc, 0u);
}

TEST_P(DataTest, OmpxHold) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO | kMapOmpxHold)}));
  EXPECT_EQ(entry(A).Dyn, 0u);
  EXPECT_EQ(entry(A).Hold, 1u);
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete)}));
  EXPECT_TRUE(entry(A).Mapped) << "delete without hold keeps a held mapping";
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  EXPECT_EQ(entry(A).Dyn, 1u);
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete | FROM)}));
  EXPECT_TRUE(entry(A).Mapped);
  EXPECT_EQ(entry(A).Dyn, 0u);
  EXPECT_EQ(entry(A).Hold, 1u);
  EXPECT_EQ(fake::counters().Retrieve, 0u);
  dev(A)[0] = 7;
  ASSERT_TRUE(end({map(A, sizeof A, FROM | kMapOmpxHold)}));
  EXPECT_FALSE(entry(A).Mapped);
  EXPECT_EQ(A[0], 7);
}

TEST_P(DataTest, ExplicitExtensionFailsImplicitIsAllowed) {
  int A[8] = {};
  ASSERT_TRUE(begin({map(A, 16, TO)}));
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(A, sizeof A, TO)}));
  EXPECT_FALSE(begin({map(A + 2, 16, TO)}));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(entry(A).Dyn, 1u);
  EXPECT_EQ(tableSize(), 1u);
  ASSERT_TRUE(begin({map(A, sizeof A, TO | kMapImplicit)}));
  EXPECT_EQ(entry(A).Dyn, 2u);
  ASSERT_TRUE(end({map(A, sizeof A, kMapImplicit)}));
  ASSERT_TRUE(end({map(A, 16, 0)}));
  EXPECT_EQ(tableSize(), 0u);
}

struct S {
  int N;
  int *P;
  double X;
};

TEST_P(DataTest, PtrAndObjAttachesAndRestores) {
  int Data[4] = {1, 2, 3, 4};
  S Obj{5, Data, 1.5};
  std::vector<Arg> Args = {map(&Obj, sizeof Obj, TOFROM),
                           {&Obj.P, Data, sizeof Data, memberOf(0) | kMapPtrAndObj | TOFROM}};
  ASSERT_TRUE(begin(Args));
  auto *DevObj = static_cast<S *>(entry(&Obj).Tgt);
  int *DevData = dev(Data);
  ASSERT_NE(DevObj, nullptr);
  ASSERT_NE(DevData, nullptr);
  EXPECT_EQ(entry(&Obj).Dyn, 1u) << "the member does not count on its parent";
  EXPECT_EQ(entry(Data).Dyn, 1u);
  EXPECT_EQ(DevObj->P, DevData) << "device struct points at the device pointee";
  EXPECT_EQ(DevObj->N, 5);
  EXPECT_EQ(DevData[2], 3);
  EXPECT_EQ(Obj.P, Data);

  // update from: the host pointer keeps its host value.
  DevObj->N = 50;
  ASSERT_TRUE(update({map(&Obj, sizeof Obj, FROM)}));
  EXPECT_EQ(Obj.N, 50);
  EXPECT_EQ(Obj.P, Data);
  // update to: the device pointer is re-attached after the copy.
  Obj.N = 51;
  ASSERT_TRUE(update({map(&Obj, sizeof Obj, TO)}));
  EXPECT_EQ(DevObj->N, 51);
  EXPECT_EQ(DevObj->P, DevData);

  DevObj->N = 52;
  DevData[0] = 77;
  ASSERT_TRUE(end(Args));
  EXPECT_EQ(Obj.P, Data) << "host pointer restored after copying the struct back";
  EXPECT_EQ(Obj.N, 52);
  EXPECT_EQ(Data[0], 77);
  EXPECT_EQ(tableSize(), 0u);
}

struct alignas(8) T {
  int A;
  int B[4];
  int C;
};

TEST_P(DataTest, MemberOfCombinedEntry) {
  T Obj{1, {2, 3, 4, 5}, 6};
  // map(to: obj.b[0:2]) map(tofrom: obj.c): the combined entry spans b[0]..c.
  auto Span = reinterpret_cast<char *>(&Obj.C + 1) - reinterpret_cast<char *>(&Obj.B[0]);
  std::vector<Arg> Args = {{&Obj, &Obj.B[0], Span, kMapTargetParam},
                           {&Obj, &Obj.B[0], 2 * sizeof(int), memberOf(0) | TO},
                           {&Obj, &Obj.C, sizeof(int), memberOf(0) | TOFROM}};
  ASSERT_TRUE(begin(Args));
  EntryInfo E = entry(&Obj.B[0], Span);
  ASSERT_TRUE(E.Mapped);
  EXPECT_EQ(E.Dyn, 1u) << "members do not add references";
  // The entry holds the mapped members only; the device copy is allocated
  // from the struct's alignment down (padding), so it keeps the host layout.
  EXPECT_EQ(E.HstBegin, reinterpret_cast<uintptr_t>(&Obj.B[0]));
  EXPECT_EQ(E.HstEnd, reinterpret_cast<uintptr_t>(&Obj.C + 1));
  EXPECT_EQ(tableSize(), 1u);
  EXPECT_FALSE(entry(&Obj.A, sizeof(int)).Mapped) << "the padding is not mapped";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(E.Tgt) % alignof(T),
            reinterpret_cast<uintptr_t>(&Obj.B[0]) % alignof(T));
  auto *DevObj = reinterpret_cast<T *>(static_cast<char *>(E.Tgt) - offsetof(T, B));
  EXPECT_EQ(DevObj->B[0], 2);
  EXPECT_EQ(DevObj->B[1], 3);
  EXPECT_EQ(DevObj->C, 6);
  EXPECT_EQ(static_cast<uint32_t>(DevObj->B[2]), kFill32) << "outside the sections: not copied";
  EXPECT_EQ(static_cast<uint32_t>(DevObj->A), kFill32);

  DevObj->B[0] = 20;
  DevObj->C = 60;
  ASSERT_TRUE(end(Args));
  EXPECT_EQ(Obj.C, 60);
  EXPECT_EQ(Obj.B[0], 2) << "`to` member is not copied back";
  EXPECT_EQ(Obj.A, 1);
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(DataTest, UpdateContiguousSection) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  A[1] = 20;
  A[2] = 30;
  ASSERT_TRUE(update({map(&A[1], sizeof(int), TO)}));
  EXPECT_EQ(dev(A)[1], 20);
  EXPECT_EQ(dev(A)[2], 3);
  dev(A)[3] = 40;
  dev(A)[0] = 10;
  ASSERT_TRUE(update({map(&A[3], sizeof(int), FROM)}));
  EXPECT_EQ(A[3], 40);
  EXPECT_EQ(A[0], 1);
  ASSERT_TRUE(end({map(A, sizeof A, 0)}));
}

TEST_P(DataTest, UpdateNonContiguous) {
  int M[4][5] = {};
  ASSERT_TRUE(begin({map(M, sizeof M, 0)}));
  int *DevM = dev(M);
  for (int I = 0; I < 20; ++I) DevM[I] = 100 + I;
  // m[0:2][1:3]: outermost first, the last descriptor is the element.
  __tgt_target_non_contig Dims[3] = {{0, 2, 20}, {1, 3, 4}, {0, 1, 4}};
  Arg U{M, Dims, 3, FROM | kMapNonContig};
  auto Before = fake::counters();
  ASSERT_TRUE(update({U}));
  EXPECT_EQ(fake::counters().Retrieve - Before.Retrieve, 2u) << "one run per row";
  for (int R = 0; R < 4; ++R)
    for (int C = 0; C < 5; ++C) {
      bool In = R < 2 && C >= 1 && C <= 3;
      EXPECT_EQ(M[R][C], In ? 100 + R * 5 + C : 0) << R << "," << C;
    }

  for (auto &Row : M)
    for (int &V : Row) V = -1;
  U.Type = TO | kMapNonContig;
  ASSERT_TRUE(update({U}));
  for (int I = 0; I < 20; ++I) {
    int R = I / 5, C = I % 5;
    bool In = R < 2 && C >= 1 && C <= 3;
    EXPECT_EQ(DevM[I], In ? -1 : 100 + I) << R << "," << C;
  }
  ASSERT_TRUE(end({map(M, sizeof M, 0)}));

  // Descriptors that reach past the end of the address space (from a base
  // near its top, or with wrapping products): refused, nothing copied
  // (non_contig_test.cpp has the walk's cases).
  Before = fake::counters();
  auto *Top = reinterpret_cast<void *>(UINTPTR_MAX - 32);
  __tgt_target_non_contig Rows[2] = {{0, 4, 16}, {0, 1, 4}};
  omptarget::Status S = update({Arg{Top, Rows, 2, FROM | kMapNonContig}});
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("reach past the end of the address space"), std::string::npos)
      << S.error().message();
  EXPECT_EQ(fake::counters().Retrieve, Before.Retrieve);
}

// declare mapper(struct V v) map(v, v.Data[0:v.N])
struct V {
  int N;
  int *Data;
};
int MapperCalls = 0;
extern "C" void __tgt_push_mapper_component(void *Handle, void *Base, void *Begin, int64_t Size,
                                            int64_t Type, void *Name);
void mapperOfV(void *Handle, void *Base, void *Begin, int64_t, int64_t Type, void *) {
  ++MapperCalls;
  auto *Obj = static_cast<V *>(Begin);
  int64_t Motion = Type & (TO | FROM);
  __tgt_push_mapper_component(Handle, Base, Begin, sizeof(V), Type & ~kMapTargetParam, nullptr);
  __tgt_push_mapper_component(Handle, &Obj->Data, Obj->Data, Obj->N * int64_t(sizeof(int)),
                              memberOf(0) | kMapPtrAndObj | Motion, nullptr);
}

TEST_P(DataTest, UserDefinedMapper) {
  MapperCalls = 0;
  int Data[3] = {7, 8, 9};
  V Obj{3, Data};
  Arg A{&Obj, &Obj, sizeof Obj, TOFROM, reinterpret_cast<void *>(&mapperOfV)};
  ASSERT_TRUE(begin({A}));
  EXPECT_EQ(MapperCalls, 1);
  auto *DevObj = static_cast<V *>(entry(&Obj).Tgt);
  ASSERT_NE(DevObj, nullptr);
  ASSERT_TRUE(entry(Data).Mapped);
  EXPECT_EQ(DevObj->Data, dev(Data));
  EXPECT_EQ(dev(Data)[2], 9);
  uint64_t Submits = fake::counters().Submit;

  ASSERT_TRUE(begin({A}));
  EXPECT_EQ(MapperCalls, 2);
  EXPECT_EQ(fake::counters().Submit, Submits) << "re-mapping a present object copies nothing";
  EXPECT_EQ(entry(&Obj).Dyn, 2u);
  EXPECT_EQ(entry(Data).Dyn, 2u);

  dev(Data)[0] = 70;
  ASSERT_TRUE(end({A}));
  EXPECT_EQ(Data[0], 7);
  ASSERT_TRUE(end({A}));
  EXPECT_EQ(MapperCalls, 4);
  EXPECT_EQ(Data[0], 70);
  EXPECT_EQ(Obj.Data, Data);
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(DataTest, DeclareTargetGlobalIsPermanent) {
  EntryInfo E = entry(fake::GlobalArray, sizeof fake::GlobalArray);
  ASSERT_TRUE(E.Mapped);
  EXPECT_EQ(E.Dyn, omptarget::core::kInfiniteRef);
  EXPECT_TRUE(fake::isDeviceBuffer(E.Tgt));
  EXPECT_EQ(static_cast<int *>(E.Tgt)[3], 44);
  int Saved = fake::GlobalArray[1];
  fake::GlobalArray[1] = 222;
  ASSERT_TRUE(update({map(fake::GlobalArray, sizeof fake::GlobalArray, TO)}));
  fake::GlobalArray[1] = Saved;
  EXPECT_EQ(static_cast<int *>(E.Tgt)[1], 222);
  ASSERT_TRUE(begin({map(fake::GlobalArray, sizeof fake::GlobalArray, TO)}));
  ASSERT_TRUE(end({map(fake::GlobalArray, sizeof fake::GlobalArray, kMapDelete)}));
  EXPECT_TRUE(entry(fake::GlobalArray).Mapped);
  EXPECT_EQ(fake::counters().Alloc, 0u);
}

INSTANTIATE_TEST_SUITE_P(Plugin, DataTest, ::testing::ValuesIn(fake::kAllPersonalities),
                         [](const auto &Info) { return fake::name(Info.param); });

}  // namespace
