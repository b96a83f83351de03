// Stress that loses nothing: T OpenMP threads (STRESS_THREADS, default 4) each
// run M rounds (STRESS_ROUNDS, default 60) of a mix of constructs and API
// calls on device 0: its own array mapped per round (enter data, a nowait
// region reading a shared array through `present`, `always` updates, exit
// data alternately `release` and `delete`), its own omp_target_alloc block
// (omp_target_memcpy and omp_target_memcpy_async in and out, the block
// associated with and disassociated from a host buffer) and its own locked
// host buffer (lock, a region mapping it, unlock). Every value is checked in
// every round; at the end the device's mapping table and pinned map hold
// exactly what they held before the threads started (the properties
// mapped_entries and pinned_ranges of omptarget_get_device_properties).
// The threads are an `omp parallel` team: libomp 14 aborts, segfaults or hangs
// when threads it did not create (pthreads) issue `target nowait` and then
// `taskwait`, on LLVM 14's runtime as on ours (5 of 5 runs each).
// With LLVM 14's host plugin libomp 14 asserts (kmp_tasking.cpp(3812)) on the
// nowait teams regions, which that plugin runs nested on the hidden-helper
// thread, and a teams region issued inside `omp parallel` computes only part
// of its iterations there; the pinned map is ours. Hence our plugins only.
// REQUIRES: omptarget-core
// UNSUPPORTED: runtime-our-core-llvm-plugin
// RUN: %clang-offload -fopenmp-version=51 -L%libdir %s -o %t
// RUN: %run %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=20 STRESS_ROUNDS=20 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omptarget/omp_target_ext.h"

enum { N = 4096, kMaxThreads = 64 };
static double Shared[N];
static int Rounds = 60;
static int Errors[kMaxThreads];

struct Counts {
  long Mapped, Pinned;
};
static void takeCount(void *Ctx, const char *Key, const char *Value) {
  struct Counts *C = Ctx;
  if (!strcmp(Key, "mapped_entries")) C->Mapped = atol(Value);
  if (!strcmp(Key, "pinned_ranges")) C->Pinned = atol(Value);
}
static struct Counts counts(void) {
  struct Counts C = {-1, -1};
  omptarget_get_device_properties(0, takeCount, &C);
  return C;
}

static void worker(int T) {
  const int Host = omp_get_initial_device();
  double *Own = malloc(N * sizeof(double)), *Back = malloc(N * sizeof(double));
  double *Locked = malloc(N * sizeof(double));
  double *Block = omp_target_alloc(N * sizeof(double), 0);
  int Bad = 0;
  for (int R = 0; R < Rounds; ++R) {
    for (int I = 0; I < N; ++I) Own[I] = T * 1000 + R + I;
    // Own array: mapped, a nowait region reading Shared through present,
    // an always update, unmapped by release or delete in turn.
#pragma omp target enter data map(to : Own[0:N])
#pragma omp target teams distribute parallel for nowait map(present, to : Shared[0:N]) map(present, alloc : Own[0:N])
    for (int I = 0; I < N; ++I) Own[I] += Shared[I];
#pragma omp taskwait
#pragma omp target update from(Own[0:N])
    for (int I = 0; I < N; ++I) Bad += Own[I] != T * 1000 + R + 2.0 * I;
    for (int I = 0; I < N; ++I) Own[I] = -1;
#pragma omp target map(always, to : Own[0:N])  // refcount 2: always copies anyway
    Own[0] += 1;
#pragma omp target update from(Own[0:1])
    Bad += Own[0] != 0;
    if (R % 2) {
#pragma omp target exit data map(release : Own[0:N])
    } else {
#pragma omp target exit data map(delete : Own[0:N])
    }
    Bad += omp_target_is_present(Own, 0) != 0;
    // Own block: memcpy in and out, synchronously and asynchronously.
    for (int I = 0; I < N; ++I) Back[I] = R - I;
    Bad += omp_target_memcpy(Block, Back, N * sizeof(double), 0, 0, 0, Host) != 0;
    memset(Back, 0, N * sizeof(double));
    Bad += omp_target_memcpy_async(Back, Block, N * sizeof(double), 0, 0, Host, 0, 0, NULL) != 0;
#pragma omp taskwait
    for (int I = 0; I < N; ++I) Bad += Back[I] != R - I;
    // The block associated with Back: a region sees the block's values.
    Bad += omp_target_associate_ptr(Back, Block, N * sizeof(double), 0, 0) != 0;
    double First = -1;
#pragma omp target map(from : First) map(present, alloc : Back[0:N])
    First = Back[5];
    Bad += First != R - 5;
    Bad += omp_target_disassociate_ptr(Back, 0) != 0;
    // A locked buffer mapped by a region.
    Bad += llvm_omp_target_lock_mem(Locked, N * sizeof(double), 0) == NULL;
    for (int I = 0; I < N; ++I) Locked[I] = I;
#pragma omp target teams distribute parallel for map(tofrom : Locked[0:N])
    for (int I = 0; I < N; ++I) Locked[I] *= 3;
    llvm_omp_target_unlock_mem(Locked, 0);
    for (int I = 0; I < N; ++I) Bad += Locked[I] != 3.0 * I;
  }
  omp_target_free(Block, 0);
  free(Own);
  free(Back);
  free(Locked);
  Errors[T] = Bad;
}

int main(void) {
  const char *V = getenv("STRESS_THREADS");
  int Threads = V ? atoi(V) : 4;
  if (Threads < 1 || Threads > kMaxThreads) Threads = 4;
  if ((V = getenv("STRESS_ROUNDS"))) Rounds = atoi(V);
  for (int I = 0; I < N; ++I) Shared[I] = I;
  struct Counts Before = counts();
#pragma omp target enter data map(to : Shared[0:N])
  int Started = 0;
#pragma omp parallel num_threads(Threads)
  {
#pragma omp single
    Started = omp_get_num_threads();
    worker(omp_get_thread_num());
  }
  int Bad = Started == Threads ? 0 : 1;
  for (int T = 0; T < Threads; ++T) Bad += Errors[T];
#pragma omp target exit data map(release : Shared[0:N])
  struct Counts After = counts();
  // CHECK: stress: {{[0-9]+}} threads x {{[0-9]+}} rounds, 0 wrong values
  printf("stress: %d threads x %d rounds, %d wrong values\n", Threads, Rounds, Bad);
  // CHECK-NEXT: mapping table back to its start: 1, pinned map back to its start: 1
  printf("mapping table back to its start: %d, pinned map back to its start: %d\n",
         After.Mapped == Before.Mapped && Before.Mapped >= 0, After.Pinned == Before.Pinned && Before.Pinned >= 0);
  return Bad != 0;
}
// CHECK-NOT: Libomptarget
