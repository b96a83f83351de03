// Errors: invalid device numbers (99, -5) passed to the device memory API must
// not crash. LLVM 14: omp_target_alloc -> NULL, omp_target_is_present -> 0,
// omp_target_memcpy -> -1, omp_target_memcpy_rect -> -1,
// omp_target_associate_ptr -> -1, omp_target_disassociate_ptr -> -1,
// omp_target_free -> silently ignored. Our core additionally reports
// `Libomptarget error: <call>: invalid device number N (there are 4 devices; ...)`.
// GPU: skip (expects the host plugin's four devices)
// LLVM 19 stops the program at omp_target_alloc(16, 99) ("omptarget fatal
// error 99: Device number '99' out of range") instead of returning NULL.
// XFAIL: runtime-llvm19
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  int x[4] = {0};
  int *d = omp_target_alloc(16, 0);
  // OURS: Libomptarget error: omp_target_alloc: invalid device number 99 (there are 4 devices;{{.*}}
  // CHECK: alloc(99) NULL=1
  printf("alloc(99) NULL=%d\n", omp_target_alloc(16, 99) == NULL);
  // OURS: Libomptarget error: omp_target_alloc: invalid device number -5 (there are 4 devices;{{.*}}
  // CHECK: alloc(-5) NULL=1
  printf("alloc(-5) NULL=%d\n", omp_target_alloc(16, -5) == NULL);
  // OURS: Libomptarget error: omp_target_is_present: invalid device number 99 (there are 4 devices;{{.*}}
  // CHECK: is_present(99)=0
  printf("is_present(99)=%d\n", omp_target_is_present(x, 99));
  // OURS: Libomptarget error: omp_target_memcpy: invalid device number 99 (there are 4 devices;{{.*}}
  // LLVM: Libomptarget error: omp_target_memcpy returns OFFLOAD_FAIL
  // CHECK: memcpy(dst dev 99)=-1
  printf("memcpy(dst dev 99)=%d\n", omp_target_memcpy(d, x, 16, 0, 0, 99, host));
  // OURS: Libomptarget error: omp_target_memcpy: invalid device number -5 (there are 4 devices;{{.*}}
  // LLVM: Libomptarget error: omp_target_memcpy returns OFFLOAD_FAIL
  // CHECK: memcpy(src dev -5)=-1
  printf("memcpy(src dev -5)=%d\n", omp_target_memcpy(d, x, 16, 0, 0, 0, -5));
  size_t vol[1] = {4}, off[1] = {0}, dim[1] = {4};
  // OURS: Libomptarget error: omp_target_memcpy_rect: invalid device number 99 (there are 4 devices;{{.*}}
  // CHECK: memcpy_rect(dst dev 99)=-1
  printf("memcpy_rect(dst dev 99)=%d\n",
         omp_target_memcpy_rect(d, x, sizeof(int), 1, vol, off, off, dim, dim,
                                99, host));
  // OURS: Libomptarget error: omp_target_associate_ptr: invalid device number 99 (there are 4 devices;{{.*}}
  // LLVM: Libomptarget error: omp_target_associate_ptr returns OFFLOAD_FAIL
  // CHECK: associate(99)=-1
  printf("associate(99)=%d\n", omp_target_associate_ptr(x, d, 16, 0, 99));
  // OURS: Libomptarget error: omp_target_disassociate_ptr: invalid device number 99 (there are 4 devices;{{.*}}
  // LLVM: Libomptarget error: omp_target_disassociate_ptr returns OFFLOAD_FAIL
  // CHECK: disassociate(99)=-1
  printf("disassociate(99)=%d\n", omp_target_disassociate_ptr(x, 99));
  // OURS: Libomptarget error: omp_target_free: invalid device number 99 (there are 4 devices;{{.*}}
  omp_target_free(d, 99);
  // CHECK: free(99) survived
  printf("free(99) survived\n");
  omp_target_free(d, 0);
  // CHECK: done rc=0
  printf("done rc=0\n");
  return 0;
}
