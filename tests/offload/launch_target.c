// Launch: plain `target` regions (__tgt_target_mapper): scalars, arrays,
// repeated launches, and the device() clause choosing among the 4 devices.
// GPU: skip (uses the host plugin's devices 2 and 3)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = i;
  int k = 3;
#pragma omp target map(tofrom : a)
  for (int i = 0; i < 8; i++) a[i] = a[i] * k + 1;
  // CHECK: a: 1 4 7 10 13 16 19 22
  printf("a:");
  for (int i = 0; i < 8; i++) printf(" %d", a[i]);
  printf("\n");

  long sum = 0;
  for (int rep = 0; rep < 100; rep++) {
#pragma omp target map(tofrom : sum)
    sum += rep;
  }
  // CHECK: sum=4950
  printf("sum=%ld\n", sum);

  int results[4];
  for (int d = 0; d < omp_get_num_devices(); d++) {
    int v = 0;
#pragma omp target device(d) map(tofrom : v)
    v = 10 * (d + 1);
    results[d] = v;
  }
  // CHECK: devices: 10 20 30 40
  printf("devices: %d %d %d %d\n", results[0], results[1], results[2],
         results[3]);
  return 0;
}
