// `declare target indirect` (OpenMP 5.1; clang 19): a host function pointer
// to an indirect function, passed to a region (firstprivate) or read there
// from mapped data, calls the device's version of the function. The runtime
// maps each indirect function's host address to the device's address of
// that function (the entry's device global holds it), as LLVM 19 does; on
// NVIDIA GPUs the device runtime also looks host addresses up in the image's
// indirect call table. clang 14 has no `indirect` clause.
// REQUIRES: clang-19
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <stdio.h>

#pragma omp begin declare target indirect
int twice(int X) { return 2 * X; }
int thrice(int X) { return 3 * X; }
#pragma omp end declare target

typedef int (*Fn)(int);

int main(void) {
  Fn Fns[2] = {twice, thrice};
  int R[2] = {0, 0};
  // A function pointer passed by value.
  for (int I = 0; I < 2; ++I) {
    Fn F = Fns[I];
#pragma omp target map(from : R[I]) firstprivate(F)
    R[I] = F(7);
  }
  // CHECK: by value: 14 21
  printf("by value: %d %d\n", R[0], R[1]);
  // Function pointers read on the device from mapped data.
  int S[4] = {0, 0, 0, 0};
#pragma omp target teams distribute parallel for map(to : Fns) map(from : S)
  for (int I = 0; I < 4; ++I) S[I] = Fns[I % 2](I + 1);
  // CHECK: from data: 2 6 6 12
  printf("from data: %d %d %d %d\n", S[0], S[1], S[2], S[3]);
  return 0;
}
