// Launch: `target teams` regions entered from the threads of a host
// `parallel` region must run every iteration exactly once. libomp 14 forks a
// host league as a team nested in the caller's team; inside an active
// parallel region (at the default nesting limit of one active level) that
// league is serialized to its first team, which runs only its own share of a
// `distribute` loop: LLVM 14 sums 24576 instead of 98304 below. With
// `nowait` the region runs on a hidden helper thread instead, with the same
// loss (and our synchronous host device used to abort in libomp's tasking
// code with 4 threads). The host device must run the league as from an
// initial thread: our synchronous mode hands such a kernel to a plain runner
// thread of the plugin, the asynchronous mode runs it on its queue's worker.
//
// Each of 4 threads owns a slice and runs ITERS launches on it: synchronous
// `target teams distribute parallel for`, `target teams distribute` with
// num_teams(3), `nowait depend(inout:)` + taskwait, and `nowait` regions on
// two slices with a depend chain. Then two cases that were right before and
// must stay right: a `target parallel for` (no teams) from the nested
// threads (libomp serializes the inner parallel: still correct), and teams
// from an inactive parallel region (num_threads(1)). Also a nested parallel
// region inside each team, launched from the threads: every team's parallel
// must run in full.
//
// LLVM 14's host plugin (runtime=llvm, our-core-llvm-plugin) gets the sums
// wrong; every configuration with our host plugin must get them right.
// UNSUPPORTED: !omptarget-plugin
// RUN: %clang-offload %s -o %t && %run timeout 120 %t 2>&1 | %fcheck
// RUN: %run env OMP_NUM_THREADS=3 timeout 120 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

enum { N = 4096, T = 4, ITERS = 6 };

static int a[T][N];
static int c[T][2 * N];

static long sumAll(void) {
  long s = 0;
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) s += a[t][i];
  return s;
}

static void clearAll(void) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) a[t][i] = 0;
}

int main(void) {
  const long want = (long)T * N * ITERS;
  int threads = 0;

  clearAll();
#pragma omp parallel num_threads(T)
  {
#pragma omp single
    threads = omp_get_num_threads();
    int *p = a[omp_get_thread_num()];
    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:N])
      for (int i = 0; i < N; i++) p[i] += 1;
    }
  }
  // CHECK: threads=4
  printf("threads=%d\n", threads);
  // CHECK: tdpf from parallel ok=1
  printf("tdpf from parallel ok=%d (sum %ld, want %ld)\n", sumAll() == want, sumAll(), want);

  clearAll();
#pragma omp parallel num_threads(T)
  {
    int *p = a[omp_get_thread_num()];
    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute num_teams(3) map(tofrom : p[0:N])
      for (int i = 0; i < N; i++) p[i] += 1;
    }
  }
  // CHECK: teams distribute num_teams(3) from parallel ok=1
  printf("teams distribute num_teams(3) from parallel ok=%d (sum %ld)\n", sumAll() == want,
         sumAll());

  clearAll();
#pragma omp parallel num_threads(T)
  {
    int *p = a[omp_get_thread_num()];
    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:N]) nowait depend(inout : p[0])
      for (int i = 0; i < N; i++) p[i] += 1;
#pragma omp taskwait
    }
  }
  // CHECK: tdpf nowait depend from parallel ok=1
  printf("tdpf nowait depend from parallel ok=%d (sum %ld)\n", sumAll() == want, sumAll());

  // Two slices per thread, a chain on each, one taskwait per iteration.
  long chainBad = 0;
#pragma omp parallel num_threads(T) reduction(+ : chainBad)
  {
    int t = omp_get_thread_num();
    int *p = c[t], *q = c[t] + N;
    for (int i = 0; i < 2 * N; i++) p[i] = 0;
    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute map(tofrom : p[0:N]) nowait depend(inout : p[0])
      for (int i = 0; i < N; i++) p[i] = p[i] * 2 + 1;
#pragma omp target teams distribute parallel for map(tofrom : q[0:N]) nowait depend(inout : q[0])
      for (int i = 0; i < N; i++) q[i] = q[i] * 3 + 1;
#pragma omp target teams distribute parallel for map(tofrom : p[0:N]) nowait depend(inout : p[0])
      for (int i = 0; i < N; i++) p[i] += 1;
#pragma omp taskwait
    }
    // p: x -> 2x + 2 six times from 0: 2, 6, 14, 30, 62, 126. q: 3x + 1: 364.
    for (int i = 0; i < N; i++) chainBad += (p[i] != 126) + (q[i] != 364);
  }
  // CHECK: two chains per thread bad=0
  printf("two chains per thread bad=%ld\n", chainBad);

  // Not teams: the inner parallel region serializes on a nested thread, and
  // the result must stay right (this never went through a runner).
  clearAll();
#pragma omp parallel num_threads(T)
  {
    int *p = a[omp_get_thread_num()];
    for (int it = 0; it < ITERS; it++) {
      if (it % 2 == 0) {
#pragma omp target parallel for map(tofrom : p[0:N])
        for (int i = 0; i < N; i++) p[i] += 1;
      } else {
#pragma omp target parallel for map(tofrom : p[0:N]) nowait depend(inout : p[0])
        for (int i = 0; i < N; i++) p[i] += 1;
#pragma omp taskwait
      }
    }
  }
  // CHECK: target parallel for from parallel ok=1
  printf("target parallel for from parallel ok=%d (sum %ld)\n", sumAll() == want, sumAll());

  // An inactive parallel region (one thread): level 1, nothing nested is active.
  clearAll();
#pragma omp parallel num_threads(1)
  {
    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute map(tofrom : a[0][0:N])
      for (int i = 0; i < N; i++) a[0][i] += 1;
    }
  }
  // CHECK: teams from inactive parallel ok=1
  printf("teams from inactive parallel ok=%d (sum %ld)\n", sumAll() == (long)N * ITERS, sumAll());

  // A parallel region inside every team: all its threads' iterations run.
  // The thread limit is known at run time only: clang 19 turns a constant
  // one into the kernel's bound on its whole block, main thread's warp
  // included (device_runtime_generic_thread_limit.c).
  long teamsBad = 0;
#pragma omp parallel num_threads(T) reduction(+ : teamsBad)
  {
    int t = omp_get_thread_num(), teamThreads = 2;
    int ran[64] = {0}, nteams = 0;
    int *p = a[t];
    for (int i = 0; i < N; i++) p[i] = 0;
#pragma omp target teams num_teams(2) thread_limit(teamThreads) map(tofrom : p[0:N], ran, nteams)
    {
      int team = omp_get_team_num();
      if (team == 0) nteams = omp_get_num_teams();
      int step = omp_get_num_teams();
      if (team < 64) ran[team] += 1;
#pragma omp parallel for
      for (int i = team; i < N; i += step) p[i] += 1;
    }
    int total = 0;
    for (int k = 0; k < 64; k++) total += ran[k];
    long s = 0;
    for (int i = 0; i < N; i++) s += p[i];
    teamsBad += (total != nteams) + (nteams < 1) + (s != N);
  }
  // CHECK: teams with inner parallel from parallel bad=0
  printf("teams with inner parallel from parallel bad=%ld\n", teamsBad);
  return 0;
}
