// Diagnostics: LIBOMPTARGET_INFO is a bit mask read as a 32-bit int, so -1
// (what LLVM's documentation tells users to write) turns on every kind of
// line, in the core and in our plugin alike (the plugin used to refuse
// negative values with a warning and print none of its lines): kernel
// arguments, mappings, transfers and the plugin's kernel launch line. -2 is
// every bit but the first: no kernel-argument lines, the rest as with -1.
// Runs with LLVM 14's core too, which reads the variable with std::stoi and
// agrees, except that it reads hex as 0: 0x30 (transfers and launches) is
// checked on the plugin's launch line only.
// REQUIRES: omptarget-plugin
// RUN: %clang-offload %s -o %t
// RUN: %run env LIBOMPTARGET_INFO=-1 %t 2>&1 | %fcheck --check-prefixes=ALL,ARGS
// RUN: %run env LIBOMPTARGET_INFO=-2 %t 2>&1 | %fcheck --check-prefixes=ALL,NOARGS
// RUN: %run env LIBOMPTARGET_INFO=0x30 %t 2>&1 | %fcheck --check-prefix=HEX
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[8] = {0};
  // ALL-NOT: ignoring LIBOMPTARGET_INFO
  // HEX-NOT: ignoring LIBOMPTARGET_INFO
  // ARGS: Libomptarget device 0 info: Entering OpenMP kernel at info_all_bits.c:[[@LINE+9]]:{{[0-9]+}} with 1 arguments:
  // NOARGS-NOT: Entering OpenMP kernel
  // ALL: Libomptarget device 0 info: Creating new map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=32, DynRefCount=1, HoldRefCount=0, Name=a
  // ALL: Libomptarget device 0 info: Copying data from host to device, HstPtr=0x{{[0-9a-f]+}}, TgtPtr=0x{{[0-9a-f]+}}, Size=32, Name=a
  // ALL: Libomptarget device 0 info: Launching kernel __omp_offloading_{{.*}}main{{.*}} with
  // ALL: Libomptarget device 0 info: Copying data from device to host, TgtPtr=0x{{[0-9a-f]+}}, HstPtr=0x{{[0-9a-f]+}}, Size=32, Name=a
  // ALL: Libomptarget device 0 info: Removing map entry with HstPtrBegin=0x{{[0-9a-f]+}}, TgtPtrBegin=0x{{[0-9a-f]+}}, Size=32, Name=a
  // HEX-NOT: Creating new map entry
  // HEX: Libomptarget device 0 info: Launching kernel
#pragma omp target map(tofrom : a)
  a[3] = 7;
  // ALL: a3=7
  // HEX: a3=7
  printf("a3=%d\n", a[3]);
  return 0;
}
