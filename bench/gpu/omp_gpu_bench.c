// GPU offloading benchmark, OpenMP side.
//
// Built by clang 14 for nvptx64-nvidia-cuda (sm_90 through
// tools/omptarget-sm90-path; see bench/gpu/run_gpu_bench.sh) and run on
// whatever libomptarget.so the dynamic loader picks (LD_LIBRARY_PATH decides:
// ours, or LLVM 14's core with LLVM 14's CUDA plugin). The same operations,
// written against the CUDA driver API, are in raw_cuda_bench.cu; the case
// names are shared so that the driver can pair the figures.
//
// Usage: omp_gpu_bench CASE [CASE...]   (or `all`)
//   a_small_region     target teams distribute parallel for, map(to: a[0:256],
//                      b[0:256]) map(from: c[0:256]) floats on the heap    us/op
//   b_empty_region     #pragma omp target, nothing mapped, empty body       us/op
//   c_memcpy_d2d_1g    omp_target_memcpy 1 GiB, device 0 -> device 0        GB/s
//   c_memcpy_peer_1g   omp_target_memcpy 1 GiB, device 0 -> device 1        GB/s
//   d_update_to_1g     target update to(p[0:n]), 1 GiB pageable host        GB/s
//   d_update_from_1g   target update from(p[0:n]), 1 GiB pageable host      GB/s
//                      (the two d cases are one run: `d` or either name)
//   e_triad            a[i] = b[i] + s*c[i], 2^28 doubles, target teams
//                      distribute parallel for, no num_teams/thread_limit   TB/s
//   f_nowait_chain_10k 10,000 target teams distribute parallel for nowait
//                      depend(inout: x[0]) in a chain, taskwait at the end  regions/s
//
// Output (one record a line, key=value):
//   lib kind=core_symbol|core|plugin|openmp|cuda ...  (see ../bench_common.h)
//   info ...
//   case=NAME value=V unit=U [min=.. max=.. reps=..]   (median of reps; for
//        time units min is the best, for rates max is the best)
//   case=NAME error=WHY        (and a non-zero exit status)
//   case=NAME skipped=WHY
//
// Environment:
//   GPU_BENCH_SMOKE=1   tiny sizes, host fallback allowed (a check that the
//                       binary starts and runs without a GPU; figures are
//                       meaningless then)
//   GPU_BENCH_BATCH_MS  target duration of one batch of the latency cases (40)
//   GPU_BENCH_REPS      repetitions of the bandwidth cases (default per case)
//   GPU_BENCH_TRIAD_LOG2 log2 of the triad's element count (28)
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench_common.h"

enum { VEC_N = 256, MAX_REPS = 256 };

static int g_smoke = 0;
static double g_batch_ms = 40.0;
static int g_reps_override = 0;
static int g_dev = 0;           // device used by the cases
static int g_num_devices = 0;

// Prints a case line from per-rep values; `lower_is_better` picks which end
// is the best one (min for times, max for rates).
static void report(const char *name, double *v, int n, const char *unit, const char *extra) {
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  double med = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  printf("case=%s value=%.6g unit=%s min=%.6g max=%.6g reps=%d%s%s\n", name, med, unit, v[0], v[n - 1], n,
         extra ? " " : "", extra ? extra : "");
  fflush(stdout);
}

static int fail(const char *name, const char *why) {
  printf("case=%s error=%s\n", name, why);
  fflush(stdout);
  return 1;
}

static int reps_or(int dflt) {
  int r = g_reps_override > 0 ? g_reps_override : dflt;
  return r > MAX_REPS ? MAX_REPS : r;
}

// ------------------------------------------------------------- latency ----
typedef void (*op_fn)(void *);

// Warm-up (~20% of a batch, also calibrates N), then 7 batches of N ops.
static void time_latency(const char *name, op_fn op, void *arg) {
  for (int i = 0; i < 20; ++i) op(arg);
  double t0 = now_ns();
  long n = 0;
  while (now_ns() - t0 < 0.2 * g_batch_ms * 1e6) {
    op(arg);
    ++n;
  }
  double per = (now_ns() - t0) / (double)n;
  long iters = (long)(g_batch_ms * 1e6 / per);
  if (iters < 10) iters = 10;
  if (g_smoke && iters > 1000) iters = 1000;
  double v[7];
  for (int b = 0; b < 7; ++b) {
    double s = now_ns();
    for (long i = 0; i < iters; ++i) op(arg);
    v[b] = (now_ns() - s) / (double)iters / 1e3;
  }
  char extra[64];
  snprintf(extra, sizeof extra, "iters=%ld", iters);
  report(name, v, 7, "us", extra);
}

