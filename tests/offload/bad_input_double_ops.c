// Bad-input tour, operations done twice or on the wrong thing: double free
// (omp_target_free, llvm_omp_target_free_*, an initial-device block), a free
// by another routine after the first, double unlock, unlock of memory that
// was never locked, double disassociate, omp_target_free of a mapped
// device pointer (omp_get_mapped_ptr of a map clause's data) and of a block
// that is still associated with host memory. The second operation is
// refused with one error line naming the call and the pointer; nothing is
// freed twice (on the host device a second free() of a block would corrupt
// the heap: LLVM 14 passes it to the plugin), the mapped data and the
// association keep working, and device 0's mapping table ends with the
// entries it started with (mapped_entries).
// LLVM 14 frees a block that is still associated: the association then
// names freed memory, and a region that maps the host range writes into
// the heap.
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/mapped_entries.h"
#include "omptarget/omp_target_ext.h"


int main(void) {
  setbuf(stdout, NULL);
  const int Dev = 0, Host = omp_get_initial_device();
  long Before = mappedEntries(0);
  // CHECK: mapped entries at start: [[#]]
  printf("mapped entries at start: %ld\n", Before);

  // == Double frees.
  // CHECK-NEXT: Libomptarget error: omp_target_free: pointer [[A:0x[0-9a-f]+]] was not allocated by omp_target_alloc on device 0 (or was already freed); ignored
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_free_host: pointer 0x{{[0-9a-f]+}} was not allocated by llvm_omp_target_alloc_host on device 0 (or was already freed); ignored
  // CHECK-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 0 (or was already freed); ignored
  // CHECK-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on the initial device (or was already freed); ignored
  // CHECK-NEXT: double frees: done
  // CHECK-NEXT: fresh block freed once: done
  char *A = omp_target_alloc(64, Dev);
  omp_target_free(A, Dev);
  omp_target_free(A, Dev);
  char *B = llvm_omp_target_alloc_host(64, Dev);
  llvm_omp_target_free_host(B, Dev);
  llvm_omp_target_free_host(B, Dev);
  char *C = llvm_omp_target_alloc_shared(64, Dev);
  llvm_omp_target_free_shared(C, Dev);
  omp_target_free(C, Dev);
  char *H = omp_target_alloc(64, Host);
  omp_target_free(H, Host);
  omp_target_free(H, omp_initial_device);
  printf("double frees: done\n");
  // A fresh block may reuse the address: it is a new block, freed once.
  char *Again = omp_target_alloc(64, Dev);
  omp_target_free(Again, Dev);
  printf("fresh block freed once: done\n");

  // == Double unlock; unlock of memory never locked.
  // CHECK-NEXT: lock: ptr
  // Twice: the second unlock of Buf, the unlock of Buf + 128 (nothing locked now), Never.
  // CHECK-NEXT: data_unlock: device 0: host pointer 0x{{[0-9a-f]+}} is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{[0-9a-f]+}}; its message, if any, says why
  // CHECK-NEXT: data_unlock: device 0: host pointer 0x{{[0-9a-f]+}} is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{[0-9a-f]+}}; its message, if any, says why
  // CHECK-NEXT: data_unlock: device 0: host pointer 0x{{[0-9a-f]+}} is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{[0-9a-f]+}}; its message, if any, says why
  // CHECK-NEXT: relock after the bad unlocks: ptr
  char *Buf = malloc(256);
  printf("lock: %s\n", llvm_omp_target_lock_mem(Buf, 256, Dev) == Buf ? "ptr" : "other");
  llvm_omp_target_unlock_mem(Buf, Dev);
  llvm_omp_target_unlock_mem(Buf, Dev);
  llvm_omp_target_unlock_mem(Buf + 128, Dev);
  int Never[4];
  llvm_omp_target_unlock_mem(Never, Dev);
  printf("relock after the bad unlocks: %s\n",
         llvm_omp_target_lock_mem(Buf, 256, Dev) == Buf ? "ptr" : "other");
  llvm_omp_target_unlock_mem(Buf, Dev);

  // == Double disassociate.
  // CHECK-NEXT: associate: 0
  // CHECK-NEXT: disassociate: 0
  // CHECK-NEXT: Libomptarget error: omp_target_disassociate_ptr: host pointer [[X:0x[0-9a-f]+]] has no association on device 0
  // CHECK-NEXT: disassociate again: -1
  // CHECK-NEXT: mapped entries after: +0
  int X[4] = {1, 2, 3, 4};
  int *Dx = omp_target_alloc(sizeof X, Dev);
  printf("associate: %d\n", omp_target_associate_ptr(X, Dx, sizeof X, 0, Dev));
  printf("disassociate: %d\n", omp_target_disassociate_ptr(X, Dev));
  printf("disassociate again: %d\n", omp_target_disassociate_ptr(X, Dev));
  printf("mapped entries after: %+ld\n", mappedEntries(0) - Before);

  // == omp_target_free of a block still associated: refused, the
  // association keeps working; freed once disassociated.
  // CHECK-NEXT: associate again: 0
  // CHECK-NEXT: Libomptarget error: omp_target_free: pointer [[DX:0x[0-9a-f]+]] on device 0 is associated with host memory [[X]] (16 bytes) by omp_target_associate_ptr; call omp_target_disassociate_ptr([[X]], 0) first; not freed
  // CHECK-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} is 4 bytes into a block of 16 bytes at [[DX]] from omp_target_alloc on device 0; pass the block's start to free it; ignored
  // CHECK-NEXT: region through the association: device 101, host 1
  // CHECK-NEXT: disassociate: 0
  // CHECK-NEXT: freed after disassociating: done
  printf("associate again: %d\n", omp_target_associate_ptr(X, Dx, sizeof X, 0, Dev));
  omp_target_memcpy(Dx, X, sizeof X, 0, 0, Dev, Host);
  omp_target_free(Dx, Dev);
  omp_target_free((char *)Dx + 4, Dev);
#pragma omp target map(tofrom : X) device(Dev)
  X[0] += 100;
  int Dev0 = 0;
  omp_target_memcpy(&Dev0, Dx, sizeof(int), 0, 0, Host, Dev);
  printf("region through the association: device %d, host %d\n", Dev0, X[0]);
  printf("disassociate: %d\n", omp_target_disassociate_ptr(X, Dev));
  omp_target_free(Dx, Dev);
  printf("freed after disassociating: done\n");

  // == omp_target_free of a mapped device pointer: the map clause's storage
  // belongs to the mapping, not to omp_target_alloc.
  // CHECK-NEXT: mapped: pointer
  // CHECK-NEXT: Libomptarget error: omp_target_free: pointer [[DY:0x[0-9a-f]+]] was not allocated by omp_target_alloc on device 0 (or was already freed); ignored
  // CHECK-NEXT: Libomptarget error: llvm_omp_target_free_device: pointer [[DY]] was not allocated by llvm_omp_target_alloc_device on device 0 (or was already freed); ignored
  // CHECK-NEXT: mapped data after the frees: Y[7] 7, present 0
  // CHECK-NEXT: mapped entries at the end: +0
  // CHECK-NOT: Libomptarget
  int Y[8] = {0};
#pragma omp target enter data map(to : Y) device(Dev)
  void *Dy = omp_get_mapped_ptr(Y, Dev);
  printf("mapped: %s\n", Dy ? "pointer" : "NULL");
  omp_target_free(Dy, Dev);
  llvm_omp_target_free_device(Dy, Dev);
#pragma omp target map(tofrom : Y) device(Dev)
  Y[7] = 7;
#pragma omp target exit data map(from : Y) device(Dev)
  printf("mapped data after the frees: Y[7] %d, present %d\n", Y[7], omp_target_is_present(Y, Dev));

  printf("mapped entries at the end: %+ld\n", mappedEntries(0) - Before);
  free(Buf);
  return 0;
}
