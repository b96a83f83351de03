// API (OpenMP 5.1; clang 14's omp.h declares it, no LLVM 14 runtime defines
// it): omp_get_mapped_ptr returns the device address of a mapped host
// address, interior addresses included (device base + the same offset), of
// an omp_target_associate_ptr association, NULL for unmapped storage (also
// one past the end of a mapping, and after the mapping is gone), the host
// pointer itself for the initial device (omp_get_initial_device() and
// omp_initial_device), and NULL with a message for an invalid device. The
// returned address is the device's: a region writing through it
// (is_device_ptr) changes what `update from` brings back. Lookups change no
// reference count.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  setbuf(stdout, NULL);
  int dev = omp_get_default_device();
  int a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  // CHECK: unmapped=1
  printf("unmapped=%d\n", omp_get_mapped_ptr(a, dev) == NULL);
#pragma omp target enter data map(to : a[0:N])
  int *d = omp_get_mapped_ptr(a, dev);
  int *d7 = omp_get_mapped_ptr(&a[7], dev);
  // CHECK: mapped=1 distinct=1 interior=1 last=1 past_end=1
  printf("mapped=%d distinct=%d interior=%d last=%d past_end=%d\n", d != NULL, (void *)d != a,
         d7 == d + 7, omp_get_mapped_ptr(&a[N - 1], dev) == d + N - 1,
         omp_get_mapped_ptr(&a[N], dev) == NULL);

  // The address is the device's own: write through it on the device.
#pragma omp target is_device_ptr(d7) device(dev)
  for (int i = 0; i < 5; i++) d7[i] = 1000 + i;
#pragma omp target update from(a[0:N])
  // CHECK: through device address: a6=6 a7=1000 a11=1004 a12=12
  printf("through device address: a6=%d a7=%d a11=%d a12=%d\n", a[6], a[7], a[11], a[12]);

  // No reference was taken: one exit removes the mapping.
#pragma omp target exit data map(release : a[0:N])
  // CHECK: after exit: present=0 mapped=0
  printf("after exit: present=%d mapped=%d\n", omp_target_is_present(a, dev),
         omp_get_mapped_ptr(a, dev) != NULL);

  // An association maps the host range to the given device address + offset.
  int b[N];
  char *buf = omp_target_alloc(N * sizeof(int) + 256, dev);
  int rc = omp_target_associate_ptr(b, buf, sizeof b, 256, dev);
  // CHECK: associated rc=0 mapped=1 interior=1
  printf("associated rc=%d mapped=%d interior=%d\n", rc,
         omp_get_mapped_ptr(b, dev) == (void *)(buf + 256),
         omp_get_mapped_ptr(&b[3], dev) == (void *)(buf + 256 + 3 * sizeof(int)));
  omp_target_disassociate_ptr(b, dev);
  // CHECK: disassociated mapped=0
  printf("disassociated mapped=%d\n", omp_get_mapped_ptr(b, dev) != NULL);
  omp_target_free(buf, dev);

  // The initial device: the host pointer is its own device pointer.
  // CHECK: initial: by number=1 by constant=1 null=1
  printf("initial: by number=%d by constant=%d null=%d\n",
         omp_get_mapped_ptr(a, omp_get_initial_device()) == a,
         omp_get_mapped_ptr(a, omp_initial_device) == a,
         omp_get_mapped_ptr(NULL, omp_initial_device) == NULL);
  // CHECK: null pointer=1
  printf("null pointer=%d\n", omp_get_mapped_ptr(NULL, dev) == NULL);

  // Invalid devices: NULL and a message naming the call.
  // CHECK: Libomptarget error: omp_get_mapped_ptr: invalid device number 99
  void *bad99 = omp_get_mapped_ptr(a, 99);
  // CHECK: Libomptarget error: omp_get_mapped_ptr: device number omp_invalid_device (-2) names no device
  void *bad_invalid = omp_get_mapped_ptr(a, omp_invalid_device);
  // CHECK: invalid devices: 1 1
  printf("invalid devices: %d %d\n", bad99 == NULL, bad_invalid == NULL);
  return 0;
}
