// A dependence chain of N `target nowait depend(inout: x[0])` regions runs
// its regions one after the other, each on the complete result of the one
// before. Region k computes x[i] = x[i] * 2 + k + 1 (unsigned, so wrapping
// is defined): a region that started before its predecessor finished reads
// old elements (its update of them is lost), and two regions that ran in the
// other order give 4x + 2b + a instead of 4x + 2a + b, so the final values
// differ from the host's replay of the chain. Variants:
//   present      x mapped by `target enter data` before the chain and copied
//                back by `target exit data` after the taskwait: the regions
//                only run kernels on the device copy, so each kernel must
//                start after the one before has finished;
//   tofrom       x not present: each region maps it tofrom (allocates,
//                copies in, runs, copies back, frees) so each region must
//                see the previous region's copy back in host memory;
//   alternating  even regions map x tofrom themselves; odd regions find it
//                present, between a `target enter data map(to:) nowait` and
//                a `target exit data map(from:) nowait`, both in the chain
//                (depend(inout: x[0])).
// Regions alternate between `target` and `target parallel for`. Sizes: 2
// elements and 4 MiB (long copies and kernels on the asynchronous host
// device, where they run on worker threads after the call returns; the second
// RUN line delays each of their operations, ignored elsewhere). Each variant
// runs outside any parallel region, then (1 MiB) from a `single` of a team.
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
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run timeout 60 %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=50 timeout 60 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "inputs/nowait_chain_step.h"

enum { SMALL = 2, LARGE = 1 << 20, N = 16 };
enum Variant { PRESENT, TOFROM, ALTERNATING };

static unsigned start(int i, int v) { return (unsigned)i * 2654435761u + (unsigned)v; }

static long check(const unsigned *x, int n, int v) {
  long bad = 0;
  for (int i = 0; i < n; i++) {
    unsigned e = start(i, v);
    for (int k = 0; k < N; k++) e = e * 2u + (unsigned)(k + 1);
    bad += x[i] != e;
  }
  return bad;
}

static long chain(unsigned *x, int n, enum Variant v) {
  for (int i = 0; i < n; i++) x[i] = start(i, v);
  switch (v) {
    case PRESENT: {  // (braces: a standalone directive is no case's statement)
#pragma omp target enter data map(to : x[0:n])
      for (int k = 0; k < N; k++) chainStep(x, n, k);
#pragma omp taskwait
#pragma omp target exit data map(from : x[0:n])
      break;
    }
    case TOFROM:
      for (int k = 0; k < N; k++) chainStep(x, n, k);
#pragma omp taskwait
      break;
    case ALTERNATING:
      for (int k = 0; k < N; k += 2) {
        chainStep(x, n, k);
#pragma omp target enter data map(to : x[0:n]) depend(inout : x[0]) nowait
        chainStep(x, n, k + 1);
#pragma omp target exit data map(from : x[0:n]) depend(inout : x[0]) nowait
      }
#pragma omp taskwait
      break;
  }
  return check(x, n, v) + (omp_target_is_present(x, omp_get_default_device()) != 0);
}

int main(void) {
  setbuf(stdout, NULL);  // each line is out even if a later part crashes
  unsigned *x = malloc(LARGE * sizeof *x);
  static const char *names[] = {"present", "tofrom", "alternating"};
  long total = 0;
  for (int v = PRESENT; v <= ALTERNATING; v++) {
    long small = chain(x, SMALL, (enum Variant)v), large = chain(x, LARGE, (enum Variant)v);
    long team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    team = chain(x, LARGE / 4, (enum Variant)v);
    // CHECK: present: small bad=0 large bad=0 team bad=0
    // CHECK: tofrom: small bad=0 large bad=0 team bad=0
    // CHECK: alternating: small bad=0 large bad=0 team bad=0
    printf("%s: small bad=%ld large bad=%ld team bad=%ld\n", names[v], small, large, team);
    total += small + large + team;
  }
  free(x);
  return total != 0;
}
