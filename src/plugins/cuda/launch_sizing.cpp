#include "launch_sizing.h"

#include <algorithm>

#include "env.h"

namespace omptarget::cuda {

namespace {
// SPMD team regions: 128 threads and at most 64 blocks per SM (launch_sizing.h
// has the measurements).
constexpr int32_t kDefaultSPMDThreads = 128;
// A single-team region (`target parallel ...`, or num_teams(1)) gets LLVM
// 14's 128: see launch_sizing.h for why.
constexpr int32_t kDefaultSingleTeamThreads = 128;
constexpr int32_t kDefaultGenericWorkers = 128;
constexpr int64_t kTeamsPerSMWithoutTripCount = 4;
}  // namespace

const char *execModeName(ExecMode Mode) {
  switch (Mode) {
    case ExecMode::Plain: return "Plain";
    case ExecMode::Generic: return "Generic";
    case ExecMode::SPMD: return "SPMD";
    case ExecMode::GenericSPMD: return "Generic-SPMD";
  }
  return "unknown";
}

LaunchEnv LaunchEnv::fromEnvironment() {
  LaunchEnv E;
  E.NumTeams = env::getInt("OMP_NUM_TEAMS", 0, 0, INT32_MAX);
  E.TeamsThreadLimit = env::getInt("OMP_TEAMS_THREAD_LIMIT", 0, 0, INT32_MAX);
  E.TeamLimit = env::getInt("OMP_TEAM_LIMIT", 0, 0, INT32_MAX);
  E.BlocksPerSM = env::getInt("OMPTARGET_CUDA_BLOCKS_PER_SM", kDefaultBlocksPerSM, -1, 1 << 16);
  return E;
}

bool singleTeam(const LaunchRequest &R) { return !R.IsTeamRegion || R.NumTeams == 1; }

LaunchConfig computeLaunch(const LaunchRequest &R, const LaunchEnv &Env, const DeviceLimits &Dev,
                           const OccupancyFn &Occupancy) {
  const bool Generic = R.Mode == ExecMode::Generic;
  int64_t MaxThreads = std::max<int32_t>(Dev.MaxThreadsPerBlock, 1);
  const int64_t MaxBlocks = std::min<int64_t>(Dev.MaxGridX, UINT32_MAX);
  if (R.Mode == ExecMode::Plain) {
    LaunchConfig C{static_cast<uint32_t>(std::clamp<int64_t>(R.NumTeams, 1, MaxBlocks)),
                   static_cast<uint32_t>(std::clamp<int64_t>(R.ThreadLimit, 1, MaxThreads))};
    for (int I = 0; I < 2; ++I) {
      C.BlocksYZ[I] = std::max<uint32_t>(R.TeamsYZ[I], 1);
      C.ThreadsYZ[I] = std::max<uint32_t>(R.ThreadsYZ[I], 1);
    }
    return C;
  }
  if (R.KernelMaxThreads > 0) MaxThreads = std::min<int64_t>(MaxThreads, R.KernelMaxThreads);

  // Threads per block.
  int64_t Threads;
  int64_t Limit = R.ThreadLimit > 0 ? R.ThreadLimit : Env.TeamsThreadLimit;
  if (Limit > 0)
    Threads = Limit + (Generic ? Dev.WarpSize : 0);
  else if (Generic)
    Threads = kDefaultGenericWorkers + Dev.WarpSize;
  else
    Threads = singleTeam(R) ? kDefaultSingleTeamThreads : kDefaultSPMDThreads;
  if (Limit <= 0 && R.KernelMinThreads > 0)
    Threads = std::max<int64_t>(Threads, R.KernelMinThreads);
  Threads = std::clamp<int64_t>(Threads, 1, MaxThreads);

  // Blocks.
  int64_t Blocks;
  int64_t Teams = R.NumTeams > 0 ? R.NumTeams : Env.NumTeams;
  if (!R.IsTeamRegion) {
    Blocks = 1;
  } else if (Teams > 0) {
    Blocks = Teams;
  } else if (R.TripCount > 0) {
    auto Trip = static_cast<int64_t>(std::min<uint64_t>(R.TripCount, INT64_MAX / 2));
    if (R.Mode == ExecMode::SPMD) {
      Blocks = (Trip + Threads - 1) / Threads;
      int64_t PerSM = Env.BlocksPerSM;
      if (PerSM < 0) PerSM = Occupancy ? Occupancy(static_cast<int32_t>(Threads)) : 0;
      if (PerSM > 0) Blocks = std::min(Blocks, PerSM * std::max<int32_t>(Dev.NumSMs, 1));
    } else {
      Blocks = Trip;
    }
  } else {
    Blocks = kTeamsPerSMWithoutTripCount * std::max<int32_t>(Dev.NumSMs, 1);
  }
  if (Env.TeamLimit > 0) Blocks = std::min(Blocks, Env.TeamLimit);
  Blocks = std::clamp<int64_t>(Blocks, 1, MaxBlocks);
  return LaunchConfig{static_cast<uint32_t>(Blocks), static_cast<uint32_t>(Threads)};
}

}  // namespace omptarget::cuda
