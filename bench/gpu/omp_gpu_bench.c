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
//   f_nowait_4threads  omp parallel num_threads(4): each thread issues 25,000
//                      independent target teams distribute parallel for
//                      nowait regions on its own present array (atomic
//                      increments), then taskwait; regions of all threads  regions/s
//   Locked host memory (group `g` = g_bw g_lock g_overlap; the locked cases
//   need llvm_omp_target_lock_mem, else they print skipped=no-lock-api):
//   g_{h2d,d2h}_{4m,1g}_pageable  target update to/from(p[0:n]) of a mapped
//                      malloc buffer of 4 MiB / 1 GiB                      GB/s
//   g_{h2d,d2h}_{4m,1g}_locked    the same buffer locked with
//                      llvm_omp_target_lock_mem before it is mapped        GB/s
//                      (`g_bw`: all eight; a name runs its size's four)
//   g_lock_unlock_{4m,1g}  llvm_omp_target_lock_mem + llvm_omp_target_unlock_mem
//                      of a fresh malloc'd, touched buffer (`g_lock`)      ms
//   g_overlap_{locked,pageable}  256 MiB target update to(...) nowait and a
//                      compute-bound nowait kernel on a device buffer, alone
//                      and together (`g_overlap`): hidden fraction
//                      (t_copy + t_kernel - t_both) / min(t_copy, t_kernel)  frac
//   Device allocation (group `h` = h_alloc h_map):
//   h_alloc_free_{1k,64k,1m,256m}  omp_target_alloc(size, dev) + omp_target_free
//                      of the same size, memory not touched (`h_alloc`)    us/pair
//   h_map_loop_{1m,64m} target teams distribute parallel for map(to: a[0:n],
//                      b[0:n]) map(from: c[0:n]), three malloc arrays of 1 MiB
//                      / 64 MiB not mapped before: 3 device allocations, 2
//                      copies in, the kernel, 1 copy out, 3 frees per region
//                      (`h_map`)                                           us/op
//   h_map_tofrom_{1m,64m} the same region with map(tofrom: a[0:n], b[0:n],
//                      c[0:n]): 3 allocations, 3 copies in, the kernel, 3
//                      copies out, 3 frees per region (`h_map`)            us/op
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
//   GPU_BENCH_REPS      repetitions of the bandwidth, lock and overlap cases
//                       (default per case)
//   GPU_BENCH_TRIAD_LOG2 log2 of the triad's element count (28)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stddef.h>
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

// `warm` warm-ups, then ~20% of a batch (also calibrates N: a batch lasts
// g_batch_ms, with at least `min_iters` ops), then 7 batches of N ops; `extra`
// goes after iters= on the case line.
static void time_latency_ex(const char *name, op_fn op, void *arg, int warm, long min_iters, const char *extra) {
  for (int i = 0; i < warm; ++i) op(arg);
  double t0 = now_ns();
  long n = 0;
  while (now_ns() - t0 < 0.2 * g_batch_ms * 1e6) {
    op(arg);
    ++n;
  }
  double per = (now_ns() - t0) / (double)n;
  long iters = (long)(g_batch_ms * 1e6 / per);
  if (iters < min_iters) iters = min_iters;
  if (g_smoke && iters > 1000) iters = 1000;
  double v[7];
  for (int b = 0; b < 7; ++b) {
    double s = now_ns();
    for (long i = 0; i < iters; ++i) op(arg);
    v[b] = (now_ns() - s) / (double)iters / 1e3;
  }
  char fields[160];
  snprintf(fields, sizeof fields, "iters=%ld%s%s", iters, extra ? " " : "", extra ? extra : "");
  report(name, v, 7, "us", fields);
}

// The latency cases' timing: 20 warm-ups, at least 10 ops per batch.
static void time_latency(const char *name, op_fn op, void *arg) { time_latency_ex(name, op, arg, 20, 10, NULL); }

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

// ------------------------------------- independent nowait, 4 host threads ----
enum { F4_THREADS = 4 };

