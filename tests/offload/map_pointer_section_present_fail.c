// Mapping: the bytes of a struct before its first mapped member are not
// mapped (the device copy's alignment padding is no mapping): after
// `enter data map(alloc: s.y, s.z)`, `map(present, alloc: s.x)` fails with
// LLVM's present message. LLVM 19 agrees; LLVM 14 maps the padding and
// runs the region.
// REQUIRES: omptarget-core
// RUN: %clang-offload -fopenmp-version=51 %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <stdio.h>

struct S {
  int x;
  int y;
  double z;
};

int main(void) {
  struct S s = {1, 2, 3.0};
#pragma omp target enter data map(alloc : s.y, s.z)
  // CHECK: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (4 bytes)
#pragma omp target map(present, alloc : s.x)
  { s.x = 9; }
  // CHECK-NOT: ran
  printf("ran: x=%d\n", s.x);
  return 0;
}
