// Bad-input tour, pointers: every exported entry that takes a pointer, given
// a null pointer, a pointer the runtime never handed out (a stack array, a
// malloc block), an interior pointer (8 bytes into an omp_target_alloc
// block, into an association, into a locked range) and a misaligned one
// (1 byte in). Each call prints its result; each misuse prints one error
// line that names the call, the pointer and what to do, and returns the
// routine's failure value; none crashes, the block and the associations
// keep working, and device 0's mapping table has as many entries at the end
// as at the start (mapped_entries of omptarget_get_device_properties).
// Legal uses among them (a misaligned range inside a block, an interior
// address of a mapping for omp_get_mapped_ptr / omp_target_is_present, a
// misaligned host pointer associated) succeed quietly.
//
// The __tgt_* entries are called as LLVM 14's ABI declares them: no map
// entries with null arrays (what clang emits for a region without maps) is
// a construct that maps nothing; a negative count, or a positive count with
// a null array, cannot come from a compiler and is a failed construct: fatal
// while offloading is mandatory (the default with devices), tested in the
// runs with an argument. LLVM 14 ignores a negative count and segfaults on
// null arrays with a positive count, and segfaults in
// __tgt_mapper_num_components / __tgt_push_mapper_component given a null
// handle (we report and return 0 / ignore the component).
// REQUIRES: omptarget-core, omptarget-plugin
// RUN: %clang-offload -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck --check-prefix=MAIN
// RUN: not --crash %run %t null-arrays 2>&1 | %fcheck --check-prefix=NULLARR
// RUN: not --crash %run %t negative-count 2>&1 | %fcheck --check-prefix=NEGCOUNT
// RUN: not --crash %run %t null-region 2>&1 | %fcheck --check-prefix=NULLREGION
// RUN: not --crash %run %t unknown-region 2>&1 | %fcheck --check-prefix=UNKREGION
// RUN: %run env OMP_TARGET_OFFLOAD=disabled %t null-arrays 2>&1 | %fcheck --check-prefix=DISABLED
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/mapped_entries.h"
#include "omptarget/omp_target_ext.h"

// LLVM 14's compiler-facing ABI (include/omptarget/abi.h, api_target.cpp).
void __tgt_target_data_begin_mapper(void *Loc, int64_t DeviceId, int32_t Num, void **Bases,
                                    void **Begins, int64_t *Sizes, int64_t *Types, void **Names,
                                    void **Mappers);
void __tgt_target_data_end_mapper(void *Loc, int64_t DeviceId, int32_t Num, void **Bases,
                                  void **Begins, int64_t *Sizes, int64_t *Types, void **Names,
                                  void **Mappers);
void __tgt_target_data_update_mapper(void *Loc, int64_t DeviceId, int32_t Num, void **Bases,
                                     void **Begins, int64_t *Sizes, int64_t *Types, void **Names,
                                     void **Mappers);
int __tgt_target_mapper(void *Loc, int64_t DeviceId, void *HostPtr, int32_t Num, void **Bases,
                        void **Begins, int64_t *Sizes, int64_t *Types, void **Names,
                        void **Mappers);
int64_t __tgt_mapper_num_components(void *Handle);
void __tgt_push_mapper_component(void *Handle, void *Base, void *Begin, int64_t Size,
                                 int64_t Type, void *Name);


