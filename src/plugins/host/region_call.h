// How the synchronous host device calls an outlined target region: on the
// calling thread, except a teams region launched from inside a parallel
// region, which runs on a plain runner thread (runner_pool.h) while the
// caller waits.
//
// Why: libomp 14 forks a host teams region's league as a team nested in the
// caller's team. Only from a thread outside every parallel region (the
// initial thread, or any other root thread, at level 0) does it run the
// whole league. From a thread of an active parallel region, at the default
// limit of one active level, it serializes the league to its first team,
// which runs only that team's share of a `distribute` loop; libomp runs a
// `nowait` region as a task on a hidden helper thread, inside its helper
// team, with the same loss; from the threads of a parallel region of a
// non-initial root it aborts on an assertion of its own. A runner is a root
// thread outside every parallel region, so the league runs there as from an
// initial thread.
//
// The predicate is one call, omp_get_level() > 0: every one of those
// threads is inside a parallel region (hidden helpers run their tasks inside
// the helper team). It also sends teams regions entered from inactive
// parallel regions (one thread) to a runner, where libomp would have been
// right too; such launches only pay the hand-off. Regions without teams
// always run on the caller: their inner parallel regions serialize on a
// nested thread, which is correct. Without libomp in the process (unit
// tests) omp_get_level is null and everything runs on the caller.
#pragma once

#include <cstddef>
#include <cstdint>

#include "error.h"
#include "ffi_launch.h"
#include "runner_pool.h"

extern "C" int omp_get_level(void) __attribute__((weak));

namespace omptarget::host {

// True when the calling thread is inside a parallel region of libomp's
// (active or not, the hidden helper team included).
inline bool insideParallelRegion() { return omp_get_level && omp_get_level() > 0; }

// callWithPointerArgs on a runner of Runners, the caller waiting. Kept out
// of line (the build uses LTO): the launch path stays as short as a plain call.
[[gnu::noinline, gnu::cold]] Status callRegionOnRunner(RunnerPool &Runners, void *Entry,
                                                       void **Args, const ptrdiff_t *Offsets,
                                                       int32_t NumArgs, bool EnvironmentFirst);

// Calls the outlined region Entry (callWithPointerArgs' arguments); Teams:
// it is a teams region (run_target_team_region).
inline Status callRegion(RunnerPool &Runners, void *Entry, void **Args, const ptrdiff_t *Offsets,
                         int32_t NumArgs, bool Teams, bool EnvironmentFirst = false) {
  if (Teams && insideParallelRegion()) [[unlikely]]
    return callRegionOnRunner(Runners, Entry, Args, Offsets, NumArgs, EnvironmentFirst);
  return callWithPointerArgs(Entry, Args, Offsets, NumArgs, EnvironmentFirst);
}

}  // namespace omptarget::host
