// Mapping: the `present` map-type modifier (OpenMP 5.1) succeeds when the
// data is already mapped: no allocation, no copy (tofrom of an already
// present object does not copy back while the enter-data reference remains).
// RUN: %clang-offload -fopenmp-version=51 %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x[4] = {1, 2, 3, 4};
#pragma omp target enter data map(to : x)
#pragma omp target map(present, tofrom : x)
  x[0] += 10;
  // Still mapped by enter data: nothing copied back yet.
  // CHECK: after region x0=1
  printf("after region x0=%d\n", x[0]);
#pragma omp target data map(present, alloc : x[1:2])
  {
#pragma omp target map(present, tofrom : x[2:1])
    x[2] = 33;
  }
#pragma omp target update from(present : x)
  // CHECK: after update x=11,2,33,4
  printf("after update x=%d,%d,%d,%d\n", x[0], x[1], x[2], x[3]);
#pragma omp target exit data map(present, delete : x)
  // CHECK: present after delete=0
  printf("present after delete=%d\n", omp_target_is_present(x, 0));
  return 0;
}
