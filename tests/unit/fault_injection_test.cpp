// Fault injection through the fake plugin, one plugin entry at a time, on
// every personality: the Nth call of the entry fails once inside a target
// region (or its exit), and then
//   * the construct fails; no line of its report is repeated;
//   * the core keeps nothing of it: the device's mapping table is back to
//     its entries before the construct (the mapped_entries property that
//     omptarget_get_device_properties and omptarget-info show), every
//     buffer the construct allocated is freed, every queue given back
//     (a failed copy back keeps its entry on purpose, until an exit data
//     retrieves it);
//   * the next construct succeeds and moves the right data.
// docs/faults.md has the table (the fake CUDA driver's tests are the same
// faults through the CUDA plugin).
#include <omptarget/omp_target_ext.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fake_plugin.h"

using namespace omptarget::abi;

namespace {

constexpr int64_t TO = kMapTo, FROM = kMapFrom, TOFROM = kMapTo | kMapFrom;
constexpr int64_t PARAM = kMapTargetParam;

enum class Fault { Alloc, Submit, Retrieve, Launch, Sync, Delete };
const char *name(Fault F) {
  switch (F) {
    case Fault::Alloc: return "Alloc";
    case Fault::Submit: return "Submit";
    case Fault::Retrieve: return "Retrieve";
    case Fault::Launch: return "Launch";
    case Fault::Sync: return "Sync";
    case Fault::Delete: return "Delete";
  }
  return "?";
}
void inject(Fault F) {
  switch (F) {
    case Fault::Alloc: fake::failAlloc(1); break;
    case Fault::Submit: fake::failSubmit(1); break;
    case Fault::Retrieve: fake::failRetrieve(1); break;
    case Fault::Launch: fake::failLaunch(1); break;
    case Fault::Sync: fake::failSync(1); break;
    case Fault::Delete: fake::failDelete(1); break;
  }
}

struct Case {
  fake::Personality Kind;
  Fault F;
};
std::vector<Case> allCases() {
  std::vector<Case> V;
  for (fake::Personality P : fake::kAllPersonalities)
    for (Fault F : {Fault::Alloc, Fault::Submit, Fault::Retrieve, Fault::Launch, Fault::Sync,
                    Fault::Delete})
      V.push_back({P, F});
  return V;
}

void mappedEntriesCb(void *Ctx, const char *Key, const char *Value) {
  if (std::strcmp(Key, "mapped_entries") == 0) *static_cast<long *>(Ctx) = std::atol(Value);
}
long mappedEntries() {
  long N = -1;
  EXPECT_EQ(omptarget_get_device_properties(0, mappedEntriesCb, &N), 0);
  return N;
}
size_t countLines(const std::string &Text, const char *Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos; At = Text.find(Needle, At + 1)) ++N;
  return N;
}

class FaultTest : public RuntimeTest, public ::testing::WithParamInterface<Case> {
 protected:
  fake::Config config() override {
    fake::Config C;
    C.Kind = GetParam().Kind;
    return C;
  }
};

TEST_P(FaultTest, OneErrorNothingLeftNextConstructWorks) {
  const Fault F = GetParam().F;
  if (F == Fault::Sync && !fake::defersWork(GetParam().Kind))
    GTEST_SKIP() << "no queue with work to synchronize";
  int A[4] = {1, 2, 3, 4};
  int FirstPriv = 5;
  std::vector<Arg> Args = {map(A, sizeof A, TOFROM | PARAM),
                           map(&FirstPriv, sizeof FirstPriv, kMapPrivate | TO | PARAM)};
  fake::setKernel(0, [](const std::vector<void *> &K) { static_cast<int *>(K[0])[0] += 10; });
  const long Before = mappedEntries();  // the declare-target global
  const size_t LiveBefore = fake::liveAllocations();

  inject(F);
  testing::internal::CaptureStderr();
  omptarget::Status S = target(0, Args);
  std::string Err = testing::internal::GetCapturedStderr();
  // A refused release is reported and keeps the construct's result: the
  // data came back before the memory was to be freed.
  if (F == Fault::Delete) {
    if (S) {
      EXPECT_EQ(A[0], 11);
    }
  } else {
    EXPECT_FALSE(S) << "the construct succeeded despite the fault";
    EXPECT_EQ(A[0], 1) << "host data changed by a failed construct";
  }
  // Each line once (the core's chain of LLVM 14's lines, no repeats).
  for (size_t B = 0, E; B < Err.size(); B = E + 1) {
    E = Err.find('\n', B);
    if (E == std::string::npos) E = Err.size();
    std::string Line = Err.substr(B, E - B);
    if (!Line.empty()) {
      EXPECT_EQ(countLines(Err, Line.c_str()), 1u) << "repeated: " << Line;
    }
  }
  if (F == Fault::Retrieve && !S) {
    // A copy back that failed keeps the entry with its last reference (its
    // data is never dropped unseen): an exit data map(from:) retrieves it.
    EXPECT_EQ(mappedEntries(), Before + 1);
    ASSERT_TRUE(end({map(A, sizeof A, FROM)}));
    EXPECT_EQ(A[0], 11);
  }
  EXPECT_EQ(mappedEntries(), Before) << "a stale mapping entry is left";
  EXPECT_EQ(tableSize(), 0u);
  if (F != Fault::Delete) {
    EXPECT_EQ(fake::liveAllocations(), LiveBefore) << "device memory of the failed construct leaked";
  } else {
    // The plugin refused to free a block: it stays allocated (the plugin
    // keeps it and frees it at deinit); the core must not have it mapped.
    CheckLeaks = false;
  }

  A[0] = 1;
  ASSERT_TRUE(target(0, Args)) << "the next construct failed";
  EXPECT_EQ(A[0], 11);
  EXPECT_EQ(mappedEntries(), Before);
}

INSTANTIATE_TEST_SUITE_P(Plugin, FaultTest, ::testing::ValuesIn(allCases()), [](const auto &Info) {
  return std::string(fake::name(Info.param.Kind)) + name(Info.param.F);
});

}  // namespace
