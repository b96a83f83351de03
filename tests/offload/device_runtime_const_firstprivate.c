// A firstprivate variable allocated with omp_const_mem_alloc: clang puts the
// device's copy in constant memory (an addrspace(4) variable) and stores the
// initial value to it. At -O0 the store goes through a generic pointer and
// the kernel builds with either device runtime; at -O1 and up it builds only
// if the optimizer keeps the value in a register and drops the store, since
// ptxas rejects a store to constant memory ("State space incorrect for
// instruction 'st'"). With our device runtime all the constructs below build
// at -O2 and -O3 in one file (LLVM 14's fails the teams distribute parallel
// for one; at -O1 both runtimes fail). `target teams distribute` without
// `parallel` does not (docs/usage.md), nor does a plain `target` whose
// sequential part changes the variable and then reads it in a parallel region
// (with either runtime: the region's threads must read the stored copy).
// The loop in a plain `target` region (the second construct) builds with ours
// because OpenMPOpt keeps that kernel generic, as it does with LLVM 14's; that
// rests on __kmpc_target_deinit (src/devicertl/parallel.cu). CTest
// devicertl-const-firstprivate-O2 builds this file at -O2 with our runtime.
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
  int target_ok = r == 24;

#pragma omp target firstprivate(x) allocate(omp_const_mem_alloc : x) uses_allocators(omp_const_mem_alloc) \
    map(tofrom : out)
  for (int i = 0; i < N; i++) out[i] = x * 2 + i;
  int loop_bad = 0;
  for (int i = 0; i < N; i++) loop_bad += out[i] != 14 + i;
  // CHECK: target loop: ok
  printf("target loop: %s\n", loop_bad ? "WRONG" : "ok");

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

#pragma omp target teams num_teams(1) firstprivate(x) allocate(omp_const_mem_alloc : x) \
    uses_allocators(omp_const_mem_alloc) map(tofrom : r)
  { r = x * 3; }
  // CHECK: target teams: 21
  printf("target teams: %d\n", r);
  int teams_ok = r == 21;

#pragma omp target parallel num_threads(1) firstprivate(x) allocate(omp_const_mem_alloc : x) \
    uses_allocators(omp_const_mem_alloc) map(tofrom : r)
  { r = x * 4; }
  // CHECK: target parallel: 28
  printf("target parallel: %d\n", r);
  int parallel_ok = r == 28;

#pragma omp target simd firstprivate(x) allocate(omp_const_mem_alloc : x) uses_allocators(omp_const_mem_alloc) \
    map(tofrom : out)
  for (int i = 0; i < N; i++) out[i] += x;
  int simd_bad = 0;
  for (int i = 0; i < N; i++) simd_bad += out[i] != 14 + i;
  // CHECK: target simd: ok
  printf("target simd: %s\n", simd_bad ? "WRONG" : "ok");

  // CHECK: host copy unchanged: 7
  printf("host copy unchanged: %d\n", x);
  return !target_ok || loop_bad != 0 || bad != 0 || sum != 7999 || !teams_ok || !parallel_ok || simd_bad != 0 || x != 7;
}