// The runs with an argument: one malformed construct each (fatal).
static int malformed(const char *What) {
  int X = 1;
  void *Base = &X;
  int64_t Size = sizeof X, Type = 0x1;  // to
  // NULLARR: malformed: null-arrays
  // NULLARR-NEXT: Libomptarget error: __tgt_target_data_begin: invalid map arguments (1 entries; bases 0x0000000000000000, begins 0x0000000000000000, sizes 0x0000000000000000, types 0x0000000000000000): the count must not be negative, and the arrays must be non-null when it is positive; nothing was mapped
  // NULLARR: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // NULLARR-NOT: survived
  // NEGCOUNT: malformed: negative-count
  // NEGCOUNT-NEXT: Libomptarget error: __tgt_target_data_begin: invalid map arguments (-1 entries; bases 0x{{[0-9a-f]+}}, begins 0x{{[0-9a-f]+}}, sizes 0x{{[0-9a-f]+}}, types 0x{{[0-9a-f]+}}): the count must not be negative, and the arrays must be non-null when it is positive; nothing was mapped
  // NEGCOUNT: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // NEGCOUNT-NOT: survived
  // NULLREGION: malformed: null-region
  // NULLREGION-NEXT: Libomptarget error: __tgt_target: host region 0x0000000000000000 has no registered kernel (was its binary unregistered?)
  // NULLREGION: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // NULLREGION-NOT: survived
  // UNKREGION: malformed: unknown-region
  // UNKREGION-NEXT: Libomptarget error: __tgt_target: host region 0x{{[0-9a-f]+}} has no registered kernel (was its binary unregistered?)
  // UNKREGION: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // UNKREGION-NOT: survived
  // With offloading disabled nothing is read: the construct does nothing.
  // DISABLED: malformed: null-arrays
  // DISABLED-NEXT: survived null-arrays, present 1
  printf("malformed: %s\n", What);
  if (!strcmp(What, "null-arrays"))
    __tgt_target_data_begin_mapper(NULL, 0, 1, NULL, NULL, NULL, NULL, NULL, NULL);
  else if (!strcmp(What, "negative-count"))
    __tgt_target_data_begin_mapper(NULL, 0, -1, &Base, &Base, &Size, &Type, NULL, NULL);
  else if (!strcmp(What, "null-region"))
    __tgt_target_mapper(NULL, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL);
  else if (!strcmp(What, "unknown-region"))
    __tgt_target_mapper(NULL, 0, (void *)&malformed, 0, NULL, NULL, NULL, NULL, NULL, NULL);
  printf("survived %s, present %d\n", What, omp_target_is_present(&X, 0));
  return 0;
}

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  if (argc > 1) return malformed(argv[1]);
  const int Dev = 0, Host = omp_get_initial_device();
  char Stack[64];
  char *Heap = malloc(64);
  char In[64], Out[64];
  for (int I = 0; I < 64; ++I) In[I] = (char)(I + 1);
  long Before = mappedEntries(0);
  // MAIN: mapped entries at start: [[#]]
  // MAIN-NEXT: setup 0
  printf("mapped entries at start: %ld\n", Before);
  char *Block = omp_target_alloc(64, Dev);
  printf("setup %d\n", omp_target_memcpy(Block, In, 64, 0, 0, Dev, Host));

  // == omp_target_free and llvm_omp_target_free_*: NULL is a no-op; the
  // others are refused and the block stays allocated.
  // MAIN-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 0 (or was already freed); ignored
  // MAIN-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} was not allocated by omp_target_alloc on device 0 (or was already freed); ignored
  // MAIN-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} is 8 bytes into a block of 64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0; pass the block's start to free it; ignored
  // MAIN-NEXT: Libomptarget error: omp_target_free: pointer 0x{{[0-9a-f]+}} is 1 bytes into a block of 64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0; pass the block's start to free it; ignored
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_free_device: pointer 0x{{[0-9a-f]+}} is 8 bytes into a block of 64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0; pass the block's start to free it; ignored
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_free_host: pointer 0x{{[0-9a-f]+}} was not allocated by llvm_omp_target_alloc_host on device 0 (or was already freed); ignored
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_free_shared: pointer 0x{{[0-9a-f]+}} is 1 bytes into a block of 64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0; pass the block's start to free it; ignored
  omp_target_free(NULL, Dev);
  omp_target_free(Stack, Dev);
  omp_target_free(Heap, Dev);
  omp_target_free(Block + 8, Dev);
  omp_target_free(Block + 1, Dev);
  llvm_omp_target_free_device(NULL, Dev);
  llvm_omp_target_free_device(Block + 8, Dev);
  llvm_omp_target_free_host(Stack, Dev);
  llvm_omp_target_free_shared(Block + 1, Dev);

  // == omp_target_memcpy: null ends; a misaligned range inside the block is
  // a legal copy; one that runs past the block's end is refused.
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy: null destination pointer (dst 0x0000000000000000, src 0x{{[0-9a-f]+}}, 8 bytes)
  // MAIN-NEXT: memcpy null dst: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy: null source pointer (dst 0x{{[0-9a-f]+}}, src 0x0000000000000000, 8 bytes)
  // MAIN-NEXT: memcpy null src: -1
  // MAIN-NEXT: memcpy null both, 0 bytes: 0
  // MAIN-NEXT: memcpy misaligned inside: 0
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy: source: 64 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 63 bytes left); nothing was copied
  // MAIN-NEXT: memcpy misaligned past the end: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy: destination: 8 bytes at offset 60 from 0x{{[0-9a-f]+}} start outside its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0); nothing was copied
  // MAIN-NEXT: memcpy interior + offset past the end: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_async: null destination pointer (dst 0x0000000000000000, src 0x{{[0-9a-f]+}}, 8 bytes)
  // MAIN-NEXT: memcpy_async null dst: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_async: destination: 64 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 56 bytes left); nothing was copied
  // MAIN-NEXT: memcpy_async interior past the end: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_async: invalid dependences (depobj_count 1, depobj_list 0x0000000000000000); the count must be >= 0 and the list non-null when it is positive
  // MAIN-NEXT: memcpy_async null depobj list with 1 object: -1
  printf("memcpy null dst: %d\n", omp_target_memcpy(NULL, In, 8, 0, 0, Dev, Host));
  printf("memcpy null src: %d\n", omp_target_memcpy(Out, NULL, 8, 0, 0, Host, Dev));
  printf("memcpy null both, 0 bytes: %d\n", omp_target_memcpy(NULL, NULL, 0, 0, 0, Dev, Host));
  printf("memcpy misaligned inside: %d\n", omp_target_memcpy(Out, Block + 1, 63, 0, 0, Host, Dev));
  printf("memcpy misaligned past the end: %d\n",
         omp_target_memcpy(Out, Block + 1, 64, 0, 0, Host, Dev));
  printf("memcpy interior + offset past the end: %d\n",
         omp_target_memcpy(Block + 8, In, 8, 60, 0, Dev, Host));
  printf("memcpy_async null dst: %d\n",
         omp_target_memcpy_async(NULL, In, 8, 0, 0, Dev, Host, 0, NULL));
  printf("memcpy_async interior past the end: %d\n",
         omp_target_memcpy_async(Block + 8, In, 64, 0, 0, Dev, Host, 0, NULL));
  printf("memcpy_async null depobj list with 1 object: %d\n",
         omp_target_memcpy_async(Block, In, 8, 0, 0, Dev, Host, 1, NULL));

  // == omp_target_memcpy_rect[_async]: null arrays, no dimensions; a
  // rectangle that reaches past the block.
  size_t Vol[2] = {2, 8}, Off[2] = {0, 0}, Dims[2] = {8, 8}, Far[2] = {7, 0}, Tall[2] = {16, 8};
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect: invalid arguments (dst 0x{{[0-9a-f]+}}, src 0x{{[0-9a-f]+}}, element size 1, 2 dims); pointers and arrays must be non-null, sizes positive
  // MAIN-NEXT: rect null volume: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect: invalid arguments (dst 0x{{[0-9a-f]+}}, src 0x{{[0-9a-f]+}}, element size 1, 2 dims); pointers and arrays must be non-null, sizes positive
  // MAIN-NEXT: rect null dst offsets: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect: invalid arguments (dst 0x{{[0-9a-f]+}}, src 0x{{[0-9a-f]+}}, element size 1, 0 dims); pointers and arrays must be non-null, sizes positive
  // MAIN-NEXT: rect 0 dims: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect: invalid arguments (dst 0x0000000000000000, src 0x{{[0-9a-f]+}}, element size 1, 2 dims); pointers and arrays must be non-null, sizes positive
  // MAIN-NEXT: rect null dst only: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect: dimension 0: volume 2 at destination offset 7 exceeds the destination dimension 8
  // MAIN-NEXT: rect past the dimensions: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect: destination: the copied box: 72 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 64 bytes left); nothing was copied
  // MAIN-NEXT: rect past the block: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect_async: invalid arguments (dst 0x{{[0-9a-f]+}}, src 0x{{[0-9a-f]+}}, element size 1, 2 dims); pointers and arrays must be non-null, sizes positive
  // MAIN-NEXT: rect_async null volume: -1
  // MAIN-NEXT: Libomptarget error: omp_target_memcpy_rect_async: destination: the copied box: 72 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 64 bytes left); nothing was copied
  // MAIN-NEXT: rect_async past the block: -1
  printf("rect null volume: %d\n",
         omp_target_memcpy_rect(Block, In, 1, 2, NULL, Off, Off, Dims, Dims, Dev, Host));
  printf("rect null dst offsets: %d\n",
         omp_target_memcpy_rect(Block, In, 1, 2, Vol, NULL, Off, Dims, Dims, Dev, Host));
  printf("rect 0 dims: %d\n",
         omp_target_memcpy_rect(Block, In, 1, 0, Vol, Off, Off, Dims, Dims, Dev, Host));
  printf("rect null dst only: %d\n",
         omp_target_memcpy_rect(NULL, In, 1, 2, Vol, Off, Off, Dims, Dims, Dev, Host));
  printf("rect past the dimensions: %d\n",
         omp_target_memcpy_rect(Block, In, 1, 2, Vol, Far, Off, Dims, Dims, Dev, Host));
  printf("rect past the block: %d\n",
         omp_target_memcpy_rect(Block, In, 1, 2, Vol, Far, Off, Tall, Dims, Dev, Host));
  printf("rect_async null volume: %d\n",
         omp_target_memcpy_rect_async(Block, In, 1, 2, NULL, Off, Off, Dims, Dims, Dev, Host, 0,
                                      NULL));
  printf("rect_async past the block: %d\n",
         omp_target_memcpy_rect_async(Block, In, 1, 2, Vol, Far, Off, Tall, Dims, Dev, Host, 0,
                                      NULL));
