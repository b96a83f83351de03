// OMPTARGET_LOCAL_RANK_DEVICE=1 (default_device.h): the default device
// becomes the node-local rank modulo the device count, written once into
// libomp's ICV (here a fake), with OMP_DEFAULT_DEVICE and earlier
// omp_set_default_device calls winning.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "default_device.h"

using namespace omptarget::core;

namespace {

// libomp's default-device ICV, faked: the calling thread's value, the text
// given to kmp_set_defaults, and how often each was written.
int FakeIcv = 0;
std::vector<std::string> FakeDefaults;
int SetCalls = 0;
int fakeGet() { return FakeIcv; }
void fakeSet(int V) {
  FakeIcv = V;
  ++SetCalls;
}
void fakeSetDefaults(const char *Text) { FakeDefaults.emplace_back(Text); }
constexpr DefaultDeviceIcv kFakeIcv{fakeGet, fakeSet, fakeSetDefaults};

constexpr const char *kVars[] = {"OMPTARGET_LOCAL_RANK_DEVICE",
                                 "OMP_DEFAULT_DEVICE",
                                 "OMPI_COMM_WORLD_LOCAL_RANK",
                                 "MPI_LOCALRANKID",
                                 "SLURM_LOCALID",
                                 "PMIX_RANK",
                                 "PMI_RANK",
                                 "SLURM_PROCID"};

class LocalRankDeviceTest : public testing::Test {
 protected:
  void SetUp() override {
    // The test may itself run under a launcher (srun, mpirun): keep its values.
    for (const char *Name : kVars) {
      const char *V = std::getenv(Name);
      Saved.emplace_back(V ? std::optional<std::string>(V) : std::nullopt);
      unsetenv(Name);
    }
    FakeIcv = 0;
    FakeDefaults.clear();
    SetCalls = 0;
  }
  void TearDown() override {
    for (size_t I = 0; I < std::size(kVars); ++I) {
      if (Saved[I])
        setenv(kVars[I], Saved[I]->c_str(), 1);
      else
        unsetenv(kVars[I]);
    }
  }
  static void set(const char *Name, const char *Value) { ASSERT_EQ(setenv(Name, Value, 1), 0); }
  void on() { set("OMPTARGET_LOCAL_RANK_DEVICE", "1"); }

  // One resolution, its stderr captured into Err.
  LocalRankResolution resolve(int32_t NumDevices, const DefaultDeviceIcv &Icv = kFakeIcv) {
    testing::internal::CaptureStderr();
    LocalRankResolution R = State.resolve(NumDevices, Icv);
    Err = testing::internal::GetCapturedStderr();
    return R;
  }
  void expectUntouched() {
    EXPECT_EQ(FakeIcv, 0);
    EXPECT_EQ(SetCalls, 0);
    EXPECT_TRUE(FakeDefaults.empty());
    EXPECT_EQ(State.applied(), -1);
  }

  LocalRankDevice State;
  std::string Err;
  std::vector<std::optional<std::string>> Saved;
};

TEST_F(LocalRankDeviceTest, OffByDefault) {
  set("OMPI_COMM_WORLD_LOCAL_RANK", "3");
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::Off);
  EXPECT_EQ(Err, "");
  expectUntouched();
}

TEST_F(LocalRankDeviceTest, ZeroIsOff) {
  set("OMPTARGET_LOCAL_RANK_DEVICE", "0");
  set("OMPI_COMM_WORLD_LOCAL_RANK", "3");
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::Off);
  expectUntouched();
}

TEST_F(LocalRankDeviceTest, MalformedSettingIsWarnedAndOff) {
  set("OMPTARGET_LOCAL_RANK_DEVICE", "yes");
  set("OMPI_COMM_WORLD_LOCAL_RANK", "3");
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::Off);
  EXPECT_NE(Err.find("ignoring OMPTARGET_LOCAL_RANK_DEVICE='yes'"), std::string::npos) << Err;
  expectUntouched();
}

struct LauncherCase {
  const char *Variable;
  const char *Rank;
  int32_t NumDevices;
  int64_t Device;
};

class LocalRankLauncherTest : public LocalRankDeviceTest,
                              public testing::WithParamInterface<LauncherCase> {};

