// Fixed-count target regions for counting the host instructions one region
// costs (bench/count_region_instructions.sh runs it under callgrind twice,
// with two counts, and divides the difference).
//
// Usage: region_instructions CASE COUNT
//   small    target teams distribute parallel for map(to: a[0:256], b[0:256])
//            map(from: c[0:256]), floats on the heap (the GPU benchmark's
//            a_small_region: 2 copies in, the kernel, 1 copy out)
//   empty    #pragma omp target, nothing mapped, empty body (b_empty_region)
//   chain    target teams distribute parallel for nowait depend(inout: x[0])
//            map(tofrom: x[0:256]), x present (enter data before), taskwait at
//            the end (f_nowait_chain_10k)
// Each case runs one region first (the device's start, the image's load and
// the first mapping are not per-region costs), then COUNT regions, and checks
// the results where the device ran the kernel (on a fake driver kernels do
// not run: the check is then skipped, see REGION_CHECK).
//
// Prints "region_instructions CASE COUNT: ok" on success; exits 1 with a line
// naming the case and the first wrong element otherwise.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };

static int check_results(void) {
  const char *s = getenv("REGION_CHECK");
  return !s || atoi(s) != 0;
}

static int run_small(int count) {
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float)), *c = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) a[i] = (float)i, b[i] = 2.0f * (float)i, c[i] = 0.0f;
  for (int r = 0; r <= count; ++r) {
#pragma omp target teams distribute parallel for map(to: a[0:N], b[0:N]) map(from: c[0:N])
    for (int i = 0; i < N; ++i) c[i] = a[i] + b[i];
  }
  int bad = -1;
  if (check_results())
    for (int i = 0; i < N && bad < 0; ++i)
      if (c[i] != 3.0f * (float)i) bad = i;
  if (bad >= 0) fprintf(stderr, "region_instructions small: c[%d] = %g, expected %g\n", bad, c[bad], 3.0 * bad);
  free(a), free(b), free(c);
  return bad < 0;
}

static int run_empty(int count) {
  for (int r = 0; r <= count; ++r) {
#pragma omp target
    {}
  }
  return 1;
}

static int run_chain(int count) {
  int *x = calloc(N, sizeof(int));
#pragma omp target enter data map(to: x[0:N])
  for (int r = 0; r <= count; ++r) {
#pragma omp target teams distribute parallel for nowait depend(inout: x[0]) map(tofrom: x[0:N])
    for (int i = 0; i < N; ++i) x[i] += 1;
  }
#pragma omp taskwait
#pragma omp target exit data map(from: x[0:N])
  int bad = -1;
  if (check_results())
    for (int i = 0; i < N && bad < 0; ++i)
      if (x[i] != count + 1) bad = i;
  if (bad >= 0) fprintf(stderr, "region_instructions chain: x[%d] = %d, expected %d\n", bad, x[bad], count + 1);
  free(x);
  return bad < 0;
}

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[2]) < 0) {
    fprintf(stderr, "usage: %s small|empty|chain COUNT\n", argv[0]);
    return 2;
  }
  int count = atoi(argv[2]), ok;
  if (!strcmp(argv[1], "small"))
    ok = run_small(count);
  else if (!strcmp(argv[1], "empty"))
    ok = run_empty(count);
  else if (!strcmp(argv[1], "chain"))
    ok = run_chain(count);
  else {
    fprintf(stderr, "region_instructions: unknown case '%s' (small, empty, chain)\n", argv[1]);
    return 2;
  }
  if (!ok) return 1;
  printf("region_instructions %s %d: ok\n", argv[1], count);
  return 0;
}
