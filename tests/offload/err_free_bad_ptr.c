// Errors: omp_target_free of a pointer that omp_target_alloc did not return
// for that device (a stack address, a host malloc block, a pointer from
// another device, a double free) must be reported and ignored, not passed to
// the plugin (LLVM 14 forwards it to the plugin's free(), corrupting the heap
// or aborting).
// REQUIRES: omptarget-core
// GPU: skip (uses the host plugin's devices 2 and 3)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setbuf(stdout, NULL);
  int local[4];
  // CHECK: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 0
  omp_target_free(local, 0);
  // CHECK: stack pointer survived
  printf("stack pointer survived\n");
  void *m = malloc(32);
  // CHECK: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 1
  omp_target_free(m, 1);
  // CHECK: malloc pointer survived
  printf("malloc pointer survived\n");
  free(m);
  void *d2 = omp_target_alloc(64, 2);
  // CHECK: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 3
  omp_target_free(d2, 3);
  // CHECK: wrong device survived
  printf("wrong device survived\n");
  omp_target_free(d2, 2);
  // CHECK: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 2
  omp_target_free(d2, 2);
  // CHECK: double free survived
  printf("double free survived\n");
  // Interior pointer of a live allocation.
  char *d0 = omp_target_alloc(64, 0);
  // CHECK: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} is 8 bytes into a block of 64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0; pass the block's start to free it; ignored
  omp_target_free(d0 + 8, 0);
  omp_target_free(d0, 0);
  // CHECK: interior pointer survived
  printf("interior pointer survived\n");
  return 0;
}
