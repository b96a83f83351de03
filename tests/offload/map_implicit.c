// Mapping: implicit data-mapping rules of `target`: scalars are firstprivate
// (device writes are not seen by the host), arrays and structs are tofrom,
// a pointer is a zero-length array section: translated to the device address
// when its pointee is mapped; when it is not, NULL on LLVM 14 and its own
// value on ours (OpenMP 5.1).
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

struct S {
  int a;
  double b;
};

int main(void) {
  int scalar = 3;
  int arr[3] = {1, 2, 3};
  struct S s = {1, 2.0};
#pragma omp target
  {
    scalar = 100;
    arr[1] = scalar + 20;
    s.a += 9;
    s.b *= 2;
  }
  // CHECK: scalar=3 arr1=120 s.a=10 s.b=4.0
  printf("scalar=%d arr1=%d s.a=%d s.b=%.1f\n", scalar, arr[1], s.a, s.b);

  int data[4] = {0, 0, 0, 0};
  int *p = data;
  long seen = -1;
#pragma omp target map(from : seen)
  seen = (long)p;
  // Its pointee is not mapped: LLVM 14 passes NULL, OpenMP 5.1 (our core)
  // the pointer's own value.
  // LLVM: unmapped pointee: pointer on device is NULL
  // OURS: unmapped pointee: pointer on device is kept
  printf("unmapped pointee: pointer on device is %s\n",
         seen == 0 ? "NULL" : seen == (long)p ? "kept" : "other");

#pragma omp target data map(tofrom : data)
  {
#pragma omp target map(from : seen)
    {
      seen = (long)p;
      p[2] = 7;
    }
  }
  // CHECK: mapped pointee: data2=7 translated=1
  printf("mapped pointee: data2=%d translated=%d\n", data[2], seen != 0);
  return 0;
}