// `count` regions on x without dependences between them, then this thread's
// taskwait. They may run at the same time (on different streams), so the
// increment is atomic: x[i] gains exactly `count`.
static void independent_regions(float *x, int count) {
  for (int k = 0; k < count; ++k) {
#pragma omp target teams distribute parallel for nowait map(tofrom : x[0:256]) device(g_dev)
    for (int i = 0; i < VEC_N; ++i) {
#pragma omp atomic update
      x[i] += 1.0f;
    }
  }
#pragma omp taskwait
}

// The host fallback's stand-in (smoke only): plain synchronous target
// regions, no nowait, no teams. LLVM 14's libomp (both runtimes use it)
// aborts now and then when the host versions of these regions run in or for
// the threads of a parallel region: nowait `target teams` regions (run by its
// hidden helper threads) "Assertion failure at kmp_tasking.cpp(3812):
// task_team != __null" in about half the runs here, nowait `target` regions
// "kmp_tasking.cpp(3182): nthreads == this_thr->th.th_team->t.t_nproc", and
// synchronous `target teams` ones after case f "kmp_csupport.cpp(427):
// this_thr->th.th_set_nproc >= 1"; either core. With a device (our runtime
// on the fake CUDA driver, 50 runs) the real case did not abort.
static void host_fallback_regions(float *x, int count) {
  for (int k = 0; k < count; ++k) {
#pragma omp target map(tofrom : x[0:256]) device(g_dev)
    for (int i = 0; i < VEC_N; ++i)
      x[i] += 1.0f;
  }
}

// f_nowait_4threads: 4 host threads, each with its own array (mapped with
// enter data around the case, so every region finds it present), issue
// `count` independent nowait regions each and wait for their own. A rep is
// one parallel region (its threads exist and are warm: the warm-up ran in
// one), timed from before its fork to after its join, which follows every
// thread's taskwait; value = regions of all threads / time. (Barriers and
// singles inside one parallel region went wrong on the host fallback, where
// the regions' host versions fork teams from the team's threads.)
static int case_f4(void) {
  const char *name = "f_nowait_4threads";
  const int count = g_smoke ? 200 : 25000, warm = g_smoke ? 20 : 200;
  float *xs[F4_THREADS];
  for (int t = 0; t < F4_THREADS; ++t) {
    float *x = xs[t] = malloc(VEC_N * sizeof(float));
    if (!x) return fail(name, "malloc-failed");
    for (int i = 0; i < VEC_N; ++i) x[i] = (float)(1000 * t) + (float)i;
#pragma omp target enter data map(to : x[0:256]) device(g_dev)
  }
  void (*regions)(float *, int) = g_num_devices > 0 ? independent_regions : host_fallback_regions;
  int threads = 0;
#pragma omp parallel num_threads(F4_THREADS)
  {
    if (omp_get_thread_num() == 0) threads = omp_get_num_threads();
    regions(xs[omp_get_thread_num()], warm);
  }
  int reps = reps_or(3);
  double v[MAX_REPS], start = now_ns();
  for (int r = 0; r < reps; ++r) {
    double t0 = now_ns();
#pragma omp parallel num_threads(F4_THREADS)
    regions(xs[omp_get_thread_num()], count);
    double t = now_ns();
    v[r] = (double)threads * (double)count / ((t - t0) / 1e9);
    if (t - start > 20e9) reps = r + 1; // slow runtime: keep the run short
  }
  int status = 0;
  for (int t = 0; t < F4_THREADS; ++t) {
    float *x = xs[t];
#pragma omp target exit data map(from : x[0:256]) device(g_dev)
    // An array no thread took (fewer than 4 threads, e.g. OMP_THREAD_LIMIT)
    // keeps its values.
    float base = (float)(1000 * t), inc = t < threads ? (float)(warm + reps * count) : 0.0f;
    for (int i = 0; i < VEC_N && !status; ++i)
      if (x[i] != base + (float)i + inc) {
        printf("info f4 thread %d x[%d]=%g want %g\n", t, i, x[i], base + (float)i + inc);
        status = fail(name, "wrong-result");
      }
    free(x);
  }
  if (status) return status;
  char extra[96];
  snprintf(extra, sizeof extra, "threads=%d regions_per_thread=%d%s", threads, count,
           g_num_devices > 0 ? "" : " host_fallback=synchronous-regions");
  report(name, v, reps, "regions/s", extra);
  return 0;
}

