// Host tasks that depend on `target teams distribute parallel for nowait`
// regions see those regions whole, and the regions that depend on host tasks
// see the tasks' writes:
//   region 1  map(tofrom: a) depend(out: a)    a[i] = a[i] * 3 + i
//   4 host tasks depend(in: a)                 each checks a quarter of a
//   host task depend(inout: a)                 a[i] ^= 0x5a5a5a5a
//   region 2  map(to: a) map(from: b) depend(in: a) depend(out: b)
//                                              b[i] = a[i] * 5 + 7
//   host task depend(in: b)                    checks b (and that a, which
//                                              region 2 maps `to` only, is
//                                              still the host task's value)
// A region's task is complete only when its copy back has landed in host
// memory. A host task started while region 1's kernel or copy back is still
// running reads old elements; the xor task's writes are then overwritten by
// the late copy back; region 2 started before the xor task finished (or a
// copy to the device made before the writes landed) gives b from the wrong a.
// Every element is compared with its exact value, so a dependent that saw a
// region (or task) half-done counts at least one bad element.
//
// Sizes: 5 elements and 4 MiB (a copy takes long enough on the asynchronous
// host device, where copies and kernels run on a worker thread after the
// call returns, for a dependent that does not wait to overtake it). The
// routine runs outside any parallel region and from a `single` of a team of
// 2 (the host tasks may then run on the other thread), 3 rounds each. The
// second RUN line delays each queued operation of the asynchronous host
// device (ignored elsewhere) to widen the windows further.
//
// LLVM 14's host plugin runs only the first team's share of a `target teams`
// region launched from a hidden helper thread (launch_teams_nowait_sum.c).
// UNSUPPORTED: !omptarget-plugin
// RUN: %clang-offload -O1 %s -o %t
// RUN: %run timeout 60 %t 2>&1 | %fcheck
// RUN: %run env OMPTARGET_HOST_ASYNC_DELAY_US=50 timeout 60 %t 2>&1 | %fcheck
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { SMALL = 5, LARGE = 1 << 20, ROUNDS = 3, READERS = 4 };

static unsigned first(unsigned i, unsigned r) { return (i + r) * 3u + i; }
static unsigned afterXor(unsigned i, unsigned r) { return first(i, r) ^ 0x5a5a5a5au; }

// Runs the sequence once; returns the number of wrong elements seen.
static long sequence(unsigned *a, unsigned *b, int n, unsigned r) {
  long badA = 0, badB = 0;
  for (int i = 0; i < n; i++) {
    a[i] = (unsigned)i + r;
    b[i] = 0;
  }
#pragma omp target teams distribute parallel for map(tofrom : a[0:n]) depend(out : a[0]) nowait
  for (int i = 0; i < n; i++) a[i] = a[i] * 3u + (unsigned)i;

  for (int q = 0; q < READERS; q++) {
#pragma omp task depend(in : a[0]) shared(badA)
    {
      long bad = 0;
      for (int i = q * n / READERS; i < (q + 1) * n / READERS; i++)
        bad += a[i] != first((unsigned)i, r);
#pragma omp atomic
      badA += bad;
    }
  }

#pragma omp task depend(inout : a[0])
  for (int i = 0; i < n; i++) a[i] ^= 0x5a5a5a5au;

#pragma omp target teams distribute parallel for map(to : a[0:n]) map(from : b[0:n]) \
    depend(in : a[0]) depend(out : b[0]) nowait
  for (int i = 0; i < n; i++) b[i] = a[i] * 5u + 7u;

#pragma omp task depend(in : b[0]) depend(in : a[0]) shared(badB)
  {
    long bad = 0;
    for (int i = 0; i < n; i++) {
      bad += b[i] != afterXor((unsigned)i, r) * 5u + 7u;
      bad += a[i] != afterXor((unsigned)i, r);
    }
    badB = bad;
  }
#pragma omp taskwait
  return badA + badB;
}

int main(void) {
  setbuf(stdout, NULL);  // each line is out even if a later part crashes
  unsigned *a = malloc(LARGE * sizeof *a), *b = malloc(LARGE * sizeof *b);
  long bad[2][2] = {{0, 0}, {0, 0}};  // [serial, team][small, large]
  for (unsigned r = 0; r < ROUNDS; r++) {
    bad[0][0] += sequence(a, b, SMALL, r);
    bad[0][1] += sequence(a, b, LARGE, r);
#pragma omp parallel num_threads(2)
#pragma omp single
    {
      bad[1][0] += sequence(a, b, SMALL, r + 100);
      bad[1][1] += sequence(a, b, LARGE, r + 100);
    }
  }
  // CHECK: serial: small bad=0 large bad=0
  printf("serial: small bad=%ld large bad=%ld\n", bad[0][0], bad[0][1]);
  // CHECK: team: small bad=0 large bad=0
  printf("team: small bad=%ld large bad=%ld\n", bad[1][0], bad[1][1]);
  free(a);
  free(b);
  return bad[0][0] + bad[0][1] + bad[1][0] + bad[1][1] != 0;
}
