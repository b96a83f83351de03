// API: omp_target_associate_ptr / omp_target_disassociate_ptr. An associated
// host buffer is present, regions use the associated device memory (no copy
// in or out, since the association holds an infinite reference), identical
// re-association succeeds, disassociation removes it.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  int x[4] = {1, 2, 3, 4};
  int *d = omp_target_alloc(8 * sizeof(int), 0);
  int init[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  omp_target_memcpy(d, init, sizeof(init), 0, 0, 0, host);
  // associate x with d + 2 ints
  int rc = omp_target_associate_ptr(x, d, sizeof(x), 2 * sizeof(int), 0);
  // CHECK: associate rc=0 present=1 present(x+3)=1 present on dev1=0
  printf("associate rc=%d present=%d present(x+3)=%d present on dev1=%d\n", rc,
         omp_target_is_present(x, 0), omp_target_is_present(x + 3, 0),
         omp_target_is_present(x, 1));
  // CHECK: identical re-associate rc=0
  printf("identical re-associate rc=%d\n",
         omp_target_associate_ptr(x, d, sizeof(x), 2 * sizeof(int), 0));
  int seen[4];
#pragma omp target map(tofrom : x) map(from : seen)
  for (int i = 0; i < 4; i++) {
    seen[i] = x[i];
    x[i] = -x[i];
  }
  // CHECK: region saw 30 40 50 60; host x=1 2 3 4
  printf("region saw %d %d %d %d; host x=%d %d %d %d\n", seen[0], seen[1],
         seen[2], seen[3], x[0], x[1], x[2], x[3]);
#pragma omp target update from(x)
  // CHECK: after update from: -30 -60
  printf("after update from: %d %d\n", x[0], x[3]);
  int back[8];
  omp_target_memcpy(back, d, sizeof(back), 0, 0, host, 0);
  // CHECK: device buffer: 10 20 -30 -40 -50 -60 70 80
  printf("device buffer: %d %d %d %d %d %d %d %d\n", back[0], back[1], back[2],
         back[3], back[4], back[5], back[6], back[7]);
  // exit data release does not remove an association.
#pragma omp target exit data map(release : x)
  // CHECK: after release present=1
  printf("after release present=%d\n", omp_target_is_present(x, 0));
  // CHECK: disassociate rc=0 present=0
  rc = omp_target_disassociate_ptr(x, 0);
  printf("disassociate rc=%d present=%d\n", rc, omp_target_is_present(x, 0));
  omp_target_free(d, 0);
  return 0;
}
