// Bad-input tour, device numbers: every device-taking entry of the OpenMP
// API and our extensions, called with numbers that name no device (negative,
// the device count + 1, huge, omp_invalid_device). Each call prints one error
// line that names the call and the number, and returns its defined failure
// value; none crashes, and the valid numbers still work afterwards.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck
#include <limits.h>
#include <omp.h>
#include <stdio.h>

#include "omptarget/omp_target_ext.h"

static void noteProperty(void *Ctx, const char *Key, const char *Value) {
  (void)Key;
  (void)Value;
  ++*(int *)Ctx;
}

static void tour(int Dev) {
  static char Host[64];
  char *Valid = omp_target_alloc(64, 0);
  printf("== device %d\n", Dev);
  printf("alloc %s\n", omp_target_alloc(64, Dev) ? "pointer" : "NULL");
  printf("alloc_device %s\n", llvm_omp_target_alloc_device(64, Dev) ? "pointer" : "NULL");
  printf("alloc_host %s\n", llvm_omp_target_alloc_host(64, Dev) ? "pointer" : "NULL");
  printf("alloc_shared %s\n", llvm_omp_target_alloc_shared(64, Dev) ? "pointer" : "NULL");
  omp_target_free(Valid, Dev);
  printf("is_present %d\n", omp_target_is_present(Host, Dev));
  printf("is_accessible %d\n", omp_target_is_accessible(Host, sizeof Host, Dev));
  printf("mapped_ptr %s\n", omp_get_mapped_ptr(Host, Dev) ? "pointer" : "NULL");
  printf("memcpy to %d\n", omp_target_memcpy(Valid, Host, 8, 0, 0, Dev, omp_get_initial_device()));
  printf("memcpy from %d\n", omp_target_memcpy(Host, Valid, 8, 0, 0, omp_get_initial_device(), Dev));
  printf("memset %s\n", omp_target_memset(Valid, 0, 8, Dev) ? "pointer" : "NULL");
  printf("associate %d\n", omp_target_associate_ptr(Host, Valid, 8, 0, Dev));
  printf("disassociate %d\n", omp_target_disassociate_ptr(Host, Dev));
  printf("lock %s\n", llvm_omp_target_lock_mem(Host, sizeof Host, Dev) ? "pointer" : "NULL");
  llvm_omp_target_unlock_mem(Host, Dev);
  printf("uid %s\n", omp_get_uid_from_device(Dev) ? "string" : "NULL");
  int Props = 0;
  printf("properties %d (%d keys)\n", omptarget_get_device_properties(Dev, noteProperty, &Props), Props);
  omp_target_free(Valid, 0);
}

int main(void) {
  setbuf(stdout, NULL);
  const int N = omp_get_num_devices();
  const int Bad[] = {-5, N + 1, INT_MAX, omp_invalid_device};
  for (unsigned I = 0; I < sizeof Bad / sizeof Bad[0]; ++I) tour(Bad[I]);
  // The valid numbers still work.
  char *P = omp_target_alloc(64, 0);
  int X = 41;
#pragma omp target device(0) map(tofrom : X)
  X += 1;
  printf("after the tour: alloc %s, region %d\n", P ? "pointer" : "NULL", X);
  omp_target_free(P, 0);
  return 0;
}

// The same block for each bad number: -5, the device count + 1, INT_MAX,
// then omp_invalid_device (its own wording).
// CHECK: == device [[D:-?[0-9]+]]
// CHECK-NEXT: Libomptarget error: omp_target_alloc: invalid device number [[D]] (there are [[N:[0-9]+]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_device: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_device NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_host: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_host NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_shared: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_shared NULL
// CHECK-NEXT: Libomptarget error: omp_target_free: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); pointer 0x{{[0-9a-f]+}} not freed
// CHECK-NEXT: Libomptarget error: omp_target_is_present: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: is_present 0
// CHECK-NEXT: Libomptarget error: omp_target_is_accessible: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: is_accessible 0
// CHECK-NEXT: Libomptarget error: omp_get_mapped_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: mapped_ptr NULL
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host) (destination device)
// CHECK-NEXT: memcpy to -1
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host) (source device)
// CHECK-NEXT: memcpy from -1
// CHECK-NEXT: Libomptarget error: omp_target_memset: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: memset NULL
// CHECK-NEXT: Libomptarget error: omp_target_associate_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: associate -1
// CHECK-NEXT: Libomptarget error: omp_target_disassociate_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: disassociate -1
// CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); nothing was locked
// CHECK-NEXT: lock NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); nothing was unlocked
// CHECK-NEXT: Libomptarget error: omp_get_uid_from_device: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: uid NULL
// CHECK-NEXT: Libomptarget error: omptarget_get_device_properties: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}})
// CHECK-NEXT: properties 1 (0 keys)

