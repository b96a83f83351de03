// API (OpenMP 5.2, beyond LLVM 14): omp_target_memset fills device memory
// (and host memory for the initial device) with the low byte of `value` and
// returns ptr. Sizes from 1 byte to several MiB (more than the 1 MiB host
// buffer the core stages fills through, not a multiple of it), at offsets
// inside an allocation: the bytes around the range keep their values. Device
// addresses from omp_get_mapped_ptr work too. Count 0 writes nothing and
// returns ptr. Errors return NULL with a message naming the routine and the
// problem: a null pointer, an invalid device (99, omp_invalid_device), a
// pointer allocated on another device, a range past the end of its
// allocation, and a host address that is mapped (not a device address).
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=200 %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG ((size_t)5 * 1024 * 1024 + 12345)

static int dev, host;
static unsigned char *shadow;

// Fills [off, off + n) of the device block d (of `size` bytes) with v and
// checks every byte of the block against the shadow copy.
static int fill_and_check(unsigned char *d, size_t size, size_t off, size_t n, int v) {
  void *r = omp_target_memset(d + off, v, n, dev);
  memset(shadow + off, v, n);
  unsigned char *back = malloc(size);
  omp_target_memcpy(back, d, size, 0, 0, host, dev);
  size_t bad = 0;
  for (size_t i = 0; i < size; i++)
    if (back[i] != shadow[i]) {
      if (bad++ < 3)
        printf("off %zu n %zu: byte %zu = 0x%x, expected 0x%x\n", off, n, i, back[i], shadow[i]);
    }
  free(back);
  return r == d + off && bad == 0;
}

int main(void) {
  setbuf(stdout, NULL);
  dev = omp_get_default_device();
  host = omp_get_initial_device();
  unsigned char *d = omp_target_alloc(BIG, dev);
  shadow = malloc(BIG);
  memset(shadow, 0x11, BIG);
  omp_target_memcpy(d, shadow, BIG, 0, 0, dev, host);

  int ok = 1;
  ok &= fill_and_check(d, BIG, 0, 1, 0xa1);
  ok &= fill_and_check(d, BIG, 3, 5, 0xa2);
  ok &= fill_and_check(d, BIG, 17, 4096 + 3, 0xa3);
  ok &= fill_and_check(d, BIG, 1, BIG - 2, 0xa4);          // all but the first and last byte
  ok &= fill_and_check(d, BIG, 1024 * 1024 - 1, 1024 * 1024 + 2, 0xa5);  // across chunk borders
  ok &= fill_and_check(d, BIG, 0, BIG, 0x1ff);              // only the low byte counts
  ok &= fill_and_check(d, BIG, 100, 0, 0x33);               // nothing
  // CHECK: device fills ok=1
  printf("device fills ok=%d\n", ok);

  // A mapped array, filled through its device address.
  int a[256];
  for (int i = 0; i < 256; i++) a[i] = i;
#pragma omp target enter data map(to : a) device(dev)
  char *da = omp_get_mapped_ptr(a, dev);
  void *r = omp_target_memset(da + 16 * sizeof(int), 0, 32 * sizeof(int), dev);
#pragma omp target update from(a) device(dev)
  // CHECK: mapped: r=1 a15=15 a16=0 a47=0 a48=48
  printf("mapped: r=%d a15=%d a16=%d a47=%d a48=%d\n", r == da + 16 * sizeof(int), a[15], a[16],
         a[47], a[48]);

  // The initial device: host memory, by number and by constant.
  char h[8] = "abcdefg";
  void *r1 = omp_target_memset(h + 1, 'x', 2, host);
  void *r2 = omp_target_memset(h + 4, 'y', 2, omp_initial_device);
  // CHECK: host: axxdyyg r1=1 r2=1
  printf("host: %s r1=%d r2=%d\n", h, r1 == h + 1, r2 == h + 4);
  // Pinned host memory of a device is host memory as well.
  unsigned char *pinned = llvm_omp_target_alloc_host(64, dev);
  void *r3 = omp_target_memset(pinned, 0x2b, 64, host);
  // CHECK: pinned on the host: r3=1 p0=0x2b p63=0x2b
  printf("pinned on the host: r3=%d p0=0x%x p63=0x%x\n", r3 == pinned, pinned[0], pinned[63]);
  llvm_omp_target_free_host(pinned, dev);

  // Errors: NULL, a message, nothing written.
  // CHECK: Libomptarget error: omp_target_memset: null pointer (8 bytes on device
  void *e1 = omp_target_memset(NULL, 0, 8, dev);
  // CHECK: Libomptarget error: omp_target_memset: invalid device number 99
  void *e2 = omp_target_memset(d, 0, 8, 99);
  // CHECK: Libomptarget error: omp_target_memset: device number omp_invalid_device (-2) names no device
  void *e3 = omp_target_memset(d, 0, 8, omp_invalid_device);
  // CHECK: Libomptarget error: omp_target_memset: pointer 0x{{[0-9a-f]+}} is in memory that omp_target_alloc allocated on device {{[0-9]+}}, not on the initial device
  void *e4 = omp_target_memset(d, 0, 8, host);
  // CHECK: Libomptarget error: omp_target_memset: 16 bytes at 0x{{[0-9a-f]+}} run past the end of its block ({{[0-9]+}} bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device {{[0-9]+}}, 8 bytes left)
  void *e5 = omp_target_memset(d + BIG - 8, 0, 16, dev);
  // CHECK: Libomptarget error: omp_target_memset: pointer 0x{{[0-9a-f]+}} is a host address mapped on device {{[0-9]+}} (device address 0x{{[0-9a-f]+}}); pass the device address, omp_get_mapped_ptr
  void *e6 = omp_target_memset(a, 0, sizeof a, dev);
  // CHECK: errors: 1 1 1 1 1 1
  printf("errors: %d %d %d %d %d %d\n", e1 == NULL, e2 == NULL, e3 == NULL, e4 == NULL,
         e5 == NULL, e6 == NULL);
  // Count 0 is not an error, even without storage.
  // CHECK: zero count: 1 1
  printf("zero count: %d %d\n", omp_target_memset(d, 0, 0, dev) == d,
         omp_target_memset(NULL, 0, 0, dev) == NULL);
#pragma omp target exit data map(from : a) device(dev)
  // CHECK: untouched after errors: 1 a100=100
  unsigned char last[8];
  omp_target_memcpy(last, d, 8, 0, BIG - 8, host, dev);
  printf("untouched after errors: %d a100=%d\n", last[7] == 0xff && last[0] == 0xff, a[100]);
  omp_target_free(d, dev);
  free(shadow);
  return 0;
}

// Not on remote devices (remote-mpi): it fills llvm_omp_target_alloc_host memory, which a device of
// another process cannot have.
// UNSUPPORTED: remote-mpi
