// Launch sizing: how many blocks and threads a kernel launch gets.
//
// Pure arithmetic on the kernel's execution mode, the construct's clauses,
// the environment, the pushed loop trip count and the device's limits; no
// driver calls (the occupancy query comes in as a callback), so it is unit
// testable and the rules live in one place.
//
// The kernel environment's bounds first (clang 15 and later): MaxThreads > 0
// caps the threads per block (added warp included), MinThreads > 0 raises the
// default below (not a clause's value); then the measured rules below, the
// same as for clang 14's kernels.
// Threads per block:
//   thread_limit clause, else OMP_TEAMS_THREAD_LIMIT, else the mode's default
//   (128 for SPMD and Generic-SPMD kernels, as in LLVM 14; 128 workers for
//   Generic kernels, as in LLVM 14). We had 256 with an occupancy cap; on an
//   H200 (2026-12-02, clang 14 builds with LLVM 14's device runtime) 128 is
//   faster on every application kernel measured: BabelStream copy / triad /
//   dot 3141 / 3888 / 1478 GB/s at 256 x 1056 blocks against 3372 / 4086 /
//   1642 at 128 x 8448 (LLVM 14, 128 x 65536: 3273 / 3949 / 1620), XSBench
//   hash 27.2M lookups/s at 256 x 132 against 35.1M (LLVM 14 33.1M),
//   unionized 30.4M against 33.7M, CloverLeaf 1.50 against 1.35 s; with our
//   device runtime CloverLeaf 0.98 -> 0.89 s, unionized 32.4M -> 37.3M and
//   miniBUDE 6.21 -> 5.86 ms per iteration. One case lost: miniBUDE with
//   LLVM 14's device runtime, 8.70 -> 9.27 ms (it sets num_teams; LLVM 14
//   itself runs it at 128 threads and was slower than ours at 256 by 10%).
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
//              capped at SMs x OMPTARGET_CUDA_BLOCKS_PER_SM (default 64; -1:
//              SMs x resident blocks per SM from the occupancy calculator, a
//              grid that fills the device once; 0: no cap, LLVM 14's rule up
//              to its 65536 blocks). Each thread then strides through the
//              loop (the device runtime's distribute schedule). Measured on
//              an H200 at 128 threads: BabelStream's five kernels are 1-10%
//              faster at 64 per SM than at the occupancy cap (16 per SM: dot
//              1488 against 1642 GB/s), and faster than LLVM 14's uncapped
//              grid; XSBench hash is faster at its occupancy cap (3 per SM,
//              38.0M lookups/s) than at 64 (35.1M), both above LLVM 14's
//              33.1M: one rule, no per-kernel tuning.
//     Generic, Generic-SPMD: one block per iteration of the distribute
//              loop (each team runs one iteration's inner parallel region),
//              as LLVM 14 does.
//   no trip count: SMs x 4 (a team region without a distribute loop).
//   A non-team region (`target` alone) always runs 1 block.
//   Capped at OMP_TEAM_LIMIT and the device's maximum grid size.
// Plain kernels: num_teams x thread_limit as given (1 where 0), no
// environment and no added warp; capped at the device's limits. The y and z
// dimensions (ompx_bare kernels' grids) likewise, 1 where 0.
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

// The SPMD grid's default cap: this many blocks per SM.
constexpr int64_t kDefaultBlocksPerSM = 64;

// Environment settings that shape launches; read once per device.
struct LaunchEnv {
  int64_t NumTeams = 0;                       // OMP_NUM_TEAMS (0: unset)
  int64_t TeamsThreadLimit = 0;               // OMP_TEAMS_THREAD_LIMIT (0: unset)
  int64_t TeamLimit = 0;                      // OMP_TEAM_LIMIT: at most this many blocks (0: unset)
  int64_t BlocksPerSM = kDefaultBlocksPerSM;  // OMPTARGET_CUDA_BLOCKS_PER_SM: SPMD grid cap
                                              // per SM; -1: from occupancy, 0: no cap
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
  int32_t KernelMinThreads = 0;  // the kernel environment's bounds (0: none)
  int32_t KernelMaxThreads = 0;
  uint32_t TeamsYZ[2] = {0, 0};  // Plain kernels' y and z dimensions (0: 1)
  uint32_t ThreadsYZ[2] = {0, 0};
};

struct LaunchConfig {
  uint32_t Blocks = 1;
  uint32_t Threads = 1;
  uint32_t BlocksYZ[2] = {1, 1};  // only Plain kernels have more than 1
  uint32_t ThreadsYZ[2] = {1, 1};
};

// Resident blocks per SM for a block size (the occupancy calculator); <= 0
// when unknown.
using OccupancyFn = std::function<int32_t(int32_t Threads)>;

// The request runs as one team: no team region, or num_teams(1).
bool singleTeam(const LaunchRequest &R);

LaunchConfig computeLaunch(const LaunchRequest &R, const LaunchEnv &Env, const DeviceLimits &Dev,
                           const OccupancyFn &Occupancy);

}  // namespace omptarget::cuda
