// Fault: a kernel whose stack is larger than the 512 KiB a CUDA thread may
// have. A first-private struct of 576 KiB is copied onto the stack of the
// target region's thread; the driver refuses the launch with only
// CUDA_ERROR_INVALID_VALUE. The error must say why (the kernel's local memory
// per thread against the limit) and what to do; the region is then a fatal
// error (offloading is mandatory once a device exists, as in LLVM 14), not a
// crash. The same data mapped instead (what the message advises) runs first
// and gives the right answer.
// RUN: %clang-offload -O1 %s -o %t
// RUN: not --crash %run %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>

enum { N = 72 * 1024 };  // doubles: 576 KiB

struct Params {
  double w[N];
};
static struct Params params;

int main(void) {
  setbuf(stdout, NULL);
  for (int i = 0; i < N; ++i) params.w[i] = i % 7;
  double want = 0;
  for (int i = 0; i < N; ++i) want += i % 7;

  double got = -1;
#pragma omp target map(to : params) map(from : got)
  {
    double s = 0;
    for (int i = 0; i < N; ++i) s += params.w[i];
    got = s;
  }
  // CHECK: mapped region: right
  printf("mapped region: %s\n", got == want ? "right" : "wrong");

  got = -1;
#pragma omp target firstprivate(params) map(from : got)
  {
    double s = 0;
    for (int i = 0; i < N; ++i) s += params.w[i];
    params.w[0] = -1;
    got = s;
  }
  // CHECK: cuLaunchKernel ({{[0-9]+}} blocks, {{[0-9]+}} threads, {{[0-9]+}} bytes of dynamic shared memory): CUDA_ERROR_INVALID_VALUE (invalid argument); the kernel needs {{[0-9]+}} bytes of local memory (stack) per thread, more than the 524288 a CUDA thread may have
  // CHECK: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
  // CHECK-NOT: not reached
  printf("not reached: %s\n", got == want ? "right" : "wrong");
  return 0;
}
