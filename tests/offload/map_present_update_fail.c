// Mapping: `target update to(present : ...)`
// of unmapped data is fatal on LLVM 14 (same diagnostics as the map case);
// LLVM 19 prints the same lines with its own prefix.
// RUN: %clang-offload -fopenmp-version=51 %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  double d[8] = {0};
  // CHECK: before
  printf("before\n");
#pragma omp target update to(present : d)
  // OURS: Libomptarget message: device mapping required by 'present' motion modifier does not exist for host address 0x{{[0-9a-f]+}} (64 bytes)
  // OURS: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // LLVM: Libomptarget message: device mapping required by 'present' motion modifier does not exist for host address 0x{{[0-9a-f]+}} (64 bytes)
  // LLVM: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // LLVM19: omptarget message: device mapping required by 'present' motion modifier does not exist for host address 0x{{[0-9a-f]+}} (64 bytes)
  // LLVM19: omptarget fatal error 1: failure of target construct while offloading is mandatory
  // CHECK-NOT: after
  printf("after\n");
  return 0;
}
