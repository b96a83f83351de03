// Calls after the runtime shut down: a library finalized after libomptarget.so
// (inputs/late_calls_lib.c; a static object's destructor in a C++ library
// behaves the same) calls the offload API from its destructor. Nothing
// crashes; each call returns its defined "nothing" (NULL, 0 devices, not
// present, failure) and the calls whose caller loses something say so in one
// line that names the call; freeing and unlocking are silent (everything was
// released with the runtime). Before the runtime had its gate, these calls
// made a new runtime on the spot; LLVM 14 segfaults in the late
// omp_target_free. The gate is the core's, whatever the device: host only.
// GPU: skip
// REQUIRES: omptarget-core
// RUN: %clang-plain -fPIC -shared %S/inputs/late_calls_lib.c -o %t.dir.liblate.so -ldl
// RUN: mkdir -p %t.dir && mv %t.dir.liblate.so %t.dir/liblate.so
// RUN: %clang-offload %s -o %t -L%libdir -lomptarget -L%t.dir -llate -Wl,-rpath,%t.dir
// RUN: %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

void late_keep(void *P);

int main(void) {
  setbuf(stdout, NULL);  // every line in order with the runtime's stderr lines
  void *P = omp_target_alloc(64, 0);
  late_keep(P);
  // CHECK: main: devices {{[1-9]}}, block allocated
  printf("main: devices %d, block %s\n", omp_get_num_devices(), P ? "allocated" : "NULL");
  return 0;
}

// CHECK-NEXT: late: num_devices 0
// CHECK-NEXT: late: freed the kept block
// CHECK-NEXT: Libomptarget error: omp_target_alloc: called after the offload runtime shut down at program exit; nothing was allocated (returning NULL)
// CHECK-NEXT: late: alloc NULL
// CHECK-NEXT: late: is_present 0
// CHECK-NEXT: Libomptarget error: omp_target_memcpy: called after the offload runtime shut down at program exit; nothing was copied
// CHECK-NEXT: late: memcpy -1
// CHECK-NEXT: Libomptarget error: llvm_omp_target_lock_mem: called after the offload runtime shut down at program exit; nothing was locked (returning NULL)
// CHECK-NEXT: late: lock NULL
// CHECK-NEXT: Libomptarget error: omp_target_associate_ptr: called after the offload runtime shut down at program exit; nothing was associated
// CHECK-NEXT: late: associate -1
// CHECK-NEXT: late: disassociate 0
// CHECK-NEXT: late: mapped_ptr NULL
// CHECK-NOT: {{.}}
