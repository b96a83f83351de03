// Our core calls our plugin through the plugin's direct table (direct_device)
// unless OMPTARGET_PLUGIN_DIRECT_CALLS=0, when it uses the entry points; the
// results are the same either way (in the async host mode too, where the
// table holds the generic functions).
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload %s -o %t
// RUN: %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_PLUGIN_DIRECT_CALLS=0 %t 2>&1 | %fcheck
// RUN: %run env LIBOMPTARGET_DEBUG=1 %t 2>&1 | %fcheck --check-prefix=DIRECT
// RUN: %run env LIBOMPTARGET_DEBUG=1 OMPTARGET_PLUGIN_DIRECT_CALLS=0 %t 2>&1 | %fcheck --check-prefix=ENTRIES
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 1000

int main(void) {
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 2 * i;
    c[i] = -1;
  }
  int x = 41;
#pragma omp target map(tofrom : x)
  x++;

  double scale = 0.5;  // firstprivate
#pragma omp target teams distribute parallel for map(to : a, b) map(from : c)
  for (int i = 0; i < N; ++i) c[i] = scale * (a[i] + b[i]);

#pragma omp target enter data map(to : a)
  for (int i = 0; i < N; ++i) a[i] = 1;
#pragma omp target update to(a[0 : N / 2])
#pragma omp target map(tofrom : b)
  for (int i = 0; i < N; ++i) b[i] = a[i];
#pragma omp target exit data map(delete : a)

  int dev = omp_get_default_device();
  double *d = omp_target_alloc(sizeof(double) * N, dev);
  omp_target_memcpy(d, c, sizeof(double) * N, 0, 0, dev, omp_get_initial_device());
  memset(c, 0, sizeof c);
  omp_target_memcpy(c, d, sizeof(double) * N, 0, 0, omp_get_initial_device(), dev);
  omp_target_free(d, dev);

  double sum_b = 0, sum_c = 0;
  for (int i = 0; i < N; ++i) {
    sum_b += b[i];
    sum_c += c[i];
  }
  printf("x=%d sum_b=%.1f sum_c=%.1f\n", x, sum_b, sum_c);
  return 0;
}
// b: the first half is 1, the second half the device's untouched copy of a (i).
// DIRECT: calling plugin {{.*}} through its direct table
// ENTRIES-NOT: through its direct table
// CHECK: x=42 sum_b=375250.0 sum_c=749250.0
