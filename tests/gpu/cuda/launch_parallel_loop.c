// GPU only (tests/gpu/run_gpu_tests.sh builds tests/gpu/cuda/*.c): the
// launch shape of a single-team region without num_threads, and what that
// shape does to a program written with `target parallel loop`.
//
// clang 14 does not know the `loop` combined forms: it warns ("extra tokens
// at the end of '#pragma omp target parallel' are ignored") and compiles the
// region as `target parallel`, whose every thread runs the whole loop. The
// program below is therefore a data race (docs/usage.md). LLVM 14's CUDA
// plugin launches a single-team region with 128 threads, one warp per SM
// sub-partition, which run the loop in lockstep: every element comes out
// incremented once, and users' programs have relied on that. At 256 threads
// (our plugin's default for teams) 8 to 28 of the 64 elements came out wrong
// on an H200. Our plugin gives single-team regions LLVM 14's 128 threads; a
// num_threads clause still picks any size.
// RUN: %clang-offload -Wno-extra-tokens %s -o %t
// RUN: env LIBOMPTARGET_INFO=16 %run %t 2>&1 | %fcheck
#include <stdio.h>

#define N 64

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);  // in order with the runtime's stderr lines
  int arr[N];
  for (int i = 0; i < N; i++) arr[i] = i;
  // CHECK: Launching kernel {{.*}} with 1 blocks and 128 threads in SPMD mode
#pragma omp target parallel loop map(tofrom : arr)
  for (int i = 0; i < N; i++) arr[i] += 1;
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += arr[i] != i + 1;
  // CHECK: target parallel loop: 0 of 64 wrong
  printf("target parallel loop: %d of %d wrong\n", wrong, N);

  // The same loop written as the construct it means, at the default shape
  // and at 256 threads.
  // CHECK: Launching kernel {{.*}} with 1 blocks and 128 threads in SPMD mode
#pragma omp target parallel for map(tofrom : arr)
  for (int i = 0; i < N; i++) arr[i] += 1;
  // CHECK: Launching kernel {{.*}} with 1 blocks and 256 threads in SPMD mode
#pragma omp target parallel for num_threads(256) map(tofrom : arr)
  for (int i = 0; i < N; i++) arr[i] += 1;
  for (int i = 0; i < N; i++) wrong += arr[i] != i + 3;
  // CHECK: target parallel for: 0 wrong
  printf("target parallel for: %d wrong\n", wrong);
  return wrong != 0;
}
