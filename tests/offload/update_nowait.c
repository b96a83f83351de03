// Update: `target enter data`, `target update` and `target exit data` with
// nowait and depend (__tgt_target_data_*_nowait_mapper) chained with a
// nowait target region; taskwait completes everything in order.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target enter data map(to : a) depend(out : a) nowait
#pragma omp target map(alloc : a) depend(inout : a) nowait
    for (int i = 0; i < 64; i++) a[i] *= 2;
#pragma omp target update from(a) depend(inout : a) nowait
#pragma omp task depend(inout : a)
    {
      a[0] = 1000; // host-side change between update from and update to
    }
#pragma omp target update to(a[0 : 1]) depend(inout : a) nowait
#pragma omp target map(alloc : a) depend(inout : a) nowait
    a[63] += a[0];
#pragma omp target exit data map(from : a) depend(inout : a) nowait
#pragma omp taskwait
  }
  // CHECK: a0=1000 a1=2 a63=1126 present=0
  printf("a0=%d a1=%d a63=%d present=%d\n", a[0], a[1], a[63],
         omp_target_is_present(a, 0));

  // nowait data constructs without depend, outside parallel, then taskwait.
  int b[4] = {1, 2, 3, 4};
#pragma omp target enter data map(to : b) nowait
#pragma omp taskwait
  // CHECK: b present=1
  printf("b present=%d\n", omp_target_is_present(b, 0));
#pragma omp target exit data map(release : b) nowait
#pragma omp taskwait
  // CHECK: b present after exit=0
  printf("b present after exit=%d\n", omp_target_is_present(b, 0));
  return 0;
}