TEST_P(LocalRankLauncherTest, EachLauncherVariableGivesRankModuloDevices) {
  const LauncherCase &C = GetParam();
  on();
  set(C.Variable, C.Rank);
  LocalRankResolution R = resolve(C.NumDevices);
  ASSERT_EQ(R.Outcome, LocalRankOutcome::Applied) << Err;
  EXPECT_EQ(R.Device, C.Device);
  EXPECT_EQ(R.Rank, std::stoll(C.Rank));
  EXPECT_EQ(R.Variable, C.Variable);
  EXPECT_EQ(FakeIcv, C.Device);
  EXPECT_EQ(SetCalls, 1);
  ASSERT_EQ(FakeDefaults.size(), 1u);
  EXPECT_EQ(FakeDefaults[0], "OMP_DEFAULT_DEVICE=" + std::to_string(C.Device));
  EXPECT_EQ(State.applied(), C.Device);
  EXPECT_EQ(Err, "") << "applying it is silent (LIBOMPTARGET_DEBUG traces it)";
}

INSTANTIATE_TEST_SUITE_P(Launchers, LocalRankLauncherTest,
                         testing::Values(LauncherCase{"OMPI_COMM_WORLD_LOCAL_RANK", "5", 4, 1},
                                         LauncherCase{"MPI_LOCALRANKID", "6", 4, 2},
                                         LauncherCase{"SLURM_LOCALID", "3", 4, 3},
                                         LauncherCase{"OMPI_COMM_WORLD_LOCAL_RANK", "0", 4, 0},
                                         LauncherCase{"OMPI_COMM_WORLD_LOCAL_RANK", "7", 3, 1},
                                         LauncherCase{"MPI_LOCALRANKID", "2", 8, 2},
                                         LauncherCase{"SLURM_LOCALID", "9", 1, 0},
                                         LauncherCase{"OMPI_COMM_WORLD_LOCAL_RANK", "17", 16, 1}));

TEST_F(LocalRankDeviceTest, MpiLauncherVariablesComeBeforeSlurms) {
  // mpirun inside a Slurm job step: the step's SLURM_LOCALID=0 is inherited.
  on();
  set("SLURM_LOCALID", "0");
  set("MPI_LOCALRANKID", "2");
  set("OMPI_COMM_WORLD_LOCAL_RANK", "3");
  EXPECT_EQ(resolve(4).Variable, "OMPI_COMM_WORLD_LOCAL_RANK");
  EXPECT_EQ(FakeIcv, 3);

  LocalRankDevice Other;  // another process, as it were: libomp's ICV at 0 again
  FakeIcv = 0;
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  EXPECT_EQ(Other.resolve(4, kFakeIcv).Variable, "MPI_LOCALRANKID");
  EXPECT_EQ(FakeIcv, 2);
}

TEST_F(LocalRankDeviceTest, EmptyLauncherVariableCountsAsAbsent) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "");
  set("SLURM_LOCALID", "1");
  LocalRankResolution R = resolve(4);
  EXPECT_EQ(R.Outcome, LocalRankOutcome::Applied);
  EXPECT_EQ(R.Variable, "SLURM_LOCALID");
  EXPECT_EQ(FakeIcv, 1);
}

TEST_F(LocalRankDeviceTest, OmpDefaultDeviceWins) {
  on();
  set("OMP_DEFAULT_DEVICE", "2");
  set("OMPI_COMM_WORLD_LOCAL_RANK", "1");
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::OmpDefaultSet);
  EXPECT_EQ(Err, "");
  expectUntouched();
  // Even OMP_DEFAULT_DEVICE=0: the user chose device 0.
  LocalRankDevice Other;
  set("OMP_DEFAULT_DEVICE", "0");
  EXPECT_EQ(Other.resolve(4, kFakeIcv).Outcome, LocalRankOutcome::OmpDefaultSet);
  expectUntouched();
}

TEST_F(LocalRankDeviceTest, EarlierSetDefaultDeviceCallWins) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "1");
  FakeIcv = 3;  // omp_set_default_device(3) ran before the resolution
  LocalRankResolution R = resolve(4);
  EXPECT_EQ(R.Outcome, LocalRankOutcome::CallWins);
  EXPECT_EQ(FakeIcv, 3);
  EXPECT_EQ(SetCalls, 0);
  EXPECT_TRUE(FakeDefaults.empty());
  EXPECT_EQ(State.applied(), -1);
}

