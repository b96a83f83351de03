// A binary built only for nvptx64 runs where the CUDA plugin finds no GPU (no
// driver, no device): one clear warning naming the image kind and the plugin
// that took it without a device, then the regions run on the host with
// correct results. (Without any plugin for CUDA images the warning reads
// "no plugin accepts the 1 device image(s) of this binary (ELF CUDA ...".)
// REQUIRES: omptarget-core, nvptx-compile
// RUN: %clang-nvptx %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  // CHECK-DAG: Libomptarget warning: __tgt_register_lib: the device image(s) of this binary (ELF CUDA (e_machine 190)) are for {{.*}}libomptarget.rtl.cuda.so, which found no device; its target regions run on the host
  // CHECK-DAG: x=2 devices=0
  printf("x=%d devices=%d\n", x, omp_get_num_devices());
  return 0;
}
