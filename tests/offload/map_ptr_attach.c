// Mapping: pointer attachment. With `map(s) map(s.p[0:n])` the device copy of
// s.p points to the device copy of the data; after the region the host
// struct's pointer member is still the host pointer (the shadow pointer is
// restored), even though s itself was copied back. Same for a mapped pointer
// variable `map(p[0:n])` used inside a target data region and for enter data.
// LLVM 14's core restores attached host pointers before an asynchronous D2H
// copy of their struct completes (the copy then overwrites them with device
// addresses): not supported with LLVM 14's core on the asynchronous host device.
// UNSUPPORTED: host-async && !omptarget-core
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

struct V {
  int n;
  double *p;
};

int main(void) {
  struct V v;
  v.n = 4;
  v.p = malloc(4 * sizeof(double));
  double *hostp = v.p;
  for (int i = 0; i < 4; i++) v.p[i] = i + 1;
  long devp = 0;
#pragma omp target map(tofrom : v) map(tofrom : v.p[0 : 4]) map(from : devp)
  {
    devp = (long)v.p;
    for (int i = 0; i < v.n; i++) v.p[i] *= 10;
    v.n = 40;
  }
  // CHECK: n=40 p=10,20,30,40
  printf("n=%d p=%.0f,%.0f,%.0f,%.0f\n", v.n, v.p[0], v.p[1], v.p[2], v.p[3]);
  // CHECK: host pointer restored=1 device pointer differs=1
  printf("host pointer restored=%d device pointer differs=%d\n", v.p == hostp,
         devp != (long)hostp);

  // enter data of struct, then attach its pointee; the pointer stays attached
  // on the device across regions; host pointer is never clobbered.
#pragma omp target enter data map(to : v)
#pragma omp target enter data map(to : v.p[0 : 4])
  long devp2 = 0;
#pragma omp target map(from : devp2)
  {
    devp2 = (long)v.p;
    v.p[3] = 7;
  }
  // CHECK: attached across enter data: devp_nonhost=1
  printf("attached across enter data: devp_nonhost=%d\n", devp2 != (long)hostp);
#pragma omp target exit data map(from : v.p[0 : 4])
#pragma omp target exit data map(from : v)
  // CHECK: after exit: p3=7 host pointer restored=1
  printf("after exit: p3=%.0f host pointer restored=%d\n", v.p[3],
         v.p == hostp);

  // Plain pointer variable with a section inside target data.
  int *q = malloc(3 * sizeof(int));
  int *hostq = q;
  q[0] = q[1] = q[2] = 1;
#pragma omp target data map(tofrom : q[0 : 3])
  {
#pragma omp target
    q[1] = 5;
  }
  // CHECK: q=1,5,1 q restored=1
  printf("q=%d,%d,%d q restored=%d\n", q[0], q[1], q[2], q == hostq);
  free(q);
  free(hostp);
  return 0;
}
