// Update: `target update to/from` on mapped data, on sections, and on data
// that is not mapped (LLVM 14 silently skips it); `if` clause false = no-op.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = i;
  int seen = 0;
#pragma omp target data map(alloc : a)
  {
#pragma omp target update to(a)
#pragma omp target map(from : seen)
    seen = a[9];
    // CHECK: update to: seen=9
    printf("update to: seen=%d\n", seen);
#pragma omp target
    for (int i = 0; i < 10; i++) a[i] = 100 + i;
    // CHECK: before from: a0=0
    printf("before from: a0=%d\n", a[0]);
#pragma omp target update from(a[2 : 3])
    // CHECK: section from: a1=1 a2=102 a4=104 a5=5
    printf("section from: a1=%d a2=%d a4=%d a5=%d\n", a[1], a[2], a[4], a[5]);
    a[7] = -7;
    int cond = 0;
#pragma omp target update to(a[7 : 1]) if (cond)
#pragma omp target map(from : seen)
    seen = a[7];
    // CHECK: if(0) update skipped: seen=107
    printf("if(0) update skipped: seen=%d\n", seen);
#pragma omp target update to(a[7 : 1]) if (cond + 1)
#pragma omp target map(from : seen)
    seen = a[7];
    // CHECK: if(1) update done: seen=-7
    printf("if(1) update done: seen=%d\n", seen);
  }
  int unmapped = 5;
#pragma omp target update to(unmapped)
#pragma omp target update from(unmapped)
  // CHECK: update of unmapped data ignored: 5
  printf("update of unmapped data ignored: %d\n", unmapped);
  return 0;
}
