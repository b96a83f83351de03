// API (OpenMP 5.1, beyond LLVM 14): omp_target_memcpy_async host<->device and
// device<->device (same device, different devices) with offsets; ordering
// through depend objects (a later `task depend(in:)` sees the copy complete,
// a chain of async copies runs in order) and through taskwait; a 0-byte copy
// and depobj_count 0 with a NULL list are valid.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=2000 %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <string.h>

#define N 4096

static int check(const char *what, const int *got, int n, int base) {
  for (int i = 0; i < n; i++)
    if (got[i] != base + i) {
      printf("%s: [%d] = %d, expected %d\n", what, i, got[i], base + i);
      return 0;
    }
  return 1;
}

int main(void) {
  setbuf(stdout, NULL);
  int host = omp_get_initial_device();
  static int a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = i;
  int *d0 = omp_target_alloc(2 * N * sizeof(int), 0);
  int *d0b = omp_target_alloc(N * sizeof(int), 0);
  int *d1 = omp_target_alloc(N * sizeof(int), 1);

  // Plain submission + taskwait: host -> dev0 at element offset N, then back.
  int rc = omp_target_memcpy_async(d0, a, N * sizeof(int), N * sizeof(int), 0, 0, host, 0, NULL);
#pragma omp taskwait
  memset(b, 0, sizeof b);
  rc |= omp_target_memcpy_async(b, d0, N * sizeof(int), 0, N * sizeof(int), host, 0, 0, NULL);
#pragma omp taskwait
  // CHECK: taskwait rc=0 ok=1
  printf("taskwait rc=%d ok=%d\n", rc, check("taskwait", b, N, 0));

  // A chain ordered only by depend objects: host -> dev0 -> dev0 (same
  // device) -> dev1 (other device) -> host, each with a source offset, then
  // a task that depends on the host result.
  omp_depend_t o_d0, o_d0b, o_d1, o_c;
#pragma omp depobj(o_d0) depend(inout : d0[0])
#pragma omp depobj(o_d0b) depend(inout : d0b[0])
#pragma omp depobj(o_d1) depend(inout : d1[0])
#pragma omp depobj(o_c) depend(inout : c)
  memset(c, 0, sizeof c);
  int seen = 0, ok = 0;
  rc = omp_target_memcpy_async(d0, a, N * sizeof(int), 0, 0, 0, host, 1, &o_d0);
  {
    omp_depend_t deps[2] = {o_d0, o_d0b};
    rc |= omp_target_memcpy_async(d0b, d0, (N - 1) * sizeof(int), 0, sizeof(int), 0, 0, 2, deps);
  }
  {
    omp_depend_t deps[2] = {o_d0b, o_d1};
    rc |= omp_target_memcpy_async(d1, d0b, (N - 2) * sizeof(int), 0, sizeof(int), 1, 0, 2, deps);
  }
  {
    omp_depend_t deps[2] = {o_d1, o_c};
    rc |= omp_target_memcpy_async(c, d1, (N - 2) * sizeof(int), 0, 0, host, 1, 2, deps);
  }
#pragma omp task depend(in : c) shared(seen, ok, c)
  {
    seen = c[N - 3];
    ok = check("chain (task)", c, N - 2, 2);
  }
#pragma omp taskwait
  // CHECK: chain rc=0 task saw 4095 ok=1
  printf("chain rc=%d task saw %d ok=%d\n", rc, seen, ok);

  // The same inside a parallel region: the copy is a deferred task of the
  // single thread; a dependent task on another thread waits for it.
  memset(c, 0, sizeof c);
  seen = ok = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    rc = omp_target_memcpy_async(d1, a, N * sizeof(int), 0, 0, 1, host, 1, &o_d1);
    omp_depend_t deps[2] = {o_d1, o_c};
    rc |= omp_target_memcpy_async(c, d1, N * sizeof(int), 0, 0, host, 1, 2, deps);
#pragma omp task depend(in : c) shared(seen, ok, c)
    {
      seen = c[N - 1];
      ok = check("parallel (task)", c, N, 0);
    }
  }
  // CHECK: parallel rc=0 task saw 4095 ok=1
  printf("parallel rc=%d task saw %d ok=%d\n", rc, seen, ok);

  // Host to host through the async API, and a 0-byte copy with a NULL dst.
  memset(b, 0, sizeof b);
  rc = omp_target_memcpy_async(b, a, N * sizeof(int), 0, 0, host, host, 0, NULL);
  rc |= omp_target_memcpy_async(NULL, a, 0, 0, 0, 0, host, 1, &o_c);
#pragma omp taskwait
  // CHECK: host-host rc=0 ok=1
  printf("host-host rc=%d ok=%d\n", rc, check("host-host", b, N, 0));

#pragma omp depobj(o_d0) destroy
#pragma omp depobj(o_d0b) destroy
#pragma omp depobj(o_d1) destroy
#pragma omp depobj(o_c) destroy
  omp_target_free(d0, 0);
  omp_target_free(d0b, 0);
  omp_target_free(d1, 1);
  // CHECK-NOT: Libomptarget error
  // CHECK: done
  printf("done\n");
  return 0;
}
