// Registration: a shared library loaded with dlopen() registers its own
// offload image (target regions + declare-target globals) after the main
// program's; both images work side by side, and the library's globals can be
// read back with target update from.
// RUN: %clang-offload -fPIC -shared %S/inputs/reg_dlopen_lib.c -o %t.so
// RUN: %clang-offload %s -o %t -ldl && %run %t %t.so 2>&1 | %fcheck
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

int main_global = 5;
#pragma omp declare target(main_global)

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  int r = 0;
#pragma omp target map(from : r)
  { r = ++main_global; }
  // CHECK: main before dlopen r=6
  printf("main before dlopen r=%d\n", r);

  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  int (*compute)(int) = (int (*)(int))dlsym(h, "lib_compute");
  int (*rd)(int *, int *) = (int (*)(int *, int *))dlsym(h, "lib_read");
  // CHECK: loaded 1 1
  printf("loaded %d %d\n", compute != 0, rd != 0);
  // 3*3 + 42 + lib_table[3]=4 -> 55
  // CHECK: lib r=55
  printf("lib r=%d\n", compute(3));
  // 2*2 + 44 + lib_table[2]=3 -> 51
  // CHECK: lib r=51
  printf("lib r=%d\n", compute(2));
  int g = 0, t0 = 0;
  rd(&g, &t0);
  // CHECK: lib_global=44 lib_table[0]=51
  printf("lib_global=%d lib_table[0]=%d\n", g, t0);

#pragma omp target map(from : r)
  { r = ++main_global; }
  // CHECK: main after dlopen r=7
  printf("main after dlopen r=%d\n", r);
  return 0;
}
