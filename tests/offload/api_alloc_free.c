// API: omp_target_alloc / omp_target_free on every device and on the initial
// device (host malloc); memory is usable through is_device_ptr; each device
// gets distinct memory; freeing NULL is a no-op; zero size returns NULL.
// GPU: skip (expects the host plugin's four devices)
// RUN: %clang-offload %s -o %t && %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  int nd = omp_get_num_devices();
  void *p[4];
  int ok = 1;
  for (int d = 0; d < nd; d++) {
    p[d] = omp_target_alloc(1024, d);
    ok &= p[d] != NULL;
  }
  // CHECK: 4 allocations ok=1 distinct=1
  printf("%d allocations ok=%d distinct=%d\n", nd, ok,
         p[0] != p[1] && p[1] != p[2] && p[2] != p[3]);
  for (int d = 0; d < nd; d++) {
    int *ip = (int *)p[d];
    int r = 0;
#pragma omp target device(d) is_device_ptr(ip) map(from : r)
    {
      for (int i = 0; i < 256; i++) ip[i] = i + d;
      r = ip[255];
    }
    printf("dev%d r=%d\n", d, r);
  }
  // CHECK: dev0 r=255
  // CHECK: dev1 r=256
  // CHECK: dev2 r=257
  // CHECK: dev3 r=258
  for (int d = 0; d < nd; d++) omp_target_free(p[d], d);

  int host = omp_get_initial_device();
  int *h = (int *)omp_target_alloc(4 * sizeof(int), host);
  h[0] = 5; // host memory: directly usable
  // CHECK: initial device alloc ok=1 h0=5
  printf("initial device alloc ok=%d h0=%d\n", h != NULL, h[0]);
  omp_target_free(h, host);

  omp_target_free(NULL, 0);
  omp_target_free(NULL, host);
  // CHECK: free(NULL) ok
  printf("free(NULL) ok\n");
  // CHECK: zero size -> NULL=1
  printf("zero size -> NULL=%d\n", omp_target_alloc(0, 0) == NULL);
  // Many small allocations and frees.
  for (int i = 0; i < 1000; i++) omp_target_free(omp_target_alloc(i + 1, i % 4), i % 4);
  // CHECK: churn done
  printf("churn done\n");
  return 0;
}
