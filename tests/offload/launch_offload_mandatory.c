// Launch: OMP_TARGET_OFFLOAD=mandatory and =default (and unset) offload to the
// host plugin's devices: 4 devices, and data mapped on device 0 is present.
// RUN: %clang-offload %s -o %t
// RUN: %run env OMP_TARGET_OFFLOAD=mandatory %t 2>&1 | %fcheck
// RUN: %run env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | %fcheck
// RUN: %run env OMP_TARGET_OFFLOAD=default %t 2>&1 | %fcheck
// RUN: %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  // CHECK: num_devices=4
  printf("num_devices=%d\n", omp_get_num_devices());
  int x[2] = {3, 4};
#pragma omp target data map(tofrom : x)
  {
    // CHECK: present=1
    printf("present=%d\n", omp_target_is_present(x, 0));
#pragma omp target
    { x[0] += x[1]; }
  }
  // CHECK: x0=7
  printf("x0=%d\n", x[0]);
  return 0;
}
