// Launch: `target teams distribute parallel for nowait` must execute every
// iteration exactly once. LLVM 14's host plugin runs only a fraction of the
// iterations (e.g. 12 or 13 of 100, nondeterministically) when a teams region
// is deferred with nowait, so this pins the behaviour a correct runtime has.
// REQUIRES: omptarget-core
// Known limitation of the synchronous host device (and of LLVM 14): the
// kernel runs on the hidden helper thread executing the nowait task, and
// libomp then forks the league inside the helper team, so only one team's
// share runs. The asynchronous host device runs kernels on its queue's worker
// thread, a root thread of its own, and gets it right.
// XFAIL: !host-async
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[1000];
  for (int i = 0; i < 1000; i++) a[i] = 0;
#pragma omp target teams distribute parallel for map(tofrom : a) nowait
  for (int i = 0; i < 1000; i++) a[i] += 1;
#pragma omp taskwait
  int c = 0, bad = 0;
  for (int i = 0; i < 1000; i++) {
    c += a[i];
    bad += a[i] != 1;
  }
  // CHECK: tdpf nowait count=1000 bad=0
  printf("tdpf nowait count=%d bad=%d\n", c, bad);

  for (int i = 0; i < 1000; i++) a[i] = 0;
#pragma omp target teams distribute map(tofrom : a) num_teams(4) depend(out : a) nowait
  for (int i = 0; i < 1000; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : a) depend(inout : a) nowait
  for (int i = 0; i < 1000; i++) a[i] *= 2;
#pragma omp taskwait
  long s = 0;
  for (int i = 0; i < 1000; i++) s += a[i];
  // CHECK: chained sum=999000
  printf("chained sum=%ld\n", s);
  return 0;
}
