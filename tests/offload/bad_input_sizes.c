// Bad-input tour, sizes and offsets: huge sizes (a negative value passed as
// size_t), copies, fills and associations that run past the block
// omp_target_alloc gave, offsets that start outside it. Each is refused with
// one line that names the call, the sizes and the block, before anything
// reaches the plugin (on the host device the block is heap memory: LLVM 14
// writes past it and the program segfaults, or worse, runs on with a
// corrupted heap); the block's contents are intact afterwards and in-range
// operations still work.
// REQUIRES: omptarget-core
// RUN: %clang-offload -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "omptarget/omp_target_ext.h"

int main(void) {
  setbuf(stdout, NULL);
  const int Dev = 0, Host = omp_get_initial_device();
  static char Big[1 << 20];
  char In[64], Out[64];
  for (int I = 0; I < 64; ++I) In[I] = (char)(I + 1);
  char *D = omp_target_alloc(64, Dev);
  printf("setup %d\n", omp_target_memcpy(D, In, 64, 0, 0, Dev, Host));

  // CHECK: omp_target_alloc: 18446744073709551615 bytes on device 0 is more than any device holds (a negative value passed as the size?); returning NULL
  // CHECK-NEXT: alloc SIZE_MAX: NULL
  printf("alloc SIZE_MAX: %s\n", omp_target_alloc(SIZE_MAX, Dev) ? "pointer" : "NULL");
  // CHECK: omp_target_memcpy: 18446744073709551615 bytes at offset 0 (destination) and 0 (source) do not fit in the address space (a negative value passed as a size?); nothing was copied
  // CHECK-NEXT: memcpy SIZE_MAX: -1
  printf("memcpy SIZE_MAX: %d\n", omp_target_memcpy(D, Big, SIZE_MAX, 0, 0, Dev, Host));
  // CHECK: omp_target_memcpy: 16 bytes at offset 18446744073709551615 (destination) and 0 (source) do not fit in the address space
  // CHECK-NEXT: memcpy offset -1: -1
  printf("memcpy offset -1: %d\n", omp_target_memcpy(D, Big, 16, (size_t)-1, 0, Dev, Host));
  // CHECK: omp_target_memcpy: destination: 1048576 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 64 bytes left); nothing was copied
  // CHECK-NEXT: memcpy 1 MiB into the block: -1
  printf("memcpy 1 MiB into the block: %d\n", omp_target_memcpy(D, Big, sizeof Big, 0, 0, Dev, Host));
  // CHECK: omp_target_memcpy: source: 65 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 64 bytes left); nothing was copied
  // CHECK-NEXT: memcpy 65 bytes out of the block: -1
  printf("memcpy 65 bytes out of the block: %d\n", omp_target_memcpy(Big, D, 65, 0, 0, Host, Dev));
  // CHECK: omp_target_memcpy: destination: 8 bytes at offset 100 from 0x{{[0-9a-f]+}} start outside its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0); nothing was copied
  // CHECK-NEXT: memcpy at offset 100: -1
  printf("memcpy at offset 100: %d\n", omp_target_memcpy(D, Big, 8, 100, 0, Dev, Host));
  // CHECK: omp_target_memcpy_async: destination: 1048576 bytes at 0x{{[0-9a-f]+}} run past the end of its block
  // CHECK-NEXT: memcpy_async 1 MiB into the block: -1
  printf("memcpy_async 1 MiB into the block: %d\n",
         omp_target_memcpy_async(D, Big, sizeof Big, 0, 0, Dev, Host, 0, NULL));
  // CHECK: omp_target_memset: 1048576 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 64 bytes left)
  // CHECK-NEXT: memset 1 MiB on the block: NULL
  printf("memset 1 MiB on the block: %s\n", omp_target_memset(D, 0, sizeof Big, Dev) ? "pointer" : "NULL");
  // CHECK: omp_target_associate_ptr: 18446744073709551615 bytes at host 0x{{[0-9a-f]+}} (device 0x{{[0-9a-f]+}} + 0) do not fit in the address space (a negative value passed as a size?); nothing was associated
  // CHECK-NEXT: associate SIZE_MAX: -1
  printf("associate SIZE_MAX: %d\n", omp_target_associate_ptr(Big, D, SIZE_MAX, 0, Dev));
  // CHECK: omp_target_associate_ptr: device side: 1048576 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 64 bytes left); nothing was associated
  // CHECK-NEXT: associate 1 MiB to the block: -1
  printf("associate 1 MiB to the block: %d\n", omp_target_associate_ptr(Big, D, sizeof Big, 0, Dev));
  // CHECK: omp_target_associate_ptr: device side: 8 bytes at 0x{{[0-9a-f]+}} run past
  // CHECK-SAME: 4 bytes left); nothing was associated
  // CHECK-NEXT: associate 8 bytes at offset 60: -1
  printf("associate 8 bytes at offset 60: %d\n", omp_target_associate_ptr(Big, D, 8, 60, Dev));
  // CHECK: llvm_omp_target_lock_mem: cannot lock host memory 0x{{[0-9a-f]+}} of 18446744073709551615 bytes on device 0: the size is too large
  // CHECK-NEXT: lock SIZE_MAX: NULL
  printf("lock SIZE_MAX: %s\n", llvm_omp_target_lock_mem(Big, SIZE_MAX, Dev) ? "pointer" : "NULL");

  // Nothing was written past or into the block; in-range work still works.
  memset(Out, 0, sizeof Out);
  int Rc = omp_target_memcpy(Out, D, 64, 0, 0, Host, Dev);
  // CHECK: block intact: rc 0, same 1
  printf("block intact: rc %d, same %d\n", Rc, memcmp(In, Out, 64) == 0);
  // CHECK-NEXT: in range: memcpy 0, associate 0, disassociate 0
  int A = omp_target_memcpy(D, In, 32, 32, 0, Dev, Host);
  int B = omp_target_associate_ptr(Big, D, 64, 0, Dev);
  int C = omp_target_disassociate_ptr(Big, Dev);
  printf("in range: memcpy %d, associate %d, disassociate %d\n", A, B, C);
  omp_target_free(D, Dev);
  return 0;
}
// CHECK-NOT: Libomptarget
