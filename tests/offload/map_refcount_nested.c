// Mapping: nested `target data` regions share one mapping; copy-in happens at
// the outermost entry and copy-out at the outermost exit only.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int v[2] = {1, 2};
  // CHECK: level0 present=0
  printf("level0 present=%d\n", omp_target_is_present(v, 0));
#pragma omp target data map(tofrom : v)
  {
    v[0] = 50; // not transferred by the nested map below
#pragma omp target data map(tofrom : v)
    {
#pragma omp target data map(to : v)
      {
        // CHECK: level3 present=1
        printf("level3 present=%d\n", omp_target_is_present(v, 0));
#pragma omp target
        v[1] += 10;
      }
      // CHECK: after level3 v=50,2
      printf("after level3 v=%d,%d\n", v[0], v[1]);
    }
    // CHECK: after level2 v=50,2 present=1
    printf("after level2 v=%d,%d present=%d\n", v[0], v[1],
           omp_target_is_present(v, 0));
  }
  // CHECK: after level1 v=1,12 present=0
  printf("after level1 v=%d,%d present=%d\n", v[0], v[1],
         omp_target_is_present(v, 0));
  return 0;
}
