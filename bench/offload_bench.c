// Host-device offloading micro-benchmark.
//
// Times the per-operation cost of a few offloading constructs on whatever
// libomptarget.so the dynamic loader picks (LD_LIBRARY_PATH decides: LLVM
// 14's or ours). Prints figures, asserts nothing about time; see
// bench/run_host_bench.sh for the side-by-side driver and
// docs/benchmarks.md for what each case means.
//
// Build: clang -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -O2 \
//          offload_bench.c -o offload_bench
//
// Output, one record per line, machine-readable (key=value, space separated):
//   lib kind=core path=/.../libomptarget.so
//   lib kind=plugin path=/.../libomptarget.rtl.x86_64.so
//   info ...
//   case=NAME ns_per_op=MEDIAN min_ns=MIN max_ns=MAX iters=N batches=B
// Lines that do not start with "case=" are informational.
//
// Environment knobs (all optional):
//   BENCH_BATCHES   batches per case, median reported   (default 7)
//   BENCH_BATCH_MS  target duration of one batch, in ms  (default 60)
//   BENCH_CASES     comma-separated subset of case names (default all)
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

enum { NUM_LIVE = 10000, NUM_FRESH = 64, ARRAY_DOUBLES = 64, VEC_N = 256 };

static int g_batches = 7;
static double g_batch_ms = 60.0;
static const char *g_cases = NULL;

static int case_enabled(const char *name) {
  if (!g_cases || !*g_cases)
    return 1;
  size_t len = strlen(name);
  for (const char *p = g_cases; *p;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && strncmp(p, name, n) == 0)
      return 1;
    if (!end)
      break;
    p = end + 1;
  }
  return 0;
}

// A case is a function that performs `iters` operations. Cases that need a
// matching undo step (enter data then exit data) use `pair`.
typedef void (*op_fn)(long iters);

static void report(const char *name, double *per_op, int n, long iters) {
  qsort(per_op, (size_t)n, sizeof(double), cmp_double);
  double med = (n % 2) ? per_op[n / 2] : 0.5 * (per_op[n / 2 - 1] + per_op[n / 2]);
  printf("case=%s ns_per_op=%.1f min_ns=%.1f max_ns=%.1f iters=%ld batches=%d\n", name, med,
         per_op[0], per_op[n - 1], iters, n);
  fflush(stdout);
}

// Runs `fn` for about 20% of a batch duration as warm-up while estimating the
// cost of one operation, then picks the iteration count of a batch.
static long calibrate(op_fn fn, op_fn undo) {
  long iters = 16;
  double target = g_batch_ms * 1e6 * 0.2;
  for (;;) {
    double t0 = now_ns();
    fn(iters);
    double dt = now_ns() - t0;
    if (undo)
      undo(iters);
    if (dt >= target || iters >= (1L << 30)) {
      double per = dt / (double)iters;
      long n = (long)(g_batch_ms * 1e6 / (per > 1.0 ? per : 1.0));
      return n < 16 ? 16 : n;
    }
    iters *= 2;
  }
}

// Times a self-contained operation (no undo needed).
static void run_case(const char *name, op_fn fn) {
  if (!case_enabled(name))
    return;
  long iters = calibrate(fn, NULL);
  double per_op[64];
  int n = g_batches;
  for (int b = 0; b < n; ++b) {
    double t0 = now_ns();
    fn(iters);
    per_op[b] = (now_ns() - t0) / (double)iters;
  }
  report(name, per_op, n, iters);
}

// Times `fn` and `undo` separately: each batch runs fn(iters) then
// undo(iters); both are reported (enter data then exit data on the same
// arrays, so the state after a batch equals the state before it).
static void run_split_case(const char *name_fn, const char *name_undo, op_fn fn, op_fn undo) {
  if (!case_enabled(name_fn) && !case_enabled(name_undo))
    return;
  long iters = calibrate(fn, undo);
  double per_fn[64], per_undo[64];
  int n = g_batches;
  for (int b = 0; b < n; ++b) {
    double t0 = now_ns();
    fn(iters);
    double t1 = now_ns();
    undo(iters);
    double t2 = now_ns();
    per_fn[b] = (t1 - t0) / (double)iters;
    per_undo[b] = (t2 - t1) / (double)iters;
  }
  if (case_enabled(name_fn))
    report(name_fn, per_fn, n, iters);
  if (case_enabled(name_undo))
    report(name_undo, per_undo, n, iters);
}

