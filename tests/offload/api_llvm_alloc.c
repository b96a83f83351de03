// API: LLVM extensions llvm_omp_target_alloc_host / _shared / _device. On the
// host plugin all three return usable memory for a valid device and NULL for
// an invalid one; device memory works with is_device_ptr; host and shared
// memory are directly accessible from the host; omp_target_free frees them.
// GPU: skip (uses the host plugin's devices 2 and 3)
// LLVM 19 stops the program at llvm_omp_target_alloc_host(8, 99) ("omptarget
// fatal error 99: Device number '99' out of range") instead of returning NULL.
// XFAIL: runtime-llvm19
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stddef.h>
#include <stdio.h>

void *llvm_omp_target_alloc_host(size_t, int);
void *llvm_omp_target_alloc_shared(size_t, int);
void *llvm_omp_target_alloc_device(size_t, int);

int main(void) {
  int *h = llvm_omp_target_alloc_host(4 * sizeof(int), 0);
  int *s = llvm_omp_target_alloc_shared(4 * sizeof(int), 0);
  int *d = llvm_omp_target_alloc_device(4 * sizeof(int), 0);
  // CHECK: host=1 shared=1 device=1
  printf("host=%d shared=%d device=%d\n", h != NULL, s != NULL, d != NULL);
  for (int i = 0; i < 4; i++) {
    h[i] = i;
    s[i] = 10 * i;
  }
  int r = 0;
#pragma omp target is_device_ptr(d) map(from : r)
  {
    for (int i = 0; i < 4; i++) d[i] = 100 * i;
    r = d[3];
  }
  int back[4];
  omp_target_memcpy(back, d, sizeof(back), 0, 0, omp_get_initial_device(), 0);
  // CHECK: device r=300 back2=200 host h3=3 shared s3=30
  printf("device r=%d back2=%d host h3=%d shared s3=%d\n", r, back[2], h[3],
         s[3]);
  omp_target_free(h, 0);
  omp_target_free(s, 0);
  omp_target_free(d, 0);
  // CHECK: dev99: host=1 shared=1 device=1
  printf("dev99: host=%d shared=%d device=%d\n",
         llvm_omp_target_alloc_host(8, 99) == NULL,
         llvm_omp_target_alloc_shared(8, 99) == NULL,
         llvm_omp_target_alloc_device(8, 99) == NULL);
  // CHECK: other devices ok=1
  int ok = 1;
  for (int dev = 1; dev < 4; dev++) {
    void *p = llvm_omp_target_alloc_device(16, dev);
    ok &= p != NULL;
    omp_target_free(p, dev);
  }
  printf("other devices ok=%d\n", ok);
  return 0;
}

// Not on remote devices (remote-mpi): host and shared memory of a device in another process do not
// exist (the MPI plugin refuses them).
// UNSUPPORTED: remote-mpi
