// NVTX ranges: with an NVTX tool injected (NVTX_INJECTION64_PATH, as
// `nsys profile` does; here a stand-in that prints each push and pop), every
// construct and runtime call is a range named after the construct and its
// source location, nested as the calls are; OMPTARGET_NVTX=0 turns them off
// even then; OMPTARGET_NVTX=1 with no tool injected costs nothing visible.
// REQUIRES: omptarget-core, nvtx
// RUN: %clang-offload -gline-tables-only %s -o %t
// RUN: %run env NVTX_INJECTION64_PATH=%nvtx_injection %t 2>&1 | %fcheck --check-prefixes=RANGES,RANGES-%cc
// RUN: %run env NVTX_INJECTION64_PATH=%nvtx_injection OMPTARGET_NVTX=0 %t 2>&1 | %fcheck --check-prefix=OFF
// RUN: %run env OMPTARGET_NVTX=1 %t 2>&1 | %fcheck --check-prefix=OFF
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target data map(tofrom : a) // line 18
  {
#pragma omp target teams distribute parallel for // line 20
    for (int i = 0; i < 64; i++) a[i] *= 2;
  }
  void *p = omp_target_alloc(64, 0);
  omp_target_free(p, 0);
  printf("a[3]=%d\n", a[3]);
  return 0;
}

// Span names follow the entry point the program called ("target teams",
// "target"; every clang 19 region calls __tgt_target_kernel: "target
// kernel"), hence the C14/C19 lines.
// RANGES: NVTX push target data begin {{.*}}profile_nvtx.c:18:1
// RANGES-NEXT: NVTX pop
// RANGES-C14-NEXT: NVTX push target teams {{.*}}profile_nvtx.c:20:1
// RANGES-C19-NEXT: NVTX push target kernel {{.*}}profile_nvtx.c:20:1
// RANGES-NEXT: NVTX pop
// RANGES-NEXT: NVTX push target data end {{.*}}profile_nvtx.c:18:1
// RANGES-NEXT: NVTX pop
// RANGES-NEXT: NVTX push omp_target_alloc
// RANGES-NEXT: NVTX pop
// RANGES-NEXT: NVTX push omp_target_free
// RANGES-NEXT: NVTX pop
// RANGES-NEXT: a[3]=6

// OFF-NOT: NVTX
// OFF: a[3]=6
// OFF-NOT: NVTX
