// OpenMP 5.1: a pointer used in a target region whose pointee is not present
// keeps its original value (clang passes it as an implicit zero-length
// section), and use_device_ptr/use_device_addr of data that is not mapped
// yield the host address. LLVM 14 passes NULL instead (the first region
// below then segfaults on it).
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int dev = omp_get_default_device();
  int *d = (int *)omp_target_alloc(16 * sizeof(int), dev);
  long seen = -1;
#pragma omp target map(from : seen)
  {
    seen = (long)d;
    for (int i = 0; i < 16; i++) d[i] = i * 3;
  }
  int h[16] = {0};
  omp_target_memcpy(h, d, sizeof h, 0, 0, omp_get_initial_device(), dev);
  // CHECK: omp_target_alloc pointer kept=1 written through it: 3 45
  printf("omp_target_alloc pointer kept=%d written through it: %d %d\n", seen == (long)d, h[1],
         h[15]);

  // The same pointer offset into the allocation, in a combined construct.
  int *d8 = d + 8;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < 8; i++) d8[i] += 1;
  omp_target_memcpy(h, d, sizeof h, 0, 0, omp_get_initial_device(), dev);
  // CHECK: offset device pointer: h[7]=21 h[8]=25 h[15]=46
  printf("offset device pointer: h[7]=%d h[8]=%d h[15]=%d\n", h[7], h[8], h[15]);

  // A host pointer to memory that is not mapped: the value arrives unchanged.
  int *p = (int *)malloc(64);
  long seen_p = -1;
#pragma omp target map(from : seen_p)
  seen_p = (long)p;
  // CHECK: unmapped host pointer kept=1
  printf("unmapped host pointer kept=%d\n", seen_p == (long)p);

  long udp = -1, uda = -1;
#pragma omp target data use_device_ptr(p)
  udp = (long)p;
  int arr[4];
#pragma omp target data use_device_addr(arr)
  uda = (long)&arr[0];
  // CHECK: use_device_ptr unmapped=host use_device_addr unmapped=host
  printf("use_device_ptr unmapped=%s use_device_addr unmapped=%s\n",
         udp == (long)p ? "host" : "other", uda == (long)&arr[0] ? "host" : "other");

  // Mapped data still translates.
#pragma omp target enter data map(to : p[0 : 16])
  long mapped = -1;
#pragma omp target data use_device_ptr(p)
  mapped = (long)p;
  // CHECK: use_device_ptr mapped=device
  printf("use_device_ptr mapped=%s\n",
         mapped != (long)p ? "device" : "other");
#pragma omp target exit data map(delete : p[0 : 16])
  free(p);
  omp_target_free(d, dev);
  return 0;
}
