// API (OpenMP 5.1; clang 14's omp.h declares it, no LLVM 14 runtime defines
// it): omp_target_is_accessible on our host plugin. Its devices are the host,
// so any host storage is accessible from them (stack, heap, the memory of
// llvm_omp_target_alloc_host); the initial device always answers 1 (by
// number and omp_initial_device). A null pointer is not storage (0); an
// invalid device answers 0 with a message. With LLVM 14's plugin, which
// cannot say, our core answers 0 (api_accessible_llvm_plugin.c).
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>

static int global_array[1024];

int main(void) {
  setbuf(stdout, NULL);
  int local[16];
  char *heap = malloc(1 << 20);
  void *pinned = llvm_omp_target_alloc_host(4096, 0);
  int all = 1;
  for (int d = 0; d < omp_get_num_devices(); d++)
    all &= omp_target_is_accessible(local, sizeof local, d) == 1 &&
           omp_target_is_accessible(heap, 1 << 20, d) == 1 &&
           omp_target_is_accessible(heap + 100, 10, d) == 1 &&
           omp_target_is_accessible(global_array, sizeof global_array, d) == 1;
  // CHECK: host plugin devices: all=1 pinned=1 zero_size=1
  printf("host plugin devices: all=%d pinned=%d zero_size=%d\n", all,
         omp_target_is_accessible(pinned, 4096, 0), omp_target_is_accessible(heap, 0, 1));
  // CHECK: initial device: 1 1
  printf("initial device: %d %d\n", omp_target_is_accessible(heap, 1 << 20, omp_get_initial_device()),
         omp_target_is_accessible(local, sizeof local, omp_initial_device));
  // CHECK: null: 0
  printf("null: %d\n", omp_target_is_accessible(NULL, 8, 0));
  // CHECK: Libomptarget error: omp_target_is_accessible: invalid device number 99
  int bad = omp_target_is_accessible(heap, 8, 99);
  // CHECK: Libomptarget error: omp_target_is_accessible: device number omp_invalid_device (-2) names no device
  int invalid = omp_target_is_accessible(heap, 8, omp_invalid_device);
  // CHECK: invalid devices: 0 0
  printf("invalid devices: %d %d\n", bad, invalid);
  llvm_omp_target_free_host(pinned, 0);
  free(heap);
  return 0;
}
