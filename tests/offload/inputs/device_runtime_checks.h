// Shared by the device_runtime_*.c tests: an iteration counter array that a
// loop in a target region bumps once per iteration, its check, and an atomic
// add usable where `omp atomic` is not (closely nested in a teams region).
#include <stdio.h>
#include <string.h>

#define N 100003

static int hits[N];

#pragma omp declare target
static void team_add(int *p, int v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
#pragma omp end declare target

// Prints "<what>: each iteration once" (or WRONG), clears the counters and
// returns the number of iterations that did not run exactly once.
static int all_once(const char *what) {
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (hits[i] != 1) bad++;
  printf("%s: %s\n", what, bad ? "WRONG" : "each iteration once");
  memset(hits, 0, sizeof(hits));
  return bad;
}
