// API: omp_target_is_accessible under our core with LLVM 14's host plugin.
// That plugin has no entry that tells whether host memory is accessible, so
// the core gives the answer that never misleads, 0, for its devices; the
// initial device still answers 1 (api_accessible.c: our plugin's answers;
// api_accessible_usm.c: every device answers 1 under unified shared memory).
// REQUIRES: runtime-our-core-llvm-plugin
// GPU: skip (LLVM 14's host plugin only)
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *heap = malloc(64);
  // CHECK: llvm plugin: dev0=0 dev3=0 initial=1
  printf("llvm plugin: dev0=%d dev3=%d initial=%d\n", omp_target_is_accessible(heap, 64, 0),
         omp_target_is_accessible(heap, 64, 3), omp_target_is_accessible(heap, 64, omp_initial_device));
  free(heap);
  return 0;
}