// ---------------------------------------------------------------------------
// (a) empty target region, one int mapped tofrom.
static volatile int g_sink;

static void op_empty_target(long iters) {
  int x = 0;
  for (long i = 0; i < iters; ++i) {
#pragma omp target map(tofrom : x)
    {
    }
  }
  g_sink = x;
}

// ---------------------------------------------------------------------------
// (b) teams distribute parallel for over 256 floats.
static float va[VEC_N], vb[VEC_N], vc[VEC_N];

static void op_vector_add(long iters) {
  for (long it = 0; it < iters; ++it) {
#pragma omp target teams distribute parallel for map(to : va, vb) map(from : vc)
    for (int i = 0; i < VEC_N; ++i)
      vc[i] = va[i] + vb[i];
  }
}

// ---------------------------------------------------------------------------
// (d) a construct with three maps and a kernel: map(to: a[0:n], b[0:n])
// map(from: c[0:n]) over 256 floats that are not mapped before: 3 allocations,
// 2 H2D copies, the launch, 1 D2H copy, 3 releases — one construct.
static float *g_da, *g_db, *g_dc;

static void op_three_maps(long iters) {
  float *a = g_da, *b = g_db, *c = g_dc;
  for (long it = 0; it < iters; ++it) {
#pragma omp target map(to : a[0:VEC_N], b[0:VEC_N]) map(from : c[0:VEC_N])
    for (int i = 0; i < VEC_N; ++i)
      c[i] = a[i] + b[i];
  }
}

// ---------------------------------------------------------------------------
// (e) throughput of concurrent nowait regions sharing read-only data: batches
// of NOWAIT_BATCH `target nowait` regions, each with map(to:) of the same
// 1 MiB array, reading a strided sample of it, then taskwait. One op is one
// region.
//   e_nowait64_mapped_1mib: the array is mapped (enter data) around the case,
//     so each region only finds it (refcount up/down): the runtime's
//     per-region cost under concurrency;
//   e_nowait64_fresh_1mib: nothing mapped between batches: the first region
//     of a batch to map the array allocates and copies it, the others reuse
//     the entry (waiting on its event while the copy is in flight), the last
//     one frees it.
enum { NOWAIT_BATCH = 64, SHARED_N = (1 << 20) / (int)sizeof(float), SAMPLE_STRIDE = 256 };
static float *g_shared;
static float g_nowait_out[NOWAIT_BATCH];

static void nowait_batch(int n) {
  float *x = g_shared;
  float *out = g_nowait_out;
  for (int k = 0; k < n; ++k) {
#pragma omp target map(to : x[0:SHARED_N]) map(from : out[k:1]) depend(in : x[0]) nowait
    {
      float s = 0.0f;
      for (int i = k % SAMPLE_STRIDE; i < SHARED_N; i += SAMPLE_STRIDE)
        s += x[i];
      out[k] = s;
    }
  }
#pragma omp taskwait
}

// (f) a dependent chain of `nowait` teams regions:
//   f_nowait_chain_teams: `target teams distribute parallel for nowait
//     depend(inout: x[0])` on a mapped 256-int array, CHAIN_LENGTH regions
//     in a chain, then taskwait; one op is one region. Each region waits for
//     the one before it, so this is the latency of one region through the
//     task machinery (libomp's dependences, the hidden helper threads) and
//     the device; as the GPU benchmark's f_nowait_chain_10k.
enum { CHAIN_LENGTH = 64 };
static int g_chain[VEC_N];

static void nowait_chain(int n) {
  int *x = g_chain;
  for (int r = 0; r < n; ++r) {
#pragma omp target teams distribute parallel for nowait depend(inout : x[0]) map(tofrom : x[0:VEC_N])
    for (int i = 0; i < VEC_N; ++i)
      x[i] += 1;
  }
#pragma omp taskwait
}

