// API: omp_target_is_present: per device, per byte range of a mapping,
// NULL, initial device (always 1 for non-NULL), after target data ends.
// GPU: skip (uses the host plugin's devices 2 and 3)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  char buf[100];
  int host = omp_get_initial_device();
  // CHECK: unmapped: dev0=0 host=1 NULL=0 NULL(host)=0
  printf("unmapped: dev0=%d host=%d NULL=%d NULL(host)=%d\n",
         omp_target_is_present(buf, 0), omp_target_is_present(buf, host),
         omp_target_is_present(NULL, 0), omp_target_is_present(NULL, host));
#pragma omp target data map(alloc : buf[20 : 30]) device(2)
  {
    // CHECK: mapped on 2: begin=1 mid=1 last=1 before=0 after=0 dev0=0
    printf("mapped on 2: begin=%d mid=%d last=%d before=%d after=%d dev0=%d\n",
           omp_target_is_present(buf + 20, 2), omp_target_is_present(buf + 35, 2),
           omp_target_is_present(buf + 49, 2), omp_target_is_present(buf + 19, 2),
           omp_target_is_present(buf + 50, 2), omp_target_is_present(buf + 20, 0));
  }
  // CHECK: after data: dev2=0
  printf("after data: dev2=%d\n", omp_target_is_present(buf + 20, 2));
  return 0;
}
