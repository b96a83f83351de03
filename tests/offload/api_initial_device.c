// API (OpenMP 5.2 constants): omp_initial_device (-1) names the host in every
// device-memory routine, like omp_get_initial_device(): allocation (the two
// names free each other's memory), presence, omp_target_memcpy host<->device
// and host<->host, omp_target_memcpy_rect, omp_target_memcpy_async;
// associating on it fails, as on the initial device's number.
// omp_set_default_device(omp_initial_device) makes target and data
// constructs without a device clause run on the host. (clang 14 rejects
// `device(omp_initial_device)`, a negative constant; a variable holding -1
// passes -1, which also means "no device clause": such a construct runs on
// the default device; checked too.)
// omp_invalid_device (-2) makes every routine fail with a message naming the
// constant, and a target construct on it is a fatal error.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t && %run %t 2>&1 | %fcheck --check-prefix=VALID
// RUN: not --crash %run %t invalid 2>&1 | %fcheck --check-prefix=INVALID
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  volatile int initial = omp_initial_device, invalid = omp_invalid_device;
  if (argc > 1) {
    int z = 0;
    // INVALID: Libomptarget error: {{.*}}device number omp_invalid_device (-2) names no device
    // INVALID: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
    // INVALID-NOT: z=
#pragma omp target device(invalid) map(tofrom : z)
    z = 1;
    printf("z=%d\n", z);
    return 0;
  }

  int *p = omp_target_alloc(16 * sizeof(int), omp_initial_device);
  for (int i = 0; i < 16; i++) p[i] = i;  // host memory
  int *q = omp_target_alloc(16 * sizeof(int), host);
  // VALID: alloc: p=1 q=1 present=1 1
  printf("alloc: p=%d q=%d present=%d %d\n", p != NULL, q != NULL,
         omp_target_is_present(p, omp_initial_device), omp_target_is_present(q, omp_initial_device));

  int *d = omp_target_alloc(16 * sizeof(int), dev);
  int rc = omp_target_memcpy(d, p, 8 * sizeof(int), 0, 4 * sizeof(int), dev, omp_initial_device);
  rc |= omp_target_memcpy(q, d, 8 * sizeof(int), 2 * sizeof(int), 0, omp_initial_device, dev);
  rc |= omp_target_memcpy(q, p, sizeof(int), 0, 15 * sizeof(int), omp_initial_device,
                          omp_initial_device);
  // VALID: memcpy: rc=0 q0=15 q2=4 q9=11
  printf("memcpy: rc=%d q0=%d q2=%d q9=%d\n", rc, q[0], q[2], q[9]);

  size_t vol[2] = {2, 3}, zero[2] = {0, 0}, dims[2] = {4, 4};
  memset(q, 0, 16 * sizeof(int));
  rc = omp_target_memcpy_rect(q, p, sizeof(int), 2, vol, zero, zero, dims, dims,
                              omp_initial_device, omp_initial_device);
  // VALID: rect: rc=0 q0=0 q2=2 q3=0 q6=6
  printf("rect: rc=%d q0=%d q2=%d q3=%d q6=%d\n", rc, q[0], q[2], q[3], q[6]);

  memset(q, 0, 16 * sizeof(int));
  rc = omp_target_memcpy_async(d, p, 16 * sizeof(int), 0, 0, dev, omp_initial_device, 0, NULL);
#pragma omp taskwait
  rc |= omp_target_memcpy_async(q, d, 16 * sizeof(int), 0, 0, omp_initial_device, dev, 0, NULL);
#pragma omp taskwait
  // VALID: async: rc=0 q15=15
  printf("async: rc=%d q15=%d\n", rc, q[15]);

  // VALID: Libomptarget error: omp_target_associate_ptr: device -1 is the host
  rc = omp_target_associate_ptr(q, d, sizeof(int), 0, omp_initial_device);
  // VALID: associate: rc=-1
  printf("associate: rc=%d\n", rc);

  // Freed under the other name of the host: no message.
  omp_target_free(p, host);
  omp_target_free(q, omp_initial_device);

  // The default device may be the host.
  int on_host = -1, x = 5;
  omp_set_default_device(omp_initial_device);
#pragma omp target map(from : on_host) map(tofrom : x)
  {
    on_host = omp_is_initial_device();
    x++;
  }
#pragma omp target enter data map(to : x)
  // VALID: default device omp_initial_device: on_host=1 x=6 present_on_dev=0
  printf("default device omp_initial_device: on_host=%d x=%d present_on_dev=%d\n", on_host, x,
         omp_target_is_present(&x, dev));
  omp_set_default_device(dev);
#pragma omp target device(initial) map(from : on_host)
  on_host = omp_is_initial_device();
  // VALID: device(-1) with clang 14: on_host=0
  printf("device(-1) with clang 14: on_host=%d\n", on_host);

  // omp_invalid_device: every routine fails and says so.
  // VALID: Libomptarget error: omp_target_alloc: device number omp_invalid_device (-2) names no device
  void *bad = omp_target_alloc(8, omp_invalid_device);
  // VALID: Libomptarget error: omp_target_memcpy: device number omp_invalid_device (-2) names no device {{.*}}(destination device)
  rc = omp_target_memcpy(d, d, 8, 0, 0, omp_invalid_device, dev);
  // VALID: Libomptarget error: omp_target_is_present: device number omp_invalid_device (-2) names no device
  int present = omp_target_is_present(d, omp_invalid_device);
  // VALID: Libomptarget error: omp_target_free: device number omp_invalid_device (-2) names no device {{.*}}; pointer 0x{{[0-9a-f]+}} not freed
  omp_target_free(d, omp_invalid_device);
  // VALID: invalid: alloc=1 memcpy=1 present=0
  printf("invalid: alloc=%d memcpy=%d present=%d\n", bad == NULL, rc != 0, present);
  omp_target_free(d, dev);
  return 0;
}
