// Launch: `target teams ... nowait` regions must run every iteration exactly
// once. libomp 14 runs a `nowait` region as a task on its hidden helper
// threads, and a host `teams` region entered from such a thread (inside the
// helper team) runs only the share of the league's first team: with LLVM 14,
// 4 regions that each add 1 to 4096 elements sum to 2048, not 16384. The host
// device must run the league as from an initial thread (our synchronous mode
// hands the kernel to a plain runner thread of the plugin, the asynchronous
// mode to its queue's worker thread).
//
// Variants: independent regions on separate arrays (teams distribute, teams
// distribute parallel for, an explicit num_teams), a depend(inout) chain of
// regions on one array, and a chain whose regions alternate with host tasks.
// Several rounds, so a runner thread is reused.
//
// LLVM 14's host plugin (runtime=llvm, our-core-llvm-plugin) gets the sums
// wrong; every configuration with our host plugin must get them right.
// UNSUPPORTED: !omptarget-plugin
// RUN: %clang-offload %s -o %t && %run timeout 120 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

enum { N = 4096, R = 4, ROUNDS = 3 };

static int a[R][N];
static int b[N];

static long sumAll(void) {
  long s = 0;
  for (int r = 0; r < R; r++)
    for (int i = 0; i < N; i++) s += a[r][i];
  return s;
}

static void clearAll(void) {
  for (int r = 0; r < R; r++)
    for (int i = 0; i < N; i++) a[r][i] = 0;
}

int main(void) {
  long bad = 0;
  for (int round = 0; round < ROUNDS; round++) {
    clearAll();
    for (int r = 0; r < R; r++) {
      int *p = a[r];
#pragma omp target teams distribute map(tofrom : p[0:N]) nowait
      for (int i = 0; i < N; i++) p[i] += 1;
    }
#pragma omp taskwait
    long s1 = sumAll();

    clearAll();
    for (int r = 0; r < R; r++) {
      int *p = a[r];
#pragma omp target teams distribute parallel for map(tofrom : p[0:N]) nowait
      for (int i = 0; i < N; i++) p[i] += 1;
    }
#pragma omp taskwait
    long s2 = sumAll();

    clearAll();
    for (int r = 0; r < R; r++) {
      int *p = a[r];
#pragma omp target teams distribute parallel for num_teams(3) map(tofrom : p[0:N]) nowait
      for (int i = 0; i < N; i++) p[i] += 1;
    }
#pragma omp taskwait
    long s3 = sumAll();

    // One array, a dependence chain: each region sees the previous one's result.
    for (int i = 0; i < N; i++) b[i] = i;
    for (int r = 0; r < R; r++) {
      if (r % 2 == 0) {
#pragma omp target teams distribute map(tofrom : b) depend(inout : b) nowait
        for (int i = 0; i < N; i++) b[i] = b[i] * 2 + 1;
      } else {
#pragma omp target teams distribute parallel for map(tofrom : b) depend(inout : b) nowait
        for (int i = 0; i < N; i++) b[i] = b[i] * 2 + 1;
      }
    }
#pragma omp taskwait
    long s4 = 0;
    for (int i = 0; i < N; i++) s4 += b[i] == 16 * i + 15;

    // Host tasks in the chain: a region must not start before the task before it.
    for (int i = 0; i < N; i++) b[i] = 0;
    for (int r = 0; r < R; r++) {
#pragma omp task depend(inout : b)
      for (int i = 0; i < N; i++) b[i] += 10;
#pragma omp target teams distribute parallel for map(tofrom : b) depend(inout : b) nowait
      for (int i = 0; i < N; i++) b[i] = b[i] * 2;
    }
#pragma omp taskwait
    long s5 = 0;
    for (int i = 0; i < N; i++) s5 += b[i];

    if (round == 0) {
      // CHECK: teams distribute nowait sum=16384
      printf("teams distribute nowait sum=%ld\n", s1);
      // CHECK: tdpf nowait sum=16384
      printf("tdpf nowait sum=%ld\n", s2);
      // CHECK: tdpf num_teams(3) nowait sum=16384
      printf("tdpf num_teams(3) nowait sum=%ld\n", s3);
      // CHECK: depend chain exact=4096
      printf("depend chain exact=%ld\n", s4);
      // ((((10*2+10)*2+10)*2+10)*2 = 300 per element
      // CHECK: chain with host tasks sum=1228800
      printf("chain with host tasks sum=%ld\n", s5);
    }
    bad += s1 != R * N;
    bad += s2 != R * N;
    bad += s3 != R * N;
    bad += s4 != N;
    bad += s5 != 300L * N;
  }
  // CHECK: rounds=3 bad=0
  printf("rounds=%d bad=%ld\n", ROUNDS, bad);
  return bad != 0;
}
