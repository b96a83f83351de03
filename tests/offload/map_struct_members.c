// Mapping: struct members. Mapping `s.x` alone maps only that member; several
// members of the same struct in one clause list are combined into one
// allocation spanning them; `s.arr[0:n]` maps the pointee of a pointer member.
// LLVM 14's core restores attached host pointers before an asynchronous D2H
// copy of their struct completes (the copy then overwrites them with device
// addresses): not supported with LLVM 14's core on the asynchronous host device.
// UNSUPPORTED: host-async && !omptarget-core
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

struct S {
  int x;
  int pad[100];
  int y;
  double z;
  int *arr;
};

int main(void) {
  struct S s;
  s.x = 1;
  s.y = 2;
  s.z = 3.0;
  s.arr = malloc(8 * sizeof(int));
  for (int i = 0; i < 8; i++) s.arr[i] = i;

#pragma omp target data map(tofrom : s.x)
  {
    // CHECK: only x: x=1 y=0 pad=0
    printf("only x: x=%d y=%d pad=%d\n", omp_target_is_present(&s.x, 0),
           omp_target_is_present(&s.y, 0), omp_target_is_present(&s.pad[50], 0));
#pragma omp target map(tofrom : s.x)
    s.x += 10;
  }
  // CHECK: s.x=11
  printf("s.x=%d\n", s.x);

#pragma omp target map(tofrom : s.x, s.y) map(to : s.z)
  {
    s.x += 100;
    s.y = s.y * 5 + (int)s.z;
    s.z = -1; // to only
  }
  // CHECK: s.x=111 s.y=13 s.z=3.0
  printf("s.x=%d s.y=%d s.z=%.1f\n", s.x, s.y, s.z);

#pragma omp target map(tofrom : s.arr[0 : 8])
  for (int i = 0; i < 8; i++) s.arr[i] *= 3;
  // CHECK: arr=0,3,6,21 host ptr kept=1
  printf("arr=%d,%d,%d,%d host ptr kept=%d\n", s.arr[0], s.arr[1], s.arr[2],
         s.arr[7], s.arr != 0);

  // Whole struct plus its pointee.
  int *orig = s.arr;
#pragma omp target map(tofrom : s) map(tofrom : s.arr[2 : 3])
  {
    s.y = 99;
    s.arr[2] += 1000;
  }
  // CHECK: whole: y=99 arr2=1006 arr3=9 same ptr=1
  printf("whole: y=%d arr2=%d arr3=%d same ptr=%d\n", s.y, s.arr[2], s.arr[3],
         s.arr == orig);
  free(s.arr);
  return 0;
}
