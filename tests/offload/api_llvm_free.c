// API (LLVM's extensions, not in LLVM 14): llvm_omp_target_free_host,
// llvm_omp_target_free_shared and llvm_omp_target_free_device free memory of
// the matching llvm_omp_target_alloc_* (free_device also that of
// omp_target_alloc: both are device memory). Memory is usable until freed;
// freed memory can be allocated again. Misuse is reported and ignored, the
// memory staying valid: a free routine of another kind (host memory given to
// free_shared or free_device), a pointer of another device, a double free, an
// invalid device; NULL is a no-op. On the initial device every kind is
// malloc'ed memory, which any of them frees.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  setbuf(stdout, NULL);
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int ok = 1;
  for (int round = 0; round < 3; round++) {
    int *h = llvm_omp_target_alloc_host(64 * sizeof(int), dev);
    int *s = llvm_omp_target_alloc_shared(64 * sizeof(int), dev);
    int *d = llvm_omp_target_alloc_device(64 * sizeof(int), dev);
    int *o = omp_target_alloc(64 * sizeof(int), dev);
    ok &= h && s && d && o;
    int src[64], back[64];
    for (int i = 0; i < 64; i++) src[i] = round * 100 + i;
    omp_target_memcpy(d, src, sizeof src, 0, 0, dev, host);
    omp_target_memcpy(back, d, sizeof back, 0, 0, host, dev);
    ok &= memcmp(src, back, sizeof src) == 0;
    llvm_omp_target_free_host(h, dev);
    llvm_omp_target_free_shared(s, dev);
    llvm_omp_target_free_device(d, dev);
    llvm_omp_target_free_device(o, dev);
  }
  // CHECK-NOT: Libomptarget error
  // CHECK: matching frees: ok=1
  printf("matching frees: ok=%d\n", ok);

  int *h = llvm_omp_target_alloc_host(64, dev);
  int *s = llvm_omp_target_alloc_shared(64, dev);
  // CHECK: Libomptarget error: llvm_omp_target_free_shared: pointer 0x{{[0-9a-f]+}} on device {{[0-9]+}} was allocated by llvm_omp_target_alloc_host, not by llvm_omp_target_alloc_shared; free it with omp_target_free or the free routine of its allocator; ignored
  llvm_omp_target_free_shared(h, dev);
  // CHECK: Libomptarget error: llvm_omp_target_free_device: pointer 0x{{[0-9a-f]+}} on device {{[0-9]+}} was allocated by llvm_omp_target_alloc_host, not by llvm_omp_target_alloc_device
  llvm_omp_target_free_device(h, dev);
  // CHECK: Libomptarget error: llvm_omp_target_free_host: pointer 0x{{[0-9a-f]+}} on device {{[0-9]+}} was allocated by llvm_omp_target_alloc_shared, not by llvm_omp_target_alloc_host
  llvm_omp_target_free_host(s, dev);
  // CHECK: Libomptarget error: llvm_omp_target_free_host: pointer 0x{{[0-9a-f]+}} was not allocated by llvm_omp_target_alloc_host on the initial device
  llvm_omp_target_free_host(h, host);
  // CHECK: Libomptarget error: llvm_omp_target_free_host: invalid device number 99
  llvm_omp_target_free_host(h, 99);
  // Still valid after every refused free (host and shared memory: plain loads and stores).
  h[15] = 15;
  s[15] = 30;
  // CHECK: survived: 15 30
  printf("survived: %d %d\n", h[15], s[15]);
  llvm_omp_target_free_host(h, dev);
  llvm_omp_target_free_shared(s, dev);
  // CHECK: Libomptarget error: llvm_omp_target_free_host: pointer 0x{{[0-9a-f]+}} was not allocated by llvm_omp_target_alloc_host on device {{[0-9]+}} (or was already freed); ignored
  llvm_omp_target_free_host(h, dev);
  llvm_omp_target_free_host(NULL, dev);
  llvm_omp_target_free_device(NULL, 99);

  // The initial device: host memory, any free routine of the host frees it.
  char *ih = llvm_omp_target_alloc_host(16, host);
  char *is = llvm_omp_target_alloc_shared(16, omp_initial_device);
  strcpy(ih, "host");
  strcpy(is, "shared");
  // CHECK: initial device: host shared
  printf("initial device: %s %s\n", ih, is);
  llvm_omp_target_free_shared(ih, omp_initial_device);
  llvm_omp_target_free_device(is, host);
  // CHECK: done
  printf("done\n");
  return 0;
}

// Not on remote devices (remote-mpi): host and shared memory of a device in another process do not
// exist (the MPI plugin refuses them).
// UNSUPPORTED: remote-mpi
