// Mappers: a struct reached through pointers (`tpp[0][0]`) whose member has
// a default mapper, itself mapping a member with a default mapper: clang
// passes the member's mapper for a MEMBER_OF|PTR_AND_OBJ argument. The
// mapper's first component (the member object, inside the struct's entry)
// must ride on the struct's reference count, as LLVM 14 does: if it took a
// reference of its own, the struct's entry would count 2 and every member
// copy (plain member, array-subscript member, nested member) would be
// skipped as "already present" (the device saw 0 0 0). `from` components of
// the mappers come back at the end of the region; a `to`-only path does not.
// A variable of the inner type mapped on its own gets its mapper too.
// RUN: %clangxx-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <cstdio>

struct Leaf {
  int a;
  double *b;
};
#pragma omp declare mapper(Leaf s) map(to : s.a) map(from : s.b[0 : 2])

struct Mid {
  int a;
  double *b;
  Leaf c;
  int arr[3];
};
#pragma omp declare mapper(Mid s) map(to : s.a, s.c, s.arr[0 : 3]) map(from : s.b[0 : 2])

struct Top {
  int e;
  Mid f;
  int h;
};

int main() {
  double x[2] = {1, 20}, x1[2] = {3, 4};
  Top t;
  t.e = 111;
  t.f.a = 222;
  t.f.c.a = 777;
  t.f.b = x;
  t.f.c.b = x1;
  t.h = 5;
  for (int i = 0; i < 3; i++) t.f.arr[i] = 50 + i;
  Top *tp = &t;
  Top **tpp = &tp;
  int seen[4] = {0, 0, 0, 0};
#pragma omp target map(tofrom : tpp[0][0]) map(from : seen[0 : 4])
  {
    seen[0] = tpp[0][0].f.a;
    seen[1] = tpp[0][0].f.c.a;
    seen[2] = tpp[0][0].f.arr[2];
    seen[3] = tpp[0][0].e;
    tpp[0][0].f.b[1] = 40;    // Mid's from: comes back
    tpp[0][0].f.c.b[0] = 30;  // Leaf's from under Mid's to: stays on the device
    tpp[0][0].e = 333;
    tpp[0][0].f.a = 444;      // Mid's to: stays on the device
  }
  // CHECK: device saw 222 777 52 111
  printf("device saw %d %d %d %d\n", seen[0], seen[1], seen[2], seen[3]);
  // CHECK: after: e=333 f.a=222 b1=40 cb0=3 host ptrs kept=1
  printf("after: e=%d f.a=%d b1=%g cb0=%g host ptrs kept=%d\n", t.e, t.f.a, x[1], x1[0],
         t.f.b == x && t.f.c.b == x1);
  // CHECK: nothing left mapped=1
  printf("nothing left mapped=%d\n", !omp_target_is_present(&t, omp_get_default_device()) &&
                                         !omp_target_is_present(x, omp_get_default_device()));

  // A variable of an inner type on its own: its mapper's first component is
  // a list item of its own and counts a reference. (Leaf, not Mid: for a
  // struct mapped directly, clang 14 sizes the struct's entry short of an
  // array-section member that ends it, see docs/usage.md.)
  Leaf l;
  l.a = 6;
  l.b = x1;
#pragma omp target map(tofrom : l) map(from : seen[0 : 4])
  {
    seen[0] = l.a;
    l.b[0] = -1;  // Leaf's from: both elements come back
    l.b[1] = -2;
    l.a = 7;      // Leaf's to: stays on the device
  }
  // CHECK: inner type: a=6 after: b=-1,-2 a=6
  printf("inner type: a=%d after: b=%g,%g a=%d\n", seen[0], x1[0], x1[1], l.a);

  // Already present through enter data: the region reuses the mapping and
  // the mapper's from copy waits for the exit.
#pragma omp target enter data map(to : l)
#pragma omp target map(tofrom : l)
  {
    l.b[0] = 98;
    l.b[1] = 99;
  }
  // CHECK: present, before exit: b=-1,-2
  printf("present, before exit: b=%g,%g\n", x1[0], x1[1]);
#pragma omp target exit data map(from : l)
  // CHECK: present, after exit: b=98,99
  printf("present, after exit: b=%g,%g\n", x1[0], x1[1]);
  // LLVM 14 keeps the struct mapped after its last exit.
  // OURS: struct still mapped=0
  printf("struct still mapped=%d\n", omp_target_is_present(&l, omp_get_default_device()));
  return 0;
}
