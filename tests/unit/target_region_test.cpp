// runTargetRegion on the fake plugin: argument passing (literal, firstprivate,
// private, mapped), teams, and what is left after injected faults.
#include <cstring>
#include <string>
#include <vector>

#include "fake_plugin.h"
#include "map_ops.h"
#include "target_launch.h"

using namespace omptarget::abi;

namespace {

constexpr int64_t TO = kMapTo, FROM = kMapFrom, TOFROM = kMapTo | kMapFrom;
constexpr int64_t PARAM = kMapTargetParam;

// The plugin: each personality of the fake, and the asynchronous one with
// the direct table too (which the core then calls instead of the entries).
struct Mode {
  fake::Personality Kind;
  bool Direct = false;
};
constexpr Mode kModes[] = {{fake::Personality::Sync},
                           {fake::Personality::Async},
                           {fake::Personality::AsyncEvents},
                           {fake::Personality::CompletesSync},
                           {fake::Personality::PersistentQueues},
                           {fake::Personality::Async, true}};

class TargetTest : public RuntimeTest, public ::testing::WithParamInterface<Mode> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam().Kind;
    C.Direct = GetParam().Direct;
    return C;
  }
  // Work waits in a queue until the construct's synchronize.
  bool queued() const { return fake::defersWork(GetParam().Kind); }
};

TEST_P(TargetTest, ArgumentKinds) {
  int FirstPriv = 7;
  double FirstPriv2 = 2.5;
  int Priv = 3;
  int A[4] = {1, 2, 3, 4};
  int SeenFirstPriv = 0;
  double SeenFirstPriv2 = 0;
  fake::setKernel(0, [&](const std::vector<void *> &Args) {
    SeenFirstPriv = *static_cast<int *>(Args[1]);
    SeenFirstPriv2 = *static_cast<double *>(Args[4]);
    *static_cast<int *>(Args[1]) = 99;  // the kernel's own copy
    *static_cast<int *>(Args[2]) = 98;
    for (int I = 0; I < 4; ++I) static_cast<int *>(Args[3])[I] += 10;
  });
  auto *Literal = reinterpret_cast<void *>(uintptr_t(42));
  ASSERT_TRUE(target(0, {{Literal, Literal, sizeof(int), kMapLiteral | PARAM},
                         map(&FirstPriv, sizeof FirstPriv, kMapPrivate | TO | PARAM),
                         map(&Priv, sizeof Priv, kMapPrivate | PARAM),
                         map(A, sizeof A, TOFROM | PARAM),
                         map(&FirstPriv2, sizeof FirstPriv2, kMapPrivate | TO | PARAM)}));
  auto L = fake::launches();
  ASSERT_EQ(L.size(), 1u);
  ASSERT_EQ(L[0].Args.size(), 5u);
  EXPECT_EQ(L[0].Kernel, 0);
  EXPECT_FALSE(L[0].Teams);
  EXPECT_EQ(L[0].Args[0], Literal) << "literal passed by value";
  EXPECT_NE(L[0].Args[1], &FirstPriv);
  EXPECT_NE(L[0].Args[2], &Priv);
  EXPECT_NE(L[0].Args[2], nullptr);
  EXPECT_NE(L[0].Args[3], static_cast<void *>(A));
  EXPECT_NE(L[0].Args[1], L[0].Args[4]);
  EXPECT_EQ(SeenFirstPriv, 7);
  EXPECT_EQ(SeenFirstPriv2, 2.5);
  EXPECT_EQ(FirstPriv, 7) << "firstprivate: host unchanged";
  EXPECT_EQ(Priv, 3);
  for (int I = 0; I < 4; ++I) EXPECT_EQ(A[I], I + 11);
  EXPECT_EQ(tableSize(), 0u);
}

TEST_P(TargetTest, CoreAcceptsDeferredRetrievesOnceAtDeviceInit) {
  int A[2] = {1, 2};
  ASSERT_TRUE(target(0, {map(A, sizeof A, TOFROM | PARAM)}));
  ASSERT_TRUE(target(0, {map(A, sizeof A, TOFROM | PARAM)}));
  // Only personalities with asynchronous entries export the entry; the core
  // must call it exactly once, when the device is initialized, and never
  // when it is absent.
  bool Exported = GetParam().Kind != fake::Personality::Sync;
  EXPECT_EQ(fake::counters().AcceptDeferredRetrieves, Exported ? 1u : 0u);
  EXPECT_EQ(fake::counters().InitDevice, 1u);
}

