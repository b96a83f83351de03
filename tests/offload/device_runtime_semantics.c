// What a target region sees of the OpenMP device runtime: team and thread
// numbers, levels, num_threads, static worksharing schedules (int, unsigned
// and long loops; device_runtime_llvm14_gaps.c has the dynamic ones),
// reductions over many teams, nested regions and printf
// (device_runtime_llvm14_gaps.c has what LLVM 14's device runtime gets
// wrong or cannot build). On the GPU it runs with LLVM 14's device
// runtime and with ours (tests/gpu/run_gpu_tests.sh): the answers must not
// change.
// Built at -O0 (as every test), the kernels with nested regions and
// reductions outgrow CUDA's default 1 KiB GPU stack with either device
// runtime ("unspecified launch failure"): 4 KiB here.
// RUN: %clang-offload %s -o %t && env LIBOMPTARGET_STACK_SIZE=4096 %run %t 2>&1 | %fcheck
#include <omp.h>

#include "inputs/device_runtime_checks.h"

int main(void) {
  int fails = 0;

  // Reductions across more teams than clang's 1024 reduction records.
  long sum = 0;
  double dmax = -1.0;
  int imin = 1 << 30;
#pragma omp target teams distribute parallel for num_teams(3000) thread_limit(64) map(tofrom : sum, dmax, imin) \
    reduction(+ : sum) reduction(max : dmax) reduction(min : imin)
  for (long i = 0; i < 1000000; i++) {
    sum += i;
    if ((double)(i % 9973) > dmax) dmax = (double)(i % 9973);
    if ((int)(i % 7919) + 3 < imin) imin = (int)(i % 7919) + 3;
  }
  // CHECK: reduction: sum=499999500000 max=9972 min=3
  printf("reduction: sum=%ld max=%.0f min=%d\n", sum, dmax, imin);

  // A generic-mode team: a variable of the team shared with its parallel
  // region, a team size from num_threads, levels of a nested region.
  int teams_seen = 0, threads_total = 0, level_ok = 0, nested_ok = 0;
#pragma omp target teams num_teams(4) thread_limit(128) map(tofrom : teams_seen, threads_total, level_ok, nested_ok)
  {
    int team = omp_get_team_num();
    int in_team = 0;
    if (omp_get_level() == 0 && omp_get_num_threads() == 1 && omp_get_thread_num() == 0)
      team_add(&level_ok, 1);
#pragma omp parallel num_threads(64)
    {
      int outer_active = omp_get_num_threads() > 1;
#pragma omp atomic
      in_team++;
      if (omp_get_level() == 1 && omp_get_num_threads() <= 64 && omp_get_thread_num() < omp_get_num_threads())
#pragma omp atomic
        level_ok++;
#pragma omp parallel num_threads(8)
      {
        // One active level at most: inside an active region a nested one
        // has one thread; inside an inactive one it may have more.
        int nt = omp_get_num_threads(), active = outer_active || nt > 1;
        if (omp_get_level() == 2 && omp_get_thread_num() < nt && (!outer_active || nt == 1) &&
            omp_get_active_level() == active && !!omp_in_parallel() == active && omp_get_thread_num() == 0)
#pragma omp atomic
          nested_ok++;
      }
    }
    team_add(&threads_total, in_team);
    if (team < omp_get_num_teams())
      team_add(&teams_seen, 1);
  }
  // Each team's region had the same number of threads, at most 64.
  printf("generic: teams=%d per-team-threads-ok=%d levels-ok=%d nested-ok=%d\n", teams_seen,
         threads_total % teams_seen == 0 && threads_total / teams_seen <= 64,
         level_ok == teams_seen + threads_total, nested_ok == threads_total);
  // (nested_ok counts the nested regions' thread 0s: one per outer thread.)
  // CHECK: generic: teams={{[1-4]}} per-team-threads-ok=1 levels-ok=1 nested-ok=1

  // (A generic-mode team whose thread limit is not a multiple of the warp
  // size: device_runtime_generic_thread_limit.c.)

  // Worksharing schedules: every iteration exactly once.
#pragma omp target teams distribute parallel for map(tofrom : hits)
  for (int i = 0; i < N; i++) hits[i]++;
  fails += all_once("static int");
#pragma omp target teams distribute parallel for dist_schedule(static, 100) schedule(static, 5) map(tofrom : hits)
  for (unsigned long i = 0; i < N; i++) hits[i]++;
  fails += all_once("chunked unsigned long");
  // dist_schedule(static, C) deals chunks of C to the teams round-robin,
  // whatever the runtime does for a distribute loop without the clause (even
  // when C is the block size, which is what clang asks for then).
  int teams_used = 0;
#pragma omp target teams distribute parallel for dist_schedule(static, 128) num_teams(6) thread_limit(128) \
    map(tofrom : hits, teams_used)
  for (int i = 0; i < N; i++) {
    if (i == 0) teams_used = omp_get_num_teams();
    hits[i] = omp_get_team_num();
  }
  int robin_bad = 0;
  for (int i = 0; i < N; i++)
    if (hits[i] != (i / 128) % teams_used) robin_bad++;
  memset(hits, 0, sizeof(hits));
  printf("dist_schedule round-robin: %s\n", robin_bad ? "WRONG" : "ok");
  fails += robin_bad != 0;
#pragma omp target teams distribute map(tofrom : hits)
  for (int i = 0; i < N; i++) hits[i]++;
  fails += all_once("distribute");
  // CHECK: static int: each iteration once
  // CHECK: chunked unsigned long: each iteration once
  // CHECK: dist_schedule round-robin: ok
  // CHECK: distribute: each iteration once

  // printf from a target region.
#pragma omp target
  printf("device printf: %d %s\n", 42, "ok");
  // Not checked on a remote device (its server prints it, which mpirun
  // forwards out of order with the program's lines).
  // LOCAL: device printf: 42 ok
  // CHECK: failures: 0
  printf("failures: %d\n", fails);
  return fails != 0;
}