struct vec_args {
  float *a, *b, *c;
};

static void op_small_region(void *p) {
  struct vec_args *v = p;
  float *a = v->a, *b = v->b, *c = v->c;
#pragma omp target teams distribute parallel for map(to : a[0:256], b[0:256]) map(from : c[0:256]) device(g_dev)
  for (int i = 0; i < VEC_N; ++i)
    c[i] = a[i] + b[i];
}

static void op_empty_region(void *p) {
  (void)p;
#pragma omp target device(g_dev)
  {
  }
}

static int case_a(void) {
  const char *name = "a_small_region";
  struct vec_args v = {malloc(VEC_N * sizeof(float)), malloc(VEC_N * sizeof(float)),
                       malloc(VEC_N * sizeof(float))};
  for (int i = 0; i < VEC_N; ++i) {
    v.a[i] = (float)i;
    v.b[i] = 0.5f * (float)(i % 17);
    v.c[i] = -1.0f;
  }
  op_small_region(&v);
  for (int i = 0; i < VEC_N; ++i)
    if (v.c[i] != v.a[i] + v.b[i]) return fail(name, "wrong-result");
  time_latency(name, op_small_region, &v);
  for (int i = 0; i < VEC_N; ++i)
    if (v.c[i] != v.a[i] + v.b[i]) return fail(name, "wrong-result-after");
  free(v.a), free(v.b), free(v.c);
  return 0;
}

static int case_b(void) {
  time_latency("b_empty_region", op_empty_region, NULL);
  return 0;
}

// ---------------------------------------------------------------- copies ----
static size_t big_bytes(void) { return g_smoke ? (size_t)1 << 20 : (size_t)1 << 30; }

static void fill_device(float *p, size_t n, int dev) {
#pragma omp target teams distribute parallel for is_device_ptr(p) device(dev)
  for (size_t i = 0; i < n; ++i)
    p[i] = (float)(i & 4095);
}

// Reads back a few elements of a device buffer and checks the pattern.
static int check_device(float *p, size_t n, int dev) {
  size_t at[3] = {0, n / 2 + 3, n - 1};
  for (int k = 0; k < 3; ++k) {
    float x = -1.0f;
    if (omp_target_memcpy(&x, p, sizeof x, 0, at[k] * sizeof x, omp_get_initial_device(), dev)) return 0;
    if (x != (float)(at[k] & 4095)) return 0;
  }
  return 1;
}

static int case_c(int peer) {
  const char *name = peer ? "c_memcpy_peer_1g" : "c_memcpy_d2d_1g";
  int src_dev = g_dev, dst_dev = g_dev;
  if (peer) {
    if (g_num_devices < 2) {
      printf("case=%s skipped=fewer-than-2-devices\n", name);
      return 0;
    }
    dst_dev = 1;
  }
  size_t bytes = big_bytes(), n = bytes / sizeof(float);
  float *src = omp_target_alloc(bytes, src_dev);
  float *dst = omp_target_alloc(bytes, dst_dev);
  if (!src || !dst) return fail(name, "omp_target_alloc-failed");
  fill_device(src, n, src_dev);
  int reps = reps_or(g_smoke ? 3 : 20);
  double v[MAX_REPS];
  for (int r = -2; r < reps; ++r) { // two warm-ups (peer access, first use)
    double t0 = now_ns();
    if (omp_target_memcpy(dst, src, bytes, 0, 0, dst_dev, src_dev)) return fail(name, "omp_target_memcpy-failed");
    double t = now_ns() - t0;
    if (r >= 0) v[r] = (double)bytes / t; // bytes/ns = GB/s
  }
  if (!check_device(dst, n, dst_dev)) return fail(name, "wrong-result");
  omp_target_free(src, src_dev);
  omp_target_free(dst, dst_dev);
  report(name, v, reps, "GB/s", "bytes_counted=copied-once");
  return 0;
}

