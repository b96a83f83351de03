// The CUDA plugin's launch-sizing rules (src/plugins/cuda/launch_sizing.h):
// pure arithmetic, checked here without a GPU.
#include "launch_sizing.h"

#include <gtest/gtest.h>

using namespace omptarget::cuda;

namespace {

DeviceLimits h200() {
  DeviceLimits D;
  D.MaxThreadsPerBlock = 1024;
  D.WarpSize = 32;
  D.NumSMs = 132;
  return D;
}

LaunchConfig launch(LaunchRequest R, LaunchEnv Env = {}, int32_t BlocksPerSM = 8) {
  return computeLaunch(R, Env, h200(), [=](int32_t) { return BlocksPerSM; });
}

}  // namespace

TEST(CudaLaunchSizing, SingleTeamSPMDRegionGetsLLVM14Default) {
  // `target parallel for` as clang 14 emits it: a team region of one team.
  LaunchConfig C = launch({ExecMode::SPMD, /*NumTeams=*/1, /*ThreadLimit=*/0, /*Trip=*/64, true});
  EXPECT_EQ(C.Blocks, 1u);
  EXPECT_EQ(C.Threads, 128u);
  // Not a team region at all.
  C = launch({ExecMode::SPMD, 0, 0, 0, false});
  EXPECT_EQ(C.Blocks, 1u);
  EXPECT_EQ(C.Threads, 128u);
}

TEST(CudaLaunchSizing, NumThreadsStillPicksSingleTeamSize) {
  LaunchConfig C = launch({ExecMode::SPMD, 1, /*ThreadLimit=*/512, 1 << 20, true});
  EXPECT_EQ(C.Blocks, 1u);
  EXPECT_EQ(C.Threads, 512u);
  LaunchEnv Env;
  Env.TeamsThreadLimit = 64;
  C = launch({ExecMode::SPMD, 1, 0, 1 << 20, true}, Env);
  EXPECT_EQ(C.Threads, 64u);
}

TEST(CudaLaunchSizing, TeamsSPMDRegionGets128AndCapsAt64BlocksPerSM) {
  // The occupancy calculator is not asked unless OMPTARGET_CUDA_BLOCKS_PER_SM=-1.
  bool Asked = false;
  auto Occupancy = [&](int32_t) {
    Asked = true;
    return 16;
  };
  LaunchConfig C =
      computeLaunch({ExecMode::SPMD, 0, 0, uint64_t{1} << 28, true}, {}, h200(), Occupancy);
  EXPECT_EQ(C.Threads, 128u);
  EXPECT_EQ(C.Blocks, 64u * 132u);  // the default cap, not 2^28 / 128
  EXPECT_FALSE(Asked);
  C = launch({ExecMode::SPMD, 0, 0, 1000, true});
  EXPECT_EQ(C.Blocks, 8u);  // ceil(1000 / 128): below the cap
  C = launch({ExecMode::SPMD, /*NumTeams=*/2, 0, 1000, true});
  EXPECT_EQ(C.Threads, 128u);
  EXPECT_EQ(C.Blocks, 2u);
  C = launch({ExecMode::SPMD, 0, /*ThreadLimit=*/256, uint64_t{1} << 28, true});
  EXPECT_EQ(C.Threads, 256u);
  EXPECT_EQ(C.Blocks, 64u * 132u);
}

TEST(CudaLaunchSizing, BlocksPerSMChoosesTheCap) {
  LaunchEnv Env;
  Env.BlocksPerSM = -1;  // the occupancy calculator's full grid
  LaunchConfig C = launch({ExecMode::SPMD, 0, 0, uint64_t{1} << 28, true}, Env, 16);
  EXPECT_EQ(C.Blocks, 16u * 132u);
  Env.BlocksPerSM = 0;  // no cap
  C = launch({ExecMode::SPMD, 0, 0, uint64_t{1} << 24, true}, Env);
  EXPECT_EQ(C.Blocks, (1u << 24) / 128u);
  Env.BlocksPerSM = 2;
  C = launch({ExecMode::SPMD, 0, 0, uint64_t{1} << 24, true}, Env);
  EXPECT_EQ(C.Blocks, 2u * 132u);
  EXPECT_EQ(LaunchEnv{}.BlocksPerSM, 64);
}

TEST(CudaLaunchSizing, GenericAddsMainThreadWarp) {
  LaunchConfig C = launch({ExecMode::Generic, 1, 0, 0, true});
  EXPECT_EQ(C.Threads, 128u + 32u);
  C = launch({ExecMode::Generic, 0, /*ThreadLimit=*/64, 10, true});
  EXPECT_EQ(C.Threads, 96u);
  EXPECT_EQ(C.Blocks, 10u);  // one block per distribute iteration
}

TEST(CudaLaunchSizing, PlainKernelRunsExactlyWhatIsAsked) {
  LaunchConfig C = launch({ExecMode::Plain, 1, 1, 0, true});
  EXPECT_EQ(C.Blocks, 1u);
  EXPECT_EQ(C.Threads, 1u);
}

TEST(CudaLaunchSizing, LimitsCapShape) {
  LaunchEnv Env;
  Env.TeamLimit = 3;
  LaunchConfig C = launch({ExecMode::SPMD, 100, /*ThreadLimit=*/4096, 0, true}, Env);
  EXPECT_EQ(C.Blocks, 3u);
  EXPECT_EQ(C.Threads, 1024u);
}

TEST(CudaLaunchSizing, KernelEnvironmentBoundsComeFirst) {
  // MaxThreads caps a clause, the default and the generic warp alike.
  LaunchRequest R{ExecMode::SPMD, 0, /*ThreadLimit=*/512, 1 << 20, true};
  R.KernelMaxThreads = 256;
  EXPECT_EQ(launch(R).Threads, 256u);
  R = {ExecMode::Generic, 0, 0, 10, true};
  R.KernelMaxThreads = 64;
  EXPECT_EQ(launch(R).Threads, 64u);
  // MinThreads raises the default, not a clause.
  R = {ExecMode::SPMD, 0, 0, 1 << 20, true};
  R.KernelMinThreads = 512;
  EXPECT_EQ(launch(R).Threads, 512u);
  R.ThreadLimit = 64;
  EXPECT_EQ(launch(R).Threads, 64u);
  // Neither: the clang 14 rules.
  R = {ExecMode::SPMD, 0, 0, 1 << 20, true};
  EXPECT_EQ(launch(R).Threads, 128u);
}

TEST(CudaLaunchSizing, PlainKernelKeepsItsGridDimensions) {
  LaunchRequest R{ExecMode::Plain, 2, 8, 0, true};
  R.TeamsYZ[0] = 3;
  R.TeamsYZ[1] = 4;
  R.ThreadsYZ[0] = 4;
  LaunchConfig C = launch(R);
  EXPECT_EQ(C.Blocks, 2u);
  EXPECT_EQ(C.BlocksYZ[0], 3u);
  EXPECT_EQ(C.BlocksYZ[1], 4u);
  EXPECT_EQ(C.Threads, 8u);
  EXPECT_EQ(C.ThreadsYZ[0], 4u);
  EXPECT_EQ(C.ThreadsYZ[1], 1u);  // 0: 1
  // Other modes never get more than one dimension.
  R.Mode = ExecMode::SPMD;
  C = launch(R);
  EXPECT_EQ(C.BlocksYZ[0] * C.BlocksYZ[1] * C.ThreadsYZ[0] * C.ThreadsYZ[1], 1u);
}
