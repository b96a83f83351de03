// API: omp_target_memcpy_rect in 1, 2 and 3 dimensions between host and
// device (offsets and dimensions in elements), and device-to-device; a NULL
// dst and src queries the maximum number of dimensions (INT_MAX on LLVM 14).
// GPU: skip (uses the host plugin's devices 2 and 3)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <limits.h>
#include <stdio.h>

int main(void) {
  int host = omp_get_initial_device();
  // CHECK: max dims is INT_MAX=1
  printf("max dims is INT_MAX=%d\n",
         omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL,
                                0, 0) == INT_MAX);
  // 1-D: host a[2..5] -> dev[1..4]
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int *d = omp_target_alloc(8 * sizeof(int), 0);
  int zero[8] = {0};
  omp_target_memcpy(d, zero, sizeof(zero), 0, 0, 0, host);
  size_t vol1[1] = {4}, doff1[1] = {1}, soff1[1] = {2}, ddim1[1] = {8}, sdim1[1] = {8};
  int rc1 = omp_target_memcpy_rect(d, a, sizeof(int), 1, vol1, doff1, soff1,
                                   ddim1, sdim1, 0, host);
  int back[8];
  omp_target_memcpy(back, d, sizeof(back), 0, 0, host, 0);
  // CHECK: 1-D rc=0: 0 2 3 4 5 0 0 0
  printf("1-D rc=%d: %d %d %d %d %d %d %d %d\n", rc1, back[0], back[1], back[2],
         back[3], back[4], back[5], back[6], back[7]);

  // 2-D: host m[4][5] block rows 1-2, cols 1-3 -> device dm[3][4] at (0,1)
  int m[4][5];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 10 * i + j;
  int *dm = omp_target_alloc(12 * sizeof(int), 0);
  int z12[12] = {0};
  omp_target_memcpy(dm, z12, sizeof(z12), 0, 0, 0, host);
  size_t vol2[2] = {2, 3}, doff2[2] = {0, 1}, soff2[2] = {1, 1},
         ddim2[2] = {3, 4}, sdim2[2] = {4, 5};
  int rc2 = omp_target_memcpy_rect(dm, m, sizeof(int), 2, vol2, doff2, soff2,
                                   ddim2, sdim2, 0, host);
  int r[3][4];
  omp_target_memcpy(r, dm, sizeof(r), 0, 0, host, 0);
  // CHECK: 2-D rc=0
  // CHECK-NEXT: r0: 0 11 12 13
  // CHECK-NEXT: r1: 0 21 22 23
  // CHECK-NEXT: r2: 0 0 0 0
  printf("2-D rc=%d\n", rc2);
  for (int i = 0; i < 3; i++)
    printf("r%d: %d %d %d %d\n", i, r[i][0], r[i][1], r[i][2], r[i][3]);

  // 2-D device -> host back into a fresh matrix at (2,0).
  int out[4][5] = {{0}};
  size_t doff2b[2] = {2, 0}, soff2b[2] = {0, 1};
  int rc2b = omp_target_memcpy_rect(out, dm, sizeof(int), 2, vol2, doff2b,
                                    soff2b, sdim2, ddim2, host, 0);
  // CHECK: 2-D back rc=0 row2: 11 12 13 0 0 row3: 21 22 23 0 0 row1: 0
  printf("2-D back rc=%d row2: %d %d %d %d %d row3: %d %d %d %d %d row1: %d\n",
         rc2b, out[2][0], out[2][1], out[2][2], out[2][3], out[2][4], out[3][0],
         out[3][1], out[3][2], out[3][3], out[3][4], out[1][0]);

  // 3-D: c[3][4][5] sub-box [1:2][1:2][2:3] -> device box[2][2][3] (dense).
  double c[3][4][5];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 5; k++) c[i][j][k] = 100 * i + 10 * j + k;
  double *dc = omp_target_alloc(12 * sizeof(double), 2);
  size_t vol3[3] = {2, 2, 3}, doff3[3] = {0, 0, 0}, soff3[3] = {1, 1, 2},
         ddim3[3] = {2, 2, 3}, sdim3[3] = {3, 4, 5};
  int rc3 = omp_target_memcpy_rect(dc, c, sizeof(double), 3, vol3, doff3, soff3,
                                   ddim3, sdim3, 2, host);
  double box[12];
  omp_target_memcpy(box, dc, sizeof(box), 0, 0, host, 2);
  // CHECK: 3-D rc=0: 112 113 114 122 123 124 212 213 214 222 223 224
  printf("3-D rc=%d:", rc3);
  for (int i = 0; i < 12; i++) printf(" %.0f", box[i]);
  printf("\n");

  // device -> device 1-D between devices 2 and 3.
  double *dd = omp_target_alloc(12 * sizeof(double), 3);
  size_t vol1b[1] = {12}, o0[1] = {0}, dim12[1] = {12};
  int rc4 = omp_target_memcpy_rect(dd, dc, sizeof(double), 1, vol1b, o0, o0,
                                   dim12, dim12, 3, 2);
  double last = 0;
  omp_target_memcpy(&last, dd, sizeof(double), 0, 11 * sizeof(double), host, 3);
  // CHECK: dev2->dev3 rc=0 last=224
  printf("dev2->dev3 rc=%d last=%.0f\n", rc4, last);
  omp_target_free(d, 0);
  omp_target_free(dm, 0);
  omp_target_free(dc, 2);
  omp_target_free(dd, 3);
  return 0;
}
