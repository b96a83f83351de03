// Stress: no deadlock when concurrent constructs map the same arrays in
// opposite orders. Two host threads launch `target nowait`
// regions at the same time: one group maps (A, B), the other (B, A), each
// freshly (nothing is mapped between rounds), so each region may create one
// entry and issue its copy, then find the other array's copy in flight on the
// other group's queue and wait for it. Waiting on an event recorded before
// the wait was issued never closes a cycle, so every round must complete,
// with correct sums. `timeout` turns a hang into a failure.
//
// The second RUN line widens the windows on the asynchronous host device
// (the delay variable is ignored by the other configurations).
// Arguments: [rounds] [regions per thread] (defaults 100 8).
// LLVM 14's core has no event-guarded mapping: on an asynchronous
// plugin it has exactly the race this test detects.
// UNSUPPORTED: host-async && !omptarget-core
// RUN: %clang-offload -O2 %s -o %t
// RUN: %run timeout 60 %t 2>&1 | %fcheck
// RUN: env OMPTARGET_HOST_ASYNC_DELAY_US=100 %run timeout 60 %t 2>&1 | %fcheck
// CHECK: stress_opposite_order: rounds={{[0-9]+}} regions={{[0-9]+}} bad=0
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 64 * 1024, MAX_PER_THREAD = 64 };

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 100;
  int per_thread = argc > 2 ? atoi(argv[2]) : 8;
  if (per_thread > MAX_PER_THREAD) per_thread = MAX_PER_THREAD;
  int64_t *A = malloc(N * sizeof *A), *B = malloc(N * sizeof *B);
  int64_t *out = malloc(2 * MAX_PER_THREAD * sizeof *out);
  long bad = 0, regions = 0;

  for (int r = 0; r < rounds; ++r) {
    int64_t want = 0;
    for (int i = 0; i < N; ++i) {
      A[i] = (int64_t)i * (r + 1);
      B[i] = (int64_t)(N - i) * 3 + r;
      want += A[i] - 2 * B[i];
    }
#pragma omp parallel num_threads(2)
    {
      int t = omp_get_thread_num();
      for (int j = 0; j < per_thread; ++j) {
        int k = t * per_thread + j;
        out[k] = -1;
        if ((t + j) % 2 == 0) {
#pragma omp target map(to : A[0:N], B[0:N]) map(from : out[k:1]) depend(in : A[0]) nowait
          {
            int64_t s = 0;
            for (int i = 0; i < N; ++i) s += A[i] - 2 * B[i];
            out[k] = s;
          }
        } else {
#pragma omp target map(to : B[0:N], A[0:N]) map(from : out[k:1]) depend(in : A[0]) nowait
          {
            int64_t s = 0;
            for (int i = 0; i < N; ++i) s += A[i] - 2 * B[i];
            out[k] = s;
          }
        }
      }
#pragma omp taskwait
    }
    for (int k = 0; k < 2 * per_thread; ++k, ++regions)
      if (out[k] != want) {
        if (bad < 5)
          fprintf(stderr, "round %d region %d: %lld, expected %lld\n", r, k, (long long)out[k],
                  (long long)want);
        ++bad;
      }
  }
  printf("stress_opposite_order: rounds=%d regions=%ld bad=%ld\n", rounds, regions, bad);
  free(A), free(B), free(out);
  return bad != 0;
}