// CHECK: == device [[D:-?[0-9]+]]
// CHECK-NEXT: Libomptarget error: omp_target_alloc: invalid device number [[D]] (there are [[N:[0-9]+]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_device: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_device NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_host: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_host NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_shared: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_shared NULL
// CHECK-NEXT: Libomptarget error: omp_target_free: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); pointer 0x{{[0-9a-f]+}} not freed
// CHECK-NEXT: Libomptarget error: omp_target_is_present: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: is_present 0
// CHECK-NEXT: Libomptarget error: omp_target_is_accessible: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: is_accessible 0
// CHECK-NEXT: Libomptarget error: omp_get_mapped_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: mapped_ptr NULL
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host) (destination device)
// CHECK-NEXT: memcpy to -1
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host) (source device)
// CHECK-NEXT: memcpy from -1
// CHECK-NEXT: Libomptarget error: omp_target_memset: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: memset NULL
// CHECK-NEXT: Libomptarget error: omp_target_associate_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: associate -1
// CHECK-NEXT: Libomptarget error: omp_target_disassociate_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: disassociate -1
// CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); nothing was locked
// CHECK-NEXT: lock NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); nothing was unlocked
// CHECK-NEXT: Libomptarget error: omp_get_uid_from_device: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: uid NULL
// CHECK-NEXT: Libomptarget error: omptarget_get_device_properties: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}})
// CHECK-NEXT: properties 1 (0 keys)

// CHECK: == device [[D:-?[0-9]+]]
// CHECK-NEXT: Libomptarget error: omp_target_alloc: invalid device number [[D]] (there are [[N:[0-9]+]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_device: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_device NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_host: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_host NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_shared: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: alloc_shared NULL
// CHECK-NEXT: Libomptarget error: omp_target_free: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); pointer 0x{{[0-9a-f]+}} not freed
// CHECK-NEXT: Libomptarget error: omp_target_is_present: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: is_present 0
// CHECK-NEXT: Libomptarget error: omp_target_is_accessible: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: is_accessible 0
// CHECK-NEXT: Libomptarget error: omp_get_mapped_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: mapped_ptr NULL
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host) (destination device)
// CHECK-NEXT: memcpy to -1
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host) (source device)
// CHECK-NEXT: memcpy from -1
// CHECK-NEXT: Libomptarget error: omp_target_memset: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: memset NULL
// CHECK-NEXT: Libomptarget error: omp_target_associate_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: associate -1
// CHECK-NEXT: Libomptarget error: omp_target_disassociate_ptr: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: disassociate -1
// CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); nothing was locked
// CHECK-NEXT: lock NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host); nothing was unlocked
// CHECK-NEXT: Libomptarget error: omp_get_uid_from_device: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}}, or omp_get_initial_device() for the host)
// CHECK-NEXT: uid NULL
// CHECK-NEXT: Libomptarget error: omptarget_get_device_properties: invalid device number [[D]] (there are [[N]] devices; valid numbers are 0..{{[0-9]+}})
// CHECK-NEXT: properties 1 (0 keys)

// CHECK: == device -2
// CHECK-NEXT: Libomptarget error: omp_target_alloc: device number omp_invalid_device (-2) names no device (there are [[N:[0-9]+]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: alloc NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_device: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: alloc_device NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_host: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: alloc_host NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_alloc_shared: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: alloc_shared NULL
// CHECK-NEXT: Libomptarget error: omp_target_free: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host); pointer 0x{{[0-9a-f]+}} not freed
// CHECK-NEXT: Libomptarget error: omp_target_is_present: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: is_present 0
// CHECK-NEXT: Libomptarget error: omp_target_is_accessible: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: is_accessible 0
// CHECK-NEXT: Libomptarget error: omp_get_mapped_ptr: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: mapped_ptr NULL
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host) (destination device)
// CHECK-NEXT: memcpy to -1
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host) (source device)
// CHECK-NEXT: memcpy from -1
// CHECK-NEXT: Libomptarget error: omp_target_memset: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: memset NULL
// CHECK-NEXT: Libomptarget error: omp_target_associate_ptr: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: associate -1
// CHECK-NEXT: Libomptarget error: omp_target_disassociate_ptr: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: disassociate -1
// CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host); nothing was locked
// CHECK-NEXT: lock NULL
// CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host); nothing was unlocked
// CHECK-NEXT: Libomptarget error: omp_get_uid_from_device: device number omp_invalid_device (-2) names no device (there are [[N]] devices; pass 0..{{[0-9]+}}, or omp_initial_device for the host)
// CHECK-NEXT: uid NULL
// CHECK-NEXT: Libomptarget error: omptarget_get_device_properties: invalid device number -2 (there are [[N]] devices; valid numbers are 0..{{[0-9]+}})
// CHECK-NEXT: properties 1 (0 keys)

// CHECK: after the tour: alloc pointer, region 42
// CHECK-NOT: Libomptarget
