// Mappers: nested mappers. A struct member of a struct type with its own
// mapper (containing a pointer member) is mapped through that mapper; an
// array of such structs applies the mapper to every element.
// LLVM 14's core restores attached host pointers before an asynchronous D2H
// copy of their struct completes (the copy then overwrites them with device
// addresses): not supported with LLVM 14's core on the asynchronous host device.
// UNSUPPORTED: host-async && !omptarget-core
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdio>
#include <cstdlib>

struct Inner {
  int n;
  int *vals;
};
#pragma omp declare mapper(Inner in) map(in, in.vals[0 : in.n])

struct Outer {
  int id;
  Inner a;
  Inner b;
};
#pragma omp declare mapper(Outer o) map(o.id, o.a, o.b)

static Inner make(int n, int base) {
  Inner in;
  in.n = n;
  in.vals = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) in.vals[i] = base + i;
  return in;
}

int main() {
  Outer o;
  o.id = 1;
  o.a = make(3, 10);
  o.b = make(4, 20);
  int *pa = o.a.vals, *pb = o.b.vals;
#pragma omp target map(tofrom : o)
  {
    o.id += 100;
    for (int i = 0; i < o.a.n; i++) o.a.vals[i] *= 2;
    for (int i = 0; i < o.b.n; i++) o.b.vals[i] += o.a.vals[0];
  }
  // CHECK: id=101 a=20,22,24 b=40,41,42,43
  printf("id=%d a=%d,%d,%d b=%d,%d,%d,%d\n", o.id, o.a.vals[0], o.a.vals[1],
         o.a.vals[2], o.b.vals[0], o.b.vals[1], o.b.vals[2], o.b.vals[3]);
  // CHECK: host pointers kept=1
  printf("host pointers kept=%d\n", o.a.vals == pa && o.b.vals == pb);

  Inner arr[3] = {make(2, 0), make(2, 100), make(2, 200)};
#pragma omp target map(tofrom : arr)
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < arr[k].n; i++) arr[k].vals[i] = -arr[k].vals[i] - 1;
  // CHECK: arr: -1 -2 -101 -102 -201 -202
  printf("arr: %d %d %d %d %d %d\n", arr[0].vals[0], arr[0].vals[1],
         arr[1].vals[0], arr[1].vals[1], arr[2].vals[0], arr[2].vals[1]);

  Inner *heap = new Inner[2]{make(1, 7), make(1, 8)};
#pragma omp target map(tofrom : heap[0 : 2])
  {
    heap[0].vals[0] *= 3;
    heap[1].vals[0] *= 4;
  }
  // CHECK: heap section: 21 32
  printf("heap section: %d %d\n", heap[0].vals[0], heap[1].vals[0]);
  // Everything freed: LeakSanitizer checks the sanitizer runs at exit.
  free(o.a.vals);
  free(o.b.vals);
  for (int k = 0; k < 3; k++) free(arr[k].vals);
  for (int k = 0; k < 2; k++) free(heap[k].vals);
  delete[] heap;
  return 0;
}
