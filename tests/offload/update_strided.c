// Update: strided `target update`.
// 1-D: clang 14 drops the stride of a 1-D section (`to(a[0:4:2])` is emitted
// as a plain contiguous 4-element update of a[0..3]), so the runtime copies a
// contiguous range: pinned here since both runtimes receive the same call.
// 2-D with a stride in the innermost dimension (`from(m[0:2][0:3:2])`) or a
// single-element innermost dimension (`from(m[0:2:3][1:1])`) arrives as a
// non-contiguous descriptor and copies exactly the selected elements.
// (Contiguous inner blocks like m[0:2][1:3] are in update_2d_block.c.)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <string.h>

int m[4][5];

static void show(const char *s) {
  printf("%s:", s);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 5; j++) printf(" %d", m[i][j]);
    printf(" |");
  }
  printf("\n");
}

int main(void) {
  int a[12];
  for (int i = 0; i < 12; i++) a[i] = i;
#pragma omp target enter data map(to : a)
  for (int i = 0; i < 12; i++) a[i] = 100 + i;
#pragma omp target update to(a[0 : 4 : 2])
  int dev[12];
#pragma omp target map(from : dev)
  for (int i = 0; i < 12; i++) dev[i] = a[i];
  // CHECK: 1-D to(a[0:4:2]) device: 100 101 102 103 4 5 6 7 8 9 10 11
  printf("1-D to(a[0:4:2]) device:");
  for (int i = 0; i < 12; i++) printf(" %d", dev[i]);
  printf("\n");
#pragma omp target exit data map(delete : a)

  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 10 * i + j;
#pragma omp target enter data map(to : m)
#pragma omp target
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = -m[i][j] - 1;
  memset(m, 0, sizeof m);
#pragma omp target update from(m[0 : 2][0 : 3 : 2])
  // CHECK: m[0:2][0:3:2]: -1 0 -3 0 -5 | -11 0 -13 0 -15 | 0 0 0 0 0 | 0 0 0 0 0 |
  show("m[0:2][0:3:2]");
  memset(m, 0, sizeof m);
#pragma omp target update from(m[0 : 2 : 3][1 : 1])
  // CHECK: m[0:2:3][1:1]: 0 -2 0 0 0 | 0 0 0 0 0 | 0 0 0 0 0 | 0 -32 0 0 0 |
  show("m[0:2:3][1:1]");
#pragma omp target exit data map(delete : m)
  return 0;
}
