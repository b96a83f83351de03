// Registration: two translation units, each with target regions and
// declare-target globals, linked into one program. Both TUs' entries must be
// found; each TU's globals are distinct device objects; a declare-target
// function defined in one TU runs inside a region of the same TU.
// RUN: %clang-offload %s %S/inputs/reg_multi_tu_b.c -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int tu_b_run(int v);
int tu_b_read_counter(void);

int tu_a_counter = 1;
#pragma omp declare target(tu_a_counter)

int main(void) {
  int r = 0;
#pragma omp target map(from : r)
  {
    tu_a_counter += 10;
    r = tu_a_counter;
  }
  // CHECK: a: r=11
  printf("a: r=%d\n", r);
  // 5*3 + (100+5)
  // CHECK: b: r=120
  printf("b: r=%d\n", tu_b_run(5));
  // 7*3 + (105+7)
  // CHECK: b: r=133
  printf("b: r=%d\n", tu_b_run(7));
  // The host copy of tu_b_counter is untouched until the update in TU b.
  // CHECK: host tu_a_counter=1
  printf("host tu_a_counter=%d\n", tu_a_counter);
#pragma omp target update from(tu_a_counter)
  // CHECK: after update tu_a_counter=11 tu_b_counter=112
  printf("after update tu_a_counter=%d tu_b_counter=%d\n", tu_a_counter,
         tu_b_read_counter());
  return 0;
}
