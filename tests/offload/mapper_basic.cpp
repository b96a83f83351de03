// Mappers: a user-defined mapper (`declare mapper`) for a struct with a
// pointer member maps the struct and its pointee; used implicitly by a plain
// map of the struct, by a named mapper, and on enter/exit data and update.
// (Re-mapping an already present struct through a mapper in a region is
// covered by mapper_remap.cpp: LLVM 14 gets it wrong.)
// LLVM 14's core restores attached host pointers before an asynchronous D2H
// copy of their struct completes (the copy then overwrites them with device
// addresses): not supported with LLVM 14's core on the asynchronous host device.
// UNSUPPORTED: host-async && !omptarget-core
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdio>
#include <cstdlib>

struct Vec {
  int len;
  double *data;
};
#pragma omp declare mapper(Vec v) map(v, v.data[0 : v.len])
#pragma omp declare mapper(lenonly : Vec v) map(v.len)

int main() {
  Vec v;
  v.len = 5;
  v.data = (double *)malloc(5 * sizeof(double));
  double *host = v.data;
  for (int i = 0; i < 5; i++) v.data[i] = i;
#pragma omp target map(tofrom : v)
  for (int i = 0; i < v.len; i++) v.data[i] += 0.5;
  // CHECK: default mapper: 0.5 4.5 host ptr kept=1
  printf("default mapper: %.1f %.1f host ptr kept=%d\n", v.data[0], v.data[4],
         v.data == host);

#pragma omp target enter data map(to : v)
  // CHECK: enter: struct present=1 data present=1
  printf("enter: struct present=%d data present=%d\n",
         omp_target_is_present(&v, 0), omp_target_is_present(v.data, 0));
  // Round trip through the device using only updates (the mapper applies).
  v.data[2] = 42;
#pragma omp target update to(v)
  v.data[2] = 0;
  v.data[3] = 0;
#pragma omp target update from(v)
  // CHECK: update round trip via mapper: data2=42.0 data3=3.5
  printf("update round trip via mapper: data2=%.1f data3=%.1f\n", v.data[2],
         v.data[3]);
#pragma omp target exit data map(release : v)
  // CHECK: exit: data present=0
  printf("exit: data present=%d\n", omp_target_is_present(v.data, 0));

  int seen = 0;
#pragma omp target map(mapper(lenonly), tofrom : v) map(from : seen)
  {
    seen = v.len;
    v.len = 9;
  }
  // CHECK: named mapper: seen=5 len=9 data not mapped=1
  printf("named mapper: seen=%d len=%d data not mapped=%d\n", seen, v.len,
         !omp_target_is_present(v.data, 0));
  free(host);
  return 0;
}
