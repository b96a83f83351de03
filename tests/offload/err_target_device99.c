// Errors: a `target` region on device(99) (only devices 0-3 exist, 4 is the
// initial device). LLVM 14 treats this as fatal even without
// OMP_TARGET_OFFLOAD=mandatory: it reports the device and aborts. Also checks
// that device(4) == initial device and device(-1) == default device work.
// LLVM 14 prints `Libomptarget error: Device 99 is not ready.`; LLVM 19
// `omptarget fatal error 99: Device number '99' out of range, only 4 devices
// available` and aborts.
// GPU: skip (uses the host plugin's devices 2 and 3)
// RUN: %clang-offload %s -o %t
// RUN: %run %t 4 2>&1 | %fcheck --check-prefix=OK
// RUN: %run %t -1 2>&1 | %fcheck --check-prefix=OK
// RUN: not --crash %run %t 99 2>&1 | %fcheck --check-prefixes=BAD,BAD-%core
// RUN: not --crash %run env OMP_TARGET_OFFLOAD=mandatory %t 99 2>&1 | %fcheck --check-prefixes=BAD,BAD-%core
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  int dev = atoi(argv[1]);
  int z = 3;
  // OK: start
  // BAD: start
  printf("start\n");
#pragma omp target device(dev) map(tofrom : z)
  z++;
  // OK-NEXT: z=4
  // BAD-NOT: z=
  // BAD-OURS: Libomptarget error: {{.*}}99
  // BAD-OURS: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // BAD-LLVM: Libomptarget error: {{.*}}99
  // BAD-LLVM: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // BAD-LLVM19: omptarget fatal error 99: Device number '99' out of range
  printf("z=%d\n", z);
  return 0;
}
