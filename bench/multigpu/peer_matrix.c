// peer_matrix: omp_target_memcpy bandwidth for every ordered device pair,
// all pairs at once, and the time to the first target region.
// See bench/multigpu/run_multigpu.sh and docs/benchmarks.md ("Multi-GPU").
//
// Prints:
//   startup_ms=X              program start -> end of the first target region
//   devices=N bytes=B reps=R
//   pair=i,j gbps=X ok=1      omp_target_memcpy device i -> device j (i==j:
//                             copy inside device i), after one warm-up copy
//   allpairs threads=N aggregate_gbps=X        thread k: device k -> (k+1)%N
//   allpairs thread=k pair=k,(k+1)%N gbps=X
// Knobs: MG_SMOKE=1 (1 MiB, 1 rep), MG_BYTES, MG_REPS (default 1 GiB, 5).
// With no device: prints a skip line and exits 0.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t env_size(const char *name, size_t def) {
  const char *v = getenv(name);
  return v && *v ? (size_t)strtoull(v, NULL, 0) : def;
}

static uint32_t pattern(int dev, size_t i) { return (uint32_t)i ^ ((uint32_t)(dev + 1) << 24); }

static void fill(uint32_t *p, size_t words, int dev) {
  uint32_t tag = (uint32_t)(dev + 1) << 24;
#pragma omp target teams distribute parallel for is_device_ptr(p) device(dev)
  for (size_t i = 0; i < words; i++) p[i] = (uint32_t)i ^ tag;
}

// Checks the first and last 64 words of dst (on device dst_dev) against the
// pattern of src_dev.
static int check(uint32_t *dst, int dst_dev, size_t words, int src_dev) {
  enum { K = 64 };
  uint32_t h[K];
  int host = omp_get_initial_device();
  size_t n = words < K ? words : K;
  size_t offs[2] = {0, words - n};
  for (int s = 0; s < 2; s++) {
    if (omp_target_memcpy(h, dst, n * 4, 0, offs[s] * 4, host, dst_dev)) return 0;
    for (size_t i = 0; i < n; i++)
      if (h[i] != pattern(src_dev, offs[s] + i)) return 0;
  }
  return 1;
}

int main(void) {
  double t0 = now_s();
  int first = 0;
#pragma omp target device(0) map(from : first)
  { first = 1; }
  double t1 = now_s();
  printf("startup_ms=%.1f first_region_ran=%d\n", (t1 - t0) * 1e3, first);

  int n = omp_get_num_devices();
  int smoke = getenv("MG_SMOKE") && atoi(getenv("MG_SMOKE"));
  size_t bytes = env_size("MG_BYTES", smoke ? (1u << 20) : (1u << 30));
  int reps = (int)env_size("MG_REPS", smoke ? 1 : 5);
  bytes &= ~(size_t)3;
  if (n < 1) {
    printf("peer_matrix: skip: no offload device (omp_get_num_devices()=0)\n");
    return 0;
  }
  printf("devices=%d bytes=%zu reps=%d\n", n, bytes, reps);
  fflush(stdout);
  size_t words = bytes / 4;
  uint32_t **a = calloc(n, sizeof *a), **b = calloc(n, sizeof *b);
  for (int d = 0; d < n; d++) {
    a[d] = omp_target_alloc(bytes, d);
    b[d] = omp_target_alloc(bytes, d);
    if (!a[d] || !b[d]) {
      printf("error: omp_target_alloc of %zu bytes on device %d failed\n", bytes, d);
      return 1;
    }
    fill(a[d], words, d);
  }
  int failures = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      int rc = omp_target_memcpy(b[j], a[i], bytes, 0, 0, j, i);  // warm-up
      double s = now_s();
      for (int r = 0; r < reps && rc == 0; r++) rc = omp_target_memcpy(b[j], a[i], bytes, 0, 0, j, i);
      double e = now_s();
      int ok = rc == 0 && check(b[j], j, words, i);
      failures += !ok;
      printf("pair=%d,%d gbps=%.2f ok=%d\n", i, j, (double)bytes * reps / (e - s) / 1e9, ok);
      fflush(stdout);
    }
  }

  // All pairs at once: thread k copies device k -> device (k+1)%n.
  double *tg = calloc(n, sizeof *tg);
  int *tok = calloc(n, sizeof *tok);
  double ts = 0, te = 0;
#pragma omp parallel num_threads(n)
  {
    int k = omp_get_thread_num(), d = (k + 1) % n;
    int rc = omp_target_memcpy(b[d], a[k], bytes, 0, 0, d, k);  // warm-up
#pragma omp barrier
#pragma omp single
    ts = now_s();
    double s = now_s();
    for (int r = 0; r < reps && rc == 0; r++) rc = omp_target_memcpy(b[d], a[k], bytes, 0, 0, d, k);
    double e = now_s();
    tg[k] = (double)bytes * reps / (e - s) / 1e9;
    tok[k] = rc == 0;
#pragma omp barrier
#pragma omp single
    te = now_s();
  }
  int nthreads_ok = 0;
  for (int k = 0; k < n; k++) nthreads_ok += tok[k] && check(b[(k + 1) % n], (k + 1) % n, words, k);
  failures += nthreads_ok != n;
  printf("allpairs threads=%d aggregate_gbps=%.2f ok=%d\n", n, (double)bytes * reps * n / (te - ts) / 1e9,
         nthreads_ok == n);
  for (int k = 0; k < n; k++) printf("allpairs thread=%d pair=%d,%d gbps=%.2f\n", k, k, (k + 1) % n, tg[k]);
  for (int d = 0; d < n; d++) {
    omp_target_free(a[d], d);
    omp_target_free(b[d], d);
  }
  printf("peer_matrix: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
