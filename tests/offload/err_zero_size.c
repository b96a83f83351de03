// Errors: zero sizes are harmless: omp_target_alloc(0) -> NULL,
// omp_target_memcpy of 0 bytes -> 0, a zero-length array section map and
// enter/exit data of one work, omp_target_memcpy_rect with a zero volume
// returns 0, associate with size 0 fails gracefully.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  // CHECK: alloc(0) NULL=1
  printf("alloc(0) NULL=%d\n", omp_target_alloc(0, 0) == NULL);
  int a[4] = {1, 2, 3, 4};
  int *d = omp_target_alloc(16, 0);
  // CHECK: memcpy 0 bytes=0
  printf("memcpy 0 bytes=%d\n", omp_target_memcpy(d, a, 0, 0, 0, 0, host));
  size_t vol[2] = {0, 4}, off[2] = {0, 0}, dim[2] = {1, 4};
  // CHECK: memcpy_rect zero volume=0
  printf("memcpy_rect zero volume=%d\n",
         omp_target_memcpy_rect(d, a, sizeof(int), 2, vol, off, off, dim, dim,
                                0, host));
  int *p = a;
  long seen = -1;
#pragma omp target map(tofrom : p[0 : 0]) map(from : seen)
  seen = 7;
  // CHECK: zero-length section region ran seen=7
  printf("zero-length section region ran seen=%ld\n", seen);
#pragma omp target enter data map(to : p[0 : 0])
#pragma omp target exit data map(release : p[0 : 0])
  // CHECK: zero-length enter/exit ok present=0
  printf("zero-length enter/exit ok present=%d\n", omp_target_is_present(a, 0));
  omp_target_free(d, 0);
  return 0;
}
