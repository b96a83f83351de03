// Mapping: is_device_ptr with memory from omp_target_alloc: the region uses
// the raw device pointer; results come back with omp_target_memcpy.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#define N 64

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int *d = (int *)omp_target_alloc(N * sizeof(int), dev);
  // CHECK: alloc ok=1
  printf("alloc ok=%d\n", d != NULL);
#pragma omp target is_device_ptr(d)
  for (int i = 0; i < N; i++) d[i] = i * i;
#pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; i++) d[i] += 1;
  int h[N];
  int rc = omp_target_memcpy(h, d, sizeof(h), 0, 0, host, dev);
  // CHECK: rc=0 h[0]=1 h[5]=26 h[63]=3970
  printf("rc=%d h[0]=%d h[5]=%d h[63]=%d\n", rc, h[0], h[5], h[63]);
  // Device memory from omp_target_alloc is not a mapping.
  // CHECK: is_present(d)=0
  printf("is_present(d)=%d\n", omp_target_is_present(d, dev));
  omp_target_free(d, dev);
  return 0;
}
