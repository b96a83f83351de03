// A binary built only for nvptx64 runs where no plugin takes CUDA images:
// one clear warning naming the image kind and the plugins that were tried,
// then the regions run on the host with correct results.
// REQUIRES: omptarget-core, nvptx-compile
// RUN: %clang-nvptx %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  // CHECK-DAG: Libomptarget warning: __tgt_register_lib: no plugin accepts the 1 device image(s) of this binary (ELF CUDA (e_machine 190); plugins loaded: {{.*}}libomptarget.rtl.x86_64.so); its target regions run on the host
  // CHECK-DAG: x=2 devices=0
  printf("x=%d devices=%d\n", x, omp_get_num_devices());
  return 0;
}
