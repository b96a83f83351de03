// Mapping: dynamic reference counts with enter/exit data: two `enter data` and
// one `exit data release` keep the data present; the second release removes
// it. `from` on exit data copies back only when the count drops to zero.
// `delete` removes the entry regardless of the count.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[4] = {1, 2, 3, 4};
#pragma omp target enter data map(to : a)
#pragma omp target enter data map(to : a)
  // CHECK: after 2 enters present=1
  printf("after 2 enters present=%d\n", omp_target_is_present(a, 0));
#pragma omp target exit data map(release : a)
  // CHECK: after 1 release present=1
  printf("after 1 release present=%d\n", omp_target_is_present(a, 0));
#pragma omp target exit data map(release : a)
  // CHECK: after 2 releases present=0
  printf("after 2 releases present=%d\n", omp_target_is_present(a, 0));

  // exit data from with count 2: no copy; with count 1: copy back.
#pragma omp target enter data map(to : a)
#pragma omp target enter data map(to : a)
#pragma omp target map(tofrom : a)
  a[0] = 100;
  // CHECK: after region a0=1
  printf("after region a0=%d\n", a[0]);
#pragma omp target exit data map(from : a)
  // CHECK: exit from (count 2->1) a0=1 present=1
  printf("exit from (count 2->1) a0=%d present=%d\n", a[0],
         omp_target_is_present(a, 0));
#pragma omp target exit data map(from : a)
  // CHECK: exit from (count 1->0) a0=100 present=0
  printf("exit from (count 1->0) a0=%d present=%d\n", a[0],
         omp_target_is_present(a, 0));

  // delete drops every dynamic reference at once.
#pragma omp target enter data map(to : a)
#pragma omp target enter data map(to : a)
#pragma omp target enter data map(to : a)
#pragma omp target exit data map(delete : a)
  // CHECK: after delete present=0
  printf("after delete present=%d\n", omp_target_is_present(a, 0));

  // release / delete of something never mapped is a no-op.
  int never[2];
#pragma omp target exit data map(release : never)
#pragma omp target exit data map(delete : never)
  // CHECK: unmapped release ok present=0
  printf("unmapped release ok present=%d\n", omp_target_is_present(never, 0));
  return 0;
}