#pragma omp taskwait

  // == omp_target_memset: null; interior and misaligned ranges inside the
  // block are legal; past the end is refused; a host address that is mapped
  // is not a device pointer.
  // MAIN-NEXT: Libomptarget error: omp_target_memset: null pointer (8 bytes on device 0)
  // MAIN-NEXT: memset null: NULL
  // MAIN-NEXT: memset null, 0 bytes: NULL
  // MAIN-NEXT: memset misaligned inside: ptr
  // MAIN-NEXT: Libomptarget error: omp_target_memset: 64 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 56 bytes left)
  // MAIN-NEXT: memset interior past the end: NULL
  // MAIN-NEXT: Libomptarget error: omp_target_memset_async: null pointer (8 bytes on device 0)
  // MAIN-NEXT: memset_async null: NULL
  // MAIN-NEXT: memset filled 7 bytes: 1
  printf("memset null: %s\n", omp_target_memset(NULL, 0, 8, Dev) ? "pointer" : "NULL");
  printf("memset null, 0 bytes: %s\n", omp_target_memset(NULL, 0, 0, Dev) ? "pointer" : "NULL");
  printf("memset misaligned inside: %s\n",
         omp_target_memset(Block + 33, 0x5a, 7, Dev) == Block + 33 ? "ptr" : "other");
  printf("memset interior past the end: %s\n",
         omp_target_memset(Block + 8, 0, 64, Dev) ? "pointer" : "NULL");
  printf("memset_async null: %s\n",
         omp_target_memset_async(NULL, 0, 8, Dev, 0, NULL) ? "pointer" : "NULL");
