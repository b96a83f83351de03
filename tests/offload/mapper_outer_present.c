// Mappers: `present` on the clause that names a mapper reaches its
// components: with nothing mapped, the region fails with LLVM's present
// message and the program stops (the default offload policy makes a failed
// region fatal). LLVM 14 and 19 drop the modifier on the way (clang puts
// only the mapper's own map type on a component) and run the region.
// REQUIRES: omptarget-core
// RUN: %clang-offload -fopenmp-version=51 %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

typedef struct {
  int x;
  int y;
} S;
#pragma omp declare mapper(S s) map(tofrom : s.y)

int main(void) {
  S s = {1, 2};
  // CHECK: Libomptarget message: device mapping required by 'present' map type modifier does not exist for host address 0x{{[0-9a-f]+}} (4 bytes)
  // CHECK: Libomptarget error: Call to getTargetPointer returned null pointer ('present' map type modifier).
#pragma omp target map(present, tofrom : s)
  { s.y = 3; }
  // CHECK-NOT: ran:
  printf("ran: y=%d\n", s.y);
  return 0;
}
