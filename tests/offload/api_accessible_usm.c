// API: under `#pragma omp requires unified_shared_memory` every device
// accesses host storage by definition, so omp_target_is_accessible answers
// 1 for every device, on any plugin (with LLVM 14's host plugin too, which
// answers 0 without the requirement: api_accessible_llvm_plugin.c); and
// omp_get_mapped_ptr of unmapped storage is the host address itself (the
// device uses it directly). The target region is what registers the
// requirement (clang 14 registers it with the program's images).
// REQUIRES: omptarget-core
// GPU: skip (unified shared memory needs HMM or managed allocations)
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

int main(void) {
  char *heap = malloc(64);
  int ran = 0;
#pragma omp target map(tofrom : ran)
  ran = 1;
  int all = ran;
  for (int d = 0; d < omp_get_num_devices(); d++) all &= omp_target_is_accessible(heap, 64, d);
  // CHECK: usm: all=1 mapped_is_host=1
  printf("usm: all=%d mapped_is_host=%d\n", all, omp_get_mapped_ptr(heap, 0) == heap);
  free(heap);
  return 0;
}

// Not on remote devices (remote-mpi): unified shared memory needs a device that reads the program's
// memory.
// UNSUPPORTED: remote-mpi
