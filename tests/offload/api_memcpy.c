// API: omp_target_memcpy in all host/device direction combinations, with
// nonzero dst/src offsets, device-to-device across two devices, and the
// host-to-host case through the initial device. Returns 0 on success.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int host = omp_get_initial_device();
  int src[8], dst[8];
  for (int i = 0; i < 8; i++) {
    src[i] = i + 1;
    dst[i] = 0;
  }
  int *d0 = omp_target_alloc(8 * sizeof(int), 0);
  int *d1 = omp_target_alloc(8 * sizeof(int), 1);
  int rc[6];
  // host -> dev0: src[2..5] to d0[0..3]
  rc[0] = omp_target_memcpy(d0, src, 4 * sizeof(int), 0, 2 * sizeof(int), 0, host);
  // host -> dev0: src[0..1] to d0[6..7]
  rc[1] = omp_target_memcpy(d0, src, 2 * sizeof(int), 6 * sizeof(int), 0, 0, host);
  // dev0 -> dev0: d0[0..1] to d0[4..5]
  rc[2] = omp_target_memcpy(d0, d0, 2 * sizeof(int), 4 * sizeof(int), 0, 0, 0);
  // dev0 -> dev1 (whole)
  rc[3] = omp_target_memcpy(d1, d0, 8 * sizeof(int), 0, 0, 1, 0);
  // dev1 -> host with offsets: d1[1..7] to dst[0..6]
  rc[4] = omp_target_memcpy(dst, d1, 7 * sizeof(int), 0, 1 * sizeof(int), host, 1);
  // host -> host
  int hh[2] = {0, 0};
  rc[5] = omp_target_memcpy(hh, src, sizeof(hh), 0, 6 * sizeof(int), host, host);
  // CHECK: rc=0,0,0,0,0,0
  printf("rc=%d,%d,%d,%d,%d,%d\n", rc[0], rc[1], rc[2], rc[3], rc[4], rc[5]);
  // d0 = {3,4,5,6,3,4,1,2}; dst = d1[1..7] = {4,5,6,3,4,1,2}
  // CHECK: dst=4,5,6,3,4,1,2,0
  printf("dst=%d,%d,%d,%d,%d,%d,%d,%d\n", dst[0], dst[1], dst[2], dst[3], dst[4],
         dst[5], dst[6], dst[7]);
  // CHECK: hh=7,8
  printf("hh=%d,%d\n", hh[0], hh[1]);

  // The device data is what a region sees through is_device_ptr.
  int s = 0;
#pragma omp target device(1) is_device_ptr(d1) map(from : s)
  {
    s = 0;
    for (int i = 0; i < 8; i++) s += d1[i];
  }
  // CHECK: dev1 sum=28
  printf("dev1 sum=%d\n", s);

  // Copy into mapped data through its device address.
  int m[4] = {0, 0, 0, 0};
#pragma omp target enter data map(to : m)
  int *dm = NULL;
#pragma omp target data use_device_ptr(dm) map(alloc : m)
  {}
  int v = 99;
  int *mm = m;
#pragma omp target data use_device_ptr(mm)
  {
    rc[0] = omp_target_memcpy(mm, &v, sizeof(int), 3 * sizeof(int), 0, 0, host);
  }
#pragma omp target exit data map(from : m)
  // CHECK: mapped copy rc=0 m3=99
  printf("mapped copy rc=%d m3=%d\n", rc[0], m[3]);
  omp_target_free(d0, 0);
  omp_target_free(d1, 1);
  return 0;
}
