// GPU only (tests/gpu/run_gpu_tests.sh builds tests/gpu/cuda/*.c): device
// memory of the CUDA plugin, with its memory pool (the default) and without
// (OMPTARGET_CUDA_MEMORY_POOL=0).
//   * omp_target_alloc of 1 GiB blocks until the device is full: the failing
//     one returns NULL with the plugin's error naming the size, the device and
//     its free memory; everything is freed again;
//   * then a target region mapping arrays works (the memory freed, kept by the
//     pool or given back to the driver, serves it);
//   * then ten target regions mapping 3 x 1 MiB and 3 x 64 MiB arrays tofrom,
//     each changing every element, and the results checked on the host.
// The second run counts the driver calls: with the pool, device memory comes
// from cuMemAllocFromPoolAsync; the third runs without it (cuMemAlloc).
// RUN: %clang-offload %s -o %t
// RUN: %run %t 2>&1 | %fcheck --implicit-check-not=FAILED
// RUN: env OMPTARGET_CUDA_API_STATS=1 %run %t 2>&1 | %fcheck --check-prefix=STATS --implicit-check-not=FAILED
// RUN: env OMPTARGET_CUDA_MEMORY_POOL=0 OMPTARGET_CUDA_API_STATS=1 %run %t 2>&1 | %fcheck --check-prefix=NOPOOL --implicit-check-not=FAILED --implicit-check-not=cuMemAllocFromPoolAsync
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define GIB ((size_t)1 << 30)
#define MAX_BLOCKS 4096   // 4 TiB: more than any device has
#define SMALL (1 << 18)   // floats: 1 MiB
#define LARGE (1 << 24)   // floats: 64 MiB
#define ITERATIONS 10

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

static void *blocks[MAX_BLOCKS];

// Fills the device with 1 GiB blocks; returns how many it got.
static int fill(int dev) {
  int n = 0;
  while (n < MAX_BLOCKS) {
    void *p = omp_target_alloc(GIB, dev);
    if (!p) break;
    blocks[n++] = p;
  }
  return n;
}

// One region over the six arrays: every element changed on the device.
static void region(float *a, float *b, float *c, float *x, float *y, float *z) {
#pragma omp target teams distribute parallel for map(tofrom : a[0:SMALL], b[0:SMALL], c[0:SMALL])
  for (int i = 0; i < SMALL; ++i) {
    a[i] += 1.0f;
    b[i] += 2.0f;
    c[i] = a[i] + b[i];
  }
#pragma omp target teams distribute parallel for map(tofrom : x[0:LARGE], y[0:LARGE], z[0:LARGE])
  for (int i = 0; i < LARGE; ++i) {
    x[i] += 1.0f;
    y[i] += 2.0f;
    z[i] = x[i] + y[i];
  }
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  int dev = omp_get_default_device();

  // CHECK: cannot allocate 1073741824 bytes (TARGET_ALLOC_DEFAULT) (the device has {{[0-9]+}} bytes free): {{.*}}CUDA_ERROR_OUT_OF_MEMORY
  // CHECK: device full after {{[1-9][0-9]*}} GiB
  int n = fill(dev);
  expect(n > 0 && n < MAX_BLOCKS, "the device fills up");
  printf("device full after %d GiB\n", n);
  for (int i = 0; i < n; ++i) omp_target_free(blocks[i], dev);

  float *a = malloc(SMALL * sizeof(float)), *b = malloc(SMALL * sizeof(float)),
        *c = malloc(SMALL * sizeof(float));
  float *x = malloc((size_t)LARGE * sizeof(float)), *y = malloc((size_t)LARGE * sizeof(float)),
        *z = malloc((size_t)LARGE * sizeof(float));
  if (!a || !b || !c || !x || !y || !z) {
    printf("FAILED: host memory\n");
    return 1;
  }
  for (int i = 0; i < SMALL; ++i) a[i] = b[i] = c[i] = (float)(i % 100);
  for (int i = 0; i < LARGE; ++i) x[i] = y[i] = z[i] = (float)(i % 100);

  // After the device was full: a region mapping arrays works.
  int r = 0;
#pragma omp target map(tofrom : a[0:SMALL]) map(from : r)
  {
    a[SMALL - 1] += 1.0f;
    r = 1;
  }
  expect(r == 1 && a[SMALL - 1] == (float)((SMALL - 1) % 100) + 1.0f,
         "a region after the device was full");
  // CHECK: region after the device was full: ok
  printf("region after the device was full: %s\n", r == 1 ? "ok" : "not run");
  a[SMALL - 1] -= 1.0f;

  for (int it = 0; it < ITERATIONS; ++it) region(a, b, c, x, y, z);
  int ok = 1;
  for (int i = 0; i < SMALL; ++i) {
    float v = (float)(i % 100);
    ok &= a[i] == v + ITERATIONS && b[i] == v + 2.0f * ITERATIONS &&
          c[i] == (v + ITERATIONS) + (v + 2.0f * ITERATIONS);
  }
  for (int i = 0; i < LARGE; ++i) {
    float v = (float)(i % 100);
    ok &= x[i] == v + ITERATIONS && y[i] == v + 2.0f * ITERATIONS &&
          z[i] == (v + ITERATIONS) + (v + 2.0f * ITERATIONS);
  }
  expect(ok, "ten regions over 3 x 1 MiB and 3 x 64 MiB arrays");
  free(a), free(b), free(c), free(x), free(y), free(z);
  // CHECK: oom pool: ok
  printf("oom pool: %s\n", failures ? "failed" : "ok");
  // STATS: api stats: cuMemAllocFromPoolAsync
  // NOPOOL: api stats: cuMemAlloc_v2
  return failures ? 1 : 0;
}
