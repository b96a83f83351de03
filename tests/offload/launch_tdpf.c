// Launch: combined `target teams distribute parallel for` and
// `target teams distribute` with reductions and collapse.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 2 * i;
  }
  double a = 0.5;
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
  for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
  // CHECK: y[0]=0.0 y[1]=2.5 y[999]=2497.5
  printf("y[0]=%.1f y[1]=%.1f y[999]=%.1f\n", y[0], y[1], y[999]);

  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) map(tofrom : s)
  for (int i = 1; i <= N; i++) s += i;
  // CHECK: s=500500
  printf("s=%ld\n", s);

  int m[8][16];
#pragma omp target teams distribute parallel for collapse(2) map(from : m)
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 16; j++) m[i][j] = i * 100 + j;
  // CHECK: m[0][0]=0 m[3][5]=305 m[7][15]=715
  printf("m[0][0]=%d m[3][5]=%d m[7][15]=%d\n", m[0][0], m[3][5], m[7][15]);

  long p = 0;
#pragma omp target teams distribute reduction(+ : p) num_teams(2) map(tofrom : p)
  for (int i = 0; i < 100; i++) p += i * i;
  // CHECK: p=328350
  printf("p=%ld\n", p);
  return 0;
}
