// Diagnostics: LIBOMPTARGET_INFO=-1 prints the mapping life cycle: data
// region entry with its arguments, new map entry, host-to-device copy,
// existing mapping reuse with incremented reference count, copy back and
// removal of the entry. Our core prints LLVM 14's lines; LLVM 19's differ
// (INFO-OURS/INFO-LLVM lines against INFO-LLVM19 lines).
// RUN: %clang-offload %s -o %t
// RUN: %run env LIBOMPTARGET_INFO=-1 %t 2>&1 | %fcheck --check-prefixes=INFO,INFO-%core
// RUN: %run %t 2>&1 | %fcheck --check-prefix=QUIET
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int x[4] = {1, 2, 3, 4};
  // QUIET-NOT: {{Libomptarget|omptarget}} device 0 info
  // INFO-OURS: Libomptarget device 0 info: Entering OpenMP data region at info_mapping.c:[[@LINE+12]]:{{[0-9]+}} with 1 arguments:
  // INFO-OURS: Libomptarget device 0 info: to(x)[16]
  // INFO-OURS: Libomptarget device 0 info: Creating new map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, DynRefCount=1, HoldRefCount=0, Name=x
  // INFO-OURS: Libomptarget device 0 info: Copying data from host to device, HstPtr=0x{{[0-9a-f]+}}, TgtPtr=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-LLVM: Libomptarget device 0 info: Entering OpenMP data region at info_mapping.c:[[@LINE+8]]:{{[0-9]+}} with 1 arguments:
  // INFO-LLVM: Libomptarget device 0 info: to(x)[16]
  // INFO-LLVM: Libomptarget device 0 info: Creating new map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, DynRefCount=1, HoldRefCount=0, Name=x
  // INFO-LLVM: Libomptarget device 0 info: Copying data from host to device, HstPtr=0x{{[0-9a-f]+}}, TgtPtr=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-LLVM19: omptarget device 0 info: Entering OpenMP data region with being_mapper at info_mapping.c:[[@LINE+4]]:{{[0-9]+}} with 1 arguments:
  // INFO-LLVM19: omptarget device 0 info: to(x)[16]
  // INFO-LLVM19: omptarget device 0 info: Creating new map entry with HstPtrBase=0x{{[0-9a-f]+}}, HstPtrBegin=0x{{[0-9a-f]+}}, TgtAllocBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, DynRefCount=1, HoldRefCount=0, Name=x
  // INFO-LLVM19: omptarget device 0 info: Copying data from host to device, HstPtr=0x{{[0-9a-f]+}}, TgtPtr=0x{{[0-9a-f]+}}, Size=16, Name=x
#pragma omp target enter data map(to : x)
  // CHECK: marker 1
  printf("marker 1\n");
  // INFO-OURS: Libomptarget device 0 info: Mapping exists with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, DynRefCount=2 (incremented), HoldRefCount=0, Name=x
  // INFO-LLVM: Libomptarget device 0 info: Mapping exists with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, DynRefCount=2 (incremented), HoldRefCount=0, Name=x
  // INFO-LLVM19: omptarget device 0 info: Mapping exists with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, DynRefCount=2 (incremented), HoldRefCount=0, Name=x
#pragma omp target map(tofrom : x)
  x[0] += 10;
  // CHECK: marker 2
  printf("marker 2\n");
  // INFO-OURS: Libomptarget device 0 info: Exiting OpenMP data region at info_mapping.c:[[@LINE+9]]:{{[0-9]+}} with 1 arguments:
  // INFO-OURS: Libomptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-OURS: Libomptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-LLVM: Libomptarget device 0 info: Exiting OpenMP data region at info_mapping.c:[[@LINE+6]]:{{[0-9]+}} with 1 arguments:
  // INFO-LLVM: Libomptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-LLVM: Libomptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-LLVM19: omptarget device 0 info: Exiting OpenMP data region with end_mapper at info_mapping.c:[[@LINE+3]]:{{[0-9]+}} with 1 arguments:
  // INFO-LLVM19: omptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=16, Name=x
  // INFO-LLVM19: omptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=16, Name=x
#pragma omp target exit data map(from : x)
  // CHECK: x0=11
  printf("x0=%d\n", x[0]);
  return 0;
}
