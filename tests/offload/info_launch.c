// Diagnostics: the plugin's launch line (LIBOMPTARGET_INFO=0x10) gives the
// num_teams and thread_limit the construct asked for, and says "default"
// where it asked for none (the runtime gets 0 then, and the device picks:
// on the host device, libomp; a CUDA device prints its own line with the
// blocks and threads it chose). A `target` without `teams` is one team.
// The trip count is the loop's (0 without one).
// REQUIRES: omptarget-plugin
// RUN: %clang-offload %s -o %t
// RUN: %run env LIBOMPTARGET_INFO=0x10 %t 2>&1 | %fcheck --implicit-check-not=" 0 teams" --implicit-check-not=" 0 threads"
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int a[100] = {0};
  // CHECK: Libomptarget device 0 info: Launching kernel __omp_offloading_{{.*}}main_l[[@LINE+1]] with 1 teams and default threads (1 argument(s), trip count 0){{$}}
#pragma omp target map(tofrom : a)
  a[0] = 1;
  // CHECK: Libomptarget device 0 info: Launching kernel __omp_offloading_{{.*}}main_l[[@LINE+1]] with 3 teams and 8 threads (1 argument(s), trip count 100){{$}}
#pragma omp target teams distribute parallel for num_teams(3) thread_limit(8) map(tofrom : a)
  for (int i = 0; i < 100; i++) a[i] += i;
  // CHECK: Libomptarget device 0 info: Launching kernel __omp_offloading_{{.*}}main_l[[@LINE+1]] with default teams and 4 threads (1 argument(s), trip count 100){{$}}
#pragma omp target teams distribute parallel for thread_limit(4) map(tofrom : a)
  for (int i = 0; i < 100; i++) a[i] += 1;
  // CHECK: a0=2 a99=100
  printf("a0=%d a99=%d\n", a[0], a[99]);
  return 0;
}
