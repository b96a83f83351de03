// Stress (the race of an entry reused while its copy is in flight): several host threads each launch many `target
// nowait depend(in: ...)` regions that only read the same large arrays,
// mapping them with map(to: ...) inside each region. Whichever region maps an
// array first issues its copy; every other region reuses the entry and must
// see complete data (with an asynchronous device: its queue waits on the
// entry's event). Each region checksums what it sees into its own slot;
// after taskwait every slot must hold the expected checksum. The arrays get
// new contents every round (and are unmapped in between), so a region that
// reads a device buffer before its copy landed sees garbage or the previous
// round's data, and fails.
//
// Runs in every configuration; stress_nowait_shared_delayed.c runs it again
// on the asynchronous host device with a delay before each queued operation,
// which is what makes the race window wide (fails reliably without the wait).
//
// Arguments: [rounds] [regions per thread] (defaults 12 8).
// LLVM 14's core has no event-guarded mapping: on an asynchronous
// plugin it has exactly the race this test detects.
// UNSUPPORTED: host-async && !omptarget-core
// RUN: %clang-offload -O2 %s -o %t
// RUN: %run timeout 120 %t 2>&1 | %fcheck
// CHECK: stress_nowait_shared: rounds={{[0-9]+}} regions={{[0-9]+}} bad=0
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 256 * 1024, THREADS = 4, MAX_PER_THREAD = 64 };  // 3 arrays of 1 MiB

static uint64_t sum3(const uint32_t *a, const uint32_t *b, const uint32_t *c) {
  uint64_t s = 0;
  for (int i = 0; i < N; ++i) s = s * 31 + a[i] + 3u * b[i] + 7u * c[i];
  return s;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 12;
  int per_thread = argc > 2 ? atoi(argv[2]) : 8;
  if (per_thread > MAX_PER_THREAD) per_thread = MAX_PER_THREAD;
  uint32_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
  uint64_t *out = malloc(THREADS * MAX_PER_THREAD * sizeof *out);
  long bad = 0, regions = 0;

  for (int r = 0; r < rounds; ++r) {
    // New contents each round: stale device buffers hold other values.
    uint32_t seed = 0x9e3779b9u * (uint32_t)(r + 1);
    for (int i = 0; i < N; ++i) {
      a[i] = seed ^ (uint32_t)i;
      b[i] = seed + 2654435761u * (uint32_t)i;
      c[i] = ~seed - (uint32_t)i * 40503u;
    }
    const uint64_t want = sum3(a, b, c);
    for (int k = 0; k < THREADS * per_thread; ++k) out[k] = 0;

#pragma omp parallel num_threads(THREADS)
    {
      int t = omp_get_thread_num();
      for (int j = 0; j < per_thread; ++j) {
        int k = t * per_thread + j;
        if (j % 2 == 0) {
#pragma omp target map(to : a[0:N], b[0:N], c[0:N]) map(from : out[k:1]) depend(in : a[0]) nowait
          {
            uint64_t s = 0;
            for (int i = 0; i < N; ++i) s = s * 31 + a[i] + 3u * b[i] + 7u * c[i];
            out[k] = s;
          }
        } else {
          // Same data, other mapping order.
#pragma omp target map(to : c[0:N], b[0:N], a[0:N]) map(from : out[k:1]) depend(in : a[0]) nowait
          {
            uint64_t s = 0;
            for (int i = 0; i < N; ++i) s = s * 31 + a[i] + 3u * b[i] + 7u * c[i];
            out[k] = s;
          }
        }
      }
#pragma omp taskwait
    }

    for (int k = 0; k < THREADS * per_thread; ++k, ++regions)
      if (out[k] != want) {
        if (bad < 5)
          fprintf(stderr, "round %d region %d: checksum %llx, expected %llx\n", r, k,
                  (unsigned long long)out[k], (unsigned long long)want);
        ++bad;
      }
    // Nothing may stay mapped between rounds.
    if (omp_target_is_present(a, omp_get_default_device())) {
      fprintf(stderr, "round %d: a still mapped after taskwait\n", r);
      ++bad;
    }
  }
  printf("stress_nowait_shared: rounds=%d regions=%ld bad=%ld\n", rounds, regions, bad);
  free(a), free(b), free(c), free(out);
  return bad != 0;
}
