// Smoke test: one target region, a declare-target global and an update.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int g = 5;
#pragma omp declare target(g)

int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  {
    x += 41 + g;
    g = 7;
  }
#pragma omp target update from(g)
  // CHECK: x=47 g=7
  printf("x=%d g=%d\n", x, g);
  // CHECK: devices=4
  printf("devices=%d\n", omp_get_num_devices());
  return 0;
}
