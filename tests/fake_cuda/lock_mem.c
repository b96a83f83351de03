// Locked host memory (llvm_omp_target_lock_mem) on the CUDA plugin and the
// fake driver. No kernel runs: device memory is read and written with
// omp_target_memcpy against a pageable scratch buffer, and data moves between
// host and device with enter/exit data and `target update`. One case per
// run, named by the argument (the CTests in CMakeLists.txt check the
// driver-call statistics and traces around them):
//   nested      a range locked twice (the second inside the first) and
//               unlocked twice: one cuMemHostRegister, one cuMemHostUnregister
//   locked      32 MiB (above the staging threshold) and 64-byte copies both
//               ways from and to locked memory: no staging buffers and no
//               small-copy buffer, so no cuMemAllocHost at all
//   pageable    the same copies from malloc'ed memory: staged, and small ones
//               through the pinned small-copy buffer
//   external    memory the program registered itself (cuMemHostRegister
//               through the loaded driver) and llvm_omp_target_alloc_host
//               memory of both devices are recognised as pinned: locks inside
//               them never register or unregister anything; the program's
//               own registration is still there at its cuMemHostUnregister
//   two-devices a range locked on device 0 and on device 1: registered once
//               (device 1 finds it pinned), unregistered once (by device 0)
//   register-error  with OMPTARGET_FAKE_CUDA_HOST_REGISTER_ERROR: the lock
//               fails (NULL, with the driver's error), and the memory's
//               pageable copies still come out right
//   partial     copies whose host range is half locked, half pageable (both
//               orders, and pageable-locked-pageable), large and small, both
//               ways
// Exit status 0 and "<case>: ok" when every byte is where it belongs.
#include <dlfcn.h>
#include <omptarget/omp_target_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MiB ((size_t)1 << 20)

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

static int dev, host;

static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed + (i >> 12));
}
static int same(const unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 31 + seed + (i >> 12))) return 0;
  return 1;
}

// The device copy of host memory mapped on `dev`.
static void *device_address(void *h) {
  void *p = h;
#pragma omp target data use_device_ptr(p)
  { h = p; }
  return h;
}

// Round trips of [p, p + n) (mapped on entry to this call as a whole):
// host -> device by `enter data map(to:)`, checked through a pageable
// scratch buffer; device -> host by `target update from` after the device
// contents were changed from the scratch buffer; then a small section both
// ways with `target update`.
static void round_trip(unsigned char *p, size_t n, const char *what) {
  unsigned char *scratch = malloc(n);
  char msg[160];
  fill(p, n, 1);
#pragma omp target enter data map(to : p[0:n])
  unsigned char *d = device_address(p);
  expect(omp_target_memcpy(scratch, d, n, 0, 0, host, dev) == 0, "memcpy device -> scratch");
  snprintf(msg, sizeof msg, "%s: host -> device", what);
  expect(same(scratch, n, 1), msg);
  fill(scratch, n, 2);
  expect(omp_target_memcpy(d, scratch, n, 0, 0, dev, host) == 0, "memcpy scratch -> device");
  memset(p, 0, n);
#pragma omp target update from(p[0:n])
  snprintf(msg, sizeof msg, "%s: device -> host", what);
  expect(same(p, n, 2), msg);
  // 64 bytes from the middle, both ways (the small-copy sizes).
  size_t mid = n / 2 - 32;
  for (int i = 0; i < 64; i++) p[mid + i] = (unsigned char)(200 + i);
#pragma omp target update to(p[mid:64])
  memset(p + mid, 0, 64);
#pragma omp target update from(p[mid:64])
  int ok = 1;
  for (int i = 0; i < 64; i++) ok &= p[mid + i] == (unsigned char)(200 + i);
  snprintf(msg, sizeof msg, "%s: 64 bytes both ways", what);
  expect(ok, msg);
#pragma omp target exit data map(delete : p[0:n])
  free(scratch);
}

