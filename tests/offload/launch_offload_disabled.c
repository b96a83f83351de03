// Launch: OMP_TARGET_OFFLOAD=disabled runs every target region on the host:
// omp_get_num_devices() is 0, omp_is_initial_device() is 1 inside regions,
// target data constructs are no-ops that still leave correct host values, and
// omp_target_is_present of the initial device is 1; device 1 is not a
// device (omp_target_alloc there gives NULL, with our message naming the
// setting).
// LLVM 19 still counts its 4 devices under OMP_TARGET_OFFLOAD=disabled
// (omp_get_num_devices() = 4, omp_target_alloc on device 1 succeeds); the
// regions do run on the host.
// XFAIL: runtime-llvm19
// RUN: %clang-offload %s -o %t
// RUN: %run env OMP_TARGET_OFFLOAD=disabled %t 2>&1 | %fcheck
// The value in any case (here mixed) means the same.
// RUN: %run env OMP_TARGET_OFFLOAD=DiSaBlEd %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int g = 1;
#pragma omp declare target(g)

int main(void) {
  setbuf(stdout, NULL);  // in order with the runtime's messages on stderr
  // CHECK: num_devices=0
  printf("num_devices=%d\n", omp_get_num_devices());
  int init = -1, x = 5;
#pragma omp target map(from : init) map(tofrom : x)
  {
    init = omp_is_initial_device();
    x *= 3;
    g = 9;
  }
  // CHECK: inside initial=1 x=15 g=9
  printf("inside initial=%d x=%d g=%d\n", init, x, g);
  int a[4] = {1, 2, 3, 4};
#pragma omp target data map(tofrom : a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 4; i++) a[i] *= 10;
  }
  // CHECK: a=10,20,30,40
  printf("a=%d,%d,%d,%d\n", a[0], a[1], a[2], a[3]);
#pragma omp target enter data map(to : a)
  // CHECK: present(initial)=1
  printf("present(initial)=%d\n",
         omp_target_is_present(a, omp_get_initial_device()));
#pragma omp target exit data map(delete : a)
  // Device 0 is the initial device now (there are no others); device 1 does
  // not exist: the message says why (our core).
  // OURS: omp_target_alloc: invalid device number 1 (there are 0 devices: OMP_TARGET_OFFLOAD=disabled; use omp_get_initial_device() for the host)
  // CHECK: alloc on device 1: null
  void *p = omp_target_alloc(16, 1);
  printf("alloc on device 1: %s\n", p ? "non-null" : "null");
  return 0;
}
