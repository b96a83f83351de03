// Mappers: the modifiers of the map clause that names a mapper (always,
// ompx_hold, present, close) reach every component the mapper pushes. clang
// builds a component's map type from the mapper's own clause and the outer
// to/from only, so the runtime adds the outer clause's modifiers: OpenMP
// applies them to the list item, hence to everything its mapper maps.
// Where LLVM 14 and 19 differ from ours the lines say why; ours follows the
// OpenMP specification. Both LLVM runtimes never count references of a
// mapper's first component: it copies whenever that entry's count is 1 (the
// region below that finds s.y present copies back although the entry stays
// mapped), and a hold it creates is never taken (the ompx_hold case).
// The `present` case with nothing mapped: mapper_outer_present.c.
// RUN: %clang-offload -fopenmp-version=51 %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

typedef struct {
  int x;
  int y;
} S;
#pragma omp declare mapper(S s) map(tofrom : s.y)

static int present(void *P) { return omp_target_is_present(P, omp_get_default_device()); }

int main(void) {
  S s = {1, 2};
  // s.y is present (enter data); `always, from` on a region copies it back.
#pragma omp target enter data map(alloc : s.y)
#pragma omp target map(always, from : s)
  { s.y = 42; }
  // CHECK: target always from: y=42
  printf("target always from: y=%d\n", s.y);

  // `always, to` on enter data refreshes the present device copy.
  s.y = 7;
#pragma omp target enter data map(always, to : s)
  int dy = 0;
#pragma omp target map(from : dy) map(alloc : s.y)
  { dy = s.y; }
  // CHECK: enter data always to: device y=7
  printf("enter data always to: device y=%d\n", dy);

  // `target data map(always, tofrom: s)`: in at its start, out at its end.
  s.y = 100;
#pragma omp target data map(always, tofrom : s)
  {
#pragma omp target map(alloc : s.y)
    { s.y += 1; }
  }
  // CHECK: target data always tofrom: y=101
  printf("target data always tofrom: y=%d\n", s.y);

  // `exit data map(always, from: s)` while the data stays mapped.
#pragma omp target map(alloc : s.y)
  { s.y = 55; }
#pragma omp target exit data map(always, from : s)
  // CHECK: exit data always from: y=55 present=1
  printf("exit data always from: y=%d present=%d\n", s.y, present(&s.y));

  // `present` reaches the component: s.y is still mapped by enter data, so
  // the region's `tofrom` does not copy back (the entry outlives it).
#pragma omp target map(present, tofrom : s)
  { s.y += 1; }
  // OURS: present with mapper: y=55
  // LLVM: present with mapper: y=56
  printf("present with mapper: y=%d\n", s.y);
#pragma omp target exit data map(delete : s.y)
  // CHECK: after delete: present=0
  printf("after delete: present=%d\n", present(&s.y));

  // ompx_hold reaches the component: while `target data` holds s.y, an exit
  // data `delete` leaves it mapped; the end of `target data` removes it.
#pragma omp target data map(ompx_hold, tofrom : s)
  {
#pragma omp target exit data map(delete : s.y)
    // OURS: ompx_hold: present inside=1
    // LLVM: ompx_hold: present inside=0
    printf("ompx_hold: present inside=%d\n", present(&s.y));
  }
  // CHECK: ompx_hold: present after=0
  printf("ompx_hold: present after=%d\n", present(&s.y));
  return 0;
}
