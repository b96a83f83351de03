// Mapping: array sections. Only the mapped section `a[10:20]` is present and
// transferred; sub-sections of a mapped section are found inside it; a
// section of a pointer's pointee `p[lo:len]` works too.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int a[40];
  for (int i = 0; i < 40; i++) a[i] = i;
#pragma omp target data map(tofrom : a[10 : 20])
  {
    // CHECK: present: a+9=0 a+10=1 a+29=1 a+30=0
    printf("present: a+9=%d a+10=%d a+29=%d a+30=%d\n",
           omp_target_is_present(a + 9, 0), omp_target_is_present(a + 10, 0),
           omp_target_is_present(a + 29, 0), omp_target_is_present(a + 30, 0));
#pragma omp target map(tofrom : a[15 : 5])
    for (int i = 15; i < 20; i++) a[i] = -a[i];
#pragma omp target map(tofrom : a[10 : 20])
    for (int i = 10; i < 30; i++) a[i] += 1000;
  }
  // CHECK: a[9]=9 a[10]=1010 a[15]=985 a[29]=1029 a[30]=30
  printf("a[9]=%d a[10]=%d a[15]=%d a[29]=%d a[30]=%d\n", a[9], a[10], a[15],
         a[29], a[30]);

  // Section of a heap block through a pointer; only [4:8] is copied back.
  int n = 16;
  double *p = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) p[i] = i;
#pragma omp target map(tofrom : p[4 : 8])
  for (int i = 4; i < 12; i++) p[i] = p[i] * 0.5;
  // CHECK: p[3]=3.0 p[4]=2.0 p[11]=5.5 p[12]=12.0
  printf("p[3]=%.1f p[4]=%.1f p[11]=%.1f p[12]=%.1f\n", p[3], p[4], p[11],
         p[12]);

  // Sections with implicit lower bound / length.
  int b[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int c[8] = {0, 1, 2, 3, 4, 5, 6, 7};
#pragma omp target map(tofrom : b[:3]) map(to : c[5:])
  {
    b[0] = c[5] + c[6] + c[7];
    b[2] = -1;
  }
  // CHECK: b=18,1,-1,3,4,5,6,7
  printf("b=%d,%d,%d,%d,%d,%d,%d,%d\n", b[0], b[1], b[2], b[3], b[4], b[5],
         b[6], b[7]);
  free(p);
  return 0;
}