// ---------------------------------------------------- locked host memory ----
// The lock API of later LLVM runtimes, which LLVM 14's libomptarget.so (the
// one clang links the program against) lacks: weak, so that the program
// links and runs on it; the addresses are null at run time when the loaded
// core does not define them. A non-PIE link resolves an undefined weak
// reference to 0 for good, so the loader is asked as well.
#pragma weak llvm_omp_target_lock_mem
#pragma weak llvm_omp_target_unlock_mem
void *llvm_omp_target_lock_mem(void *ptr, size_t size, int device_num);
void llvm_omp_target_unlock_mem(void *ptr, int device_num);

typedef void *(*lock_mem_fn)(void *, size_t, int);
typedef void (*unlock_mem_fn)(void *, int);
static lock_mem_fn g_lock_mem = NULL;     // both null, or both set
static unlock_mem_fn g_unlock_mem = NULL;

static void resolve_lock_api(void) {
  g_lock_mem = llvm_omp_target_lock_mem;
  g_unlock_mem = llvm_omp_target_unlock_mem;
  if (!g_lock_mem) g_lock_mem = (lock_mem_fn)dlsym(RTLD_DEFAULT, "llvm_omp_target_lock_mem");
  if (!g_unlock_mem) g_unlock_mem = (unlock_mem_fn)dlsym(RTLD_DEFAULT, "llvm_omp_target_unlock_mem");
  if (!g_lock_mem || !g_unlock_mem) g_lock_mem = NULL, g_unlock_mem = NULL;
}

// Locks p[0:bytes] on g_dev. 0: locked; else a case line was printed for
// each of the `count` names: skipped without the API or on the host
// fallback (where a runtime may refuse to lock), an error on a GPU.
static int lock_or_report(void *p, size_t bytes, const char *const *names, int count, int *status) {
  const char *why = NULL;
  if (!g_lock_mem)
    why = "no-lock-api";
  else if (!g_lock_mem(p, bytes, g_dev))
    why = "lock-failed";
  if (!why) return 0;
  int skip = !g_lock_mem || g_num_devices == 0;
  for (int i = 0; i < count; ++i) {
    if (skip)
      printf("case=%s skipped=%s\n", names[i], g_lock_mem ? "lock-failed-on-host-fallback" : why);
    else
      *status |= fail(names[i], why);
  }
  fflush(stdout);
  return 1;
}

static size_t g_bytes(int big) { return big ? big_bytes() : g_smoke ? (size_t)64 << 10 : (size_t)4 << 20; }

