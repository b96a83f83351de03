// Mapping: the `close` modifier without unified shared memory behaves like a
// plain map (allocate, copy, copy back); it composes with always.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[3] = {1, 2, 3};
#pragma omp target map(close, tofrom : a)
  for (int i = 0; i < 3; i++) a[i] *= 5;
  // CHECK: close tofrom: 5,10,15
  printf("close tofrom: %d,%d,%d\n", a[0], a[1], a[2]);
#pragma omp target enter data map(close, to : a)
  // CHECK: close enter present=1
  printf("close enter present=%d\n", omp_target_is_present(a, 0));
  a[0] = 0;
#pragma omp target map(always, close, tofrom : a)
  a[0] += 1;
  // CHECK: always close a0=1
  printf("always close a0=%d\n", a[0]);
#pragma omp target exit data map(close, delete : a)
  // CHECK: close delete present=0
  printf("close delete present=%d\n", omp_target_is_present(a, 0));
  return 0;
}
