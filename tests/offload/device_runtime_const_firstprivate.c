// A firstprivate variable allocated with omp_const_mem_alloc: clang puts the
// device's copy in constant memory (an addrspace(4) variable) and stores the
// initial value to it. At -O0 the store goes through a generic pointer and
// the kernel builds with either device runtime; at -O1 and up it builds only
// if the optimizer keeps the value in a register and drops the store, since
// ptxas rejects a store to constant memory ("State space incorrect for
// instruction 'st'"). At -O2 our device runtime builds each of the three
// constructs below in a file of its own (LLVM 14's fails the teams one) but
// not all three in one file (docs/usage.md), so the GPU suite builds this
// file at -O0 only.
// GPU: no-O2
// Each construct must see the firstprivate's value, and its own changes.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  int x = 7, r = 0, out[N] = {0};
  long sum = 0;

#pragma omp target firstprivate(x) allocate(omp_const_mem_alloc : x) uses_allocators(omp_const_mem_alloc) \
    map(tofrom : r)
  {
    x += 5;
    r = x * 2;
  }
  // CHECK: target: 24
  printf("target: %d\n", r);

#pragma omp target parallel for firstprivate(x) allocate(omp_const_mem_alloc : x) \
    uses_allocators(omp_const_mem_alloc) map(tofrom : out)
  for (int i = 0; i < N; i++) out[i] = x + i;
  int bad = 0;
  for (int i = 0; i < N; i++) bad += out[i] != 7 + i;
  // CHECK: target parallel for: ok
  printf("target parallel for: %s\n", bad ? "WRONG" : "ok");

#pragma omp target teams distribute parallel for firstprivate(x) allocate(omp_const_mem_alloc : x) \
    uses_allocators(omp_const_mem_alloc) reduction(+ : sum) num_teams(4)
  for (int i = 0; i < N; i++) sum += x + i % 3;
  // CHECK: target teams distribute parallel for: 7999
  printf("target teams distribute parallel for: %ld\n", sum);

  // CHECK: host copy unchanged: 7
  printf("host copy unchanged: %d\n", x);
  return bad != 0 || r != 24 || sum != 7999;
}
