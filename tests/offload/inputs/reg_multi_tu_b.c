// Helper TU for reg_multi_tu.c (not a test): its own target regions and
// declare-target global, registered as part of the same binary image.
#include <omp.h>

int tu_b_counter = 100;
#pragma omp declare target(tu_b_counter)

#pragma omp declare target
int tu_b_scale(int v) { return v * 3; }
#pragma omp end declare target

int tu_b_run(int v) {
  int r = 0;
#pragma omp target map(from : r)
  {
    tu_b_counter += v;
    r = tu_b_scale(v) + tu_b_counter;
  }
  return r;
}

int tu_b_read_counter(void) {
#pragma omp target update from(tu_b_counter)
  return tu_b_counter;
}
