// A firstprivate variable allocated with omp_const_mem_alloc: clang puts the
// device's copy in constant memory (an addrspace(4) variable) and stores the
// initial value to it. At -O0 the store goes through a generic pointer; at
// -O1 and up the kernel builds only if the optimizer keeps the value in a
// register and drops the store, since ptxas rejects a store to constant
// memory ("State space incorrect for instruction 'st'"). With our device
// runtime it does for each construct here, since its SPMD barriers let such
// a value live across them as LLVM 14's do (see the barriers in
// src/devicertl/common.h); LLVM 14's own runtime fails the teams loop of this
// file at -O2 (the GPU suite builds it at -O0 only).
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
