// Fault: a binary whose device image is for a GPU architecture the machine's
// GPUs cannot run: built for sm_86 (the last `-march` wins over the
// runner's sm_80; the sm_90 CUDA path rewrites only sm_80), a cubin of
// another major version, whose machine code an sm_90 GPU (H200) does not
// run. The CUDA plugin refuses the image when the program registers it,
// with one warning that names the image's architecture and each device's;
// no plugin takes the image, so:
//   * by default the target region runs on the host, with the right result
//     (omp_get_num_devices() is 0: no device runs this binary's code);
//   * under OMP_TARGET_OFFLOAD=mandatory the region is a fatal error.
// (LLVM 14's CUDA plugin takes any cubin and fails at the first region with
// "device kernel image is invalid", fatal by default once a GPU exists.)
// On the fake CUDA driver (tests/fake_cuda, compute capability 9.0) the
// same: the plugin refuses the image before anything is loaded.
// RUN: %clang-offload -Xopenmp-target -march=sm_86 %s -o %t
// RUN: %run %t 2>&1 | %fcheck --check-prefix=DEFAULT
// RUN: not --crash %run env OMP_TARGET_OFFLOAD=mandatory %t 2>&1 | %fcheck --check-prefix=MAND
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  // DEFAULT: Libomptarget warning: the device image was built for sm_86, which no CUDA device of this machine runs (device 0: sm_{{[0-9]+}}{{.*}}); the CUDA plugin does not take it: its target regions run on the host
  // MAND: Libomptarget warning: the device image was built for sm_86, which no CUDA device of this machine runs (device 0: sm_{{[0-9]+}}{{.*}}); the CUDA plugin does not take it: its target regions run on the host
  // DEFAULT: start
  // MAND: start
  printf("start\n");
  int x = 1, on_host = 0;
#pragma omp target map(tofrom : x, on_host)
  {
    x += 1;
    on_host = omp_is_initial_device();
  }
  // DEFAULT-NEXT: x=2 on_host=1 devices=0
  // MAND: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // MAND-NOT: x=
  printf("x=%d on_host=%d devices=%d\n", x, on_host, omp_get_num_devices());
  return 0;
}
