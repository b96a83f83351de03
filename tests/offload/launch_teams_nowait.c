// Launch: `target teams distribute parallel for nowait` must execute every
// iteration exactly once. LLVM 14's host plugin runs only a fraction of the
// iterations (e.g. 12 or 13 of 100, nondeterministically) when a teams region
// is deferred with nowait, so this pins the behaviour a correct runtime has.
// The kernel is launched by the hidden helper thread executing the nowait
// task; a league forked there (inside the helper team) runs only one team's
// share. Our host device runs the kernel on a root thread of its own (a
// runner in synchronous mode, the queue's worker in asynchronous mode) and
// gets it right under either core (launch_teams_nowait_sum.c checks more).
// UNSUPPORTED: !omptarget-plugin
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
