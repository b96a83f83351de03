// Mapping: a pointer whose pointee is mapped as a section that does not
// start at the pointer (`enter data map(to: A[64:128])`) finds that mapping
// from its own value, as OpenMP 5.1 asks for pointer initialization: a
// region that captures A implicitly gets the device A (A[64] is the device
// copy), and so do use_device_ptr(A) and use_device_addr(A[64:1]). LLVM 19
// does the same; LLVM 14 gives the region no device copy (it crashes or
// writes host memory) and use_device_ptr the host address.
// Also: a struct's unmapped members before the first mapped one are not
// mapped (no padding is): after `enter data map(alloc: s.y, s.z)`, s.x is
// not present and `target update from(s.x)` changes nothing (LLVM 19 too;
// LLVM 14 maps the padding); and use_device_addr of a variable with no
// device counterpart keeps its host address (OpenMP 5.1; LLVM 14 and 19
// give NULL) with LLVM's info line.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t && %run env LIBOMPTARGET_INFO=64 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct S {
  int x;
  int y;
  double z;
};

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);  // in order with the runtime's stderr lines
  int *A = malloc(256 * sizeof(int));
  for (int i = 0; i < 256; i++) A[i] = i;
#pragma omp target enter data map(to : A[64 : 128])
  uintptr_t dev = 0;
#pragma omp target map(from : dev) map(alloc : A[64 : 1])
  { dev = (uintptr_t)A; }
#pragma omp target
  {
    for (int i = 64; i < 192; i++) A[i] += 1000;
  }
  // CHECK: host copy untouched by the region: A[64]=64
  printf("host copy untouched by the region: A[64]=%d\n", A[64]);
  int *U = NULL;
#pragma omp target data use_device_ptr(A)
  { U = A; }
  // CHECK: use_device_ptr gives the device A: 1
  printf("use_device_ptr gives the device A: %d\n", (uintptr_t)U == dev);
  int *V = NULL;
#pragma omp target data use_device_addr(A[64 : 1])
  { V = &A[64]; }
  // CHECK: use_device_addr gives the device A[64]: 1
  printf("use_device_addr gives the device A[64]: %d\n", (uintptr_t)V == dev + 64 * sizeof(int));
#pragma omp target exit data map(from : A[64 : 128])
  // CHECK: after exit: A[63]=63 A[64]=1064 A[191]=1191 A[192]=192
  printf("after exit: A[63]=%d A[64]=%d A[191]=%d A[192]=%d\n", A[63], A[64], A[191], A[192]);
  free(A);

  struct S s = {1, 2, 3.0};
  int dev_num = omp_get_default_device();
#pragma omp target enter data map(alloc : s.y, s.z)
  // CHECK: padding: x present=0 y present=1 z present=1
  printf("padding: x present=%d y present=%d z present=%d\n", omp_target_is_present(&s.x, dev_num),
         omp_target_is_present(&s.y, dev_num), omp_target_is_present(&s.z, dev_num));
  s.x = 5;
#pragma omp target update from(s.x)
  // CHECK: update from an unmapped member: x=5
  printf("update from an unmapped member: x=%d\n", s.x);
#pragma omp target map(alloc : s.y, s.z)
  {
    s.y = 20;
    s.z = 30.0;
  }
#pragma omp target exit data map(from : s.y, s.z)
  // CHECK: members back: x=5 y=20 z=30.0
  printf("members back: x=%d y=%d z=%.1f\n", s.x, s.y, s.z);

  int unmapped = 3;
  int *p = NULL;
  // CHECK: info: variable unmapped does not have a valid device counterpart
#pragma omp target data use_device_addr(unmapped)
  { p = &unmapped; }
  // CHECK: use_device_addr of an unmapped variable keeps the host address: 1
  printf("use_device_addr of an unmapped variable keeps the host address: %d\n", p == &unmapped);
  return 0;
}
