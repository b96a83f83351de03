// Errors: omp_target_disassociate_ptr on a host pointer whose mapping has a
// non-zero hold reference count (ompx_hold) fails with LLVM 14's message
// word for word and returns -1 (OFFLOAD_FAIL); the mapping stays, and the
// association can be removed once the hold region has ended. A pointer
// mapped (not associated) under ompx_hold gets the same message first, as in
// LLVM 14, which checks the hold count before the kind of mapping. LLVM 19
// prints the same message with its own prefix.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int dev = omp_get_default_device();
  int x[4] = {1, 2, 3, 4};
  int *d = omp_target_alloc(sizeof x, dev);
  // CHECK: associate rc=0
  printf("associate rc=%d\n", omp_target_associate_ptr(x, d, sizeof x, 0, dev));
#pragma omp target data map(ompx_hold, tofrom : x) device(dev)
  {
    // OURS: Libomptarget error: Trying to disassociate a pointer with a non-zero hold reference count
    // LLVM: Libomptarget error: Trying to disassociate a pointer with a non-zero hold reference count
    // LLVM19: omptarget error: Trying to disassociate a pointer with a non-zero hold reference count
    int rc = omp_target_disassociate_ptr(x, dev);
    // CHECK-NEXT: in hold region: rc=-1 present=1
    printf("in hold region: rc=%d present=%d\n", rc, omp_target_is_present(x, dev));
  }
  // CHECK-NEXT: after hold region: present=1
  printf("after hold region: present=%d\n", omp_target_is_present(x, dev));
  int rc = omp_target_disassociate_ptr(x, dev);
  // CHECK-NEXT: disassociate rc=0 present=0
  printf("disassociate rc=%d present=%d\n", rc, omp_target_is_present(x, dev));
  omp_target_free(d, dev);

  int y = 5;
#pragma omp target data map(ompx_hold, tofrom : y) device(dev)
  {
    // OURS-NEXT: Libomptarget error: Trying to disassociate a pointer with a non-zero hold reference count
    // LLVM-NEXT: Libomptarget error: Trying to disassociate a pointer with a non-zero hold reference count
    // LLVM19-NEXT: omptarget error: Trying to disassociate a pointer with a non-zero hold reference count
    rc = omp_target_disassociate_ptr(&y, dev);
    // CHECK-NEXT: mapped under hold: rc=-1 present=1
    printf("mapped under hold: rc=%d present=%d\n", rc, omp_target_is_present(&y, dev));
  }
  // CHECK-NEXT: after: present=0
  printf("after: present=%d\n", omp_target_is_present(&y, dev));
  return 0;
}
