// Launch: `target teams` regions entered from plain POSIX threads (each a new
// libomp root, not a thread of the program's OpenMP teams). A region launched
// by such a thread itself runs at nesting level 0, where libomp forks a full
// league (right with LLVM 14 too; the host device must keep it right on its
// direct path). When the thread opens a `parallel` region and its threads
// launch, the league is nested in that parallel region: from the initial
// thread libomp 14 then runs only the first team's share (see
// launch_teams_from_parallel.c); from these roots it aborts (`Assertion
// failure at kmp_csupport.cpp(427)`, LLVM 14 and our synchronous host device
// before it handed such kernels to a plain runner thread of its own).
// Both kinds run from several roots at once, so runners serve callers of
// different roots concurrently.
//
// Not covered: `nowait` regions from several roots. libomp 14 runs them on
// its hidden helper threads and then crashes, hangs or asserts in its tasking
// code (kmp_tasking.cpp) even for plain `target nowait` regions, whichever
// plugin and host mode run the kernels.
//
// LLVM 14's host plugin (runtime=llvm, our-core-llvm-plugin) aborts in the
// nested case; every configuration with our host plugin must get it right.
// UNSUPPORTED: !omptarget-plugin
// RUN: %clang-offload -pthread %s -o %t && %run timeout 120 %t 2>&1 | %fcheck
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

enum { N = 4096, T = 3, INNER = 2, ITERS = 5 };

static int a[T][INNER][N];

static void *rootLaunches(void *arg) {
  int *p = arg;
  for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:N])
    for (int i = 0; i < N; i++) p[i] += 1;
  }
  return NULL;
}

static void *nestedLaunches(void *arg) {
  int(*slices)[N] = arg;
#pragma omp parallel num_threads(INNER)
  {
    int *p = slices[omp_get_thread_num()];
    for (int it = 0; it < ITERS; it++) {
      if (it % 2 == 0) {
#pragma omp target teams distribute map(tofrom : p[0:N])
        for (int i = 0; i < N; i++) p[i] += 1;
      } else {
#pragma omp target teams distribute parallel for map(tofrom : p[0:N])
        for (int i = 0; i < N; i++) p[i] += 1;
      }
    }
  }
  return NULL;
}

// Runs fn on T threads, the thread t getting a[t][0] (fn sees a[t] as its slices).
static long runThreads(void *(*fn)(void *)) {
  pthread_t th[T];
  for (int t = 0; t < T; t++)
    for (int k = 0; k < INNER; k++)
      for (int i = 0; i < N; i++) a[t][k][i] = 0;
  for (int t = 0; t < T; t++) pthread_create(&th[t], NULL, fn, a[t]);
  for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
  long s = 0;
  for (int t = 0; t < T; t++)
    for (int k = 0; k < INNER; k++)
      for (int i = 0; i < N; i++) s += a[t][k][i];
  return s;
}

int main(void) {
  long s1 = runThreads(rootLaunches);
  // CHECK: pthreads synchronous ok=1
  printf("pthreads synchronous ok=%d (sum %ld)\n", s1 == (long)T * N * ITERS, s1);
  long s2 = runThreads(nestedLaunches);
  // CHECK: pthreads with parallel inside ok=1
  printf("pthreads with parallel inside ok=%d (sum %ld)\n", s2 == (long)T * INNER * N * ITERS, s2);
  return 0;
}
