// Update: multi-dimensional non-contiguous updates: `from(m[0:2][1:3])`
// copies a 2x3 block out of a 4x5 matrix; `to(m[1:3][0:3:2])` a strided inner one;
// a 3-D block `to(c[1:2][0:2][2:2])`; `from(m[1:3:1][2:2])`;
// `to(m[1:1][1:2:2])` (LLVM 14 copies m[1][2] instead of m[1][1], m[1][3]).
// clang 14 passes these as non-contiguous descriptors {offset, count, stride}
// per dimension, outermost first, offsets in elements, strides in bytes, the
// last dimension being the element itself (e.g. m[0:2][1:3] of int[4][5] is
// {0,2,20} {1,3,4} {0,1,4}). LLVM 14's runtime loses the count of an
// innermost dimension that is contiguous with the element (copies 1 element
// per row instead of 3), so this pins the correct OpenMP result.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int m[4][5];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 10 * i + j;
#pragma omp target enter data map(to : m)
#pragma omp target
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = -m[i][j] - 1;
#pragma omp target update from(m[0 : 2][1 : 3])
  // CHECK: row0: 0 -2 -3 -4 4
  // CHECK: row1: 10 -12 -13 -14 14
  // CHECK: row2: 20 21 22 23 24
  for (int i = 0; i < 3; i++) {
    printf("row%d:", i);
    for (int j = 0; j < 5; j++) printf(" %d", m[i][j]);
    printf("\n");
  }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 500;
#pragma omp target update to(m[1 : 3][0 : 3 : 2])
  int dev[4][5];
#pragma omp target map(from : dev)
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) dev[i][j] = m[i][j];
  // rows 1-3, columns 0, 2, 4 updated to 500. (A strided *outer* dimension
  // with an offset, e.g. m[1:2:2][0:2], cannot be honoured: clang 14 does not
  // pass the extent needed to locate its rows; see docs/usage.md.)
  // CHECK: dev1: 500 -12 500 -14 500
  // CHECK: dev2: 500 -22 500 -24 500
  // CHECK: dev3: 500 -32 500 -34 500
  for (int i = 1; i < 4; i++)
    printf("dev%d: %d %d %d %d %d\n", i, dev[i][0], dev[i][1], dev[i][2],
           dev[i][3], dev[i][4]);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 0;
#pragma omp target update from(m[1 : 3 : 1][2 : 2])
  // CHECK: block: 0 0 0 0 0 | 0 0 500 -14 0 | 0 0 500 -24 0 | 0 0 500 -34 0
  printf("block:");
  for (int i = 0; i < 4; i++) {
    printf("%s", i ? " |" : "");
    for (int j = 0; j < 5; j++) printf(" %d", m[i][j]);
  }
  printf("\n");
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 0;
  m[1][1] = 7;
  m[1][3] = 8;
#pragma omp target update to(m[1 : 1][1 : 2 : 2])
  int d11 = 0, d12 = 0, d13 = 0;
#pragma omp target map(from : d11, d12, d13)
  {
    d11 = m[1][1];
    d12 = m[1][2];
    d13 = m[1][3];
  }
  // CHECK: to(m[1:1][1:2:2]): 7 500 8
  printf("to(m[1:1][1:2:2]): %d %d %d\n", d11, d12, d13);
#pragma omp target exit data map(delete : m)

  int c[3][3][4];
  for (int i = 0; i < 36; i++) (&c[0][0][0])[i] = i;
#pragma omp target enter data map(to : c)
  for (int i = 0; i < 36; i++) (&c[0][0][0])[i] = 0;
#pragma omp target update to(c[1 : 2][0 : 2][2 : 2])
  int sum = 0;
#pragma omp target map(from : sum)
  {
    sum = 0;
    for (int i = 0; i < 36; i++) sum += (&c[0][0][0])[i];
  }
  // Device keeps the original except for 8 zeroed elements:
  // [1][0][2..3]=14,15 [1][1][2..3]=18,19 [2][0][2..3]=26,27 [2][1][2..3]=30,31
  // 630 - 180 = 450
  // CHECK: 3-D sum=450
  printf("3-D sum=%d\n", sum);
#pragma omp target exit data map(delete : c)
  return 0;
}
