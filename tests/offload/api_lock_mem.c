// API: locked host memory (llvm_omp_target_lock_mem / llvm_omp_target_unlock_mem)
// used the way programs use it: a locked buffer mapped tofrom in `target
// teams distribute parallel for`, `target update` to and from a locked
// buffer (and a section of it), a nested lock (a reference, at the matching
// offset), a mapped section that starts before a locked range and ends
// inside it (its copies are cut at the locked range's edge on a GPU),
// llvm_omp_target_alloc_host memory mapped, copied with omp_target_memcpy
// and locked, and the buffer still right after the last unlock. Every value
// is checked; no message is printed (`--implicit-check-not`). With LLVM 14's
// plugin (our-core-llvm-plugin) nothing is locked: lock returns the pointer
// itself and the results are the same.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck --implicit-check-not=error --implicit-check-not=FAILED
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 20)

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main(void) {
  setbuf(stdout, NULL);
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int *a = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) a[i] = i;

  // Lock, then a combined construct that maps the locked buffer tofrom.
  int *la = llvm_omp_target_lock_mem(a, N * sizeof(int), dev);
  expect(la != NULL, "lock of a 4 MiB buffer");
#pragma omp target teams distribute parallel for map(tofrom : a[0:N])
  for (int i = 0; i < N; i++) a[i] = 2 * a[i] + 1;
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= a[i] == 2 * i + 1;
  expect(ok, "tofrom of a locked buffer");
  // CHECK: locked tofrom: ok
  printf("locked tofrom: %s\n", ok ? "ok" : "wrong");

  // A nested lock: a reference inside the locked range, at its offset.
  int *lb = llvm_omp_target_lock_mem(a + 1000, 4000 * sizeof(int), dev);
  expect(lb != NULL && la != NULL && (char *)lb - (char *)la == 1000 * sizeof(int),
         "nested lock at the matching offset");
  // CHECK: nested lock: ok
  printf("nested lock: %s\n", lb != NULL ? "ok" : "null");

  // target update to and from a locked buffer: the whole, then a section.
#pragma omp target enter data map(alloc : a[0:N])
  for (int i = 0; i < N; i++) a[i] = 3 * i;
#pragma omp target update to(a[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) a[i] += 7;
  memset(a, 0, N * sizeof(int));
#pragma omp target update from(a[0:N])
  ok = 1;
  for (int i = 0; i < N; i++) ok &= a[i] == 3 * i + 7;
  // A section in the middle, both ways.
  for (int i = 5000; i < 6000; i++) a[i] = -i;
#pragma omp target update to(a[5000:1000])
#pragma omp target teams distribute parallel for
  for (int i = 4000; i < 7000; i++) a[i] *= 2;
  memset(a, 0, N * sizeof(int));
#pragma omp target update from(a[4000:3000])
  for (int i = 4000; i < 7000; i++) ok &= a[i] == (i >= 5000 && i < 6000 ? -2 * i : 2 * (3 * i + 7));
  expect(ok, "target update to/from a locked buffer");
#pragma omp target exit data map(delete : a[0:N])
  // CHECK: locked update: ok
  printf("locked update: %s\n", ok ? "ok" : "wrong");
  llvm_omp_target_unlock_mem(a + 2000, dev);  // the nested lock, by an interior pointer
  llvm_omp_target_unlock_mem(a, dev);

  // A locked range in the upper half; the mapped section starts before it
  // and ends inside it.
  int *lc = llvm_omp_target_lock_mem(a + N / 2, (N / 2) * sizeof(int), dev);
  expect(lc != NULL, "lock of the upper half");
  for (int i = 0; i < N; i++) a[i] = i;
  int lo = N / 4, len = N / 2;  // [N/4, 3N/4): half pageable, half locked
#pragma omp target teams distribute parallel for map(tofrom : a[lo:len])
  for (int i = lo; i < lo + len; i++) a[i] = a[i] * 5 - 3;
  ok = 1;
  for (int i = 0; i < N; i++) ok &= a[i] == (i >= lo && i < lo + len ? i * 5 - 3 : i);
  // The same with update to/from of the straddling section.
#pragma omp target enter data map(to : a[lo:len])
  for (int i = lo; i < lo + len; i++) a[i] = 0;
#pragma omp target update from(a[lo:len])
  for (int i = lo; i < lo + len; i++) ok &= a[i] == i * 5 - 3;
  for (int i = lo; i < lo + len; i++) a[i] = -i;
#pragma omp target update to(a[lo:len])
#pragma omp target exit data map(from : a[lo:len])
  for (int i = lo; i < lo + len; i++) ok &= a[i] == -i;
  expect(ok, "a section that is partly locked");
  // CHECK: partly locked section: ok
  printf("partly locked section: %s\n", ok ? "ok" : "wrong");
  llvm_omp_target_unlock_mem(a + N / 2, dev);

  // llvm_omp_target_alloc_host memory: mapped, copied, locked.
  int *h = llvm_omp_target_alloc_host(N * sizeof(int), dev);
  expect(h != NULL, "alloc_host");
  for (int i = 0; i < N; i++) h[i] = i ^ 0x55;
#pragma omp target teams distribute parallel for map(tofrom : h[0:N])
  for (int i = 0; i < N; i++) h[i] += 1;
  ok = 1;
  for (int i = 0; i < N; i++) ok &= h[i] == (i ^ 0x55) + 1;
  int *d = omp_target_alloc(N * sizeof(int), dev);
  expect(omp_target_memcpy(d, h, N * sizeof(int), 0, 0, dev, host) == 0, "memcpy alloc_host -> device");
  memset(h, 0, N * sizeof(int));
  expect(omp_target_memcpy(h, d, N * sizeof(int), 0, 0, host, dev) == 0, "memcpy device -> alloc_host");
  for (int i = 0; i < N; i++) ok &= h[i] == (i ^ 0x55) + 1;
  // A lock inside it: its own address (it is pinned already); unlock keeps it.
  int *lh = llvm_omp_target_lock_mem(h + 10, 100 * sizeof(int), dev);
  expect(lh != NULL, "lock inside alloc_host memory");
  llvm_omp_target_unlock_mem(h + 10, dev);
  expect(omp_target_memcpy(h + 10, d, 64 * sizeof(int), 0, 0, host, dev) == 0,
         "memcpy into alloc_host memory after its unlock");
  for (int i = 10; i < 74; i++) ok &= h[i] == ((i - 10) ^ 0x55) + 1;
  expect(ok, "alloc_host memory");
  // CHECK: alloc_host: ok
  printf("alloc_host: %s\n", ok ? "ok" : "wrong");
  omp_target_free(d, dev);
  llvm_omp_target_free_host(h, dev);

  // After the last unlock the buffer is pageable again and still maps.
  for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : a[0:N])
  for (int i = 0; i < N; i++) a[i] -= 1;
  ok = 1;
  for (int i = 0; i < N; i++) ok &= a[i] == i - 1;
  expect(ok, "the buffer after its last unlock");
  // CHECK: after unlock: ok
  printf("after unlock: %s\n", ok ? "ok" : "wrong");

  // The initial device needs no lock: the pointer itself, nothing to unlock.
  expect(llvm_omp_target_lock_mem(a, 64, host) == a, "lock on the initial device");
  llvm_omp_target_unlock_mem(a, host);
  free(a);
  // CHECK: done failures=0
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// Not on remote devices (remote-mpi): it needs llvm_omp_target_alloc_host memory, which a device of
// another process cannot have.
// UNSUPPORTED: remote-mpi
