// Mappers: a target region mapping (explicitly or implicitly) a struct that
// is already present through a mapper `map(v, v.data[0:v.len])` must reuse
// the existing mapping: no copy of the struct (which would overwrite the
// attached device pointer with the host pointer), pointee writes land in the
// device copy, `target update from(v)` brings them back, and `exit data
// delete` unmaps both the struct and its pointee.
// LLVM 14 re-copies the struct over the attached pointer (the kernel then
// writes host memory directly; a later `update from` overwrites it with stale
// device data) and keeps the struct mapped after `exit data map(delete: v)`.
// REQUIRES: omptarget-core
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdio>
#include <cstdlib>

struct Vec {
  int len;
  double *data;
};
#pragma omp declare mapper(Vec v) map(v, v.data[0 : v.len])

int main() {
  Vec v;
  v.len = 4;
  v.data = (double *)malloc(4 * sizeof(double));
  double *host = v.data;
  for (int i = 0; i < 4; i++) v.data[i] = i;
#pragma omp target enter data map(to : v)
  long devptr = 0;
#pragma omp target map(from : devptr)
  {
    devptr = (long)v.data;
    v.data[2] = 42;
  }
  // CHECK: device pointer attached=1 host data untouched=2.0
  printf("device pointer attached=%d host data untouched=%.1f\n",
         devptr != (long)host, v.data[2]);
#pragma omp target update from(v)
  // CHECK: after update from: data2=42.0 host ptr kept=1
  printf("after update from: data2=%.1f host ptr kept=%d\n", v.data[2],
         v.data == host);
#pragma omp target exit data map(delete : v)
  // CHECK: after delete: struct present=0 data present=0
  printf("after delete: struct present=%d data present=%d\n",
         omp_target_is_present(&v, 0), omp_target_is_present(v.data, 0));
  free(host);
  return 0;
}