TEST_P(TargetTest, TeamsAndNonParamEntries) {
  int A[2] = {1, 2}, B[2] = {3, 4};
  ASSERT_TRUE(target(1, {map(A, sizeof A, TO | PARAM), map(B, sizeof B, TO)}, true, 4, 64));
  auto L = fake::launches();
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Kernel, 1);
  EXPECT_TRUE(L[0].Teams);
  EXPECT_EQ(L[0].NumTeams, 4);
  EXPECT_EQ(L[0].ThreadLimit, 64);
  EXPECT_EQ(L[0].Args.size(), 1u) << "only TARGET_PARAM entries become arguments";
  EXPECT_EQ(fake::counters().Submit, 2u);
}

TEST_P(TargetTest, PresentDataIsReusedAndNotCopiedBack) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  void *DevA = entry(A).Tgt;
  fake::setKernel(2, [](const std::vector<void *> &Args) { static_cast<int *>(Args[0])[0] = 5; });
  ASSERT_TRUE(target(2, {map(A, sizeof A, TOFROM | PARAM)}));
  auto L = fake::launches();
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Args[0], DevA);
  EXPECT_EQ(entry(A).Dyn, 1u);
  EXPECT_EQ(A[0], 1) << "the region's end is not the last reference";
  EXPECT_EQ(fake::counters().Submit, 1u);
  ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
  EXPECT_EQ(A[0], 5);
}

TEST_P(TargetTest, GlobalAndOffsetArguments) {
  int A[8] = {};
  bool SectionOnDevice = false;
  fake::setKernel(0, [&](const std::vector<void *> &Args) {
    SectionOnDevice = fake::isDeviceBuffer(static_cast<char *>(Args[0]) + 2 * sizeof(int));
  });
  // map(tofrom: a[2:4]) with base a: the kernel sees the device address of a.
  ASSERT_TRUE(target(0, {{A, &A[2], 4 * sizeof(int), TOFROM | PARAM},
                         map(fake::GlobalArray, sizeof fake::GlobalArray, TO | PARAM)}));
  auto L = fake::launches();
  ASSERT_EQ(L.size(), 1u);
  EXPECT_TRUE(SectionOnDevice) << "base + (begin - base) is the section's device buffer";
  EXPECT_EQ(L[0].Args[1], entry(fake::GlobalArray).Tgt);
}

TEST_P(TargetTest, UnknownRegionFails) {
  omptarget::core::LaunchParams P;
  int NotARegion;
  P.HostRegion = &NotARegion;
  omptarget::core::MapArgs None;
  EXPECT_FALSE(omptarget::core::runTargetRegion(nullptr, *D, None, P));
  EXPECT_EQ(fake::counters().Launch, 0u);
}

// ---- fault injection ------------------------------------------------------

TEST_P(TargetTest, FailedAllocLeavesNothing) {
  int A[4] = {1, 2, 3, 4};
  fake::failAlloc(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(A, sizeof A, TO)}));
  fake::failAlloc(1);
  EXPECT_FALSE(target(0, {map(&A[0], 4, kMapPrivate | PARAM)}));  // private buffer
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::counters().Launch, 0u);
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
}

// enter data map(to: a, b) where the copy of b fails. State left:
//  - a: mapped, DynRef 1, data present (no rollback of earlier items);
//  - b: must NOT be mapped: its data never arrived, and an entry would make
//    later constructs use garbage without copying.
TEST_P(TargetTest, FailedSubmitInEnterData) {
  int A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8}, C[4] = {9, 9, 9, 9};
  fake::failSubmit(2);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(A, sizeof A, TO), map(B, sizeof B, TO)}));
  testing::internal::GetCapturedStderr();
  EXPECT_TRUE(entry(A).Mapped);
  EXPECT_EQ(entry(A).Dyn, 1u);
  EXPECT_FALSE(entry(B).Mapped) << "an entry claims data that never reached the device";

  // The runtime keeps working: b maps afresh with its data.
  ASSERT_TRUE(begin({map(B, sizeof B, TO), map(C, sizeof C, TO)}));
  EXPECT_EQ(static_cast<int *>(entry(B).Tgt)[0], 5) << "b's device copy holds its data";
  EXPECT_EQ(static_cast<int *>(entry(C).Tgt)[3], 9);
  ASSERT_TRUE(end(
      {map(A, sizeof A, kMapDelete), map(B, sizeof B, kMapDelete), map(C, sizeof C, kMapDelete)}));
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveAllocations(), 0u);
}

