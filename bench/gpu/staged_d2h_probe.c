// Probe (informational, not part of run_gpu_bench.sh): device-to-host copies
// from pageable memory through the CUDA plugin's staging pipeline, per size,
// as `target update from(p[0:n])` of a mapped buffer and as the copy back of
// a `target teams distribute parallel for map(tofrom: p[0:n])` region.
// The measurement behind keeping staged device-to-host copies synchronous
// (docs/benchmarks.md, "Locked host memory"). Build (as the benchmark
// programs):
//   clang -O2 -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 \
//         --cuda-path=/tmp/sm90 bench/gpu/staged_d2h_probe.c -o staged_d2h_probe
// Prints one line per size and operation: size=<MiB> op=<update_from|region> us=<median>.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "../bench_common.h"

static double median7(double *v) {
  qsort(v, 7, sizeof(double), cmp_double);
  return v[3];
}

int main(void) {
  print_loaded_libraries();
  const size_t mib[] = {16, 32, 64, 128};
  for (int k = 0; k < 4; ++k) {
    size_t n = mib[k] * (1u << 20) / sizeof(float);
    float *p = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) p[i] = (float)(i & 1023);
#pragma omp target enter data map(to : p[0:n])
    double v[7];
    for (int r = 0; r < 7; ++r) {
      double t0 = now_ns();
      for (int i = 0; i < 10; ++i) {
#pragma omp target update from(p[0:n])
      }
      v[r] = (now_ns() - t0) / 10 / 1e3;
    }
    printf("size=%zu op=update_from us=%.1f\n", mib[k], median7(v));
#pragma omp target exit data map(delete : p[0:n])
    for (int r = 0; r < 7; ++r) {
      double t0 = now_ns();
      for (int i = 0; i < 10; ++i) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
        for (size_t j = 0; j < n; ++j) p[j] = p[j] * 0.5f + 1.0f;
      }
      v[r] = (now_ns() - t0) / 10 / 1e3;
    }
    printf("size=%zu op=region us=%.1f\n", mib[k], median7(v));
    int bad = 0;
    for (size_t j = 0; j < n && !bad; ++j) bad = !(p[j] == p[j]);  // NaN check only
    if (bad) printf("size=%zu error=nan\n", mib[k]);
    free(p);
  }
  return 0;
}