TEST_F(LocalRankDeviceTest, LaterSetDefaultDeviceCallWins) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "1");
  ASSERT_EQ(resolve(4).Outcome, LocalRankOutcome::Applied);
  fakeSet(3);  // the program's omp_set_default_device(3) after the resolution
  // A later binary's registration changes nothing.
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::Resolved);
  EXPECT_EQ(FakeIcv, 3);
  EXPECT_EQ(FakeDefaults.size(), 1u);
}

TEST_F(LocalRankDeviceTest, NoLauncherVariableWarnsOnceNamingThem) {
  on();
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::NoLauncher);
  EXPECT_NE(Err.find("Libomptarget warning: OMPTARGET_LOCAL_RANK_DEVICE=1: no node-local rank "
                     "in the environment (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID or "
                     "SLURM_LOCALID is not set)"),
            std::string::npos)
      << Err;
  EXPECT_EQ(std::count(Err.begin(), Err.end(), '\n'), 1) << Err;
  expectUntouched();
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::Resolved);
  EXPECT_EQ(Err, "") << "warned once";
}

TEST_F(LocalRankDeviceTest, GlobalRankVariablesAreNotLocalRanks) {
  on();
  set("PMIX_RANK", "5");
  set("PMI_RANK", "5");
  set("SLURM_PROCID", "5");
  EXPECT_EQ(resolve(4).Outcome, LocalRankOutcome::NoLauncher);
  expectUntouched();
}

TEST_F(LocalRankDeviceTest, MalformedRankIsWarnedAndIgnored) {
  for (const char *Bad : {"abc", "-1", "1.5"}) {
    LocalRankDevice Fresh;
    on();
    set("MPI_LOCALRANKID", Bad);
    testing::internal::CaptureStderr();
    LocalRankResolution R = Fresh.resolve(4, kFakeIcv);
    Err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(R.Outcome, LocalRankOutcome::BadRank) << Bad;
    EXPECT_NE(Err.find(std::string("ignoring MPI_LOCALRANKID='") + Bad + "'"), std::string::npos)
        << Err;
    expectUntouched();
  }
}

TEST_F(LocalRankDeviceTest, NoDevicesLeavesItUnchangedUntilDevicesCome) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "5");
  EXPECT_EQ(resolve(0).Outcome, LocalRankOutcome::NoDevices);
  EXPECT_EQ(Err, "");
  expectUntouched();
  // A binary registered later brings 4 devices: resolved then.
  LocalRankResolution R = resolve(4);
  EXPECT_EQ(R.Outcome, LocalRankOutcome::Applied);
  EXPECT_EQ(R.Device, 1);
  EXPECT_EQ(FakeIcv, 1);
}

TEST_F(LocalRankDeviceTest, NoDevicesAndNoLauncherIsSilent) {
  on();
  EXPECT_EQ(resolve(0).Outcome, LocalRankOutcome::NoDevices);
  EXPECT_EQ(Err, "");
}

TEST_F(LocalRankDeviceTest, ResolvedOnceThenFixed) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "2");
  ASSERT_EQ(resolve(4).Outcome, LocalRankOutcome::Applied);
  // Neither a changed environment nor a larger device count is read again.
  set("OMPI_COMM_WORLD_LOCAL_RANK", "3");
  EXPECT_EQ(resolve(8).Outcome, LocalRankOutcome::Resolved);
  EXPECT_EQ(FakeIcv, 2);
  EXPECT_EQ(SetCalls, 1);
  EXPECT_EQ(State.applied(), 2);
}

TEST_F(LocalRankDeviceTest, WithoutLibompNothingIsSet) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "2");
  EXPECT_EQ(resolve(4, DefaultDeviceIcv{nullptr, nullptr, nullptr}).Outcome,
            LocalRankOutcome::NoLibomp);
  expectUntouched();
}

TEST_F(LocalRankDeviceTest, WithoutKmpSetDefaultsTheThreadsIcvIsStillSet) {
  on();
  set("OMPI_COMM_WORLD_LOCAL_RANK", "2");
  EXPECT_EQ(resolve(4, DefaultDeviceIcv{fakeGet, fakeSet, nullptr}).Outcome,
            LocalRankOutcome::Applied);
  EXPECT_EQ(FakeIcv, 2);
  EXPECT_TRUE(FakeDefaults.empty());
}

}  // namespace
