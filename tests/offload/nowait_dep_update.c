// `target update ... nowait depend(...)` in a chain with `target nowait`
// regions and host tasks, on an array mapped by `target enter data`:
//   region 1  depend(out: a)                    a[i] = a[i] * 3 + 1 (device)
//   update from(a) nowait depend(in: a) depend(out: tok)
//   host task depend(in: tok)                   checks the host copy of a
//   region 2  depend(in: a)  map(from: b)       b[i] = a[i] + i    (reader)
//   update from(a) nowait depend(inout: a)      (again, after region 2)
//   host task depend(in: a)                     checks a and b
//   host task depend(inout: a, tok)             a[i] += 100 on the host
//   update to(a) nowait depend(inout: a)
//   region 3  depend(in: a)  map(from: c)       c[i] = a[i] * 2
//   host task depend(in: c)                     checks c
// The update from must run only after region 1's kernel has finished on the
// device, and its task must complete only once the copy has landed in host
// memory: a host task that read the host copy while the copy (or the kernel
// before it) was still running sees old or partly updated elements. The
// update to must copy the host task's writes, and region 3 must see the
// copy complete. Every element is compared with its exact value.
//
// Sizes: 4 elements and 4 MiB, so that on the asynchronous host device
// (copies and kernels on worker threads after the call returns) a dependent
// that does not wait overtakes the copy; the second RUN line also delays
// each of their operations (ignored elsewhere).
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

enum { SMALL = 4, LARGE = 1 << 20, ROUNDS = 3 };

static unsigned a1(int i, unsigned r) { return ((unsigned)i * 31u + r) * 3u + 1u; }

static long run(unsigned *a, unsigned *b, unsigned *c, int n, unsigned r) {
  long bad1 = 0, bad2 = 0, bad3 = 0;
  int tok = 0;
  for (int i = 0; i < n; i++) {
    a[i] = (unsigned)i * 31u + r;
    b[i] = c[i] = 0;
  }
#pragma omp target enter data map(to : a[0:n])
#pragma omp target parallel for map(tofrom : a[0:n]) depend(out : a[0]) nowait
  for (int i = 0; i < n; i++) a[i] = a[i] * 3u + 1u;
#pragma omp target update from(a[0:n]) nowait depend(in : a[0]) depend(out : tok)
#pragma omp task depend(in : tok) shared(bad1)
  for (int i = 0; i < n; i++) bad1 += a[i] != a1(i, r);

#pragma omp target map(tofrom : a[0:n]) map(from : b[0:n]) depend(in : a[0]) depend(out : b[0]) \
    nowait
  for (int i = 0; i < n; i++) b[i] = a[i] + (unsigned)i;
#pragma omp target update from(a[0:n]) nowait depend(inout : a[0])
#pragma omp task depend(in : a[0]) depend(in : b[0]) shared(bad2)
  for (int i = 0; i < n; i++) bad2 += (a[i] != a1(i, r)) + (b[i] != a1(i, r) + (unsigned)i);

// After the first checking task too (through tok): it reads the host copy.
#pragma omp task depend(inout : a[0], tok)
  for (int i = 0; i < n; i++) a[i] += 100u;
#pragma omp target update to(a[0:n]) nowait depend(inout : a[0])
#pragma omp target parallel for map(tofrom : a[0:n]) map(from : c[0:n]) depend(in : a[0]) \
    depend(out : c[0]) nowait
  for (int i = 0; i < n; i++) c[i] = a[i] * 2u;
#pragma omp task depend(in : c[0]) shared(bad3)
  for (int i = 0; i < n; i++) bad3 += c[i] != (a1(i, r) + 100u) * 2u;
#pragma omp taskwait
#pragma omp target exit data map(delete : a[0:n])
  (void)tok;
  return bad1 + bad2 + bad3 + (omp_target_is_present(a, omp_get_default_device()) != 0);
}

int main(void) {
  setbuf(stdout, NULL);  // each line is out even if a later part crashes
  unsigned *a = malloc(LARGE * sizeof *a), *b = malloc(LARGE * sizeof *b),
           *c = malloc(LARGE * sizeof *c);
  long small = 0, large = 0, team = 0;
  for (unsigned r = 0; r < ROUNDS; r++) {
    small += run(a, b, c, SMALL, r);
    large += run(a, b, c, LARGE, r);
#pragma omp parallel num_threads(2)
#pragma omp single
    team += run(a, b, c, LARGE, r + 50);
  }
  // CHECK: nowait_dep_update: small bad=0 large bad=0 team bad=0
  printf("nowait_dep_update: small bad=%ld large bad=%ld team bad=%ld\n", small, large, team);
  free(a);
  free(b);
  free(c);
  return small + large + team != 0;
}
