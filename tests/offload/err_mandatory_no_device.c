// OMP_TARGET_OFFLOAD=mandatory with no device (the host plugin is told to
// expose 0 devices): a target region is a fatal error naming the cause, not a
// silent run on the host. The message names the entry point the program
// called: __tgt_target (every clang 14 form) or clang 19's __tgt_target_kernel.
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload %s -o %t
// RUN: not --crash %run env OMPTARGET_HOST_NUM_DEVICES=0 OMP_TARGET_OFFLOAD=mandatory %t 2>&1 | %fcheck --check-prefixes=MAND,MAND-%cc
// RUN: %run env OMPTARGET_HOST_NUM_DEVICES=0 %t 2>&1 | %fcheck --check-prefix=DEFAULT
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int x = 1;
  // MAND: devices=0
  // DEFAULT: devices=0
  printf("devices=%d\n", omp_get_num_devices());
#pragma omp target map(tofrom : x)
  x += 1;
  // MAND-C14: Libomptarget error: __tgt_target: OMP_TARGET_OFFLOAD=mandatory but no offload device is available
  // MAND-C19: Libomptarget error: __tgt_target_kernel: OMP_TARGET_OFFLOAD=mandatory but no offload device is available
  // MAND: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // MAND-NOT: x=
  // DEFAULT: x=2
  printf("x=%d\n", x);
  return 0;
}
