// `taskwait` after 200 independent `target nowait` regions returns only when
// every one of them is whole. Each region writes its own part of the data,
// in three layouts:
//   slices    one host array, each region maps its own slice tofrom
//             (200 disjoint sections of one array, created and deleted
//             concurrently);
//   present   one array mapped by `target enter data` before; the regions
//             write its device copy, `target exit data map(from:)` after the
//             taskwait copies it back;
//   arrays    200 separately allocated arrays, each region maps its own.
// Every element is then compared with its exact value: a taskwait that
// returned while a region's kernel or copy back was still running (a task
// completed before its queue's work was done) leaves old values in host
// memory, and the exit data of the second layout copies back a device copy
// that some kernels have not written yet.
//
// Small (1 element per region) and large (4096 elements per region: 3.2 MiB
// in all) parts; on the asynchronous host device each copy and kernel runs
// on a worker thread after the call returns, and the second RUN line delays
// every queued operation there (ignored elsewhere).
//
// LLVM 14's host plugin runs the kernel of a `target parallel` region on the
// hidden helper thread that runs the region's task, its parallel region nested
// (serialized) there; libomp 14 then now and then gives a `nowait` task
// created meanwhile no task team and aborts ("Assertion failure at
// kmp_tasking.cpp(3812): task_team != __null"; this test: in 6 runs of 10 on
// an idle machine, 3 of 20 with CPU hogs, whichever core runs). Our host
// plugin runs these kernels (clang 14 launches them as teams regions of one
// team) on a runner or queue worker thread of its own, outside every parallel
// region.
// UNSUPPORTED: !omptarget-plugin
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run timeout 60 %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=20 timeout 60 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { REGIONS = 200, SMALL = 1, LARGE = 4096 };

static unsigned initial(int k, int j) { return (unsigned)(k * 7919 + j); }
static unsigned updated(int k, int j) { return initial(k, j) * 5u + (unsigned)k; }

static long slices(unsigned *all, int len) {
  for (int k = 0; k < REGIONS; k++)
    for (int j = 0; j < len; j++) all[k * len + j] = initial(k, j);
  for (int k = 0; k < REGIONS; k++) {
#pragma omp target parallel for map(tofrom : all[k * len:len]) nowait
    for (int j = 0; j < len; j++) all[k * len + j] = all[k * len + j] * 5u + (unsigned)k;
  }
#pragma omp taskwait
  long bad = 0;
  for (int k = 0; k < REGIONS; k++)
    for (int j = 0; j < len; j++) bad += all[k * len + j] != updated(k, j);
  return bad;
}

static long present(unsigned *all, int len) {
  int n = REGIONS * len;
  for (int k = 0; k < REGIONS; k++)
    for (int j = 0; j < len; j++) all[k * len + j] = initial(k, j);
#pragma omp target enter data map(to : all[0:n])
  for (int k = 0; k < REGIONS; k++) {
#pragma omp target map(tofrom : all[0:n]) nowait
    for (int j = 0; j < len; j++) all[k * len + j] = all[k * len + j] * 5u + (unsigned)k;
  }
#pragma omp taskwait
#pragma omp target exit data map(from : all[0:n])
  long bad = 0;
  for (int k = 0; k < REGIONS; k++)
    for (int j = 0; j < len; j++) bad += all[k * len + j] != updated(k, j);
  return bad;
}

static long arrays(unsigned **parts, int len) {
  for (int k = 0; k < REGIONS; k++)
    for (int j = 0; j < len; j++) parts[k][j] = initial(k, j);
  for (int k = 0; k < REGIONS; k++) {
    unsigned *p = parts[k];
#pragma omp target parallel for map(tofrom : p[0:len]) nowait
    for (int j = 0; j < len; j++) p[j] = p[j] * 5u + (unsigned)k;
  }
#pragma omp taskwait
  long bad = 0;
  for (int k = 0; k < REGIONS; k++)
    for (int j = 0; j < len; j++) bad += parts[k][j] != updated(k, j);
  return bad;
}

int main(void) {
  setbuf(stdout, NULL);  // each line is out even if a later part crashes
  unsigned *all = malloc(REGIONS * LARGE * sizeof *all);
  unsigned *parts[REGIONS];
  for (int k = 0; k < REGIONS; k++) parts[k] = malloc(LARGE * sizeof *parts[k]);
  long total = 0;
  int sizes[2] = {SMALL, LARGE};
  for (int s = 0; s < 2; s++) {
    long b1 = slices(all, sizes[s]), b2 = present(all, sizes[s]), b3 = arrays(parts, sizes[s]);
    // CHECK: len=1: slices bad=0 present bad=0 arrays bad=0
    // CHECK: len=4096: slices bad=0 present bad=0 arrays bad=0
    printf("len=%d: slices bad=%ld present bad=%ld arrays bad=%ld\n", sizes[s], b1, b2, b3);
    total += b1 + b2 + b3;
  }
  // The same from a `single` of a team: the regions' tasks are the single
  // thread's children, and its taskwait waits for them.
  long team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  team = slices(all, LARGE) + present(all, LARGE) + arrays(parts, LARGE);
  // CHECK: team: bad=0
  printf("team: bad=%ld\n", team);
  for (int k = 0; k < REGIONS; k++) free(parts[k]);
  free(all);
  return total + team != 0;
}
