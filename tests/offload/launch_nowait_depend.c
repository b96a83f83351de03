// Launch: `target nowait` with depend clauses (__tgt_target_nowait_mapper &
// friends): a chain of dependent regions must run in order; independent
// regions complete by taskwait. (`target teams ... nowait` is covered by
// launch_teams_nowait.c: LLVM 14's host plugin loses iterations there.)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1, y = 0, z = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target map(tofrom : x) depend(out : x) nowait
    x = x * 10;
#pragma omp target map(tofrom : x) depend(inout : x) nowait
    x = x + 5;
#pragma omp target map(to : x) map(from : y) depend(in : x) depend(out : y) nowait
    y = x * 2;
#pragma omp target parallel for map(tofrom : z) reduction(+ : z) nowait
    for (int i = 0; i < 42; i++) z += 1;
#pragma omp taskwait
  }
  // CHECK: x=15 y=30 z=42
  printf("x=%d y=%d z=%d\n", x, y, z);

  int a[100];
  for (int i = 0; i < 100; i++) a[i] = i;
#pragma omp target map(tofrom : a) depend(inout : a) nowait
  for (int i = 0; i < 100; i++) a[i] += 1;
#pragma omp target parallel for map(tofrom : a) depend(inout : a) nowait
  for (int i = 0; i < 100; i++) a[i] *= 2;
#pragma omp taskwait
  // CHECK: a[0]=2 a[99]=200
  printf("a[0]=%d a[99]=%d\n", a[0], a[99]);
  return 0;
}