static int nested(void) {
  size_t n = 4 * MiB;
  unsigned char *p = malloc(n);
  void *outer = llvm_omp_target_lock_mem(p, n, dev);
  void *inner = llvm_omp_target_lock_mem(p + MiB, MiB, dev);
  expect(outer != NULL && inner == (char *)outer + MiB, "nested lock at its offset");
  round_trip(p, n, "nested");
  llvm_omp_target_unlock_mem(p + MiB + 7, dev);
  round_trip(p, n, "after the inner unlock");
  llvm_omp_target_unlock_mem(p, dev);
  round_trip(p, n, "after the last unlock");
  free(p);
  return 0;
}

static int copies(int locked) {
  size_t n = 32 * MiB;
  unsigned char *p = malloc(n);
  if (locked) expect(llvm_omp_target_lock_mem(p, n, dev) == p, "lock of 32 MiB");
  // No scratch buffer here: it would be pageable. The device side is
  // checked through a second buffer of the same kind.
  unsigned char *q = malloc(n);
  if (locked) expect(llvm_omp_target_lock_mem(q, n, dev) == q, "lock of the second 32 MiB");
  fill(p, n, 5);
#pragma omp target enter data map(to : p[0:n])
  unsigned char *d = device_address(p);
  expect(omp_target_memcpy(q, d, n, 0, 0, host, dev) == 0, "memcpy device -> host");
  expect(same(q, n, 5), "32 MiB host -> device");
  fill(q, n, 6);
  expect(omp_target_memcpy(d, q, n, 0, 0, dev, host) == 0, "memcpy host -> device");
  memset(p, 0, n);
#pragma omp target update from(p[0:n])
  expect(same(p, n, 6), "32 MiB device -> host");
  for (int i = 0; i < 64; i++) p[100 + i] = (unsigned char)i;
#pragma omp target update to(p[100:64])
  memset(p + 100, 0, 64);
#pragma omp target update from(p[100:64])
  int ok = 1;
  for (int i = 0; i < 64; i++) ok &= p[100 + i] == (unsigned char)i;
  expect(ok, "64 bytes both ways");
  fill(p, n, 6);
#pragma omp target update to(p[100:64])
  memset(p, 0, n);
#pragma omp target exit data map(from : p[0:n])
  expect(same(p, n, 6), "exit data map(from:)");
  if (locked) {
    llvm_omp_target_unlock_mem(p, dev);
    llvm_omp_target_unlock_mem(q, dev);
  }
  free(p);
  free(q);
  return 0;
}

typedef int (*register_fn)(void *, size_t, unsigned);
typedef int (*unregister_fn)(void *);

static int external(void) {
  // The driver the plugin loaded (the fake libcuda.so.1); a first target
  // call has loaded it.
  void *scratch = omp_target_alloc(16, dev);
  omp_target_free(scratch, dev);
  void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  register_fn reg = cuda ? (register_fn)dlsym(cuda, "cuMemHostRegister_v2") : NULL;
  unregister_fn unreg = cuda ? (unregister_fn)dlsym(cuda, "cuMemHostUnregister") : NULL;
  if (!reg || !unreg) {
    printf("FAILED: no cuMemHostRegister in the loaded driver\n");
    return 1;
  }
  size_t n = 8 * MiB;
  unsigned char *p = malloc(n);
  expect(reg(p, n, 1 /* CU_MEMHOSTREGISTER_PORTABLE */) == 0, "the program's cuMemHostRegister");
  // Inside the program's registration, twice (nested), and all of it.
  unsigned char *a = llvm_omp_target_lock_mem(p + MiB, 2 * MiB, dev);
  unsigned char *b = llvm_omp_target_lock_mem(p + 2 * MiB, MiB, dev);
  unsigned char *c = llvm_omp_target_lock_mem(p, n, dev);
  expect(a == p + MiB && b == p + 2 * MiB && c == p, "locks inside registered memory");
  round_trip(p, n, "registered by the program");
  llvm_omp_target_unlock_mem(p + MiB, dev);
  llvm_omp_target_unlock_mem(p + 2 * MiB, dev);
  llvm_omp_target_unlock_mem(p, dev);
  // Still registered: the program's own unregister succeeds.
  expect(unreg(p) == 0, "the program's registration outlived our locks");
  // llvm_omp_target_alloc_host memory of this device and of the other one.
  for (int owner = 0; owner < 2; owner++) {
    unsigned char *h = llvm_omp_target_alloc_host(n, owner);
    expect(h != NULL, "alloc_host");
    unsigned char *l = llvm_omp_target_lock_mem(h + 4096, MiB, dev);
    expect(l == h + 4096, "lock inside alloc_host memory");
    round_trip(h, n, owner == dev ? "alloc_host of the device" : "alloc_host of the other device");
    llvm_omp_target_unlock_mem(h + 4096, dev);
    round_trip(h, n, "alloc_host after the unlock");
    llvm_omp_target_free_host(h, owner);
  }
  free(p);
  return 0;
}

