// Launch: declare-target functions (incl. recursion, function calling a
// declare-target function and reading a declare-target global) called from
// target regions; a declare-target global updated on the device and read back
// with `target update from`.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#pragma omp declare target
int gcount = 0;
double gtable[3] = {1.5, 2.5, 3.5};
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
double lookup(int i) {
  gcount++;
  return gtable[i % 3];
}
#pragma omp end declare target

int main(void) {
  int f = 0;
  double d = 0;
#pragma omp target map(from : f, d)
  {
    f = fib(15);
    d = lookup(0) + lookup(1) + lookup(5);
    gtable[1] = 100.0;
  }
  // CHECK: fib=610 d=7.5
  printf("fib=%d d=%.1f\n", f, d);
  // CHECK: host before update: gcount=0 gtable[1]=2.5
  printf("host before update: gcount=%d gtable[1]=%.1f\n", gcount, gtable[1]);
#pragma omp target update from(gcount, gtable)
  // CHECK: host after update: gcount=3 gtable[1]=100.0
  printf("host after update: gcount=%d gtable[1]=%.1f\n", gcount, gtable[1]);
  gcount = 50;
#pragma omp target update to(gcount)
  int seen = 0;
#pragma omp target map(from : seen)
  seen = gcount;
  // CHECK: device sees gcount=50
  printf("device sees gcount=%d\n", seen);
  return 0;
}
