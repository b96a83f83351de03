// Errors: association misuse returns nonzero without crashing (LLVM 14
// values): re-associating the same host pointer with a different device
// address -> -1; disassociating an unknown pointer -> -1; disassociating
// twice -> -1 the second time; associating on the initial device -> -1;
// disassociating a pointer that is mapped (not associated) -> -1 and keeps
// the mapping.
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  int x[4], y[4];
  char *d = omp_target_alloc(64, 0);
  // CHECK: associate=0
  printf("associate=%d\n", omp_target_associate_ptr(x, d, 16, 0, 0));
  // LLVM: Libomptarget error: Not allowed to re-associate a different device ptr+offset with the same host ptr
  // OURS: Libomptarget error: omp_target_associate_ptr: {{.*}}
  // CHECK: different device address=-1
  printf("different device address=%d\n",
         omp_target_associate_ptr(x, d + 4, 16, 0, 0));
  // LLVM: Libomptarget error: Association not found
  // OURS: Libomptarget error: omp_target_disassociate_ptr: {{.*}}
  // CHECK: disassociate unknown=-1
  printf("disassociate unknown=%d\n", omp_target_disassociate_ptr(y, 0));
  // CHECK: disassociate=0
  printf("disassociate=%d\n", omp_target_disassociate_ptr(x, 0));
  // LLVM: Libomptarget error: Association not found
  // OURS: Libomptarget error: omp_target_disassociate_ptr: {{.*}}
  // CHECK: disassociate again=-1
  printf("disassociate again=%d\n", omp_target_disassociate_ptr(x, 0));
  // LLVM: Libomptarget error: omp_target_associate_ptr: no association possible on the host
  // OURS: Libomptarget error: omp_target_associate_ptr: {{.*}}
  // CHECK: associate on initial device=-1
  printf("associate on initial device=%d\n",
         omp_target_associate_ptr(x, d, 16, 0, host));
#pragma omp target enter data map(to : y)
  // CHECK: disassociate mapped=-1 still present=1
  int rc = omp_target_disassociate_ptr(y, 0);
  printf("disassociate mapped=%d still present=%d\n", rc,
         omp_target_is_present(y, 0));
#pragma omp target exit data map(delete : y)
  omp_target_free(d, 0);
  return 0;
}