static int two_devices(void) {
  size_t n = 4 * MiB;
  unsigned char *p = malloc(n);
  expect(llvm_omp_target_lock_mem(p, n, 0) == p, "lock on device 0");
  expect(llvm_omp_target_lock_mem(p, n, 1) == p, "lock on device 1");
  dev = 1;
  round_trip(p, n, "device 1");
  dev = 0;
  round_trip(p, n, "device 0");
  llvm_omp_target_unlock_mem(p, 0);  // unregisters: device 1 used it as found
  dev = 1;
  round_trip(p, n, "device 1 after device 0's unlock");
  llvm_omp_target_unlock_mem(p, 1);
  dev = 0;
  free(p);
  return 0;
}

static int register_error(void) {
  size_t n = 16 * MiB;
  unsigned char *p = malloc(n);
  void *l = llvm_omp_target_lock_mem(p, n, dev);
  expect(l == NULL, "lock fails");
  printf("lock returned %s\n", l ? "non-null" : "NULL");
  round_trip(p, n, "pageable after the failed lock");
  free(p);
  return 0;
}

static int partial(void) {
  size_t n = 32 * MiB;
  unsigned char *p = malloc(n);
  // Upper half locked: pageable (staged, 16 MiB) then locked.
  expect(llvm_omp_target_lock_mem(p + n / 2, n / 2, dev) != NULL, "lock of the upper half");
  round_trip(p, n, "pageable then locked");
  // A section that starts before the locked range and ends inside it.
  round_trip(p + n / 4, n / 2, "pageable then locked (a section)");
  // 64 bytes across the edge: 32 pageable, 32 locked (small-copy sizes).
  round_trip(p + n / 2 - 32, 64, "64 bytes across the edge");
  llvm_omp_target_unlock_mem(p + n / 2, dev);
  // Lower half locked: locked then pageable.
  expect(llvm_omp_target_lock_mem(p, n / 2, dev) != NULL, "lock of the lower half");
  round_trip(p, n, "locked then pageable");
  round_trip(p + n / 2 - 32, 64, "64 bytes across the other edge");
  llvm_omp_target_unlock_mem(p, dev);
  // The middle locked: pageable, locked, pageable.
  expect(llvm_omp_target_lock_mem(p + MiB, 2 * MiB, dev) != NULL, "lock of the middle");
  round_trip(p, 4 * MiB, "pageable, locked, pageable");
  llvm_omp_target_unlock_mem(p + MiB, dev);
  free(p);
  return 0;
}

int main(int argc, char **argv) {
  setbuf(stdout, NULL);  // in order with the runtime's lines on stderr
  dev = omp_get_default_device();
  host = omp_get_initial_device();
  const char *what = argc > 1 ? argv[1] : "";
  if (omp_get_num_devices() < 1) {
    printf("FAILED: no device\n");
    return 1;
  }
  int rc;
  if (!strcmp(what, "nested"))
    rc = nested();
  else if (!strcmp(what, "locked"))
    rc = copies(1);
  else if (!strcmp(what, "pageable"))
    rc = copies(0);
  else if (!strcmp(what, "external"))
    rc = external();
  else if (!strcmp(what, "two-devices"))
    rc = two_devices();
  else if (!strcmp(what, "register-error"))
    rc = register_error();
  else if (!strcmp(what, "partial"))
    rc = partial();
  else {
    printf("FAILED: unknown case '%s'\n", what);
    return 2;
  }
  if (rc || failures) return 1;
  printf("%s: ok\n", what);
  return 0;
}
