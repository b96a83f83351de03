// Mapping: the ompx_hold map-type modifier (clang 14 spelling
// `map(ompx_hold, tofrom: x)`): while a hold reference exists, `exit data
// delete`/`release` cannot unmap the data; it is unmapped (and copied back)
// when the construct holding it ends.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 1;
#pragma omp target data map(ompx_hold, tofrom : x)
  {
#pragma omp target exit data map(delete : x)
    // CHECK: hold, after delete: present=1
    printf("hold, after delete: present=%d\n", omp_target_is_present(&x, 0));
#pragma omp target enter data map(to : x)
#pragma omp target exit data map(release : x)
    // CHECK: hold, after enter+release: present=1
    printf("hold, after enter+release: present=%d\n",
           omp_target_is_present(&x, 0));
#pragma omp target map(tofrom : x)
    x = 42;
    // CHECK: inside hold region x=1
    printf("inside hold region x=%d\n", x);
  }
  // CHECK: after hold region x=42 present=0
  printf("after hold region x=%d present=%d\n", x, omp_target_is_present(&x, 0));

  // ompx_hold on a target region itself.
  int y[2] = {3, 4};
#pragma omp target map(ompx_hold, tofrom : y)
  {
    y[0] += y[1];
  }
  // CHECK: hold target: y0=7 present=0
  printf("hold target: y0=%d present=%d\n", y[0], omp_target_is_present(y, 0));

  // Dynamic + hold: the data stays until both kinds of references are gone.
  int z = 5;
#pragma omp target enter data map(to : z)
#pragma omp target data map(ompx_hold, alloc : z)
  {
#pragma omp target exit data map(release : z)
    // CHECK: dyn released, hold kept: present=1
    printf("dyn released, hold kept: present=%d\n",
           omp_target_is_present(&z, 0));
  }
  // CHECK: both gone: present=0
  printf("both gone: present=%d\n", omp_target_is_present(&z, 0));
  return 0;
}
