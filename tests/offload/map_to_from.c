// Mapping: map types to / from / tofrom / alloc on `target` and `target data`.
// `to` copies in only; `from` copies out only; `tofrom` both; `alloc` neither.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0}, both[4] = {5, 6, 7, 8};
  int sum = 0;
#pragma omp target map(to : in) map(from : out, sum) map(tofrom : both)
  {
    sum = 0;
    for (int i = 0; i < 4; i++) {
      sum += in[i];
      out[i] = in[i] * 2;
      both[i] += in[i];
      in[i] = -1; // not copied back
    }
  }
  // CHECK: sum=10 in=1,2,3,4 out=2,4,6,8 both=6,8,10,12
  printf("sum=%d in=%d,%d,%d,%d out=%d,%d,%d,%d both=%d,%d,%d,%d\n", sum, in[0],
         in[1], in[2], in[3], out[0], out[1], out[2], out[3], both[0], both[1],
         both[2], both[3]);

  // alloc: no copy in or out; the device buffer is written then read on device.
  int tmp[4] = {9, 9, 9, 9};
  int res = 0;
#pragma omp target data map(alloc : tmp) map(tofrom : res)
  {
#pragma omp target
    for (int i = 0; i < 4; i++) tmp[i] = i * 10;
#pragma omp target map(tofrom : res)
    res = tmp[0] + tmp[1] + tmp[2] + tmp[3];
  }
  // CHECK: alloc: res=60 host tmp=9,9,9,9
  printf("alloc: res=%d host tmp=%d,%d,%d,%d\n", res, tmp[0], tmp[1], tmp[2],
         tmp[3]);

  // from on target data: copied back at the end of the data region only.
  int f[2] = {0, 0};
#pragma omp target data map(from : f)
  {
#pragma omp target
    { f[0] = 11; f[1] = 22; }
    // CHECK: inside data region f0=0
    printf("inside data region f0=%d\n", f[0]);
  }
  // CHECK: after data region f=11,22
  printf("after data region f=%d,%d\n", f[0], f[1]);
  return 0;
}
