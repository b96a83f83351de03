// Launch sizing: how many blocks and threads a kernel launch gets.
//
// Pure arithmetic on the kernel's execution mode, the construct's clauses,
// the environment, the pushed loop trip count and the device's limits; no
// driver calls (the occupancy query comes in as a callback), so it is unit
// testable and the rules live in one place.
//
// Threads per block:
//   thread_limit clause, else OMP_TEAMS_THREAD_LIMIT, else the mode's default
//   (256 for SPMD and Generic-SPMD kernels: full warps and 8 blocks of 256 fill
//   an SM's 2048 threads; 128 workers for Generic kernels, as in LLVM 14).
//   A single-team SPMD region (not a team region, or num_teams(1): clang 14
//   lowers `target parallel ...` as one team) gets 128, LLVM 14's default.
//   Measured on an H200: clang 14 compiles `target parallel loop` (with a
//   warning) as `target parallel` whose every thread runs the whole loop; at
//   128 threads (one warp per SM sub-partition, in lockstep) a 64-iteration
//   `a[i] += 1` comes out right every time, as on LLVM 14, while at 256 the
//   warps interleave and 8-28 of 64 elements came out wrong. The price is
//   paid only by one-block regions, which use one SM of 132: a single-team
//   `target parallel for` over 2^24 floats takes 63 ms at 128 threads (as on
//   LLVM 14) against 32 ms at 256; num_threads() still picks any size.
//   Generic kernels get one more warp for the team's main thread. Capped at
//   the kernel's (and device's) maximum threads per block.
// Blocks:
//   num_teams clause, else OMP_NUM_TEAMS, else from the trip count:
//     SPMD:    enough blocks for one iteration per thread, ceil(trip/threads),
//              capped at a grid that fills the device once (SMs x resident
//              blocks per SM from the occupancy calculator, or SMs x
//              OMPTARGET_CUDA_BLOCKS_PER_SM). Each thread then strides
//              through the loop (the device runtime's distribute schedule),
//              and no block pays the team start-up cost twice on one slot.
//     Generic, Generic-SPMD: one block per iteration of the distribute
//              loop (each team runs one iteration's inner parallel region),
//              as LLVM 14 does.
//   no trip count: SMs x 4 (a team region without a distribute loop).
//   A non-team region (`target` alone) always runs 1 block.
//   Capped at OMP_TEAM_LIMIT and the device's maximum grid size.
// Plain kernels: num_teams x thread_limit as given (1 where 0), no
// environment and no added warp; capped at the device's limits.
#pragma once

#include <cstdint>
#include <functional>

namespace omptarget::cuda {

// The values of the `<kernel>_exec_mode` global in LLVM 14's images, and
// Plain for a kernel without that global: not a target region but the
// constructor/destructor kernel of declare-target globals, which has no
// team main thread (no __kmpc_target_init) and must run on exactly the
// threads asked for (the core asks for one), or every thread would run the
// constructor. (LLVM 14 treats it as Generic and adds a warp.)
enum class ExecMode : uint8_t { Plain = 0, Generic = 1, SPMD = 2, GenericSPMD = 3 };
const char *execModeName(ExecMode Mode);  // "Generic", "SPMD", "Generic-SPMD"

// Environment settings that shape launches; read once per device.
struct LaunchEnv {
  int64_t NumTeams = 0;          // OMP_NUM_TEAMS (0: unset)
  int64_t TeamsThreadLimit = 0;  // OMP_TEAMS_THREAD_LIMIT (0: unset)
  int64_t TeamLimit = 0;         // OMP_TEAM_LIMIT: at most this many blocks (0: unset)
  int64_t BlocksPerSM = -1;      // OMPTARGET_CUDA_BLOCKS_PER_SM: SPMD grid cap per SM;
                                 // -1: from occupancy, 0: no cap (LLVM 14's rule)
  static LaunchEnv fromEnvironment();
};

struct DeviceLimits {
  int32_t MaxThreadsPerBlock = 1024;  // min(device, kernel)
  int32_t WarpSize = 32;
  int32_t NumSMs = 1;
  int64_t MaxGridX = INT32_MAX;
};

struct LaunchRequest {
  ExecMode Mode = ExecMode::Generic;
  int32_t NumTeams = 0;     // num_teams clause (0: none)
  int32_t ThreadLimit = 0;  // thread_limit clause (0: none)
  uint64_t TripCount = 0;   // pushed loop trip count (0: none)
  bool IsTeamRegion = true;
};

struct LaunchConfig {
  uint32_t Blocks = 1;
  uint32_t Threads = 1;
};

// Resident blocks per SM for a block size (the occupancy calculator); <= 0
// when unknown.
using OccupancyFn = std::function<int32_t(int32_t Threads)>;

// The request runs as one team: no team region, or num_teams(1).
bool singleTeam(const LaunchRequest &R);

LaunchConfig computeLaunch(const LaunchRequest &R, const LaunchEnv &Env, const DeviceLimits &Dev,
                           const OccupancyFn &Occupancy);

}  // namespace omptarget::cuda
