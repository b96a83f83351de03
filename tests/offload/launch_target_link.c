// Launch: `declare target link` globals: the device accesses the host
// variable's mapped copy through the link reference; mapping it on a region or
// with enter data makes it usable, and results come back with the map.
// LLVM 14's host plugin crashes (SIGSEGV) in the first region that touches a
// link variable, so this pins the OpenMP semantics for our runtime.
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int lk[4] = {1, 2, 3, 4};
double lscale = 2.0;
#pragma omp declare target link(lk, lscale)

int main(void) {
#pragma omp target map(tofrom : lk) map(to : lscale)
  for (int i = 0; i < 4; i++) lk[i] = (int)(lk[i] * lscale) + 100;
  // CHECK: lk=102,104,106,108
  printf("lk=%d,%d,%d,%d\n", lk[0], lk[1], lk[2], lk[3]);
#pragma omp target enter data map(to : lk)
#pragma omp target map(tofrom : lk)
  lk[0] = -1;
  // CHECK: still mapped: host lk0=102
  printf("still mapped: host lk0=%d\n", lk[0]);
#pragma omp target exit data map(from : lk)
  // CHECK: after exit: lk0=-1
  printf("after exit: lk0=%d\n", lk[0]);
  return 0;
}
