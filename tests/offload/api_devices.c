// API: device queries. LLVM 14's host plugin exposes 4 devices; the initial
// device number equals omp_get_num_devices() (4); default device is 0 and
// follows omp_set_default_device / OMP_DEFAULT_DEVICE.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck --check-prefix=DEF0
// RUN: %run env OMP_DEFAULT_DEVICE=2 %t 2>&1 | %fcheck --check-prefix=DEF2
#include <omp.h>
#include <stdio.h>

int main(void) {
  // DEF0: num_devices=4 initial=4 default=0
  // DEF2: num_devices=4 initial=4 default=2
  printf("num_devices=%d initial=%d default=%d\n", omp_get_num_devices(),
         omp_get_initial_device(), omp_get_default_device());
  // CHECK: host is initial device=1
  printf("host is initial device=%d\n", omp_is_initial_device());
  omp_set_default_device(3);
  int x[1] = {0};
#pragma omp target enter data map(to : x)
  // CHECK: after set_default(3): default=3 present on 3=1 on 0=0
  printf("after set_default(3): default=%d present on 3=%d on 0=%d\n",
         omp_get_default_device(), omp_target_is_present(x, 3),
         omp_target_is_present(x, 0));
#pragma omp target exit data map(delete : x)
  return 0;
}
