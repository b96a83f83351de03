// Launch: every combined target construct clang 14 accepts, with and
// without num_teams/num_threads/thread_limit, at trip counts around the
// launch shapes (1, a warp, a block, several blocks, a large count): each
// adds 1 to every element exactly once, so any iteration run twice, skipped
// or raced shows up as a wrong element count. (clang 14 does not accept the
// `loop` combined forms: `target parallel loop` compiles, with a warning, as
// `target parallel` whose every thread runs the whole loop; see
// docs/usage.md.) Dynamic schedules, which LLVM 14's device runtime cannot
// build, are in device_runtime_llvm14_gaps.c.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int check(const char *what, const int *a, int n, int *failures) {
  int bad = 0;
  for (int i = 0; i < n; i++) bad += a[i] != i + 1;
  if (bad) {
    printf("%s n=%d: %d wrong\n", what, n, bad);
    ++*failures;
  }
  return bad;
}

static void reset(int *a, int n) {
  for (int i = 0; i < n; i++) a[i] = i;
}

int main(void) {
  static const int sizes[] = {1, 31, 32, 33, 64, 127, 128, 129, 255, 256, 257, 1000, 4096, 100003, 1 << 22};
  int *a = (int *)malloc((1 << 22) * sizeof(int));
  int failures = 0, cases = 0;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int n = sizes[s];
#define CASE(NAME, PRAGMA)                                                                         \
  reset(a, n);                                                                                     \
  _Pragma(PRAGMA) for (int i = 0; i < n; i++) a[i] += 1;                                           \
  check(NAME, a, n, &failures);                                                                    \
  cases++;
#define NESTED(NAME, OUTER, INNER)                                                                 \
  reset(a, n);                                                                                     \
  _Pragma(OUTER) {                                                                                 \
    _Pragma(INNER) for (int i = 0; i < n; i++) a[i] += 1;                                          \
  }                                                                                                \
  check(NAME, a, n, &failures);                                                                    \
  cases++;
    CASE("target parallel for", "omp target parallel for map(tofrom : a[0 : n])")
    CASE("target parallel for num_threads(7)", "omp target parallel for num_threads(7) map(tofrom : a[0 : n])")
    CASE("target parallel for num_threads(128)", "omp target parallel for num_threads(128) map(tofrom : a[0 : n])")
    CASE("target parallel for simd", "omp target parallel for simd map(tofrom : a[0 : n])")
    CASE("target parallel for simd num_threads(64)", "omp target parallel for simd num_threads(64) map(tofrom : a[0 : n])")
    CASE("target simd", "omp target simd map(tofrom : a[0 : n])")
    CASE("target teams distribute", "omp target teams distribute map(tofrom : a[0 : n])")
    CASE("target teams distribute num_teams(3)", "omp target teams distribute num_teams(3) map(tofrom : a[0 : n])")
    CASE("target teams distribute simd", "omp target teams distribute simd map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for", "omp target teams distribute parallel for map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for thread_limit(64)", "omp target teams distribute parallel for thread_limit(64) map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for num_teams(5) thread_limit(96)", "omp target teams distribute parallel for num_teams(5) thread_limit(96) map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for dist_schedule(static, 100)", "omp target teams distribute parallel for dist_schedule(static, 100) map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for schedule(static, 1)", "omp target teams distribute parallel for schedule(static, 1) map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for num_threads(32)", "omp target teams distribute parallel for num_threads(32) map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for simd", "omp target teams distribute parallel for simd map(tofrom : a[0 : n])")
    CASE("target teams distribute parallel for simd thread_limit(128)", "omp target teams distribute parallel for simd thread_limit(128) map(tofrom : a[0 : n])")
    // Nested forms: the inner construct inside a target region.
    NESTED("target + teams distribute parallel for", "omp target map(tofrom : a[0 : n])", "omp teams distribute parallel for")
    NESTED("target teams + distribute parallel for", "omp target teams map(tofrom : a[0 : n])", "omp distribute parallel for")
    NESTED("target parallel + for", "omp target parallel map(tofrom : a[0 : n])", "omp for")
    NESTED("target parallel num_threads(50) + for", "omp target parallel num_threads(50) map(tofrom : a[0 : n])", "omp for")
  }
  // CHECK: 315 cases, 0 failures
  printf("%d cases, %d failures\n", cases, failures);
  free(a);
  return 0;
}
