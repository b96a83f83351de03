// omp_target_memcpy and omp_target_memcpy_rect between two devices (the last
// device and device 0; the same device when there is only one), with offsets,
// checked through the host. Portable: runs on the host plugin's four devices
// and on one or two GPUs.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

#define N 4096

int main(void) {
  int host = omp_get_initial_device();
  int d0 = 0, d1 = omp_get_num_devices() - 1;
  static double src[N], back[N];
  for (int i = 0; i < N; i++) src[i] = i * 0.5;
  double *a = omp_target_alloc(N * sizeof(double), d0);
  double *b = omp_target_alloc(N * sizeof(double), d1);
  int rc = omp_target_memcpy(a, src, N * sizeof(double), 0, 0, d0, host);
  // Device-to-device, shifted by 16 elements.
  rc |= omp_target_memcpy(b, a, (N - 16) * sizeof(double), 16 * sizeof(double), 0, d1, d0);
  rc |= omp_target_memcpy(back, b, N * sizeof(double), 0, 0, host, d1);
  int bad = 0;
  for (int i = 16; i < N; i++) bad += back[i] != (i - 16) * 0.5;
  // CHECK: d2d rc=0 bad=0
  printf("d2d rc=%d bad=%d\n", rc, bad);

  // A 3x4 block out of a 64x64 matrix on d0 into the corner of one on d1.
  size_t vol[2] = {3, 4}, so[2] = {10, 20}, dof[2] = {0, 0}, dims[2] = {64, 64};
  rc = omp_target_memcpy_rect(b, a, sizeof(double), 2, vol, dof, so, dims, dims, d1, d0);
  rc |= omp_target_memcpy(back, b, 2 * 64 * sizeof(double), 0, 0, host, d1);
  // CHECK: rect rc=0 b[0][0..3]=330.0 330.5 331.0 331.5 b[1][0]=362.0
  printf("rect rc=%d b[0][0..3]=%.1f %.1f %.1f %.1f b[1][0]=%.1f\n", rc, back[0], back[1], back[2],
         back[3], back[64]);
  omp_target_free(a, d0);
  omp_target_free(b, d1);
  return 0;
}
