// Reduction probe (informational, not part of run_gpu_bench.sh): the time of
// `target teams distribute parallel for reduction(+:s)` over 2^16, 2^20 and
// 2^26 doubles already on the device, median of 40 regions (the scalar's map
// and copy back included). Build it twice, with LLVM 14's device runtime and
// with ours, and run both on our core and plugin:
//   tools/omptarget-sm90-path /tmp/sm90
//   clang -O2 -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 \
//         --cuda-path=/tmp/sm90 bench/gpu/reduction_probe.c -o red_llvmrtl
//   clang ... --libomptarget-nvptx-bc-path=build/lib/libomptarget-devicertl-nvptx.bc \
//         bench/gpu/reduction_probe.c -o red_devrtl
//   LD_LIBRARY_PATH=<our lib dir with libomp.so.5> ./red_llvmrtl; ... ./red_devrtl
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
int main(void) {
  long sizes[] = {1L << 16, 1L << 20, 1L << 26};
  for (int k = 0; k < 3; k++) {
    long n = sizes[k];
    double *x = malloc(n * sizeof(double));
    for (long i = 0; i < n; i++) x[i] = 1.0;
#pragma omp target enter data map(to : x[0:n])
    double t[40], s = 0;
    for (int r = -5; r < 40; r++) {
      s = 0;
      double t0 = now_us();
#pragma omp target teams distribute parallel for reduction(+ : s)
      for (long i = 0; i < n; i++) s += x[i];
      if (r >= 0) t[r] = now_us() - t0;
    }
    qsort(t, 40, sizeof(double), cmp);
    printf("reduce n=2^%d sum_ok=%d median_us=%.2f min_us=%.2f\n", __builtin_ctzl(n), s == (double)n, t[20], t[0]);
#pragma omp target exit data map(delete : x[0:n])
    free(x);
  }
  return 0;
}