static void op_nowait_chain(long iters) {
  for (long done = 0; done < iters; done += CHAIN_LENGTH)
    nowait_chain(iters - done < CHAIN_LENGTH ? (int)(iters - done) : CHAIN_LENGTH);
}

static void op_nowait_shared(long iters) {
  for (long done = 0; done < iters; done += NOWAIT_BATCH)
    nowait_batch(iters - done < NOWAIT_BATCH ? (int)(iters - done) : NOWAIT_BATCH);
}

static int check_nowait_batch(void) {
  for (int k = 0; k < NOWAIT_BATCH; ++k)
    g_nowait_out[k] = -1.0f;
  nowait_batch(NOWAIT_BATCH);
  for (int k = 0; k < NOWAIT_BATCH; ++k) {
    float want = 0.0f;
    for (int i = k % SAMPLE_STRIDE; i < SHARED_N; i += SAMPLE_STRIDE)
      want += g_shared[i];
    if (g_nowait_out[k] != want) {
      printf("error: nowait region %d read %f, expected %f\n", k, (double)g_nowait_out[k],
             (double)want);
      return 0;
    }
  }
  return 1;
}

// ---------------------------------------------------------------------------
// (c) enter/exit data with 10,000 distinct arrays mapped.
static double **g_live;  // NUM_LIVE arrays, mapped during the (c) cases
static double **g_fresh; // NUM_FRESH arrays, never mapped outside an op
static int *g_order;     // a shuffled visiting order of the live arrays
static long g_cursor_enter, g_cursor_exit;

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint64_t rng_next(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

// Enter data of an already-mapped array: lookup among 10k entries + refcount++.
static void op_enter_mapped(long iters) {
  long k = g_cursor_enter;
  for (long i = 0; i < iters; ++i) {
    double *p = g_live[g_order[k]];
#pragma omp target enter data map(to : p[0:ARRAY_DOUBLES])
    if (++k == NUM_LIVE)
      k = 0;
  }
  g_cursor_enter = k;
}

// Exit data of an array mapped more than once: lookup + refcount--.
// Visits the arrays in the same order as op_enter_mapped, so after
// enter(n); exit(n) every refcount is back to 1.
static void op_exit_mapped(long iters) {
  long k = g_cursor_exit;
  for (long i = 0; i < iters; ++i) {
    double *p = g_live[g_order[k]];
#pragma omp target exit data map(release : p[0:ARRAY_DOUBLES])
    if (++k == NUM_LIVE)
      k = 0;
  }
  g_cursor_exit = k;
}

// One enter data (refcount 1->2) immediately followed by one exit data (2->1)
// of the same already-mapped array.
static void op_enter_exit_mapped(long iters) {
  long k = g_cursor_enter;
  for (long i = 0; i < iters; ++i) {
    double *p = g_live[g_order[k]];
#pragma omp target enter data map(to : p[0:ARRAY_DOUBLES])
#pragma omp target exit data map(release : p[0:ARRAY_DOUBLES])
    if (++k == NUM_LIVE)
      k = 0;
  }
  g_cursor_enter = g_cursor_exit = k;
}

// Maps a not-yet-mapped array while 10k are live (new entry: device alloc,
// copy in, insert) then unmaps it (refcount 1->0: remove, device free).
static void op_fresh_map_unmap(long iters) {
  int k = 0;
  for (long i = 0; i < iters; ++i) {
    double *p = g_fresh[k];
#pragma omp target enter data map(to : p[0:ARRAY_DOUBLES])
#pragma omp target exit data map(release : p[0:ARRAY_DOUBLES])
    if (++k == NUM_FRESH)
      k = 0;
  }
}

static void setup_live_arrays(void) {
  // Allocate all arrays first, then pick the fresh ones at random among them,
  // so the fresh arrays' addresses fall between live ones (inserts land
  // anywhere in the mapping table, not only at its end).
  enum { TOTAL = NUM_LIVE + NUM_FRESH };
  double **all = malloc(sizeof(double *) * TOTAL);
  int *perm = malloc(sizeof(int) * TOTAL);
  for (int i = 0; i < TOTAL; ++i) {
    all[i] = malloc(sizeof(double) * ARRAY_DOUBLES);
    for (int j = 0; j < ARRAY_DOUBLES; ++j)
      all[i][j] = i + j;
    perm[i] = i;
  }
  for (int i = TOTAL - 1; i > 0; --i) {
    int j = (int)(rng_next() % (uint64_t)(i + 1));
    int t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  g_fresh = malloc(sizeof(double *) * NUM_FRESH);
  g_live = malloc(sizeof(double *) * NUM_LIVE);
  for (int i = 0; i < NUM_FRESH; ++i)
    g_fresh[i] = all[perm[i]];
  // Live arrays in address (allocation) order; g_order visits them shuffled.
  int n = 0;
  for (int i = 0; i < TOTAL; ++i) {
    int is_fresh = 0;
    for (int f = 0; f < NUM_FRESH && !is_fresh; ++f)
      is_fresh = (perm[f] == i);
    if (!is_fresh)
      g_live[n++] = all[i];
  }
  g_order = malloc(sizeof(int) * NUM_LIVE);
  for (int i = 0; i < NUM_LIVE; ++i)
    g_order[i] = i;
  for (int i = NUM_LIVE - 1; i > 0; --i) {
    int j = (int)(rng_next() % (uint64_t)(i + 1));
    int t = g_order[i];
    g_order[i] = g_order[j];
    g_order[j] = t;
  }
  free(perm);
  free(all);
}

// ---------------------------------------------------------------------------
int main(void) {
  const char *s;
  if ((s = getenv("BENCH_BATCHES")) && atoi(s) > 0)
    g_batches = atoi(s) > 64 ? 64 : atoi(s);
  if ((s = getenv("BENCH_BATCH_MS")) && atof(s) > 0)
    g_batch_ms = atof(s);
  g_cases = getenv("BENCH_CASES");

  for (int i = 0; i < VEC_N; ++i) {
    va[i] = (float)i;
    vb[i] = 2.0f * (float)i;
  }

  // First offload: initializes the device and registers the image, so that
  // none of it lands in a timed batch; then report who we run on.
  int nteams = -1, nthreads = -1, initial = -1;
#pragma omp target teams map(from : nteams, nthreads, initial)
  {
#pragma omp parallel
    {
      if (omp_get_team_num() == 0 && omp_get_thread_num() == 0) {
        nteams = omp_get_num_teams();
        nthreads = omp_get_num_threads();
        initial = omp_is_initial_device();
      }
    }
  }
  print_loaded_libraries();
  printf("info devices=%d default_device=%d teams=%d threads_per_team=%d "
         "region_on_initial_device=%d OMP_NUM_THREADS=%s batches=%d batch_ms=%.0f\n",
         omp_get_num_devices(), omp_get_default_device(), nteams, nthreads, initial,
         getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "unset", g_batches, g_batch_ms);
  fflush(stdout);

  // Sanity (not timing): the vector add computes what it should.
  op_vector_add(1);
  for (int i = 0; i < VEC_N; ++i)
    if (vc[i] != va[i] + vb[i]) {
      printf("error: vector add wrong at %d: %f\n", i, (double)vc[i]);
      return 1;
    }

  run_case("a_empty_target", op_empty_target);
  run_case("b_vector_add_256", op_vector_add);

  if (case_enabled("d_three_maps_kernel_256")) {
    g_da = malloc(sizeof(float) * VEC_N);
    g_db = malloc(sizeof(float) * VEC_N);
    g_dc = malloc(sizeof(float) * VEC_N);
    for (int i = 0; i < VEC_N; ++i) {
      g_da[i] = (float)i;
      g_db[i] = 3.0f * (float)i;
    }
    op_three_maps(1);
    for (int i = 0; i < VEC_N; ++i)
      if (g_dc[i] != 4.0f * (float)i) {
        printf("error: three-map region wrong at %d: %f\n", i, (double)g_dc[i]);
        return 1;
      }
    run_case("d_three_maps_kernel_256", op_three_maps);
  }

  if (case_enabled("e_nowait64_mapped_1mib") || case_enabled("e_nowait64_fresh_1mib")) {
    g_shared = malloc(sizeof(float) * SHARED_N);
    for (int i = 0; i < SHARED_N; ++i)
      g_shared[i] = (float)(i % 1000);
    float *x = g_shared;
    if (case_enabled("e_nowait64_mapped_1mib")) {
#pragma omp target enter data map(to : x[0:SHARED_N])
      if (!check_nowait_batch())
        return 1;
      run_case("e_nowait64_mapped_1mib", op_nowait_shared);
#pragma omp target exit data map(release : x[0:SHARED_N])
    }
    if (case_enabled("e_nowait64_fresh_1mib")) {
      if (!check_nowait_batch())
        return 1;
      run_case("e_nowait64_fresh_1mib", op_nowait_shared);
      // Sanity after the timed batches too (the race this case exercises).
      if (!check_nowait_batch())
        return 1;
    }
  }

  if (case_enabled("f_nowait_chain_teams")) {
    int *x = g_chain;
#pragma omp target enter data map(to : x[0:VEC_N])
    nowait_chain(CHAIN_LENGTH);
#pragma omp target exit data map(from : x[0:VEC_N])
    int bad = -1;
    for (int i = 0; i < VEC_N && bad < 0; ++i)
      if (g_chain[i] != CHAIN_LENGTH)
        bad = i;
    if (bad >= 0) {
      // A wrong answer is reported as the case's figure (the driver shows
      // it as such); the other cases still run.
      printf("case=f_nowait_chain_teams error=wrong-result(x[%d]=%d,expected=%d)\n", bad, g_chain[bad],
             CHAIN_LENGTH);
    } else {
#pragma omp target enter data map(to : x[0:VEC_N])
      run_case("f_nowait_chain_teams", op_nowait_chain);
#pragma omp target exit data map(release : x[0:VEC_N])
    }
  }

  int want_c = case_enabled("c_setup_enter_10k") || case_enabled("c_enter_mapped_10k") ||
               case_enabled("c_exit_mapped_10k") || case_enabled("c_enter_exit_mapped_10k") ||
               case_enabled("c_fresh_map_unmap_10k");
  if (want_c) {
    setup_live_arrays();
    // Map all 10k (each a new entry): timed once, informational.
    double t0 = now_ns();
    for (int i = 0; i < NUM_LIVE; ++i) {
      double *p = g_live[i];
#pragma omp target enter data map(to : p[0:ARRAY_DOUBLES])
    }
    double dt = now_ns() - t0;
    if (case_enabled("c_setup_enter_10k"))
      printf("case=c_setup_enter_10k ns_per_op=%.1f min_ns=%.1f max_ns=%.1f iters=%d batches=1\n",
             dt / NUM_LIVE, dt / NUM_LIVE, dt / NUM_LIVE, NUM_LIVE);

    run_split_case("c_enter_mapped_10k", "c_exit_mapped_10k", op_enter_mapped, op_exit_mapped);
    run_case("c_enter_exit_mapped_10k", op_enter_exit_mapped);
    run_case("c_fresh_map_unmap_10k", op_fresh_map_unmap);

    // Sanity: the device copies are still there (refcounts balanced).
    int present = 0;
    for (int i = 0; i < NUM_LIVE; ++i)
      present += omp_target_is_present(g_live[i], omp_get_default_device());
    int fresh_present = 0;
    for (int i = 0; i < NUM_FRESH; ++i)
      fresh_present += omp_target_is_present(g_fresh[i], omp_get_default_device());
    printf("info live_mapped=%d/%d fresh_mapped=%d/%d\n", present, NUM_LIVE, fresh_present,
           NUM_FRESH);
    for (int i = 0; i < NUM_LIVE; ++i) {
      double *p = g_live[i];
#pragma omp target exit data map(release : p[0:ARRAY_DOUBLES])
    }
    if (present != NUM_LIVE || fresh_present != 0) {
      printf("error: mapping table in an unexpected state\n");
      return 1;
    }
  }
  printf("done\n");
  return 0;
}
