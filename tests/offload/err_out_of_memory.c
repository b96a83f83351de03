// Errors: a device allocation that cannot be satisfied, even after the
// memory manager gave its cached blocks back and the allocation was retried,
// is reported once with the size, the device and how much memory the device
// has free; omp_target_alloc returns NULL, and later allocations and
// constructs work. (A construct whose mapping cannot be allocated is fatal
// while offloading is mandatory; that it leaves no half-made mapping is in
// the unit tests, queue_ordered_alloc_test.cpp.)
// REQUIRES: omptarget-plugin
// GPU: skip (the host device's memory is the host's)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setbuf(stdout, NULL);
  // Cache some small blocks first: the failure path releases them.
  for (int i = 0; i < 8; ++i) omp_target_free(omp_target_alloc(256, 0), 0);
  size_t huge = (size_t)1 << 60;
  // CHECK: data_alloc: device 0: cannot allocate 1152921504606846976 bytes (TARGET_ALLOC_DEFAULT) (the device has {{[0-9]+}} bytes free)
  void *p = omp_target_alloc(huge, 0);
  // CHECK: huge alloc NULL=1
  printf("huge alloc NULL=%d\n", p == NULL);

  // Later allocations and constructs work.
  int a[64];
  for (int i = 0; i < 64; ++i) a[i] = i;
#pragma omp target map(tofrom : a)
  for (int i = 0; i < 64; ++i) a[i] *= 2;
  int ok = 1;
  for (int i = 0; i < 64; ++i) ok &= a[i] == 2 * i;
  int *d = omp_target_alloc(1 << 20, 0);
  // CHECK: later region ok=1 alloc ok=1
  printf("later region ok=%d alloc ok=%d\n", ok, d != NULL);
  omp_target_free(d, 0);
  return 0;
}
