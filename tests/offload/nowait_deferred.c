// On libomp 19, a `nowait` construct whose work is still queued when its
// call ends completes later, and never early: libomp re-enters its target
// task, the runtime asks the queue without waiting (query_async), and the
// task completes (its dependent tasks, its taskwait go on) only once the
// queue is done. The asynchronous host device has real queues; with each
// operation delayed (OMPTARGET_HOST_ASYNC_DELAY_US) every construct is still
// running when its call returns, so each one is deferred (the trace says
// so). A task completed early would let a dependent task or the taskwait
// see the data before its copy back landed: the checks would fail.
//  - a chain of 8 dependent regions on one array (depend inout), each adding
//    1 to every element, read by a host task that depends on the last;
//  - 4 independent regions on 4 arrays, then a taskwait;
//  - `target enter data ... nowait`, `update ... nowait` and `exit data ...
//    nowait` with dependences between them.
// With OMPTARGET_QUERY_COUNT_THRESHOLD=0 a thread waits from its second
// query of running work on: the same results.
// REQUIRES: omptarget-core, host-async, libomp-19
// RUN: %clang-offload %s -o %t
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=300 LIBOMPTARGET_DEBUG=1 %t 2>&1 | %fcheck --check-prefix=DEFER
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=300 OMPTARGET_QUERY_COUNT_THRESHOLD=0 %t 2>&1 | %fcheck
// RUN: %run %t 2>&1 | %fcheck
#include <stdio.h>

enum { N = 2048, Chain = 8, Arrays = 4 };
static int A[N];
static int B[Arrays][N];
static int C[N];

int main(void) {
  int Wrong = 0;
  for (int I = 0; I < N; ++I) A[I] = I;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int K = 0; K < Chain; ++K) {
#pragma omp target teams distribute parallel for map(tofrom : A) depend(inout : A) nowait
      for (int I = 0; I < N; ++I) A[I] += 1;
    }
#pragma omp task depend(in : A) shared(Wrong)
    {
      int Bad = 0;
      for (int I = 0; I < N; ++I) Bad += A[I] != I + Chain;
#pragma omp atomic
      Wrong += Bad;
    }
#pragma omp taskwait
  }
  printf("chain: %d wrong\n", Wrong);

  for (int K = 0; K < Arrays; ++K) {
#pragma omp target map(from : B[K][0 : N]) nowait
    for (int I = 0; I < N; ++I) B[K][I] = K * N + I;
  }
#pragma omp taskwait
  Wrong = 0;
  for (int K = 0; K < Arrays; ++K)
    for (int I = 0; I < N; ++I) Wrong += B[K][I] != K * N + I;
  printf("independent: %d wrong\n", Wrong);

  for (int I = 0; I < N; ++I) C[I] = 1;
#pragma omp target enter data map(to : C) depend(out : C) nowait
#pragma omp target depend(inout : C) nowait
  for (int I = 0; I < N; ++I) C[I] *= 3;
#pragma omp target update from(C) depend(inout : C) nowait
#pragma omp target exit data map(release : C) depend(inout : C) nowait
#pragma omp taskwait
  Wrong = 0;
  for (int I = 0; I < N; ++I) Wrong += C[I] != 3;
  printf("data constructs: %d wrong\n", Wrong);
  return 0;
}

// DEFER: {{__tgt_target[a-z_]*}}: work still queued on device 0: the construct completes when a query of its target task finds it done
// DEFER: {{__tgt_target[a-z_]*}}: completed (handle {{.*}}) after {{[0-9]+}} queries found it running
// CHECK: chain: 0 wrong
// CHECK: independent: 0 wrong
// CHECK: data constructs: 0 wrong