static double median(const double *v, int n) {
  double s[MAX_REPS];
  memcpy(s, v, (size_t)n * sizeof(double));
  qsort(s, (size_t)n, sizeof(double), cmp_double);
  return (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static float pattern(size_t i, unsigned seed) { return (float)((i + seed) & 4095); }

static void fill_pattern(float *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) p[i] = pattern(i, seed);
}

static void update(float *p, size_t n, int to) {
  if (to) {
#pragma omp target update to(p[0:n]) device(g_dev)
  } else {
#pragma omp target update from(p[0:n]) device(g_dev)
  }
}

enum { BW_BATCH_MS = 20 };

// One direction of a mapped buffer: 2 warm-ups, one timed update that sets
// the batch size k (a batch lasts at least BW_BATCH_MS), then `reps` batches
// of k updates; GB/s = k * bytes / batch time.
static void time_update(const char *name, float *p, size_t n, int to, int reps, const char *host) {
  size_t bytes = n * sizeof(float);
  update(p, n, to);
  update(p, n, to);
  double t0 = now_ns();
  update(p, n, to);
  double per = now_ns() - t0;
  long k = (long)(BW_BATCH_MS * 1e6 / (per > 1.0 ? per : 1.0)) + 1;
  if (k > (g_smoke ? 100 : 100000)) k = g_smoke ? 100 : 100000;
  double v[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    double s = now_ns();
    for (long i = 0; i < k; ++i) update(p, n, to);
    v[r] = (double)k * (double)bytes / (now_ns() - s);
  }
  char extra[96];
  snprintf(extra, sizeof extra, "host=%s bytes=%zu batch=%ld", host, bytes, k);
  report(name, v, reps, "GB/s", extra);
}

// g_{h2d,d2h}_{4m|1g}_{pageable,locked}: one malloc buffer, timed pageable,
// then locked (lock, map, time, unmap, unlock). The device copy gets a
// pattern of its own per variant by the H2D updates; the D2H updates bring
// it back over sentinels, checked every 4097 elements.
static int case_g_bw(int big) {
  const char *sz = big ? "1g" : "4m";
  size_t bytes = g_bytes(big), n = bytes / sizeof(float);
  int reps = reps_or(g_smoke ? 3 : big ? 5 : 7), status = 0;
  float *p = malloc(bytes);
  if (!p) {
    char name[32];
    snprintf(name, sizeof name, "g_h2d_%s_pageable", sz);
    return fail(name, "malloc-failed");
  }
  for (int locked = 0; locked < 2; ++locked) {
    const char *kind = locked ? "locked" : "pageable";
    char to_name[32], from_name[32];
    snprintf(to_name, sizeof to_name, "g_h2d_%s_%s", sz, kind);
    snprintf(from_name, sizeof from_name, "g_d2h_%s_%s", sz, kind);
    unsigned seed = 101u * (unsigned)(2 * big + locked) + 7u;
    fill_pattern(p, n, seed); // pages resident before timing
    const char *names[2] = {to_name, from_name};
    if (locked && lock_or_report(p, bytes, names, 2, &status)) continue;
#pragma omp target enter data map(alloc : p[0:n]) device(g_dev)
    time_update(to_name, p, n, 1, reps, kind);
    if (g_num_devices > 0) { // on the host fallback p is its own "device" copy
      for (size_t i = 0; i < n; i += 4097)
        p[i] = -1.0f;
      p[n - 1] = -1.0f;
    }
    time_update(from_name, p, n, 0, reps, kind);
    int ok = p[n - 1] == pattern(n - 1, seed);
    for (size_t i = 0; i < n && ok; i += 4097)
      ok = p[i] == pattern(i, seed);
#pragma omp target exit data map(delete : p[0:n]) device(g_dev)
    if (locked) g_unlock_mem(p, g_dev);
    if (!ok) status |= fail(from_name, "wrong-result");
  }
  free(p);
  return status;
}

// g_lock_unlock_{4m|1g}: lock + unlock of a fresh malloc'd buffer whose
// pages are resident (one warm-up).
static int case_g_lock(int big) {
  const char *name = big ? "g_lock_unlock_1g" : "g_lock_unlock_4m";
  size_t bytes = g_bytes(big);
  int reps = reps_or(g_smoke ? 3 : big ? 5 : 21), status = 0;
  double v[MAX_REPS], lock[MAX_REPS], unlock[MAX_REPS];
  for (int r = -1; r < reps; ++r) {
    char *p = malloc(bytes);
    if (!p) return fail(name, "malloc-failed");
    memset(p, 1, bytes);
    double t0 = now_ns();
    if (lock_or_report(p, bytes, &name, 1, &status)) {
      free(p);
      return status;
    }
    double t1 = now_ns();
    g_unlock_mem(p, g_dev);
    double t2 = now_ns();
    free(p);
    if (r >= 0) {
      v[r] = (t2 - t0) / 1e6;
      lock[r] = (t1 - t0) / 1e6;
      unlock[r] = (t2 - t1) / 1e6;
    }
  }
  char extra[96];
  snprintf(extra, sizeof extra, "lock_ms=%.4g unlock_ms=%.4g bytes=%zu", median(lock, reps), median(unlock, reps),
           bytes);
  report(name, v, reps, "ms", extra);
  return 0;
}

// The overlap case's kernel: every element runs `rep` steps of a 32-bit LCG
// from its index (integer, so the host can check it; compute-bound: B is
// small and stays in the caches).
static uint32_t lcg(uint32_t x, long rep) {
  for (long k = 0; k < rep; ++k)
    x = x * 1664525u + 1013904223u;
  return x;
}

static void lcg_kernel_nowait(uint32_t *b, long nb, long rep) {
#pragma omp target teams distribute parallel for nowait is_device_ptr(b) device(g_dev)
  for (long i = 0; i < nb; ++i) {
    uint32_t x = (uint32_t)i;
    for (long k = 0; k < rep; ++k)
      x = x * 1664525u + 1013904223u;
    b[i] = x;
  }
}

static void copy_to_nowait(float *a, size_t n) {
#pragma omp target update to(a[0:n]) nowait device(g_dev)
}

// Times (ms): what = 1 the copy alone, 2 the kernel alone, 3 both issued
// back to back; one taskwait.
static double time_nowait(int what, float *a, size_t n, uint32_t *b, long nb, long rep) {
  double t0 = now_ns();
  if (what & 1) copy_to_nowait(a, n);
  if (what & 2) lcg_kernel_nowait(b, nb, rep);
#pragma omp taskwait
  return (now_ns() - t0) / 1e6;
}

static double median3(int what, float *a, size_t n, uint32_t *b, long nb, long rep) {
  double t[3];
  for (int i = 0; i < 3; ++i) t[i] = time_nowait(what, a, n, b, nb, rep);
  return median(t, 3);
}

// g_overlap_{locked,pageable}: A (256 MiB, mapped) copied to the device while
// a kernel runs on B (device memory, is_device_ptr). The kernel's repeat
// count is calibrated so that it takes about as long as the copy alone.
// value = median over reps of (t_copy + t_kernel - t_both) / min(t_copy,
// t_kernel): 1 = the shorter one is hidden entirely, 0 = serialized.
static int case_g_overlap(int locked) {
  const char *name = locked ? "g_overlap_locked" : "g_overlap_pageable";
  size_t bytes = g_smoke ? (size_t)1 << 20 : (size_t)256 << 20, n = bytes / sizeof(float);
  long nb = g_smoke ? 4096 : 1L << 20;
  const long rep_max = g_smoke ? 1L << 12 : 1L << 24;
  int reps = reps_or(g_smoke ? 3 : 11), status = 0;
  unsigned seed = locked ? 911u : 577u;
  float *a = malloc(bytes);
  uint32_t *b = omp_target_alloc((size_t)nb * sizeof(uint32_t), g_dev);
  if (!a || !b) return fail(name, "alloc-failed");
  fill_pattern(a, n, seed);
  if (locked && lock_or_report(a, bytes, &name, 1, &status)) {
    free(a);
    omp_target_free(b, g_dev);
    return status;
  }
#pragma omp target enter data map(alloc : a[0:n]) device(g_dev)
  for (int w = 0; w < 2; ++w) time_nowait(1, a, n, b, nb, 1);
  double t_copy = median3(1, a, n, b, nb, 1);
  // Calibration: grow the repeat count 8x until the kernel takes 0.3 ms (and
  // 1/64 of the copy), then scale it to the copy's time, until within 10%.
  long rep = 64;
  time_nowait(2, a, n, b, nb, rep);
  for (int it = 0; it < 20; ++it) {
    double t = median3(2, a, n, b, nb, rep);
    if (t < 0.3 || t < t_copy / 64) {
      if (rep >= rep_max) break;
      rep = rep * 8 > rep_max ? rep_max : rep * 8;
      continue;
    }
    double ratio = t_copy / t;
    if (ratio > 0.9 && ratio < 1.1) break;
    long next = (long)((double)rep * ratio);
    rep = next < 1 ? 1 : next > rep_max ? rep_max : next;
  }
  double tc[MAX_REPS], tk[MAX_REPS], tb[MAX_REPS], v[MAX_REPS];
  for (int r = 0; r < reps; ++r) {
    tc[r] = time_nowait(1, a, n, b, nb, rep);
    tk[r] = time_nowait(2, a, n, b, nb, rep);
    tb[r] = time_nowait(3, a, n, b, nb, rep);
    double shorter = tc[r] < tk[r] ? tc[r] : tk[r];
    v[r] = shorter > 0 ? (tc[r] + tk[r] - tb[r]) / shorter : 0.0;
  }
  // Checks (on a GPU only: on the host fallback a is its own device copy, and
  // clang 14's host fallback of a nowait region does not run it; see case f).
  int copy_ok = 1, kernel_ok = 1;
  long at[3] = {0, nb / 2 + 5, nb - 1};
  for (int k = 0; k < 3 && g_num_devices > 0; ++k) {
    size_t o = (size_t)at[k] * (n / (size_t)nb);
    a[o] = -1.0f;
#pragma omp target update from(a[o:1]) device(g_dev)
    copy_ok &= a[o] == pattern(o, seed);
    uint32_t x = 0;
    kernel_ok &= !omp_target_memcpy(&x, b, sizeof x, 0, (size_t)at[k] * sizeof x, omp_get_initial_device(), g_dev) &&
                 x == lcg((uint32_t)at[k], rep);
  }
#pragma omp target exit data map(delete : a[0:n]) device(g_dev)
  if (locked) g_unlock_mem(a, g_dev);
  free(a);
  omp_target_free(b, g_dev);
  if (!copy_ok || !kernel_ok) return fail(name, copy_ok ? "wrong-kernel-result" : "wrong-copy-result");
  char extra[160];
  snprintf(extra, sizeof extra, "t_copy_ms=%.4g t_kernel_ms=%.4g t_both_ms=%.4g repeat=%ld copy_bytes=%zu host=%s",
           median(tc, reps), median(tk, reps), median(tb, reps), rep, bytes, locked ? "locked" : "pageable");
  report(name, v, reps, "frac", extra);
  return 0;
}

// ----------------------------------------------------- device allocation ----
// Slow operations (a 256 MiB cuMemAlloc + cuMemFree, a 64 MiB map loop
// iteration: a millisecond or more) are timed with 3 warm-ups and at least 2
// ops per batch instead of 20 and 10.
enum { SLOW_WARM = 3, SLOW_MIN_ITERS = 2 };

struct alloc_args {
  size_t bytes;
  long failed; // omp_target_alloc returned null this many times
};

static void op_alloc_free(void *p) {
  struct alloc_args *a = p;
  void *d = omp_target_alloc(a->bytes, g_dev);
  if (!d) {
    ++a->failed;
    return;
  }
  omp_target_free(d, g_dev);
}

// h_alloc_free_{1k,64k,1m,256m}: one omp_target_alloc + omp_target_free pair
// per op; nothing touches the memory. On the host fallback (smoke) 256m is
// 4 MiB.
static int case_h_alloc(int which) {
  static const char *const names[4] = {"h_alloc_free_1k", "h_alloc_free_64k", "h_alloc_free_1m", "h_alloc_free_256m"};
  static const size_t sizes[4] = {(size_t)1 << 10, (size_t)64 << 10, (size_t)1 << 20, (size_t)256 << 20};
  const char *name = names[which];
  struct alloc_args a = {which == 3 && g_smoke ? (size_t)4 << 20 : sizes[which], 0};
  op_alloc_free(&a);
  if (a.failed) return fail(name, "omp_target_alloc-failed");
  char extra[48];
  snprintf(extra, sizeof extra, "bytes=%zu", a.bytes);
  if (which == 3)
    time_latency_ex(name, op_alloc_free, &a, SLOW_WARM, SLOW_MIN_ITERS, extra);
  else
    time_latency_ex(name, op_alloc_free, &a, 20, 10, extra);
  // (the case line is out already: a failure afterwards is a second line)
  if (a.failed) return fail(name, "omp_target_alloc-failed");
  return 0;
}

struct map_args {
  float *a, *b, *c;
  long n;
};

static void op_map_loop(void *p) {
  struct map_args *m = p;
  float *a = m->a, *b = m->b, *c = m->c;
  long n = m->n;
#pragma omp target teams distribute parallel for map(to : a[0:n], b[0:n]) map(from : c[0:n]) device(g_dev)
  for (long i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

static void op_map_tofrom(void *p) {
  struct map_args *m = p;
  float *a = m->a, *b = m->b, *c = m->c;
  long n = m->n;
#pragma omp target teams distribute parallel for map(tofrom : a[0:n], b[0:n], c[0:n]) device(g_dev)
  for (long i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

static int map_loop_ok(const struct map_args *m) {
  for (long i = 0; i < m->n; ++i)
    if (m->c[i] != m->a[i] + m->b[i]) return 0;
  return 1;
}

// h_map_loop_{1m,64m}: case a's region over three malloc arrays of 1 MiB /
// 64 MiB each, not mapped before: every region allocates three device
// buffers, copies two in, runs, copies one out and frees the three. c is
// checked (every element) after one region and after the timed ones, with
// sentinels before each. Smoke: 64 KiB / 1 MiB.
// h_map_tofrom_{1m,64m} (tofrom): the region maps all three tofrom.
static int case_h_map(int big, int tofrom) {
  const char *name = tofrom ? (big ? "h_map_tofrom_64m" : "h_map_tofrom_1m")
                            : (big ? "h_map_loop_64m" : "h_map_loop_1m");
  void (*op)(void *) = tofrom ? op_map_tofrom : op_map_loop;
  size_t bytes = g_smoke ? (big ? (size_t)1 << 20 : (size_t)64 << 10) : (big ? (size_t)64 << 20 : (size_t)1 << 20);
  struct map_args m = {malloc(bytes), malloc(bytes), malloc(bytes), (long)(bytes / sizeof(float))};
  if (!m.a || !m.b || !m.c) return fail(name, "malloc-failed");
  for (long i = 0; i < m.n; ++i) {
    m.a[i] = (float)(i & 4095);
    m.b[i] = 0.5f * (float)(i % 17);
    m.c[i] = -1.0f;
  }
  op(&m);
  if (!map_loop_ok(&m)) return fail(name, "wrong-result");
  for (long i = 0; i < m.n; ++i) m.c[i] = -1.0f;
  char extra[48];
  snprintf(extra, sizeof extra, "bytes=%zu", bytes);
  if (big)
    time_latency_ex(name, op, &m, SLOW_WARM, SLOW_MIN_ITERS, extra);
  else
    time_latency_ex(name, op, &m, 20, 10, extra);
  int ok = map_loop_ok(&m);
  free(m.a), free(m.b), free(m.c);
  return ok ? 0 : fail(name, "wrong-result-after");
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
  resolve_lock_api();
  printf("info devices=%d first_region_on_host=%d smoke=%d lock_api=%d\n", g_num_devices, on_host, g_smoke,
         g_lock_mem != NULL);
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
    if (all || !strcmp(c, "f4") || !strcmp(c, "f_nowait_4threads")) status |= case_f4();
    int g = all || !strcmp(c, "g"), bw = g || !strcmp(c, "g_bw");
    int lk = g || !strcmp(c, "g_lock"), ov = g || !strcmp(c, "g_overlap");
    if (bw || !strncmp(c, "g_h2d_4m_", 9) || !strncmp(c, "g_d2h_4m_", 9)) status |= case_g_bw(0);
    if (bw || !strncmp(c, "g_h2d_1g_", 9) || !strncmp(c, "g_d2h_1g_", 9)) status |= case_g_bw(1);
    if (lk || !strcmp(c, "g_lock_unlock_4m")) status |= case_g_lock(0);
    if (lk || !strcmp(c, "g_lock_unlock_1g")) status |= case_g_lock(1);
    if (ov || !strcmp(c, "g_overlap_locked")) status |= case_g_overlap(1);
    if (ov || !strcmp(c, "g_overlap_pageable")) status |= case_g_overlap(0);
    int h = all || !strcmp(c, "h"), ha = h || !strcmp(c, "h_alloc"), hm = h || !strcmp(c, "h_map");
    if (ha || !strcmp(c, "h_alloc_free_1k")) status |= case_h_alloc(0);
    if (ha || !strcmp(c, "h_alloc_free_64k")) status |= case_h_alloc(1);
    if (ha || !strcmp(c, "h_alloc_free_1m")) status |= case_h_alloc(2);
    if (ha || !strcmp(c, "h_alloc_free_256m")) status |= case_h_alloc(3);
    if (hm || !strcmp(c, "h_map_loop_1m")) status |= case_h_map(0, 0);
    if (hm || !strcmp(c, "h_map_loop_64m")) status |= case_h_map(1, 0);
    if (hm || !strcmp(c, "h_map_tofrom_1m")) status |= case_h_map(0, 1);
    if (hm || !strcmp(c, "h_map_tofrom_64m")) status |= case_h_map(1, 1);
  }
  return status;
}
