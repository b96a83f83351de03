// Fault: a kernel that traps on the device. The failure names the kernel
// (found at the next operation on its stream or at its synchronization) and
// the program ends with the fatal error LLVM 14 prints for a failed target
// construct: no hang, no crash of the runtime itself.
// On the fake CUDA driver (tests/fake_cuda) kernels do not run: the second
// launch is made to trap there (OMPTARGET_FAKE_CUDA_TRAP_LAUNCH=2), and the
// FAKE prefix replaces the lines that need a real kernel.
// RUN: %clang-offload %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

int main(void) {
  setbuf(stdout, NULL);
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  // OURS: before x=2
  // LLVM: before x=2
  // FAKE: before x=1
  printf("before x=%d\n", x);
#pragma omp target map(tofrom : x)
  {
    if (x == 2) __builtin_trap();
    x = 3;
  }
  // CHECK: kernel __omp_offloading_{{[0-9a-f]+}}_{{[0-9a-f]+}}_main_l{{[0-9]+}} failed
  // CHECK: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // CHECK-NOT: not reached
  printf("not reached x=%d\n", x);
  return 0;
}
