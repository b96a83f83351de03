// Errors: omp_target_associate_ptr of a host range that overlaps an existing
// association without being identical to it must fail (nonzero) and leave the
// existing association intact. LLVM 14 only compares the begin address, so it
// returns 0 for a partially overlapping range (x+2, 16 bytes over a 16-byte
// association of x) and for a contained range with an inconsistent device
// address, silently creating overlapping map entries.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int x[8];
  char *d = omp_target_alloc(128, 0);
  // CHECK: associate=0
  printf("associate=%d\n", omp_target_associate_ptr(x, d, 4 * sizeof(int), 0, 0));
  // CHECK: Libomptarget error: omp_target_associate_ptr: {{.*}}overlap{{.*}}
  // CHECK: partial overlap rc_nonzero=1
  printf("partial overlap rc_nonzero=%d\n",
         omp_target_associate_ptr(x + 2, d + 64, 4 * sizeof(int), 0, 0) != 0);
  // CHECK: Libomptarget error: omp_target_associate_ptr: {{.*}}overlap{{.*}}
  // CHECK: contained, other device address rc_nonzero=1
  printf("contained, other device address rc_nonzero=%d\n",
         omp_target_associate_ptr(x + 1, d + 96, sizeof(int), 0, 0) != 0);
  // CHECK: x+5 present=0 x present=1
  printf("x+5 present=%d x present=%d\n", omp_target_is_present(x + 5, 0),
         omp_target_is_present(x, 0));
  // CHECK: disassociate=0 present=0
  int rc = omp_target_disassociate_ptr(x, 0);
  printf("disassociate=%d present=%d\n", rc, omp_target_is_present(x, 0));
  omp_target_free(d, 0);
  return 0;
}
