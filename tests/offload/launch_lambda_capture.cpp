// Lambdas captured by value in a target region: the lambda object is a
// first-private argument and clang passes each captured pointer as a
// PTR_AND_OBJ|LITERAL|IMPLICIT|MEMBER_OF entry after it. The device copy of
// the lambda must hold the device addresses of the mapped pointees (the
// kernel writes the device copy of b, which comes back with map(from)),
// including a pointer into the middle of a mapped section and in combined
// constructs; a captured pointer whose pointee is not mapped keeps its host
// value; a lambda that is mapped explicitly gets its pointers patched too.
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdio>
#include <cstdlib>

template <typename F> void apply(int n, F f) {
  for (int i = 0; i < n; i++) f(i);
}

int main() {
  const int n = 1000;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = -1;
  }
  auto twice = [=](int i) { b[i] = a[i] * 2; };
  long seen_a = 0;
#pragma omp target map(to : a[0 : n]) map(from : b[0 : n]) map(from : seen_a)
  {
    seen_a = (long)a;
    apply(n, twice);
  }
  // CHECK: target: b[1]=2 b[999]=1998
  printf("target: b[1]=%g b[999]=%g\n", b[1], b[999]);

  // A pointer into the middle of the mapped section.
  double *mid = a + 500;
  auto shifted = [=](int i) { b[i] = mid[i - 500] + 0.5; };
#pragma omp target teams distribute parallel for map(to : a[0 : n]) map(tofrom : b[0 : n])
  for (int i = 500; i < n; i++) shifted(i);
  // CHECK: tdpf: b[499]=998 b[500]=500.5 b[999]=999.5
  printf("tdpf: b[499]=%g b[500]=%g b[999]=%g\n", b[499], b[500], b[999]);

#pragma omp target parallel for map(to : a[0 : n]) map(tofrom : b[0 : n])
  for (int i = 0; i < n; i++) twice(i);
  // CHECK: parallel for: b[3]=6 b[998]=1996
  printf("parallel for: b[3]=%g b[998]=%g\n", b[3], b[998]);

  // The pointee is not mapped: the device sees the host address unchanged.
  double *unmapped = (double *)malloc(4 * sizeof(double));
  auto peek = [=]() { return (long)unmapped; };
  long seen = 0;
#pragma omp target map(from : seen)
  seen = peek();
  // CHECK: unmapped capture keeps its value=1
  printf("unmapped capture keeps its value=%d\n", seen == (long)unmapped);

  // Regions from several threads, each with its own lambda.
  int ok = 0;
#pragma omp parallel for reduction(+ : ok) num_threads(4)
  for (int t = 0; t < 8; t++) {
    double *c = (double *)malloc(64 * sizeof(double));
    auto fill = [=](int i) { c[i] = t * 100 + i; };
#pragma omp target map(from : c[0 : 64])
    for (int i = 0; i < 64; i++) fill(i);

    ok += c[0] == t * 100 && c[63] == t * 100 + 63;
    free(c);
  }
  // CHECK: threads ok=8
  printf("threads ok=%d\n", ok);
  free(unmapped);
  free(a);
  free(b);
  return 0;
}
