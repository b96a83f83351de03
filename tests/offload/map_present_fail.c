// Mapping: `map(present, ...)` of data that is not mapped is a fatal error:
// the runtime names the host address and size, and aborts the program (target
// offload is treated as mandatory). LLVM 19 prints LLVM 14's lines with its
// own prefix.
// RUN: %clang-offload -fopenmp-version=51 %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int x[4] = {1, 2, 3, 4};
  int y = 5;
#pragma omp target enter data map(to : x)
#pragma omp target map(present, tofrom : x)
  x[0] += 10;
  // CHECK: first region ok
  printf("first region ok\n");
#pragma omp target map(present, tofrom : y)
  y++;
  // OURS: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (4 bytes)
  // OURS: Libomptarget error:
  // OURS: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // LLVM: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (4 bytes)
  // LLVM: Libomptarget error: Call to getTargetPointer returned null pointer ('present' map type modifier).
  // LLVM: Libomptarget error:
  // LLVM: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // LLVM19: omptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (4 bytes)
  // LLVM19: omptarget error: Call to getTargetPointer returned null pointer ('present' map type modifier).
  // LLVM19: omptarget error:
  // LLVM19: omptarget fatal error 1: failure of target construct while offloading is mandatory
  // CHECK-NOT: not reached
  printf("not reached y=%d\n", y);
  return 0;
}
