// GPU only (tests/gpu/run_gpu_tests.sh builds tests/gpu/cuda/*.c): locked
// host memory (llvm_omp_target_lock_mem) on a real device, where copies from
// and to locked ranges are single cuMemcpy*Async DMAs from user memory and a
// copy that is only partly locked is cut at the locked range's edges.
//   * 64 MiB locked (cuMemHostRegister), mapped tofrom in a kernel, changed
//     again on the device and read back with `target update from`;
//   * a nested lock: a reference at the matching offset, no second
//     registration; after its unlock the outer lock still holds;
//   * a section that starts in pageable memory and ends inside a locked
//     range (16 MiB pageable: staged; 16 MiB locked: direct), both ways;
//   * llvm_omp_target_alloc_host memory (pinned already): mapped, a kernel,
//     copied with omp_target_memcpy, a lock inside it registers nothing.
// The second run counts the driver calls: two ranges registered and
// unregistered, each once.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck --implicit-check-not=FAILED --implicit-check-not=error
// RUN: env OMPTARGET_CUDA_API_STATS=1 %run %t 2>&1 | %fcheck --check-prefix=STATS --implicit-check-not=FAILED
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (16 * 1024 * 1024)  // floats: 64 MiB

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  float *a = malloc((size_t)N * sizeof(float));
  for (int i = 0; i < N; i++) a[i] = (float)(i % 1000);

  // 64 MiB locked, mapped, a kernel, target update from.
  float *la = llvm_omp_target_lock_mem(a, (size_t)N * sizeof(float), dev);
  expect(la != NULL, "lock of 64 MiB");
#pragma omp target enter data map(to : a[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) a[i] = a[i] * 2.0f + 1.0f;
  memset(a, 0, (size_t)N * sizeof(float));
#pragma omp target update from(a[0:N])
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= a[i] == (float)(i % 1000) * 2.0f + 1.0f;
  // The buffer is present: `always` makes this map copy both ways.
#pragma omp target teams distribute parallel for map(always, tofrom : a[0:N])
  for (int i = 0; i < N; i++) a[i] -= 1.0f;
  for (int i = 0; i < N; i++) ok &= a[i] == (float)(i % 1000) * 2.0f;
#pragma omp target exit data map(delete : a[0:N])
  expect(ok, "64 MiB locked round trip");
  // CHECK: locked 64 MiB: ok
  printf("locked 64 MiB: %s\n", ok ? "ok" : "wrong");

  // Nested: a reference inside, at its offset; the outer lock outlives it.
  float *lb = llvm_omp_target_lock_mem(a + N / 4, (size_t)(N / 2) * sizeof(float), dev);
  expect(lb != NULL && la != NULL && lb == la + N / 4, "nested lock at the matching offset");
  llvm_omp_target_unlock_mem(a + N / 2, dev);
#pragma omp target teams distribute parallel for map(tofrom : a[N / 4:N / 2])
  for (int i = N / 4; i < N / 4 + N / 2; i++) a[i] = -a[i];
  ok = 1;
  for (int i = 0; i < N; i++)
    ok &= a[i] == (i >= N / 4 && i < N / 4 + N / 2 ? -1.0f : 1.0f) * (float)(i % 1000) * 2.0f;
  expect(ok, "after the nested unlock");
  // CHECK: nested lock: ok
  printf("nested lock: %s\n", ok ? "ok" : "wrong");
  llvm_omp_target_unlock_mem(a, dev);

  // The upper half locked; a section from the first quarter into it.
  for (int i = 0; i < N; i++) a[i] = (float)(i % 777);
  expect(llvm_omp_target_lock_mem(a + N / 2, (size_t)(N / 2) * sizeof(float), dev) != NULL,
         "lock of the upper half");
  int lo = N / 4, len = N / 2;
#pragma omp target enter data map(to : a[lo:len])
  // a[0] is not mapped: the section itself names the device copy.
#pragma omp target teams distribute parallel for map(tofrom : a[lo:len])
  for (int i = lo; i < lo + len; i++) a[i] += 3.0f;
  memset(a + lo, 0, (size_t)len * sizeof(float));
#pragma omp target update from(a[lo:len])
  ok = 1;
  for (int i = 0; i < N; i++) ok &= a[i] == (float)(i % 777) + (i >= lo && i < lo + len ? 3.0f : 0.0f);
  for (int i = lo; i < lo + len; i++) a[i] = (float)i;
#pragma omp target update to(a[lo:len])
#pragma omp target teams distribute parallel for map(tofrom : a[lo:len])
  for (int i = lo; i < lo + len; i++) a[i] *= 0.5f;
#pragma omp target exit data map(from : a[lo:len])
  for (int i = lo; i < lo + len; i++) ok &= a[i] == (float)i * 0.5f;
  expect(ok, "a section partly locked");
  // CHECK: partly locked section: ok
  printf("partly locked section: %s\n", ok ? "ok" : "wrong");
  llvm_omp_target_unlock_mem(a + N / 2, dev);

  // llvm_omp_target_alloc_host memory.
  int m = 1 << 20;
  float *h = llvm_omp_target_alloc_host((size_t)m * sizeof(float), dev);
  expect(h != NULL, "alloc_host");
  for (int i = 0; i < m; i++) h[i] = (float)i;
  float *lh = llvm_omp_target_lock_mem(h + 16, 1024 * sizeof(float), dev);
  expect(lh != NULL, "lock inside alloc_host memory");
#pragma omp target teams distribute parallel for map(tofrom : h[0:m])
  for (int i = 0; i < m; i++) h[i] += 0.25f;
  ok = 1;
  for (int i = 0; i < m; i++) ok &= h[i] == (float)i + 0.25f;
  float *d = omp_target_alloc((size_t)m * sizeof(float), dev);
  expect(omp_target_memcpy(d, h, (size_t)m * sizeof(float), 0, 0, dev, host) == 0, "memcpy to device");
  memset(h, 0, (size_t)m * sizeof(float));
  expect(omp_target_memcpy(h, d, (size_t)m * sizeof(float), 0, 0, host, dev) == 0, "memcpy to host");
  for (int i = 0; i < m; i++) ok &= h[i] == (float)i + 0.25f;
  llvm_omp_target_unlock_mem(h + 16, dev);
  omp_target_free(d, dev);
  llvm_omp_target_free_host(h, dev);
  expect(ok, "alloc_host memory");
  // CHECK: alloc_host: ok
  printf("alloc_host: %s\n", ok ? "ok" : "wrong");

  free(a);
  // CHECK: lock_mem_gpu: failures=0
  printf("lock_mem_gpu: failures=%d\n", failures);
  // Two ranges were registered (64 MiB, then its upper half), each once.
  // STATS-DAG: omptarget cuda api stats: cuMemHostRegister_v2 2{{ }}
  // STATS-DAG: omptarget cuda api stats: cuMemHostUnregister 2{{ }}
  return failures != 0;
}
