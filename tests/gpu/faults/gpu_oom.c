// Fault: device allocations larger than the device's memory. omp_target_alloc
// returns NULL with an error naming the size and the device, the device stays
// usable, and a mapping that cannot get device memory is a fatal error with
// the same explanation (no crash).
// On the fake CUDA driver (tests/fake_cuda) kernels do not run: the FAKE
// prefix replaces the line that needs a real kernel.
// RUN: %clang-offload %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setbuf(stdout, NULL);
  const size_t huge = (size_t)1 << 40;  // 1 TiB: more than any device has
  void *p = omp_target_alloc(huge, 0);
  // CHECK: cannot allocate 1099511627776 bytes
  // CHECK: omp_target_alloc(1 TiB): null
  printf("omp_target_alloc(1 TiB): %s\n", p ? "non-null" : "null");
  int *q = omp_target_alloc(64 * sizeof(int), 0);
  int r = 0;
#pragma omp target is_device_ptr(q) map(from : r)
  {
    for (int i = 0; i < 64; ++i) q[i] = i;
    r = q[63];
  }
  // OURS: small allocation after: ok r=63
  // LLVM: small allocation after: ok r=63
  // FAKE: small allocation after: ok r=0
  printf("small allocation after: %s r=%d\n", q ? "ok" : "null", r);
  omp_target_free(q, 0);
  char *h = malloc(16);
  // Only the device copy is allocated for `alloc`: the host range is a name.
#pragma omp target enter data map(alloc : h[0:huge])
  // CHECK: cannot allocate 1099511627776 bytes
  // CHECK: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // CHECK-NOT: not reached
  printf("not reached\n");
  free(h);
  return 0;
}