static int case_d(void) {
  size_t bytes = big_bytes(), n = bytes / sizeof(float);
  float *p = malloc(bytes);
  if (!p) return fail("d_update_to_1g", "malloc-failed");
  for (size_t i = 0; i < n; ++i) p[i] = (float)(i & 4095); // pages resident before timing
#pragma omp target enter data map(alloc : p[0:n]) device(g_dev)
  int reps = reps_or(g_smoke ? 3 : 5);
  double to[MAX_REPS], from[MAX_REPS];
  for (int r = -1; r < reps; ++r) {
    double t0 = now_ns();
#pragma omp target update to(p[0:n]) device(g_dev)
    double t1 = now_ns();
#pragma omp target update from(p[0:n]) device(g_dev)
    double t2 = now_ns();
    if (r >= 0) {
      to[r] = (double)bytes / (t1 - t0);
      from[r] = (double)bytes / (t2 - t1);
    }
  }
  if (g_num_devices > 0) { // on the host fallback p is its own "device" copy
    memset(p, 0, bytes);
#pragma omp target update from(p[0:n]) device(g_dev)
    for (size_t i = 0; i < n; i += 4097)
      if (p[i] != (float)(i & 4095)) return fail("d_update_to_1g", "wrong-result");
  }
#pragma omp target exit data map(delete : p[0:n]) device(g_dev)
  free(p);
  report("d_update_to_1g", to, reps, "GB/s", "host=pageable");
  report("d_update_from_1g", from, reps, "GB/s", "host=pageable");
  return 0;
}

// ----------------------------------------------------------------- triad ----
static void triad(double *a, const double *b, const double *c, double s, long n) {
#pragma omp target teams distribute parallel for device(g_dev)
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

static int case_e(void) {
  const char *name = "e_triad";
  int lg = g_smoke ? 16 : 28;
  const char *env = getenv("GPU_BENCH_TRIAD_LOG2");
  if (env && atoi(env) >= 10 && atoi(env) <= 31) lg = atoi(env);
  long n = 1L << lg;
  // Host arrays are never touched outside the checked slices: the data are
  // created on the device (map(alloc:) + an initialization kernel).
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)), *c = malloc(n * sizeof(double));
  if (!a || !b || !c) return fail(name, "malloc-failed");
#pragma omp target enter data map(alloc : a[0:n], b[0:n], c[0:n]) device(g_dev)
#pragma omp target teams distribute parallel for device(g_dev)
  for (long i = 0; i < n; ++i) {
    a[i] = -1.0;
    b[i] = 1.0 + (double)(i % 7) * 0.5;
    c[i] = 2.0 - (double)(i % 5) * 0.25;
  }
  const double s = 3.0;
  int reps = reps_or(g_smoke ? 3 : 100);
  double v[MAX_REPS];
  for (int r = -5; r < reps; ++r) {
    double t0 = now_ns();
    triad(a, b, c, s, n);
    double t = now_ns() - t0;
    if (r >= 0) v[r] = 3.0 * sizeof(double) * (double)n / t / 1e3; // bytes/ns/1e3 = TB/s
  }
  long at[3] = {0, n / 2 + 1, n - 1024};
  for (int k = 0; k < 3; ++k) {
    long o = at[k];
#pragma omp target update from(a[o:1024]) device(g_dev)
    for (long i = o; i < o + 1024; ++i) {
      double want = (1.0 + (double)(i % 7) * 0.5) + s * (2.0 - (double)(i % 5) * 0.25);
      if (a[i] != want) return fail(name, "wrong-result");
    }
  }
#pragma omp target exit data map(delete : a[0:n], b[0:n], c[0:n]) device(g_dev)
  free(a), free(b), free(c);
  char extra[96];
  const char *bpsm = getenv("OMPTARGET_CUDA_BLOCKS_PER_SM");
  snprintf(extra, sizeof extra, "n=%ld blocks_per_sm_env=%s", n, bpsm && *bpsm ? bpsm : "unset");
  report(name, v, reps, "TB/s", extra);
  return 0;
}

