// A `nowait` construct of a clang 19 program on libomp 19 completes only
// when its stream's work has: its target task is re-entered (the runtime
// asks cuStreamQuery, never waits) until the stream is done. Run with the
// fake driver's streams completing late (OMPTARGET_FAKE_CUDA_PENDING_QUERIES:
// a device-to-host copy lands in host memory only when its stream
// completes), a task completed early would leave stale data behind its
// taskwait. Each round writes new device data (omp_target_memcpy, which
// completes before it returns), then four `target update from ... nowait`
// on four arrays, then one taskwait, and checks every element.
// With OMPTARGET_QUERY_COUNT_THRESHOLD=0 a thread waits (synchronizes) from
// its second query on: the same results, fewer not-ready answers.
#include <omp.h>
#include <stdio.h>

enum { N = 4096, Arrays = 4, Rounds = 6 };
static int X[Arrays][N];

int main(void) {
  const int Dev = omp_get_default_device();
  const int Host = omp_get_initial_device();
  static int Src[N];
#pragma omp target enter data map(alloc : X)
  int Wrong = 0;
  for (int R = 1; R <= Rounds; ++R) {
    for (int A = 0; A < Arrays; ++A) {
      for (int I = 0; I < N; ++I) Src[I] = R * 100000 + A * 10000 + I;
      if (omp_target_memcpy(omp_get_mapped_ptr(X[A], Dev), Src, sizeof Src, 0, 0, Dev, Host))
        printf("FAILED: omp_target_memcpy\n");
    }
    for (int A = 0; A < Arrays; ++A) {
#pragma omp target update from(X[A][0 : N]) nowait
    }
#pragma omp taskwait
    for (int A = 0; A < Arrays; ++A)
      for (int I = 0; I < N; ++I) Wrong += X[A][I] != R * 100000 + A * 10000 + I;
  }
#pragma omp target exit data map(release : X)
  printf("nowait updates: %d rounds, %d wrong elements\n", Rounds, Wrong);
  fflush(stdout);
  return Wrong != 0;
}

// DEFER: __tgt_target_data_update_nowait: work still queued on device
// DEFER: __tgt_target_data_update_nowait: completed (handle {{.*}}) after {{[1-9][0-9]*}} queries found it running
// CHECK: nowait updates: 6 rounds, 0 wrong elements
// CHECK: fake-cuda: {{[1-9][0-9]*}} stream queries answered not ready
