// Target regions whose mapped arrays are larger than the memory manager's
// blocks (8 KiB), on the CUDA plugin and the fake driver: four iterations of
// one region mapping 3 x 1 MiB and 3 x 64 MiB arrays tofrom, then an
// allocation larger than the device (run with OMPTARGET_FAKE_CUDA_CAPACITY)
// that fails, and the same region again. Which driver calls served the
// mappings is for the test's regular expressions over the driver-call and
// pool statistics. Kernels do not run on the fake driver: the data comes
// back as it went.
// Prints "pool regions: ok" when every byte came back and the failure was
// reported as one. The checks (FileCheck; CMakeLists.txt runs them with a
// 256 MiB device and, but for REGIONSQ, a 300 MiB allocation):
//
// With the memory pool (prefix REGIONS): six blocks grown in the first
// iteration and reused by the next three; the failing allocation trims the
// pool, is retried once and reported with the device's free memory; the last
// region grows six blocks again.
// REGIONS: TARGET cuda RTL error: data_alloc: device 0: cannot allocate 314572800 bytes (TARGET_ALLOC_DEFAULT) (the device has 268435456 bytes free): {{.*}}cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// REGIONS: omp_target_alloc(314572800): null
// REGIONS-NEXT: pool regions: ok
// REGIONS-DAG: api stats: cuMemAllocFromPoolAsync 32 {{[0-9]}}
// REGIONS-DAG: api stats: cuMemPoolTrimTo 1 {{[0-9]}}
// REGIONS-DAG: fake cuda pool 0 (device 0): 32 allocations, 18 reused, 12 grown, 1 trims
//
// With prefix REGIONSQ, the mappings allocated and released on the
// construct's stream: no context synchronize (the synchronous release's wait)
// at all.
// REGIONSQ: pool regions: ok
// REGIONSQ-DAG: api stats: cuMemAllocFromPoolAsync 24 {{[0-9]}}
// REGIONSQ-DAG: api stats: cuMemFreeAsync 24 {{[0-9]}}
//
// Without the pool (prefix REGIONSNP): cuMemAlloc, and one retry after the
// cache was released (30 for the regions, the failed one and its retry).
// REGIONSNP: TARGET cuda RTL error: data_alloc: device 0: cannot allocate 314572800 bytes (TARGET_ALLOC_DEFAULT) (the device has 268435456 bytes free): {{.*}}cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// REGIONSNP: omp_target_alloc(314572800): null
// REGIONSNP-NEXT: pool regions: ok
// REGIONSNP-DAG: api stats: cuMemAlloc_v2 32 {{[0-9]}}
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define SMALL (1 << 18)  // floats: 1 MiB
#define LARGE (1 << 24)  // floats: 64 MiB

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

static void region(float *a, float *b, float *c, float *x, float *y, float *z, float v) {
  for (int i = 0; i < SMALL; i += 4096) a[i] = b[i] = c[i] = v;
  for (int i = 0; i < LARGE; i += 4096) x[i] = y[i] = z[i] = v;
#pragma omp target map(tofrom : a[0:SMALL], b[0:SMALL], c[0:SMALL], x[0:LARGE], y[0:LARGE], \
                           z[0:LARGE])
  {
    a[0] += 1;
    x[0] += 1;
  }
  int ok = 1;
  for (int i = 4096; i < SMALL; i += 4096) ok &= a[i] == v && b[i] == v && c[i] == v;
  for (int i = 4096; i < LARGE; i += 4096) ok &= x[i] == v && y[i] == v && z[i] == v;
  expect(ok, "arrays mapped tofrom came back");
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  size_t too_much = argc > 1 ? strtoull(argv[1], NULL, 0) : 0;
  float *a = malloc(SMALL * sizeof(float)), *b = malloc(SMALL * sizeof(float)),
        *c = malloc(SMALL * sizeof(float));
  float *x = malloc((size_t)LARGE * sizeof(float)), *y = malloc((size_t)LARGE * sizeof(float)),
        *z = malloc((size_t)LARGE * sizeof(float));
  for (int it = 0; it < 4; ++it) region(a, b, c, x, y, z, (float)it);
  if (too_much) {
    void *p = omp_target_alloc(too_much, omp_get_default_device());
    expect(p == NULL, "an allocation larger than the device fails");
    printf("omp_target_alloc(%zu): %s\n", too_much, p ? "non-null" : "null");
    region(a, b, c, x, y, z, 7.0f);
  }
  free(a), free(b), free(c), free(x), free(y), free(z);
  if (failures) return 1;
  printf("pool regions: ok\n");
  return 0;
}
