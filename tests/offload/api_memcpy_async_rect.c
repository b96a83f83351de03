// API (OpenMP 5.1, beyond LLVM 14): omp_target_memcpy_rect_async in 2 and 3
// dimensions, host -> device -> other device -> host, ordered by depend
// objects; the rectangle's arrays are the caller's locals and die before the
// copy runs (the runtime keeps its own copy); NULL dst and src query the
// number of dimensions.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=2000 %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

// Submits a 2-D copy of the block rows 1-2, cols 1-3 of a [4][5] host matrix
// to (0,1) of a [3][4] device matrix; the size arrays live only here.
static int submit2d(int *dm, int (*m)[5], int host, omp_depend_t *dep) {
  size_t vol[2] = {2, 3}, doff[2] = {0, 1}, soff[2] = {1, 1}, ddim[2] = {3, 4}, sdim[2] = {4, 5};
  return omp_target_memcpy_rect_async(dm, m, sizeof(int), 2, vol, doff, soff, ddim, sdim, 0,
                                      host, 1, dep);
}

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  // CHECK: max dims is INT_MAX=1
  printf("max dims is INT_MAX=%d\n",
         omp_target_memcpy_rect_async(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0,
                                      NULL) == INT_MAX);

  // 2-D
  int m[4][5];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) m[i][j] = 10 * i + j;
  int *dm = omp_target_alloc(12 * sizeof(int), 0);
  int z12[12] = {0};
  omp_target_memcpy(dm, z12, sizeof(z12), 0, 0, 0, host);
  omp_depend_t odm;
#pragma omp depobj(odm) depend(inout : dm[0])
  int rc = submit2d(dm, m, host, &odm);
  int r[3][4];
  memset(r, 0xff, sizeof r);
  {
    size_t vol[2] = {3, 4}, o[2] = {0, 0}, dim[2] = {3, 4};
    rc |= omp_target_memcpy_rect_async(r, dm, sizeof(int), 2, vol, o, o, dim, dim, host, 0, 1,
                                       &odm);
  }
  int row0 = -1;
#pragma omp task depend(in : dm[0]) shared(row0, r)
  row0 = r[0][1] + r[0][2] + r[0][3];
#pragma omp taskwait
  // CHECK: 2-D rc=0 task saw row0 sum 36
  // CHECK-NEXT: r0: 0 11 12 13
  // CHECK-NEXT: r1: 0 21 22 23
  // CHECK-NEXT: r2: 0 0 0 0
  printf("2-D rc=%d task saw row0 sum %d\n", rc, row0);
  for (int i = 0; i < 3; i++) printf("r%d: %d %d %d %d\n", i, r[i][0], r[i][1], r[i][2], r[i][3]);

  // 3-D: c[3][4][5] sub-box [1:2][1:2][2:3] -> dense box on device 0 ->
  // device 1 (whole box) -> back to the host box.
  double c[3][4][5];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 5; k++) c[i][j][k] = 100 * i + 10 * j + k;
  double *dc0 = omp_target_alloc(12 * sizeof(double), 0);
  double *dc1 = omp_target_alloc(12 * sizeof(double), 1);
  double box[2][2][3];
  memset(box, 0, sizeof box);
  omp_depend_t o0, o1, ob;
#pragma omp depobj(o0) depend(inout : dc0[0])
#pragma omp depobj(o1) depend(inout : dc1[0])
#pragma omp depobj(ob) depend(out : box)
  size_t vol3[3] = {2, 2, 3}, z3[3] = {0, 0, 0}, soff3[3] = {1, 1, 2}, bdim[3] = {2, 2, 3},
         cdim[3] = {3, 4, 5};
  rc = omp_target_memcpy_rect_async(dc0, c, sizeof(double), 3, vol3, z3, soff3, bdim, cdim, 0,
                                    host, 1, &o0);
  {
    omp_depend_t deps[2] = {o0, o1};
    rc |= omp_target_memcpy_rect_async(dc1, dc0, sizeof(double), 3, vol3, z3, z3, bdim, bdim, 1, 0,
                                       2, deps);
  }
  {
    omp_depend_t deps[2] = {o1, ob};
    rc |= omp_target_memcpy_rect_async(box, dc1, sizeof(double), 3, vol3, z3, z3, bdim, bdim, host,
                                       1, 2, deps);
  }
#pragma omp taskwait
  // CHECK: 3-D rc=0: 112 113 114 122 123 124 212 213 214 222 223 224
  printf("3-D rc=%d:", rc);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 3; k++) printf(" %.0f", box[i][j][k]);
  printf("\n");

#pragma omp depobj(odm) destroy
#pragma omp depobj(o0) destroy
#pragma omp depobj(o1) destroy
#pragma omp depobj(ob) destroy
  omp_target_free(dm, 0);
  omp_target_free(dc0, 0);
  omp_target_free(dc1, 1);
  // CHECK-NOT: Libomptarget error
  // CHECK: done
  printf("done\n");
  return 0;
}
