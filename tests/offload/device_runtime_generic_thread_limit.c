// A generic-mode team (a `target teams` region whose code runs on one
// thread and forks `parallel` regions) with a constant thread_limit that is
// not a multiple of the warp size, or below it: its regions get at most that
// many threads, and a worksharing loop in them runs every iteration once.
//
// On an NVIDIA GPU, clang 19.1 builds such a kernel for at most
// thread_limit threads in all (its kernel environment's MaxThreads and the
// PTX .maxntid are the clause's value), and LLVM 19's device runtime keeps
// the last warp's first thread for the team's main thread. With 50, the
// team's regions are left 18 threads, fewer than a warp: the region is
// serialized, and the loop's barrier in it traps (bar.sync with a count of
// 1, CUDA_ERROR_ILLEGAL_INSTRUCTION, measured on an H100 with
// compute-sanitizer: __kmpc_barrier on thread 32). With 2, the block has no
// worker warp at all and each team runs one iteration. No runtime can
// launch more threads than .maxntid, so LLVM 19's runtime fails the same
// way; clang 14's kernels carry no such bound (the runtime launches the
// limit plus a warp), and a thread limit known only at run time does not
// set one (launch_teams_from_parallel.c).
// GPU: xfail clang-19 (clang 19.1 with LLVM 19's device runtime, above)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>

#include "inputs/device_runtime_checks.h"

int main(void) {
  int fails = 0;
  int over_limit = 0;
#pragma omp target teams num_teams(2) thread_limit(50) map(tofrom : hits, over_limit)
  {
    int team = omp_get_team_num();
#pragma omp parallel
    {
      if (omp_get_num_threads() > 50)
#pragma omp atomic
        over_limit++;
#pragma omp for
      for (int i = team; i < N; i += omp_get_num_teams()) hits[i]++;
    }
  }
  fails += all_once("generic thread_limit(50)");
  // CHECK: generic thread_limit(50): each iteration once
  // CHECK: over the thread limit 50: 0
  printf("over the thread limit 50: %d\n", over_limit);

  over_limit = 0;
#pragma omp target teams num_teams(2) thread_limit(2) map(tofrom : hits, over_limit)
  {
    int team = omp_get_team_num();
#pragma omp parallel for
    for (int i = team; i < N; i += omp_get_num_teams()) {
      if (omp_get_num_threads() > 2)
#pragma omp atomic
        over_limit++;
      hits[i]++;
    }
  }
  fails += all_once("generic thread_limit(2)");
  // CHECK: generic thread_limit(2): each iteration once
  // CHECK: over the thread limit 2: 0
  printf("over the thread limit 2: %d\n", over_limit);
  // CHECK: failures: 0
  printf("failures: %d\n", fails);
  return fails != 0;
}
