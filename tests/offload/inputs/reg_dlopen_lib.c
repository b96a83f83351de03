// Helper shared library for reg_dlopen.c (not a test): a dlopen'ed library
// with its own target regions and declare-target globals.
#include <omp.h>

int lib_global = 40;
#pragma omp declare target(lib_global)

int lib_table[4] = {1, 2, 3, 4};
#pragma omp declare target(lib_table)

#pragma omp declare target
static int lib_square(int v) { return v * v; }
#pragma omp end declare target

int lib_compute(int v) {
  int r = 0;
#pragma omp target map(from : r)
  {
    lib_global += 2;
    r = lib_square(v) + lib_global + lib_table[v % 4];
    lib_table[0] = r;
  }
  return r;
}

int lib_read(int *g, int *t0) {
#pragma omp target update from(lib_global, lib_table)
  *g = lib_global;
  *t0 = lib_table[0];
  return 0;
}
