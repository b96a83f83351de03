// Launch: `target parallel`, `target parallel for` (with num_threads,
// reduction, schedule) and `target simd`.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[256];
#pragma omp target parallel for map(from : a) schedule(static, 7)
  for (int i = 0; i < 256; i++) a[i] = i * i;
  // CHECK: a[0]=0 a[10]=100 a[255]=65025
  printf("a[0]=%d a[10]=%d a[255]=%d\n", a[0], a[10], a[255]);

  long s = 0;
#pragma omp target parallel for reduction(+ : s) num_threads(2) map(tofrom : s)
  for (int i = 0; i < 1000; i++) s += i;
  // CHECK: s=499500
  printf("s=%ld\n", s);

  int nth = -1;
#pragma omp target parallel num_threads(2) map(from : nth)
  {
    if (omp_get_thread_num() == 0) nth = omp_get_num_threads();
  }
  // CHECK: nth ok=1
  printf("nth ok=%d\n", nth >= 1 && nth <= 2);

  int b[64];
#pragma omp target simd map(from : b)
  for (int i = 0; i < 64; i++) b[i] = 64 - i;
  // CHECK: b[0]=64 b[63]=1
  printf("b[0]=%d b[63]=%d\n", b[0], b[63]);
  return 0;
}
