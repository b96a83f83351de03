// The OpenMP 5.1-6.0 device routines on the CUDA plugin (fake driver, two
// devices): device ids are the GPUs' UUIDs as nvidia-smi prints them (the
// fake's UUID of device n is f0 f1 ... fe n) and map back to their device;
// omp_target_is_accessible is 1 for memory of llvm_omp_target_alloc_host /
// _shared of that device (the whole range inside one block) and for memory
// locked on it, and 0 for pageable memory, another device's pinned or locked
// memory, a range past the end of a block or locked range, freed and
// unlocked memory; omp_target_memset and omp_target_memset_async fill
// device memory (through the plugin's ordinary host-to-device copies) at
// offsets and across the core's 1 MiB staging chunks; omp_get_mapped_ptr
// gives a device address that memset can fill. Exit status 0 and
// "api queries: ok" when every check holds.
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

#define BIG ((size_t)3 * 1024 * 1024 + 5)

int main(void) {
  int host = omp_get_initial_device();
  if (omp_get_num_devices() != 2) {
    printf("FAILED: expected 2 devices, found %d\n", omp_get_num_devices());
    return 1;
  }

  const char *u0 = omp_get_uid_from_device(0), *u1 = omp_get_uid_from_device(1);
  expect(u0 && strcmp(u0, "GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfe00") == 0, "uid of device 0");
  expect(u1 && strcmp(u1, "GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfe01") == 0, "uid of device 1");
  expect(omp_get_device_from_uid(u0) == 0 && omp_get_device_from_uid(u1) == 1, "uid round trip");
  expect(omp_get_device_from_uid("GPU-00000000-0000-0000-0000-000000000000") == omp_invalid_device,
         "unknown uid");
  if (u0) printf("device 0: %s\n", u0);

  char *pinned = llvm_omp_target_alloc_host(4096, 0);
  char *managed = llvm_omp_target_alloc_shared(4096, 0);
  char *pageable = malloc(4096);
  expect(pinned && managed, "pinned and managed allocations");
  expect(omp_target_is_accessible(pinned, 4096, 0) == 1, "pinned memory of the device");
  expect(omp_target_is_accessible(pinned + 100, 100, 0) == 1, "inside pinned memory");
  expect(omp_target_is_accessible(pinned + 4000, 200, 0) == 0, "past the end of pinned memory");
  expect(omp_target_is_accessible(managed, 4096, 0) == 1, "managed memory of the device");
  expect(omp_target_is_accessible(pinned, 16, 1) == 0, "another device's pinned memory");
  expect(omp_target_is_accessible(pageable, 4096, 0) == 0, "pageable memory");
  expect(omp_target_is_accessible(pageable, 4096, host) == 1, "the initial device");
  llvm_omp_target_free_host(pinned, 0);
  llvm_omp_target_free_shared(managed, 0);
  expect(omp_target_is_accessible(pinned, 16, 0) == 0, "freed pinned memory");
  // Locked pageable memory is reachable at its host address while locked.
  expect(llvm_omp_target_lock_mem(pageable, 4096, 0) == pageable, "lock returns the host address");
  expect(omp_target_is_accessible(pageable + 100, 100, 0) == 1, "inside locked memory");
  expect(omp_target_is_accessible(pageable + 4000, 200, 0) == 0, "past the end of locked memory");
  expect(omp_target_is_accessible(pageable, 16, 1) == 0, "memory locked on another device");
  llvm_omp_target_unlock_mem(pageable, 0);
  expect(omp_target_is_accessible(pageable, 16, 0) == 0, "unlocked memory");
  free(pageable);

  unsigned char *d = omp_target_alloc(BIG, 1);
  unsigned char *back = malloc(BIG);
  expect(omp_target_memset(d, 0x7e, BIG, 1) == d, "memset returns ptr");
  expect(omp_target_memset(d + 1000, 0x01, 2 * 1024 * 1024, 1) == d + 1000, "memset at an offset");
  omp_target_memcpy(back, d, BIG, 0, 0, host, 1);
  size_t wrong = 0;
  for (size_t i = 0; i < BIG; i++)
    wrong += back[i] != (i >= 1000 && i < 1000 + 2 * 1024 * 1024 ? 0x01 : 0x7e);
  expect(wrong == 0, "memset contents");
  omp_depend_t obj;
#pragma omp depobj(obj) depend(inout : d[0])
  expect(omp_target_memset_async(d, 0x33, BIG, 1, 1, &obj) == d, "memset_async returns ptr");
  expect(omp_target_memcpy_async(back, d, BIG, 0, 0, host, 1, 1, &obj) == 0, "memcpy_async");
#pragma omp taskwait
#pragma omp depobj(obj) destroy
  wrong = 0;
  for (size_t i = 0; i < BIG; i++) wrong += back[i] != 0x33;
  expect(wrong == 0, "memset_async contents");
  expect(omp_target_memset(d, 0, 16, 0) == NULL, "memset of another device's memory fails");
  llvm_omp_target_free_device(d, 1);

  int a[1024];
  for (int i = 0; i < 1024; i++) a[i] = i;
#pragma omp target enter data map(to : a) device(0)
  char *da = omp_get_mapped_ptr(a, 0);
  expect(da != NULL && da != (char *)a, "mapped pointer");
  expect(omp_target_memset(da + 4 * sizeof(int), 0, 4 * sizeof(int), 0) != NULL, "memset mapped");
#pragma omp target exit data map(from : a) device(0)
  expect(a[3] == 3 && a[4] == 0 && a[7] == 0 && a[8] == 8, "mapped contents");
  expect(omp_get_mapped_ptr(a, 0) == NULL, "unmapped after exit");

  // Never runs: the target region makes clang register the program's image.
  if (failures < 0) {
#pragma omp target device(0)
    { a[0] = 1; }
  }
  free(back);
  if (failures) return 1;
  printf("api queries: ok\n");
  return 0;
}
