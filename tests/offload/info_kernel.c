// Diagnostics: LIBOMPTARGET_INFO=-1 on kernel launch lists the arguments with
// their map types and sizes (explicit and implicit), and the per-device
// mapping table after the construct (reference counts after the construct;
// Declaration names the variable's declaration line). Our core prints LLVM
// 14's lines; LLVM 19's differ (OURS/LLVM lines against LLVM19 lines).
// RUN: %clang-offload %s -o %t
// RUN: %run env LIBOMPTARGET_INFO=-1 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  double a[10];
  int n = 10;
  // OURS: Libomptarget device 0 info: Entering OpenMP kernel at info_kernel.c:[[@LINE+12]]:{{[0-9]+}} with 2 arguments:
  // OURS-DAG: Libomptarget device 0 info: from(a)[80]
  // OURS-DAG: Libomptarget device 0 info: firstprivate(n)[4] (implicit)
  // OURS: Libomptarget device 0 info: Creating new map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=80, DynRefCount=1, HoldRefCount=0, Name=a
  // LLVM: Libomptarget device 0 info: Entering OpenMP kernel at info_kernel.c:[[@LINE+8]]:{{[0-9]+}} with 2 arguments:
  // LLVM-DAG: Libomptarget device 0 info: from(a)[80]
  // LLVM-DAG: Libomptarget device 0 info: firstprivate(n)[4] (implicit)
  // LLVM: Libomptarget device 0 info: Creating new map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=80, DynRefCount=1, HoldRefCount=0, Name=a
  // LLVM19: omptarget device 0 info: Entering OpenMP kernel at info_kernel.c:[[@LINE+4]]:{{[0-9]+}} with 2 arguments:
  // LLVM19-DAG: omptarget device 0 info: from(a)[80]
  // LLVM19-DAG: omptarget device 0 info: firstprivate(n)[4] (implicit)
  // LLVM19: omptarget device 0 info: Creating new map entry with HstPtrBase=0x{{[0-9a-f]+}}, HstPtrBegin=0x{{[0-9a-f]+}}, TgtAllocBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=80, DynRefCount=1, HoldRefCount=0, Name=a
#pragma omp target map(from : a)
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  // OURS: Libomptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=80, Name=a
  // OURS: Libomptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=80, Name=a
  // LLVM: Libomptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=80, Name=a
  // LLVM: Libomptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=80, Name=a
  // LLVM19: omptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=80, Name=a
  // LLVM19: omptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=80, Name=a
  // CHECK: a9=4.5
  printf("a9=%.1f\n", a[9]);

  int b[2] = {0, 0};
#pragma omp target enter data map(to : b) device(1)
  // OURS: Libomptarget device 1 info: OpenMP Host-Device pointer mappings after block at info_kernel.c:[[@LINE+9]]:{{[0-9]+}}:
  // OURS: Libomptarget device 1 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // OURS: Libomptarget device 1 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 8 {{ *}}1 {{ *}}0 {{ *}}b at info_kernel.c:{{[0-9]+}}:{{[0-9]+}}
  // LLVM: Libomptarget device 1 info: OpenMP Host-Device pointer mappings after block at info_kernel.c:[[@LINE+6]]:{{[0-9]+}}:
  // LLVM: Libomptarget device 1 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // LLVM: Libomptarget device 1 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 8 {{ *}}1 {{ *}}0 {{ *}}b at info_kernel.c:{{[0-9]+}}:{{[0-9]+}}
  // LLVM19: omptarget device 1 info: OpenMP Host-Device pointer mappings after block at info_kernel.c:[[@LINE+3]]:{{[0-9]+}}:
  // LLVM19: omptarget device 1 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // LLVM19: omptarget device 1 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 8 {{ *}}1 {{ *}}0 {{ *}}b at info_kernel.c:{{[0-9]+}}:{{[0-9]+}}
#pragma omp target device(1) map(tofrom : b)
  b[1] = 5;
#pragma omp target exit data map(delete : b) device(1)
  return 0;
}
