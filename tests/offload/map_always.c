// Mapping: the `always` modifier forces the copy even when the data is already
// present (to at entry, from at exit), while a plain map does not copy.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1, seen = 0;
#pragma omp target data map(to : x)
  {
    x = 2; // host change after the mapping
#pragma omp target map(to : x) map(from : seen)
    seen = x;
    // CHECK: plain to: seen=1
    printf("plain to: seen=%d\n", seen);
#pragma omp target map(always, to : x) map(from : seen)
    seen = x;
    // CHECK: always to: seen=2
    printf("always to: seen=%d\n", seen);
#pragma omp target map(tofrom : x)
    x = 77;
    // CHECK: plain tofrom: x=2
    printf("plain tofrom: x=%d\n", x);
#pragma omp target map(always, from : x)
    x = 88;
    // CHECK: always from: x=88
    printf("always from: x=%d\n", x);
  }
  // The outer `to` does not copy back.
  // CHECK: after data: x=88
  printf("after data: x=%d\n", x);

  // always on enter/exit data
  int y[2] = {1, 2};
#pragma omp target enter data map(to : y)
#pragma omp target enter data map(to : y)
  y[0] = 10;
#pragma omp target enter data map(always, to : y)
#pragma omp target map(from : seen)
  seen = y[0];
  // CHECK: always enter: seen=10
  printf("always enter: seen=%d\n", seen);
#pragma omp target
  y[1] = 20;
#pragma omp target exit data map(always, from : y)
  // CHECK: always exit: y=10,20 present=1
  printf("always exit: y=%d,%d present=%d\n", y[0], y[1],
         omp_target_is_present(y, 0));
#pragma omp target exit data map(delete : y)
  return 0;
}
