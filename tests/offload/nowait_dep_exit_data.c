// `target exit data map(from:)` after `target nowait` regions copies back
// their complete results. The array is mapped by `target enter data` first,
// so the regions only run kernels on its device copy (a chain of K regions,
// depend(inout: a), each a[i] = a[i] * 2 + k + 1: a region that overlapped
// or overtook the one before it gives another value); the copy back is then
//   nowait-depend  exit data map(from:) depend(in: a) depend(out: done)
//                  nowait, then a host task depend(in: done) checks a, and
//                  the host checks it again after taskwait;
//   depend         a plain (undeferred) exit data map(from:) depend(in: a):
//                  it waits for the chain; the host checks right after it;
//   taskwait       the chain, taskwait, a plain exit data map(from:).
// If the exit data ran while a region's kernel was still writing (a region
// whose task completed before its queue's work was done), it copies back a
// device copy with missing steps; if the nowait exit data completed before
// its own copy landed, the host task reads old host memory. Every element is
// compared with its exact value, and the array must be unmapped afterwards.
//
// Sizes: 3 elements and 4 MiB (on the asynchronous host device, kernels and
// copies run on worker threads after the call returns; the second RUN line
// delays each of their operations, ignored elsewhere).
//
// LLVM 14's host plugin runs the kernel of a `target parallel` region on the
// hidden helper thread that runs the region's task, its parallel region nested
// (serialized) there; libomp 14 then now and then gives a `nowait` task
// created meanwhile no task team and aborts ("Assertion failure at
// kmp_tasking.cpp(3812): task_team != __null"; not seen in 30 runs of this
// test, with fewer such regions; nowait_dep_taskwait_many.c: in 6 runs of 10).
// Our host plugin runs these kernels (clang 14 launches them as teams regions
// of one team) on a runner or queue worker thread of its own, outside every
// parallel region.
// UNSUPPORTED: !omptarget-plugin
// clang 19 waits for the depend clause of an undeferred `target exit data`
// with __kmpc_omp_taskwait_deps_51, which libomp 14 lacks.
// UNSUPPORTED: clang-19 && !libomp-19
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run timeout 60 %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=50 timeout 60 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "inputs/nowait_chain_step.h"

enum { SMALL = 3, LARGE = 1 << 20, K = 8, ROUNDS = 2 };
enum Mode { NOWAIT_DEPEND, DEPEND, TASKWAIT };

static unsigned expected(int i, unsigned r) {
  unsigned v = (unsigned)i * 13u + r;
  for (int k = 0; k < K; k++) v = v * 2u + (unsigned)(k + 1);
  return v;
}

static long countBad(const unsigned *a, int n, unsigned r) {
  long bad = 0;
  for (int i = 0; i < n; i++) bad += a[i] != expected(i, r);
  return bad;
}

static long run(unsigned *a, int n, unsigned r, enum Mode mode) {
  int done = 0;
  long badTask = 0, bad = 0;
  for (int i = 0; i < n; i++) a[i] = (unsigned)i * 13u + r;
#pragma omp target enter data map(to : a[0:n])
  for (int k = 0; k < K; k++) chainStep(a, n, k);
  switch (mode) {
    // (Braces: a standalone directive is no case's statement.)
    case NOWAIT_DEPEND: {
#pragma omp target exit data map(from : a[0:n]) depend(in : a[0]) depend(out : done) nowait
#pragma omp task depend(in : done) shared(badTask)
      badTask = countBad(a, n, r);
#pragma omp taskwait
      bad = countBad(a, n, r) + badTask;
      break;
    }
    case DEPEND: {
#pragma omp target exit data map(from : a[0:n]) depend(in : a[0])
      bad = countBad(a, n, r);
#pragma omp taskwait
      break;
    }
    case TASKWAIT: {
#pragma omp taskwait
#pragma omp target exit data map(from : a[0:n])
      bad = countBad(a, n, r);
      break;
    }
  }
  (void)done;
  return bad + (omp_target_is_present(a, omp_get_default_device()) != 0);
}

int main(void) {
  setbuf(stdout, NULL);  // each line is out even if a later part crashes
  unsigned *a = malloc(LARGE * sizeof *a);
  static const char *names[] = {"nowait-depend", "depend", "taskwait"};
  long total = 0;
  for (int m = NOWAIT_DEPEND; m <= TASKWAIT; m++) {
    long small = 0, large = 0, team = 0;
    for (unsigned r = 0; r < ROUNDS; r++) {
      small += run(a, SMALL, r, (enum Mode)m);
      large += run(a, LARGE, r, (enum Mode)m);
    }
#pragma omp parallel num_threads(2)
#pragma omp single
    team = run(a, LARGE, 77, (enum Mode)m);
    // CHECK: nowait-depend: small bad=0 large bad=0 team bad=0
    // CHECK: depend: small bad=0 large bad=0 team bad=0
    // CHECK: taskwait: small bad=0 large bad=0 team bad=0
    printf("%s: small bad=%ld large bad=%ld team bad=%ld\n", names[m], small, large, team);
    total += small + large + team;
  }
  free(a);
  return total != 0;
}