TEST_P(TargetTest, FailedSubmitInTargetRegion) {
  int A[4] = {1, 2, 3, 4};
  fake::failSubmit(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(target(0, {map(A, sizeof A, TOFROM | PARAM)}));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(fake::counters().Launch, 0u);
  EXPECT_FALSE(entry(A).Mapped) << "an entry claims data that never reached the device";
  if (entry(A).Mapped) (void)end({map(A, sizeof A, kMapDelete)});  // keep the leak check focused
  ASSERT_TRUE(target(0, {map(A, sizeof A, TOFROM | PARAM)}));
  EXPECT_EQ(tableSize(), 0u);
}

// A kernel that fails to launch: the region's own references must be dropped
// (it owned the only reference of `a`), its private buffers freed, and host
// data left as it was.
TEST_P(TargetTest, FailedLaunch) {
  int A[4] = {1, 2, 3, 4};
  int FirstPriv = 1;
  std::vector<Arg> Args = {map(A, sizeof A, TOFROM | PARAM),
                           map(&FirstPriv, sizeof FirstPriv, kMapPrivate | TO | PARAM)};
  fake::failLaunch(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(target(0, Args));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(fake::launches().size(), 0u);
  EXPECT_EQ(A[0], 1);
  EXPECT_FALSE(entry(A).Mapped) << "the failed region left its mapping of `a` behind (DynRef "
                                << entry(A).Dyn << ")";
  if (entry(A).Mapped) (void)end({map(A, sizeof A, kMapDelete)});
  EXPECT_EQ(fake::liveAllocations(), 0u) << "private buffers or mappings leaked";

  fake::setKernel(0, [](const std::vector<void *> &Args) { static_cast<int *>(Args[0])[1] = 20; });
  ASSERT_TRUE(target(0, Args));
  EXPECT_EQ(A[1], 20);
}

// A failed copy back on exit: the error is reported and the entry stays
// mapped with its last reference (the deferred final decrement never ran),
// so a second exit can retry and then frees it.
TEST_P(TargetTest, FailedRetrieveOnExit) {
  int A[4] = {1, 2, 3, 4};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  static_cast<int *>(entry(A).Tgt)[0] = 10;
  fake::failRetrieve(1);
  EXPECT_FALSE(end({map(A, sizeof A, FROM)}));
  EXPECT_TRUE(entry(A).Mapped);
  EXPECT_EQ(entry(A).Dyn, 1u);
  EXPECT_EQ(A[0], 1);
  ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
  EXPECT_EQ(A[0], 10);
  EXPECT_EQ(tableSize(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Plugin, TargetTest, ::testing::ValuesIn(kModes), [](const auto &Info) {
  return Info.param.Direct ? std::string("Direct") : std::string(fake::name(Info.param.Kind));
});

}  // namespace

// A queued copy that fails only at the construct's synchronization: the
// entries the construct created are dropped, not left claiming data.
TEST_P(TargetTest, FailedSynchronizeRollsBackNewEntries) {
  if (!queued()) GTEST_SKIP() << "needs queued (async) work";
  int A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8};
  ASSERT_TRUE(begin({map(A, sizeof A, TO)}));
  fake::failSync(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(begin({map(A, sizeof A, TO), map(B, sizeof B, TO)}));
  testing::internal::GetCapturedStderr();
  EXPECT_FALSE(entry(B).Mapped) << "an entry claims data that never reached the device";
  EXPECT_TRUE(entry(A).Mapped) << "a pre-existing entry is kept";
  ASSERT_TRUE(begin({map(B, sizeof B, TO)}));
  EXPECT_EQ(static_cast<int *>(entry(B).Tgt)[1], 6);
  ASSERT_TRUE(end({map(A, sizeof A, kMapDelete), map(B, sizeof B, kMapDelete)}));
  EXPECT_EQ(tableSize(), 0u);
  EXPECT_EQ(fake::liveAllocations(), 0u);
}

// The order of a construct's actions when its queue fails: queue-done
// bookkeeping (e.g. clearing an entry's copy-in-flight flag) first, then the
// failure rollbacks (which may free that entry), then the post-sync actions.
TEST_P(TargetTest, QueueDoneActionsRunBeforeFailureRollbacks) {
  if (!queued()) GTEST_SKIP() << "needs queued (async) work";
  int A[4] = {1, 2, 3, 4};
  std::vector<std::string> Order;
  omptarget::core::AsyncInfo Async(*D);
  auto Allocated = D->allocate(sizeof A, A, kAllocDefault);
  ASSERT_TRUE(Allocated);
  void *Tgt = *Allocated;
  ASSERT_TRUE(D->submit(Tgt, A, sizeof A, *Async.raw()));  // queued work
  Async.afterSync([&] {
    Order.push_back("post-sync");
    return omptarget::Status::success();
  });
  Async.onFailure([&] {
    Order.push_back("rollback");
    return omptarget::Status::success();
  });
  Async.whenQueueDone([&] {
    Order.push_back("queue-done");
    return omptarget::Status::success();
  });
  fake::failSync(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(Async.synchronize());
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(Order, (std::vector<std::string>{"queue-done", "rollback", "post-sync"}));
  ASSERT_TRUE(D->freeMemory(Tgt));
}

namespace {

// Which way the core calls the plugin: the direct table when the plugin gives
// one, the entries when it refuses or OMPTARGET_PLUGIN_DIRECT_CALLS=0.
struct DirectChoice {
  bool Refused;
  const char *EnvValue;  // nullptr: unset
  bool ExpectDirect;
};

class DirectTableTest : public RuntimeTest, public ::testing::WithParamInterface<DirectChoice> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Direct = true;
    C.DirectRefused = GetParam().Refused;
    return C;
  }
  void SetUp() override {
    if (GetParam().EnvValue)
      setenv("OMPTARGET_PLUGIN_DIRECT_CALLS", GetParam().EnvValue, 1);
    else
      unsetenv("OMPTARGET_PLUGIN_DIRECT_CALLS");
    RuntimeTest::SetUp();  // the core asks for the table when it initializes the device
  }
  void TearDown() override {
    RuntimeTest::TearDown();
    unsetenv("OMPTARGET_PLUGIN_DIRECT_CALLS");
  }
};

TEST_P(DirectTableTest, TargetRegionUsesTheChosenWay) {
  int A[4] = {1, 2, 3, 4};
  fake::setKernel(0, [](const std::vector<void *> &Args) { static_cast<int *>(Args[0])[2] = 30; });
  fake::Counters Before = fake::counters();
  ASSERT_TRUE(target(0, {map(A, sizeof A, TOFROM | PARAM)}, /*Teams=*/true, 4, 64));
  fake::Counters After = fake::counters();
  EXPECT_EQ(A[2], 30);
  // Either way the same operations reach the plugin: alloc, copy in, launch,
  // copy back, free.
  EXPECT_EQ(After.Alloc - Before.Alloc, 1u);
  EXPECT_EQ(After.Submit - Before.Submit, 1u);
  EXPECT_EQ(After.Launch - Before.Launch, 1u);
  EXPECT_EQ(After.Retrieve - Before.Retrieve, 1u);
  EXPECT_EQ(After.Delete - Before.Delete, 1u);
  EXPECT_EQ(After.Direct - Before.Direct, GetParam().ExpectDirect ? 5u : 0u);
  // The teams clauses pass through the table unchanged.
  ASSERT_FALSE(fake::launches().empty());
  EXPECT_TRUE(fake::launches().back().Teams);
  EXPECT_EQ(fake::launches().back().NumTeams, 4);
  EXPECT_EQ(fake::launches().back().ThreadLimit, 64);
}

TEST_P(DirectTableTest, FailuresReadTheSameEitherWay) {
  int A[4] = {1, 2, 3, 4};
  fake::failSubmit(1);
  testing::internal::CaptureStderr();
  omptarget::Status S = target(0, {map(A, sizeof A, TO | PARAM)});
  testing::internal::GetCapturedStderr();
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("copying 16 bytes from host"), std::string::npos)
      << S.error().message();
  EXPECT_EQ(tableSize(), 0u) << "a failed region keeps no entry";
}

INSTANTIATE_TEST_SUITE_P(Plugin, DirectTableTest,
                         ::testing::Values(DirectChoice{false, nullptr, true},
                                           DirectChoice{false, "1", true},
                                           DirectChoice{false, "0", false},
                                           DirectChoice{true, nullptr, false}),
                         [](const auto &Info) {
                           if (Info.param.Refused) return std::string("Refused");
                           if (!Info.param.EnvValue) return std::string("Default");
                           return std::string("Env") + Info.param.EnvValue;
                         });

}  // namespace