#pragma omp taskwait
  printf("memset filled 7 bytes: %d\n",
         omp_target_memcpy(Out, Block, 64, 0, 0, Host, Dev) == 0 && Out[32] == 33 &&
             Out[33] == 0x5a && Out[39] == 0x5a && Out[40] == 41);
  // Put the block's contents back.
  omp_target_memcpy(Block, In, 64, 0, 0, Dev, Host);

  // == omp_target_associate_ptr / omp_target_disassociate_ptr.
  // MAIN-NEXT: Libomptarget error: omp_target_associate_ptr: invalid arguments (host 0x0000000000000000, device 0x{{[0-9a-f]+}}, size 8); both pointers must be non-null and the size positive
  // MAIN-NEXT: associate null host: -1
  // MAIN-NEXT: Libomptarget error: omp_target_associate_ptr: invalid arguments (host 0x{{[0-9a-f]+}}, device 0x0000000000000000, size 8); both pointers must be non-null and the size positive
  // MAIN-NEXT: associate null device: -1
  // MAIN-NEXT: Libomptarget error: omp_target_associate_ptr: device side: 64 bytes at 0x{{[0-9a-f]+}} run past the end of its block (64 bytes at 0x{{[0-9a-f]+}} from omp_target_alloc on device 0, 56 bytes left); nothing was associated
  // MAIN-NEXT: associate interior device past the end: -1
  // MAIN-NEXT: associate misaligned host, interior device: 0
  // MAIN-NEXT: mapped entries with the association: 1
  // MAIN-NEXT: is_present interior of it: 1
  // MAIN-NEXT: mapped_ptr interior of it: +16
  // MAIN-NEXT: Libomptarget error: omp_target_disassociate_ptr: null host pointer
  // MAIN-NEXT: disassociate null: -1
  // MAIN-NEXT: Libomptarget error: omp_target_disassociate_ptr: host pointer 0x{{[0-9a-f]+}} has no association on device 0
  // MAIN-NEXT: disassociate unknown: -1
  // MAIN-NEXT: Libomptarget error: omp_target_disassociate_ptr: host pointer 0x{{[0-9a-f]+}} has no association on device 0
  // MAIN-NEXT: disassociate interior: -1
  // MAIN-NEXT: Libomptarget error: omp_target_disassociate_ptr: host pointer 0x{{[0-9a-f]+}} has no association on device 0
  // MAIN-NEXT: disassociate aligned start, not its start: -1
  // MAIN-NEXT: disassociate its start: 0
  printf("associate null host: %d\n", omp_target_associate_ptr(NULL, Block, 8, 0, Dev));
  printf("associate null device: %d\n", omp_target_associate_ptr(Stack, NULL, 8, 0, Dev));
  printf("associate interior device past the end: %d\n",
         omp_target_associate_ptr(Stack, Block + 8, 64, 0, Dev));
  printf("associate misaligned host, interior device: %d\n",
         omp_target_associate_ptr(Stack + 1, Block + 8, 16, 0, Dev));
  printf("mapped entries with the association: %ld\n", mappedEntries(0) - Before);
  printf("is_present interior of it: %d\n", omp_target_is_present(Stack + 9, Dev));
  printf("mapped_ptr interior of it: +%td\n", (char *)omp_get_mapped_ptr(Stack + 9, Dev) - Block);
  printf("disassociate null: %d\n", omp_target_disassociate_ptr(NULL, Dev));
  printf("disassociate unknown: %d\n", omp_target_disassociate_ptr(Heap, Dev));
  printf("disassociate interior: %d\n", omp_target_disassociate_ptr(Stack + 9, Dev));
  printf("disassociate aligned start, not its start: %d\n",
         omp_target_disassociate_ptr(Stack, Dev));
  printf("disassociate its start: %d\n", omp_target_disassociate_ptr(Stack + 1, Dev));

  // == omp_target_is_present, omp_get_mapped_ptr, omp_target_is_accessible:
  // null and unknown pointers are "not present" / NULL, quietly.
  // MAIN-NEXT: is_present null: 0, unknown: 0
  // MAIN-NEXT: mapped_ptr null: NULL, unknown: NULL
  // MAIN-NEXT: is_accessible null: 0
  printf("is_present null: %d, unknown: %d\n", omp_target_is_present(NULL, Dev),
         omp_target_is_present(Heap, Dev));
  printf("mapped_ptr null: %s, unknown: %s\n", omp_get_mapped_ptr(NULL, Dev) ? "pointer" : "NULL",
         omp_get_mapped_ptr(Heap, Dev) ? "pointer" : "NULL");
  printf("is_accessible null: %d\n", omp_target_is_accessible(NULL, 8, Dev));

  // == llvm_omp_target_lock_mem / unlock_mem: null is refused; a misaligned
  // range is locked; an interior address unlocks its range (the documented
  // rule); an address that is not locked is refused.
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_lock_mem: cannot lock host memory 0x0000000000000000 of 8 bytes on device 0: null pointer
  // MAIN-NEXT: lock null: NULL
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: null pointer on device 0; nothing was unlocked
  // MAIN-NEXT: lock misaligned: ptr
  // The second unlock and the never-locked one: our plugin says why, the core names the call.
  // MAIN-NEXT: data_unlock: device 0: host pointer 0x{{[0-9a-f]+}} is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{[0-9a-f]+}}; its message, if any, says why
  // MAIN-NEXT: data_unlock: device 0: host pointer 0x{{[0-9a-f]+}} is not in memory locked on this device (llvm_omp_target_lock_mem); nothing was unlocked
  // MAIN-NEXT: Libomptarget error: llvm_omp_target_unlock_mem: device 0: the plugin could not unlock host memory 0x{{[0-9a-f]+}}; its message, if any, says why
  printf("lock null: %s\n", llvm_omp_target_lock_mem(NULL, 8, Dev) ? "pointer" : "NULL");
  llvm_omp_target_unlock_mem(NULL, Dev);
  printf("lock misaligned: %s\n",
         llvm_omp_target_lock_mem(Heap + 1, 17, Dev) == Heap + 1 ? "ptr" : "other");
  llvm_omp_target_unlock_mem(Heap + 2, Dev);
  llvm_omp_target_unlock_mem(Heap + 2, Dev);
  llvm_omp_target_unlock_mem(Stack, Dev);

  // == __tgt_* entries: no map entries (null arrays) is a construct that
  // maps nothing; a null mapper handle is refused.
  // MAIN-NEXT: data constructs with no entries: done
  // MAIN-NEXT: exit data of unmapped storage: done
  // MAIN-NEXT: Libomptarget error: __tgt_mapper_num_components: null mapper handle; returning 0
  // MAIN-NEXT: mapper components of null: 0
  // MAIN-NEXT: Libomptarget error: __tgt_push_mapper_component: null mapper handle; component (base 0x{{[0-9a-f]+}}, begin 0x{{[0-9a-f]+}}, 8 bytes) ignored
  __tgt_target_data_begin_mapper(NULL, Dev, 0, NULL, NULL, NULL, NULL, NULL, NULL);
  __tgt_target_data_update_mapper(NULL, Dev, 0, NULL, NULL, NULL, NULL, NULL, NULL);
  __tgt_target_data_end_mapper(NULL, Dev, 0, NULL, NULL, NULL, NULL, NULL, NULL);
  printf("data constructs with no entries: done\n");
  // An exit of data that was never mapped is no error (OpenMP: nothing to do).
  void *Base = Heap;
  int64_t Size = 64, Release = 0x2 /* from */;
  __tgt_target_data_end_mapper(NULL, Dev, 1, &Base, &Base, &Size, &Release, NULL, NULL);
  printf("exit data of unmapped storage: done\n");
  printf("mapper components of null: %ld\n", (long)__tgt_mapper_num_components(NULL));
  __tgt_push_mapper_component(NULL, Heap, Heap, 8, 0x1, NULL);

  // Nothing was freed, written or left mapped.
  // MAIN-NEXT: block intact: rc 0, same 1
  // MAIN-NEXT: mapped entries at the end: +0
  // MAIN-NOT: Libomptarget
  memset(Out, 0, sizeof Out);
  int Rc = omp_target_memcpy(Out, Block, 64, 0, 0, Host, Dev);
  printf("block intact: rc %d, same %d\n", Rc, memcmp(In, Out, 64) == 0);
  omp_target_free(Block, Dev);
  printf("mapped entries at the end: %+ld\n", mappedEntries(0) - Before);
  free(Heap);
  return 0;
}