// ---------------------------------------------------------- nowait chain ----
static void chain(float *x, int count) {
  for (int k = 0; k < count; ++k) {
#pragma omp target teams distribute parallel for nowait depend(inout : x[0]) map(tofrom : x[0:256]) device(g_dev)
    for (int i = 0; i < VEC_N; ++i)
      x[i] += 1.0f;
  }
#pragma omp taskwait
}

static int case_f(void) {
  const char *name = "f_nowait_chain_10k";
  const int count = g_smoke ? 200 : 10000, warm = g_smoke ? 20 : 200;
  float *x = malloc(VEC_N * sizeof(float));
  for (int i = 0; i < VEC_N; ++i) x[i] = (float)i;
#pragma omp target enter data map(to : x[0:256]) device(g_dev)
  chain(x, warm);
  int reps = reps_or(3);
  double v[MAX_REPS], start = now_ns();
  for (int r = 0; r < reps; ++r) {
    double t0 = now_ns();
    chain(x, count);
    v[r] = (double)count / ((now_ns() - t0) / 1e9);
    if (now_ns() - start > 20e9) reps = r + 1; // slow runtime: keep the run short
  }
#pragma omp target exit data map(from : x[0:256]) device(g_dev)
  // Not checked on the host fallback: clang 14's host fallback of a `nowait`
  // target region with no device does not run the region (seen with LLVM 14's
  // runtime and ours alike), so x keeps its value there.
  for (int i = 0; i < VEC_N && g_num_devices > 0; ++i)
    if (x[i] != (float)i + (float)(warm + reps * count)) {
      printf("info f x[%d]=%g want %g\n", i, x[i], (float)i + (float)(warm + reps * count));
      return fail(name, "wrong-result");
    }
  free(x);
  char extra[32];
  snprintf(extra, sizeof extra, "regions=%d", count);
  report(name, v, reps, "regions/s", extra);
  return 0;
}

// ------------------------------------------------------------------ main ----
int main(int argc, char **argv) {
  const char *s;
  g_smoke = (s = getenv("GPU_BENCH_SMOKE")) && atoi(s) > 0;
  if ((s = getenv("GPU_BENCH_BATCH_MS")) && atof(s) > 0) g_batch_ms = atof(s);
  if (g_smoke) g_batch_ms = 5.0;
  if ((s = getenv("GPU_BENCH_REPS")) && atoi(s) > 0) g_reps_override = atoi(s);
  if (argc < 2) {
    fprintf(stderr, "usage: %s CASE... | all\n", argv[0]);
    return 2;
  }

  g_num_devices = omp_get_num_devices();
  int on_host = 1;
  if (g_num_devices > 0) {
#pragma omp target map(from : on_host) device(0)
    on_host = omp_is_initial_device();
  }
  print_loaded_libraries(); // after the first offload: the plugins are loaded
  printf("info devices=%d first_region_on_host=%d smoke=%d\n", g_num_devices, on_host, g_smoke);
  if (g_num_devices == 0 || on_host) {
    if (!g_smoke) {
      printf("case=all error=no-gpu-device(host-fallback)\n");
      return 1;
    }
    g_dev = omp_get_initial_device(); // smoke test: run everything on the host
    g_num_devices = 0;
  }

  int status = 0;
  for (int i = 1; i < argc; ++i) {
    const char *c = argv[i];
    int all = strcmp(c, "all") == 0;
    if (all || !strcmp(c, "a") || !strcmp(c, "a_small_region")) status |= case_a();
    if (all || !strcmp(c, "b") || !strcmp(c, "b_empty_region")) status |= case_b();
    if (all || !strcmp(c, "c_memcpy_d2d_1g")) status |= case_c(0);
    if (all || !strcmp(c, "c_memcpy_peer_1g")) status |= case_c(1);
    if (all || !strcmp(c, "d") || !strncmp(c, "d_update", 8)) status |= case_d();
    if (all || !strcmp(c, "e") || !strcmp(c, "e_triad")) status |= case_e();
    if (all || !strcmp(c, "f") || !strcmp(c, "f_nowait_chain_10k")) status |= case_f();
  }
  return status;
}
