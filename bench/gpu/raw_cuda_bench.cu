// GPU offloading benchmark, raw CUDA side: the operations of omp_gpu_bench.c
// written directly against the CUDA driver API, as the reference the OpenMP
// runtimes are compared with. Same case names, same output format, same
// timing method (host CLOCK_MONOTONIC around the operation, synchronized).
//
// Build (bench/gpu/run_gpu_bench.sh does it):
//   nvcc -O2 -std=c++17 -arch=sm_90 raw_cuda_bench.cu -o raw_cuda_bench
//        -L<cuda>/lib64/stubs -lcuda            (the runtime linked statically)
// The kernels are compiled by nvcc; their CUfunction handles come from
// cudaGetFuncBySymbol, and every timed operation is a driver API call:
// cuMemcpy*Async on one CU_STREAM_NON_BLOCKING stream, cuLaunchKernel on it,
// cuStreamSynchronize (what our CUDA plugin does per construct).
//
// Cases (see omp_gpu_bench.c):
//   a_small_region       2x cuMemcpyHtoDAsync(1 KiB) + kernel + cuMemcpyDtoHAsync
//                        + cuStreamSynchronize; device buffers allocated once
//                        (the runtimes allocate per region)                  us/op
//   a_small_region_alloc the same plus 3 cuMemAlloc + 3 cuMemFree per op
//                        (informational: what a runtime without a device
//                        memory pool pays)                                    us/op
//   b_empty_region       cuLaunchKernel(empty, 1x1) + cuStreamSynchronize      us/op
//   c_memcpy_d2d_1g      cuMemcpyDtoDAsync 1 GiB + cuStreamSynchronize         GB/s
//   c_memcpy_peer_1g     cuMemcpyPeerAsync 1 GiB GPU0->GPU1 (peer access
//                        enabled both ways when possible) + sync               GB/s
//   d_update_to_1g       cuMemcpyHtoDAsync 1 GiB from pageable malloc memory   GB/s
//   d_update_from_1g     cuMemcpyDtoHAsync 1 GiB into pageable malloc memory   GB/s
//   e_triad              grid-stride triad over 2^28 doubles; launch shape
//                        tuned (threads x blocks/SM swept, best kept)          TB/s
//   f_nowait_chain_10k   10,000 launches of the small kernel on one stream,
//                        one cuStreamSynchronize                               regions/s
//   f_nowait_4threads    4 std::threads, each with its own
//                        CU_STREAM_NON_BLOCKING stream and array: 25,000
//                        launches of the atomic-increment kernel on it, then
//                        cuStreamSynchronize; launches of all threads          regions/s
//   Host memory kinds (group `g` = g_bw g_lock g_overlap):
//   g_{h2d,d2h}_{4m,1g}_pageable    cuMemcpy{HtoD,DtoH}Async + sync of 4 MiB /
//                        1 GiB of malloc memory (`g_bw`: all the g_h2d/g_d2h
//                        cases; a name runs its size's six)                    GB/s
//   g_{h2d,d2h}_{4m,1g}_registered  the same buffer after
//                        cuMemHostRegister(CU_MEMHOSTREGISTER_PORTABLE)        GB/s
//   g_{h2d,d2h}_{4m,1g}_pinned      a cuMemAllocHost buffer                   GB/s
//   g_lock_unlock_{4m,1g} cuMemHostRegister(PORTABLE) + cuMemHostUnregister
//                        of a fresh malloc'd, touched buffer (`g_lock`)        ms
//   g_overlap_pinned     256 MiB cuMemcpyHtoDAsync from cuMemAllocHost memory
//                        on one stream, a compute-bound kernel on another,
//                        alone and together (`g_overlap`): hidden fraction
//                        (t_copy + t_kernel - t_both) / min(t_copy, t_kernel)  frac
//   Device allocation (group `h` = h_alloc h_map; the pool cases use a
//   cuMemPoolCreate pool of device 0 with CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
//   UINT64_MAX, and print skipped=no-memory-pools where the device has none):
//   h_alloc_free_{1k,64k,1m,256m}_sync  cuMemAlloc + cuMemFree, memory not
//                        touched (`h_alloc`; a name runs its size's two)      us/pair
//   h_alloc_free_{1k,64k,1m,256m}_pool  cuMemAllocFromPoolAsync +
//                        cuMemFreeAsync on one stream, one cuStreamSynchronize
//                        per batch, timed with the batch                      us/pair
//   h_alloc_free_{1k,64k,1m,256m}_poolsync  the same, synchronous per pair as
//                        the CUDA plugin's omp_target_alloc + omp_target_free
//                        through the pool: cuStreamSynchronize after the
//                        allocation, cuCtxSynchronize before the release      us/pair
//   h_map_loop_{1m,64m}  omp_gpu_bench.c's map loop in stream order: 3x
//                        cuMemAllocFromPoolAsync, 2x cuMemcpyHtoDAsync from
//                        malloc memory, the vector-add kernel,
//                        cuMemcpyDtoHAsync, 3x cuMemFreeAsync,
//                        cuStreamSynchronize (`h_map`; a name runs both)      us/op
//   h_map_loop_{1m,64m}_sync  the same with 3 cuMemAlloc before and 3
//                        cuMemFree after (the synchronization)                us/op
//   h_map_tofrom_{1m,64m}[_sync]  omp_gpu_bench.c's tofrom map loop: the same
//                        with 3 copies in and 3 out (a, b, c)                 us/op
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kVecN = 256;
bool g_smoke = false;
double g_batch_ms = 40.0;
int g_reps_override = 0;
CUcontext g_ctx[2] = {nullptr, nullptr};
CUdevice g_dev[2] = {0, 0};
int g_num_devices = 0;
CUstream g_stream = nullptr;

double now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

struct Failure {
  std::string what;
  std::string kase = "";  // the case it is reported under, when not the one run
};

void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = nullptr;
    cuGetErrorName(r, &s);
    throw Failure{std::string(what) + ":" + (s ? s : "unknown")};
  }
}
void checkRt(cudaError_t r, const char *what) {
  if (r != cudaSuccess) throw Failure{std::string(what) + ":" + cudaGetErrorName(r)};
}

void report(const char *name, std::vector<double> v, const char *unit, const std::string &extra) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  double med = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  printf("case=%s value=%.6g unit=%s min=%.6g max=%.6g reps=%zu%s%s\n", name, med, unit, v.front(), v.back(), n,
         extra.empty() ? "" : " ", extra.c_str());
  fflush(stdout);
}

int repsOr(int dflt) { return g_reps_override > 0 ? g_reps_override : dflt; }

// ------------------------------------------------------------- kernels ----
__global__ void vadd256(const float *a, const float *b, float *c) {
  int i = threadIdx.x;
  if (i < kVecN) c[i] = a[i] + b[i];
}
__global__ void emptyKernel() {}
__global__ void inc256(float *x) {
  int i = threadIdx.x;
  if (i < kVecN) x[i] += 1.0f;
}
// Case f_nowait_4threads: the OpenMP regions increment atomically (they may
// overlap on the GPU); the same kernel here.
__global__ void inc256Atomic(float *x) {
  int i = threadIdx.x;
  if (i < kVecN) atomicAdd(&x[i], 1.0f);
}
__global__ void fillFloat(float *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (float)(i & 4095);
}
// Every element runs `rep` steps of a 32-bit LCG from its index (case g_overlap).
__global__ void lcgKernel(uint32_t *b, long nb, long rep) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= nb) return;
  uint32_t x = (uint32_t)i;
  for (long k = 0; k < rep; ++k) x = x * 1664525u + 1013904223u;
  b[i] = x;
}
// Case h_map: c = a + b over n elements, one thread per element.
__global__ void vaddN(const float *a, const float *b, float *c, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void triadInit(double *a, double *b, double *c, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    a[i] = -1.0;
    b[i] = 1.0 + (double)(i % 7) * 0.5;
    c[i] = 2.0 - (double)(i % 5) * 0.25;
  }
}
__global__ void triad(double *__restrict__ a, const double *__restrict__ b, const double *__restrict__ c, double s,
                      long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}

CUfunction func(const void *symbol) {
  cudaFunction_t f;
  checkRt(cudaGetFuncBySymbol(&f, symbol), "cudaGetFuncBySymbol");
  return reinterpret_cast<CUfunction>(f);
}

void launch(CUfunction f, unsigned blocks, unsigned threads, void **args) {
  check(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, g_stream, args, nullptr), "cuLaunchKernel");
}

// ------------------------------------------------------------- latency ----
// As omp_gpu_bench.c's time_latency_ex: `warm` warm-ups, ~20% of a batch
// (calibrates N, at least minIters), 7 batches of N ops. `end` runs after the
// ops of the calibration and of every batch, inside the timed interval (a
// stream synchronization for operations that only enqueue).
template <class Op, class End>
void timeLatencyEx(const char *name, Op op, End end, int warm, long minIters, const std::string &extra) {
  for (int i = 0; i < warm; ++i) op();
  end();
  double t0 = now_ns();
  long n = 0;
  while (now_ns() - t0 < 0.2 * g_batch_ms * 1e6) {
    op();
    ++n;
  }
  end();
  double per = (now_ns() - t0) / (double)n;
  long iters = std::max<long>(minIters, (long)(g_batch_ms * 1e6 / per));
  if (g_smoke) iters = std::min<long>(iters, 1000);
  std::vector<double> v;
  for (int b = 0; b < 7; ++b) {
    double s = now_ns();
    for (long i = 0; i < iters; ++i) op();
    end();
    v.push_back((now_ns() - s) / (double)iters / 1e3);
  }
  report(name, v, "us", "iters=" + std::to_string(iters) + (extra.empty() ? "" : " ") + extra);
}

// The latency cases' timing: 20 warm-ups, at least 10 ops per batch.
template <class Op>
void timeLatency(const char *name, Op op) {
  timeLatencyEx(name, op, [] {}, 20, 10, "");
}

void caseA() {
  const size_t bytes = kVecN * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  for (int i = 0; i < kVecN; ++i) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)(i % 17);
    c[i] = -1.0f;
  }
  CUfunction f = func((const void *)vadd256);
  CUdeviceptr da, db, dc;
  check(cuMemAlloc(&da, bytes), "cuMemAlloc");
  check(cuMemAlloc(&db, bytes), "cuMemAlloc");
  check(cuMemAlloc(&dc, bytes), "cuMemAlloc");
  auto region = [&](CUdeviceptr A, CUdeviceptr B, CUdeviceptr C) {
    check(cuMemcpyHtoDAsync(A, a, bytes, g_stream), "cuMemcpyHtoDAsync");
    check(cuMemcpyHtoDAsync(B, b, bytes, g_stream), "cuMemcpyHtoDAsync");
    void *args[] = {&A, &B, &C};
    launch(f, 1, kVecN, args);
    check(cuMemcpyDtoHAsync(c, C, bytes, g_stream), "cuMemcpyDtoHAsync");
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  };
  region(da, db, dc);
  for (int i = 0; i < kVecN; ++i)
    if (c[i] != a[i] + b[i]) throw Failure{"wrong-result"};
  timeLatency("a_small_region", [&] { region(da, db, dc); });
  check(cuMemFree(da), "cuMemFree");
  check(cuMemFree(db), "cuMemFree");
  check(cuMemFree(dc), "cuMemFree");
  timeLatency("a_small_region_alloc", [&] {
    CUdeviceptr A, B, C;
    check(cuMemAlloc(&A, bytes), "cuMemAlloc");
    check(cuMemAlloc(&B, bytes), "cuMemAlloc");
    check(cuMemAlloc(&C, bytes), "cuMemAlloc");
    region(A, B, C);
    check(cuMemFree(A), "cuMemFree");
    check(cuMemFree(B), "cuMemFree");
    check(cuMemFree(C), "cuMemFree");
  });
  for (int i = 0; i < kVecN; ++i)
    if (c[i] != a[i] + b[i]) throw Failure{"wrong-result-after"};
  free(a), free(b), free(c);
}

void caseB() {
  CUfunction f = func((const void *)emptyKernel);
  timeLatency("b_empty_region", [&] {
    launch(f, 1, 1, nullptr);
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  });
}

// ---------------------------------------------------------------- copies ----
size_t bigBytes() { return g_smoke ? (size_t)1 << 20 : (size_t)1 << 30; }

void fillDevice(CUdeviceptr p, size_t n) {
  void *args[] = {&p, &n};
  launch(func((const void *)fillFloat), 1024, 256, args);
  check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
}

bool checkDevice(CUdeviceptr p, size_t n) {
  size_t at[3] = {0, n / 2 + 3, n - 1};
  for (size_t k : at) {
    float x = -1.0f;
    check(cuMemcpyDtoH(&x, p + k * sizeof(float), sizeof x), "cuMemcpyDtoH");
    if (x != (float)(k & 4095)) return false;
  }
  return true;
}

void caseC(bool peer) {
  const char *name = peer ? "c_memcpy_peer_1g" : "c_memcpy_d2d_1g";
  if (peer && g_num_devices < 2) {
    printf("case=%s skipped=fewer-than-2-devices\n", name);
    return;
  }
  size_t bytes = bigBytes(), n = bytes / sizeof(float);
  CUdeviceptr src, dst;
  check(cuMemAlloc(&src, bytes), "cuMemAlloc");
  std::string extra = "bytes_counted=copied-once";
  if (peer) {
    int can01 = 0, can10 = 0;
    check(cuDeviceCanAccessPeer(&can01, g_dev[0], g_dev[1]), "cuDeviceCanAccessPeer");
    check(cuDeviceCanAccessPeer(&can10, g_dev[1], g_dev[0]), "cuDeviceCanAccessPeer");
    if (can01) check(cuCtxEnablePeerAccess(g_ctx[1], 0), "cuCtxEnablePeerAccess");
    check(cuCtxSetCurrent(g_ctx[1]), "cuCtxSetCurrent");
    if (can10) check(cuCtxEnablePeerAccess(g_ctx[0], 0), "cuCtxEnablePeerAccess");
    check(cuMemAlloc(&dst, bytes), "cuMemAlloc");
    check(cuCtxSetCurrent(g_ctx[0]), "cuCtxSetCurrent");
    extra += " peer_access=" + std::to_string(can01) + std::to_string(can10);
  } else {
    check(cuMemAlloc(&dst, bytes), "cuMemAlloc");
  }
  fillDevice(src, n);
  std::vector<double> v;
  int reps = repsOr(g_smoke ? 3 : 20);
  for (int r = -2; r < reps; ++r) {
    double t0 = now_ns();
    if (peer)
      check(cuMemcpyPeerAsync(dst, g_ctx[1], src, g_ctx[0], bytes, g_stream), "cuMemcpyPeerAsync");
    else
      check(cuMemcpyDtoDAsync(dst, src, bytes, g_stream), "cuMemcpyDtoDAsync");
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
    double t = now_ns() - t0;
    if (r >= 0) v.push_back((double)bytes / t);
  }
  if (peer) check(cuCtxSetCurrent(g_ctx[1]), "cuCtxSetCurrent");
  bool ok = checkDevice(dst, n);
  check(cuMemFree(dst), "cuMemFree");
  if (peer) check(cuCtxSetCurrent(g_ctx[0]), "cuCtxSetCurrent");
  check(cuMemFree(src), "cuMemFree");
  if (!ok) throw Failure{"wrong-result"};
  report(name, v, "GB/s", extra);
}

void caseD() {
  size_t bytes = bigBytes(), n = bytes / sizeof(float);
  float *p = (float *)malloc(bytes);
  if (!p) throw Failure{"malloc-failed"};
  for (size_t i = 0; i < n; ++i) p[i] = (float)(i & 4095);
  CUdeviceptr d;
  check(cuMemAlloc(&d, bytes), "cuMemAlloc");
  std::vector<double> to, from;
  int reps = repsOr(g_smoke ? 3 : 5);
  for (int r = -1; r < reps; ++r) {
    double t0 = now_ns();
    check(cuMemcpyHtoDAsync(d, p, bytes, g_stream), "cuMemcpyHtoDAsync");
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
    double t1 = now_ns();
    check(cuMemcpyDtoHAsync(p, d, bytes, g_stream), "cuMemcpyDtoHAsync");
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
    double t2 = now_ns();
    if (r >= 0) {
      to.push_back((double)bytes / (t1 - t0));
      from.push_back((double)bytes / (t2 - t1));
    }
  }
  memset(p, 0, bytes);
  check(cuMemcpyDtoHAsync(p, d, bytes, g_stream), "cuMemcpyDtoHAsync");
  check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  for (size_t i = 0; i < n; i += 4097)
    if (p[i] != (float)(i & 4095)) throw Failure{"wrong-result"};
  check(cuMemFree(d), "cuMemFree");
  free(p);
  report("d_update_to_1g", to, "GB/s", "host=pageable");
  report("d_update_from_1g", from, "GB/s", "host=pageable");
}

// ----------------------------------------------------------------- triad ----
void caseE() {
  int lg = g_smoke ? 16 : 28;
  if (const char *e = getenv("GPU_BENCH_TRIAD_LOG2"); e && atoi(e) >= 10 && atoi(e) <= 31) lg = atoi(e);
  long n = 1L << lg;
  size_t bytes = n * sizeof(double);
  CUdeviceptr a, b, c;
  check(cuMemAlloc(&a, bytes), "cuMemAlloc");
  check(cuMemAlloc(&b, bytes), "cuMemAlloc");
  check(cuMemAlloc(&c, bytes), "cuMemAlloc");
  {
    void *args[] = {&a, &b, &c, &n};
    launch(func((const void *)triadInit), 4096, 256, args);
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  }
  int sms = 0;
  check(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g_dev[0]), "cuDeviceGetAttribute");
  CUfunction f = func((const void *)triad);
  double s = 3.0;
  auto run = [&](unsigned blocks, unsigned threads) {
    void *args[] = {&a, &b, &c, &s, &n};
    double t0 = now_ns();
    launch(f, blocks, threads, args);
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
    return 3.0 * sizeof(double) * (double)n / (now_ns() - t0) / 1e3; // TB/s
  };
  // Tuning: threads per block x blocks per SM (0: one thread per element).
  const unsigned threadsList[] = {256, 512, 1024};
  const int perSMList[] = {1, 2, 4, 8, 16, 32, 0};
  unsigned bestBlocks = 0, bestThreads = 0;
  double best = 0;
  for (int w = 0; w < 3; ++w) run(sms * 4, 256); // warm-up
  for (unsigned t : threadsList)
    for (int per : perSMList) {
      long blocks = per > 0 ? (long)per * sms : (n + t - 1) / t;
      if (blocks < 1 || blocks > 0x7fffffffL) continue;
      if (per > 0 && (long)per * t > 2048) continue; // more than an SM holds: same as fewer
      std::vector<double> v;
      for (int r = 0; r < (g_smoke ? 1 : 5); ++r) v.push_back(run((unsigned)blocks, t));
      std::sort(v.begin(), v.end());
      double med = v[v.size() / 2];
      printf("info e_triad_config threads=%u blocks_per_sm=%d blocks=%ld tbps=%.4g\n", t, per, blocks, med);
      if (med > best) best = med, bestBlocks = (unsigned)blocks, bestThreads = t;
    }
  std::vector<double> v;
  int reps = repsOr(g_smoke ? 3 : 100);
  for (int r = 0; r < reps; ++r) v.push_back(run(bestBlocks, bestThreads));
  std::vector<double> out(1024);
  long at[3] = {0, n / 2 + 1, n - 1024};
  for (long o : at) {
    check(cuMemcpyDtoH(out.data(), a + o * sizeof(double), 1024 * sizeof(double)), "cuMemcpyDtoH");
    for (long i = o; i < o + 1024; ++i) {
      double want = (1.0 + (double)(i % 7) * 0.5) + s * (2.0 - (double)(i % 5) * 0.25);
      if (out[i - o] != want) throw Failure{"wrong-result"};
    }
  }
  check(cuMemFree(a), "cuMemFree");
  check(cuMemFree(b), "cuMemFree");
  check(cuMemFree(c), "cuMemFree");
  report("e_triad", v, "TB/s",
         "n=" + std::to_string(n) + " blocks=" + std::to_string(bestBlocks) + " threads=" + std::to_string(bestThreads) +
             " sms=" + std::to_string(sms));
}

// ---------------------------------------------------------- launch chain ----
void caseF() {
  const int count = g_smoke ? 200 : 10000, warm = g_smoke ? 20 : 200;
  float h[kVecN];
  for (int i = 0; i < kVecN; ++i) h[i] = (float)i;
  CUdeviceptr x;
  check(cuMemAlloc(&x, sizeof h), "cuMemAlloc");
  check(cuMemcpyHtoD(x, h, sizeof h), "cuMemcpyHtoD");
  CUfunction f = func((const void *)inc256);
  void *args[] = {&x};
  auto chain = [&](int k) {
    for (int i = 0; i < k; ++i) launch(f, 1, kVecN, args);
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  };
  chain(warm);
  std::vector<double> v;
  int reps = repsOr(3);
  double start = now_ns();
  for (int r = 0; r < reps; ++r) {
    double t0 = now_ns();
    chain(count);
    v.push_back((double)count / ((now_ns() - t0) / 1e9));
    if (now_ns() - start > 20e9) reps = r + 1;
  }
  check(cuMemcpyDtoH(h, x, sizeof h), "cuMemcpyDtoH");
  for (int i = 0; i < kVecN; ++i)
    if (h[i] != (float)i + (float)(warm + reps * count)) throw Failure{"wrong-result"};
  check(cuMemFree(x), "cuMemFree");
  report("f_nowait_chain_10k", v, "regions/s", "regions=" + std::to_string(count));
}

// ---------------------------------- independent launches, 4 host threads ----
// f_nowait_4threads: 4 std::threads, each with its own CU_STREAM_NON_BLOCKING
// stream and array, launch the kernel `count` times on their stream and
// synchronize it. A rep is timed from the moment the main thread opens the
// start gate (every thread started, the context current on it) until the last
// thread's cuStreamSynchronize returned; value = launches of all threads /
// time, as omp_gpu_bench.c's barrier-to-barrier figure.
void caseF4() {
  constexpr int kThreads = 4;
  const int count = g_smoke ? 200 : 25000, warm = g_smoke ? 20 : 200;
  CUfunction f = func((const void *)inc256Atomic);
  CUstream streams[kThreads];
  CUdeviceptr xs[kThreads];
  float h[kVecN];
  for (int t = 0; t < kThreads; ++t) {
    check(cuStreamCreate(&streams[t], CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    for (int i = 0; i < kVecN; ++i) h[i] = (float)(1000 * t) + (float)i;
    check(cuMemAlloc(&xs[t], sizeof h), "cuMemAlloc");
    check(cuMemcpyHtoD(xs[t], h, sizeof h), "cuMemcpyHtoD");
  }
  // One rep of k launches per thread: its rate (launches/s), or a Failure.
  auto rep = [&](int k) {
    std::atomic<int> ready{0}, done{0};
    std::atomic<bool> go{false};
    std::string errors[kThreads];
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        CUresult ctx = cuCtxSetCurrent(g_ctx[0]);
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) {
        }
        try {
          check(ctx, "cuCtxSetCurrent");
          CUdeviceptr x = xs[t];
          void *args[] = {&x};
          for (int i = 0; i < k; ++i)
            check(cuLaunchKernel(f, 1, 1, 1, kVecN, 1, 1, 0, streams[t], args, nullptr), "cuLaunchKernel");
          check(cuStreamSynchronize(streams[t]), "cuStreamSynchronize");
        } catch (const Failure &e) {
          errors[t] = e.what;
        }
        done.fetch_add(1, std::memory_order_release);
      });
    while (ready.load() < kThreads) {
    }
    double t0 = now_ns();
    go.store(true, std::memory_order_release);
    while (done.load(std::memory_order_acquire) < kThreads) {
    }
    double t1 = now_ns();
    for (auto &th : threads) th.join();
    for (const std::string &e : errors)
      if (!e.empty()) throw Failure{e};
    return (double)kThreads * (double)k / ((t1 - t0) / 1e9);
  };
  rep(warm);
  std::vector<double> v;
  int reps = repsOr(3);
  double start = now_ns();
  for (int r = 0; r < reps; ++r) {
    v.push_back(rep(count));
    if (now_ns() - start > 20e9) reps = r + 1;
  }
  bool ok = true;
  for (int t = 0; t < kThreads; ++t) {
    check(cuMemcpyDtoH(h, xs[t], sizeof h), "cuMemcpyDtoH");
    for (int i = 0; i < kVecN && ok; ++i)
      if (h[i] != (float)(1000 * t) + (float)i + (float)(warm + reps * count)) {
        printf("info f4 thread %d x[%d]=%g want %g\n", t, i, h[i],
               (float)(1000 * t) + (float)i + (float)(warm + reps * count));
        ok = false;
      }
    check(cuMemFree(xs[t]), "cuMemFree");
    check(cuStreamDestroy(streams[t]), "cuStreamDestroy");
  }
  if (!ok) throw Failure{"wrong-result"};
  report("f_nowait_4threads", v, "regions/s",
         "threads=" + std::to_string(kThreads) + " regions_per_thread=" + std::to_string(count));
}

// ---------------------------------------------------- host memory kinds ----
size_t gBytes(bool big) { return big ? bigBytes() : g_smoke ? (size_t)64 << 10 : (size_t)4 << 20; }

float pattern(size_t i, unsigned seed) { return (float)((i + seed) & 4095); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string fmtMs(const char *key, double ms) {
  char b[64];
  snprintf(b, sizeof b, "%s=%.4g", key, ms);
  return b;
}

constexpr double kBwBatchMs = 20;

// One direction, one host buffer: cuMemcpy{HtoD,DtoH}Async + cuStreamSynchronize
// per copy, batched as omp_gpu_bench.c's time_update (2 warm-ups, one timed
// copy sets k, a batch of k copies lasts at least 20 ms).
void timeCopy(const std::string &name, float *h, CUdeviceptr d, size_t bytes, bool toDevice, int reps,
              const char *host) {
  auto once = [&] {
    if (toDevice)
      check(cuMemcpyHtoDAsync(d, h, bytes, g_stream), "cuMemcpyHtoDAsync");
    else
      check(cuMemcpyDtoHAsync(h, d, bytes, g_stream), "cuMemcpyDtoHAsync");
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  };
  once();
  once();
  double t0 = now_ns();
  once();
  double per = std::max(1.0, now_ns() - t0);
  long k = std::min<long>(g_smoke ? 100 : 100000, (long)(kBwBatchMs * 1e6 / per) + 1);
  std::vector<double> v;
  for (int r = 0; r < reps; ++r) {
    double s = now_ns();
    for (long i = 0; i < k; ++i) once();
    v.push_back((double)k * (double)bytes / (now_ns() - s));
  }
  report(name.c_str(), v, "GB/s",
         std::string("host=") + host + " bytes=" + std::to_string(bytes) + " batch=" + std::to_string(k));
}

// g_{h2d,d2h}_{4m|1g}_{pageable,registered,pinned}: a malloc buffer timed
// pageable, then registered (cuMemHostRegister PORTABLE); then a
// cuMemAllocHost buffer. Each variant puts a pattern of its own on the device
// (H2D) and brings it back over sentinels (D2H), checked every 4097 elements.
void caseGBw(bool big) {
  const char *sz = big ? "1g" : "4m";
  size_t bytes = gBytes(big), n = bytes / sizeof(float);
  int reps = repsOr(g_smoke ? 3 : big ? 5 : 7);
  CUdeviceptr d;
  check(cuMemAlloc(&d, bytes), "cuMemAlloc");
  float *mem = (float *)malloc(bytes);
  if (!mem) throw Failure{"malloc-failed"};
  const char *kinds[] = {"pageable", "registered", "pinned"};
  for (int k = 0; k < 3; ++k) {
    std::string to = std::string("g_h2d_") + sz + "_" + kinds[k], from = std::string("g_d2h_") + sz + "_" + kinds[k];
    std::string at = to;  // the case an error is reported under
    try {
      float *h = mem;
      if (k == 1) check(cuMemHostRegister(mem, bytes, CU_MEMHOSTREGISTER_PORTABLE), "cuMemHostRegister");
      if (k == 2) check(cuMemAllocHost((void **)&h, bytes), "cuMemAllocHost");
      unsigned seed = 101u * (unsigned)(3 * big + k) + 7u;
      for (size_t i = 0; i < n; ++i) h[i] = pattern(i, seed);
      timeCopy(to, h, d, bytes, true, reps, kinds[k]);
      at = from;
      for (size_t i = 0; i < n; i += 4097) h[i] = -1.0f;
      h[n - 1] = -1.0f;
      timeCopy(from, h, d, bytes, false, reps, kinds[k]);
      bool ok = h[n - 1] == pattern(n - 1, seed);
      for (size_t i = 0; i < n && ok; i += 4097) ok = h[i] == pattern(i, seed);
      if (k == 1) check(cuMemHostUnregister(mem), "cuMemHostUnregister");
      if (k == 2) check(cuMemFreeHost(h), "cuMemFreeHost");
      if (!ok) throw Failure{"wrong-result"};
    } catch (Failure &f) {
      if (f.kase.empty()) f.kase = at;
      throw;
    }
  }
  free(mem);
  check(cuMemFree(d), "cuMemFree");
}

// g_lock_unlock_{4m|1g}: cuMemHostRegister(PORTABLE) + cuMemHostUnregister of
// a fresh malloc'd buffer whose pages are resident (one warm-up).
void caseGLock(bool big) {
  const char *name = big ? "g_lock_unlock_1g" : "g_lock_unlock_4m";
  size_t bytes = gBytes(big);
  int reps = repsOr(g_smoke ? 3 : big ? 5 : 21);
  std::vector<double> v, lock, unlock;
  for (int r = -1; r < reps; ++r) {
    char *p = (char *)malloc(bytes);
    if (!p) throw Failure{"malloc-failed"};
    memset(p, 1, bytes);
    double t0 = now_ns();
    check(cuMemHostRegister(p, bytes, CU_MEMHOSTREGISTER_PORTABLE), "cuMemHostRegister");
    double t1 = now_ns();
    check(cuMemHostUnregister(p), "cuMemHostUnregister");
    double t2 = now_ns();
    free(p);
    if (r >= 0) {
      v.push_back((t2 - t0) / 1e6);
      lock.push_back((t1 - t0) / 1e6);
      unlock.push_back((t2 - t1) / 1e6);
    }
  }
  report(name, v, "ms",
         fmtMs("lock_ms", median(lock)) + " " + fmtMs("unlock_ms", median(unlock)) + " bytes=" +
             std::to_string(bytes) + " flags=portable");
}

// g_overlap_pinned: omp_gpu_bench.c's overlap case with two streams: 256 MiB
// cuMemAllocHost -> device on g_stream, the same LCG kernel on another
// non-blocking stream; alone and both issued back to back.
uint32_t lcgHost(uint32_t x, long rep) {
  for (long k = 0; k < rep; ++k) x = x * 1664525u + 1013904223u;
  return x;
}

void caseGOverlap() {
  const char *name = "g_overlap_pinned";
  size_t bytes = g_smoke ? (size_t)1 << 20 : (size_t)256 << 20, n = bytes / sizeof(float);
  long nb = g_smoke ? 4096 : 1L << 20;
  const long repMax = g_smoke ? 1L << 12 : 1L << 24;
  int reps = repsOr(g_smoke ? 3 : 11);
  const unsigned seed = 313u;
  float *a = nullptr;
  check(cuMemAllocHost((void **)&a, bytes), "cuMemAllocHost");
  for (size_t i = 0; i < n; ++i) a[i] = pattern(i, seed);
  CUdeviceptr da, b;
  check(cuMemAlloc(&da, bytes), "cuMemAlloc");
  check(cuMemAlloc(&b, nb * sizeof(uint32_t)), "cuMemAlloc");
  CUstream ks;
  check(cuStreamCreate(&ks, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  CUfunction f = func((const void *)lcgKernel);
  long rep = 64;
  // what: 1 the copy, 2 the kernel, 3 both; ms.
  auto timed = [&](int what) {
    void *args[] = {&b, &nb, &rep};
    double t0 = now_ns();
    if (what & 1) check(cuMemcpyHtoDAsync(da, a, bytes, g_stream), "cuMemcpyHtoDAsync");
    if (what & 2)
      check(cuLaunchKernel(f, (unsigned)((nb + 255) / 256), 1, 1, 256, 1, 1, 0, ks, args, nullptr), "cuLaunchKernel");
    if (what & 1) check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
    if (what & 2) check(cuStreamSynchronize(ks), "cuStreamSynchronize");
    return (now_ns() - t0) / 1e6;
  };
  auto median3 = [&](int what) { return median({timed(what), timed(what), timed(what)}); };
  timed(1);  // two warm-ups
  timed(1);
  double tCopy = median3(1);
  timed(2);
  for (int it = 0; it < 20; ++it) {  // as omp_gpu_bench.c's calibration
    double t = median3(2);
    if (t < 0.3 || t < tCopy / 64) {
      if (rep >= repMax) break;
      rep = std::min(rep * 8, repMax);
      continue;
    }
    double ratio = tCopy / t;
    if (ratio > 0.9 && ratio < 1.1) break;
    rep = std::max(1L, std::min(repMax, (long)((double)rep * ratio)));
  }
  std::vector<double> tc, tk, tb, v;
  for (int r = 0; r < reps; ++r) {
    tc.push_back(timed(1));
    tk.push_back(timed(2));
    tb.push_back(timed(3));
    double shorter = std::min(tc.back(), tk.back());
    v.push_back(shorter > 0 ? (tc.back() + tk.back() - tb.back()) / shorter : 0.0);
  }
  bool copyOk = true, kernelOk = true;
  for (long at : {0L, nb / 2 + 5, nb - 1}) {
    size_t o = (size_t)at * (n / (size_t)nb);
    float x = -1.0f;
    uint32_t y = 0;
    check(cuMemcpyDtoH(&x, da + o * sizeof(float), sizeof x), "cuMemcpyDtoH");
    check(cuMemcpyDtoH(&y, b + at * sizeof(uint32_t), sizeof y), "cuMemcpyDtoH");
    copyOk = copyOk && x == pattern(o, seed);
    kernelOk = kernelOk && y == lcgHost((uint32_t)at, rep);
  }
  check(cuStreamDestroy(ks), "cuStreamDestroy");
  check(cuMemFree(b), "cuMemFree");
  check(cuMemFree(da), "cuMemFree");
  check(cuMemFreeHost(a), "cuMemFreeHost");
  if (!copyOk || !kernelOk) throw Failure{copyOk ? "wrong-kernel-result" : "wrong-copy-result"};
  report(name, v, "frac",
         fmtMs("t_copy_ms", median(tc)) + " " + fmtMs("t_kernel_ms", median(tk)) + " " +
             fmtMs("t_both_ms", median(tb)) + " repeat=" + std::to_string(rep) + " copy_bytes=" +
             std::to_string(bytes) + " host=pinned");
}

// ----------------------------------------------------- device allocation ----
// Slow operations (a 256 MiB cuMemAlloc + cuMemFree, a 64 MiB map loop
// iteration: a millisecond or more) are timed with 3 warm-ups and at least 2
// ops per batch instead of 20 and 10, as in omp_gpu_bench.c.
constexpr int kSlowWarm = 3;
constexpr long kSlowMinIters = 2;

// The stream-ordered cases' pool: created for device 0 at the first use,
// kept for the process. Null (after a skipped=no-memory-pools line for
// `name`) when the device does not support memory pools.
CUmemoryPool g_pool = nullptr;
int g_pools_supported = -1;  // -1: not asked yet

CUmemoryPool poolOrSkip(const std::string &name) {
  if (g_pools_supported < 0)
    check(cuDeviceGetAttribute(&g_pools_supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, g_dev[0]),
          "cuDeviceGetAttribute");
  if (!g_pools_supported) {
    printf("case=%s skipped=no-memory-pools\n", name.c_str());
    fflush(stdout);
    return nullptr;
  }
  if (!g_pool) {
    CUmemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = (int)g_dev[0];
    check(cuMemPoolCreate(&g_pool, &props), "cuMemPoolCreate");
    cuuint64_t keep = UINT64_MAX;  // freed memory stays in the pool
    check(cuMemPoolSetAttribute(g_pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep), "cuMemPoolSetAttribute");
  }
  return g_pool;
}

// Gives the pool's memory back to the device, so that every case starts
// from an empty pool (its warm-ups take the growth).
void trimPool() {
  check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
  check(cuMemPoolTrimTo(g_pool, 0), "cuMemPoolTrimTo");
}

// h_alloc_free_{1k|64k|1m|256m}_{sync,pool}: cuMemAlloc + cuMemFree per pair;
// then cuMemAllocFromPoolAsync + cuMemFreeAsync on g_stream per pair with one
// cuStreamSynchronize per batch (in its time). Nothing touches the memory.
void caseHAlloc(int which) {
  static const char *const sz[4] = {"1k", "64k", "1m", "256m"};
  static const size_t sizes[4] = {(size_t)1 << 10, (size_t)64 << 10, (size_t)1 << 20, (size_t)256 << 20};
  const size_t bytes = which == 3 && g_smoke ? (size_t)4 << 20 : sizes[which];
  const bool slow = which == 3;
  const std::string base = std::string("h_alloc_free_") + sz[which], sync = base + "_sync", pool = base + "_pool",
                    poolsync = base + "_poolsync";
  const std::string extra = "bytes=" + std::to_string(bytes);
  std::string at = sync;  // the case an error is reported under
  try {
    timeLatencyEx(
        sync.c_str(),
        [&] {
          CUdeviceptr p;
          check(cuMemAlloc(&p, bytes), "cuMemAlloc");
          check(cuMemFree(p), "cuMemFree");
        },
        [] {}, slow ? kSlowWarm : 20, slow ? kSlowMinIters : 10, extra);
    at = pool;
    CUmemoryPool mp = poolOrSkip(pool);
    if (!mp) return;
    timeLatencyEx(
        pool.c_str(),
        [&] {
          CUdeviceptr p;
          check(cuMemAllocFromPoolAsync(&p, bytes, mp, g_stream), "cuMemAllocFromPoolAsync");
          check(cuMemFreeAsync(p, g_stream), "cuMemFreeAsync");
        },
        [] { check(cuStreamSynchronize(g_stream), "cuStreamSynchronize"); }, slow ? kSlowWarm : 20,
        slow ? kSlowMinIters : 10, extra + " sync=per-batch");
    trimPool();
    // What our plugin's synchronous route does per pair: the allocation
    // waited for, the release after a context synchronize.
    at = poolsync;
    timeLatencyEx(
        poolsync.c_str(),
        [&] {
          CUdeviceptr p;
          check(cuMemAllocFromPoolAsync(&p, bytes, mp, g_stream), "cuMemAllocFromPoolAsync");
          check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
          check(cuCtxSynchronize(), "cuCtxSynchronize");
          check(cuMemFreeAsync(p, g_stream), "cuMemFreeAsync");
        },
        [] { check(cuStreamSynchronize(g_stream), "cuStreamSynchronize"); }, slow ? kSlowWarm : 20,
        slow ? kSlowMinIters : 10, extra + " sync=per-pair");
    trimPool();
  } catch (Failure &f) {
    if (f.kase.empty()) f.kase = at;
    throw;
  }
}

// h_map_loop_{1m|64m}[_sync]: omp_gpu_bench.c's map loop (three malloc
// arrays of 1 MiB / 64 MiB, c = a + b) as driver calls on g_stream: with
// cuMemAlloc / cuMemFree (after the synchronization) first, then stream
// ordered from the pool. c is checked (every element) after one iteration and
// after the timed ones, with sentinels before each. Smoke: 64 KiB / 1 MiB.
// h_map_tofrom_{1m|64m}[_sync] (tofrom): a, b and c copied in and out.
void caseHMap(bool big, bool tofrom) {
  const std::string name = std::string(tofrom ? "h_map_tofrom_" : "h_map_loop_") + (big ? "64m" : "1m"),
                    sync = name + "_sync";
  const size_t bytes = g_smoke ? (big ? (size_t)1 << 20 : (size_t)64 << 10)
                               : (big ? (size_t)64 << 20 : (size_t)1 << 20);
  long n = (long)(bytes / sizeof(float));
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  if (!a || !b || !c) throw Failure{"malloc-failed", sync};
  for (long i = 0; i < n; ++i) {
    a[i] = (float)(i & 4095);
    b[i] = 0.5f * (float)(i % 17);
  }
  CUfunction f = func((const void *)vaddN);
  const unsigned blocks = (unsigned)((n + 255) / 256);
  CUmemoryPool mp = nullptr;
  auto iteration = [&](bool pooled) {
    CUdeviceptr A, B, C;
    if (pooled) {
      check(cuMemAllocFromPoolAsync(&A, bytes, mp, g_stream), "cuMemAllocFromPoolAsync");
      check(cuMemAllocFromPoolAsync(&B, bytes, mp, g_stream), "cuMemAllocFromPoolAsync");
      check(cuMemAllocFromPoolAsync(&C, bytes, mp, g_stream), "cuMemAllocFromPoolAsync");
    } else {
      check(cuMemAlloc(&A, bytes), "cuMemAlloc");
      check(cuMemAlloc(&B, bytes), "cuMemAlloc");
      check(cuMemAlloc(&C, bytes), "cuMemAlloc");
    }
    check(cuMemcpyHtoDAsync(A, a, bytes, g_stream), "cuMemcpyHtoDAsync");
    check(cuMemcpyHtoDAsync(B, b, bytes, g_stream), "cuMemcpyHtoDAsync");
    if (tofrom) check(cuMemcpyHtoDAsync(C, c, bytes, g_stream), "cuMemcpyHtoDAsync");
    void *args[] = {&A, &B, &C, &n};
    launch(f, blocks, 256, args);
    if (tofrom) {
      check(cuMemcpyDtoHAsync(a, A, bytes, g_stream), "cuMemcpyDtoHAsync");
      check(cuMemcpyDtoHAsync(b, B, bytes, g_stream), "cuMemcpyDtoHAsync");
    }
    check(cuMemcpyDtoHAsync(c, C, bytes, g_stream), "cuMemcpyDtoHAsync");
    if (pooled) {
      check(cuMemFreeAsync(A, g_stream), "cuMemFreeAsync");
      check(cuMemFreeAsync(B, g_stream), "cuMemFreeAsync");
      check(cuMemFreeAsync(C, g_stream), "cuMemFreeAsync");
    }
    check(cuStreamSynchronize(g_stream), "cuStreamSynchronize");
    if (!pooled) {
      check(cuMemFree(A), "cuMemFree");
      check(cuMemFree(B), "cuMemFree");
      check(cuMemFree(C), "cuMemFree");
    }
  };
  auto sentinels = [&] {
    for (long i = 0; i < n; ++i) c[i] = -1.0f;
  };
  auto ok = [&] {
    for (long i = 0; i < n; ++i)
      if (c[i] != a[i] + b[i]) return false;
    return true;
  };
  const std::string extra = "bytes=" + std::to_string(bytes);
  for (int pooled = 0; pooled < 2; ++pooled) {
    const std::string &at = pooled ? name : sync;
    try {
      if (pooled && !(mp = poolOrSkip(name))) break;
      sentinels();
      iteration(pooled);
      if (!ok()) throw Failure{"wrong-result"};
      sentinels();
      timeLatencyEx(
          at.c_str(), [&] { iteration(pooled); }, [] {}, big ? kSlowWarm : 20, big ? kSlowMinIters : 10,
          extra + (pooled ? " alloc=pool" : " alloc=cuMemAlloc"));
      if (!ok()) throw Failure{"wrong-result-after"};
      if (pooled) trimPool();
    } catch (Failure &e) {
      if (e.kase.empty()) e.kase = at;
      free(a), free(b), free(c);
      throw;
    }
  }
  free(a), free(b), free(c);
}

// Whether `arg` is one of the space-separated words of `aliases` (a word
// ending in '*': a prefix of arg).
bool selects(const std::string &arg, const char *aliases) {
  std::string words = aliases;
  size_t at = 0;
  while (at < words.size()) {
    size_t end = words.find(' ', at);
    if (end == std::string::npos) end = words.size();
    std::string w = words.substr(at, end - at);
    at = end + 1;
    if (w.empty()) continue;
    if (w.back() == '*' ? arg.compare(0, w.size() - 1, w, 0, w.size() - 1) == 0 : arg == w) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char **argv) {
  if (const char *s = getenv("GPU_BENCH_SMOKE")) g_smoke = atoi(s) > 0;
  if (const char *s = getenv("GPU_BENCH_BATCH_MS"); s && atof(s) > 0) g_batch_ms = atof(s);
  if (g_smoke) g_batch_ms = 5.0;
  if (const char *s = getenv("GPU_BENCH_REPS"); s && atoi(s) > 0) g_reps_override = atoi(s);
  if (argc < 2) {
    fprintf(stderr, "usage: %s CASE... | all\n", argv[0]);
    return 2;
  }
  try {
    check(cuInit(0), "cuInit");
    check(cuDeviceGetCount(&g_num_devices), "cuDeviceGetCount");
    if (g_num_devices < 1) throw Failure{"no-device"};
    for (int d = 0; d < std::min(g_num_devices, 2); ++d) {
      check(cuDeviceGet(&g_dev[d], d), "cuDeviceGet");
      check(cuDevicePrimaryCtxRetain(&g_ctx[d], g_dev[d]), "cuDevicePrimaryCtxRetain");
    }
    check(cuCtxSetCurrent(g_ctx[0]), "cuCtxSetCurrent");
    checkRt(cudaSetDevice(0), "cudaSetDevice"); // the runtime binds the same primary context
    checkRt(cudaFree(nullptr), "cudaFree");
    check(cuStreamCreate(&g_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    char devName[128] = "";
    cuDeviceGetName(devName, sizeof devName, g_dev[0]);
    int drv = 0;
    cuDriverGetVersion(&drv);
    for (char *p = devName; *p; ++p)
      if (*p == ' ') *p = '_';
    printf("info devices=%d device0=%s driver_api=%d smoke=%d\n", g_num_devices, devName, drv, (int)g_smoke);
  } catch (const Failure &f) {
    printf("case=all error=%s\n", f.what.c_str());
    return 1;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::string c = argv[i];
    bool all = c == "all";
    // The name, and the other arguments that run the case (space-separated;
    // a trailing '*' matches any argument that starts with what precedes it).
    struct {
      const char *name, *aliases;
      void (*fn)();
    } cases[] = {
        {"a_small_region", "a", caseA},
        {"b_empty_region", "b", caseB},
        {"c_memcpy_d2d_1g", "", [] { caseC(false); }},
        {"c_memcpy_peer_1g", "", [] { caseC(true); }},
        {"d_update_to_1g", "d d_update*", caseD},
        {"e_triad", "e", caseE},
        {"f_nowait_chain_10k", "f", caseF},
        {"f_nowait_4threads", "f4", caseF4},
        {"g_h2d_4m_pageable", "g g_bw g_h2d_4m_* g_d2h_4m_*", [] { caseGBw(false); }},
        {"g_h2d_1g_pageable", "g g_bw g_h2d_1g_* g_d2h_1g_*", [] { caseGBw(true); }},
        {"g_lock_unlock_4m", "g g_lock", [] { caseGLock(false); }},
        {"g_lock_unlock_1g", "g g_lock", [] { caseGLock(true); }},
        {"g_overlap_pinned", "g g_overlap", caseGOverlap},
        {"h_alloc_free_1k_sync", "h h_alloc h_alloc_free_1k*", [] { caseHAlloc(0); }},
        {"h_alloc_free_64k_sync", "h h_alloc h_alloc_free_64k*", [] { caseHAlloc(1); }},
        {"h_alloc_free_1m_sync", "h h_alloc h_alloc_free_1m*", [] { caseHAlloc(2); }},
        {"h_alloc_free_256m_sync", "h h_alloc h_alloc_free_256m*", [] { caseHAlloc(3); }},
        {"h_map_loop_1m_sync", "h h_map h_map_loop_1m*", [] { caseHMap(false, false); }},
        {"h_map_loop_64m_sync", "h h_map h_map_loop_64m*", [] { caseHMap(true, false); }},
        {"h_map_tofrom_1m_sync", "h h_map h_map_tofrom_1m*", [] { caseHMap(false, true); }},
        {"h_map_tofrom_64m_sync", "h h_map h_map_tofrom_64m*", [] { caseHMap(true, true); }},
    };
    for (auto &k : cases) {
      if (!all && c != k.name && !selects(c, k.aliases)) continue;
      try {
        k.fn();
      } catch (const Failure &f) {
        printf("case=%s error=%s\n", f.kase.empty() ? k.name : f.kase.c_str(), f.what.c_str());
        fflush(stdout);
        status = 1;
        cuCtxSetCurrent(g_ctx[0]);
      }
    }
  }
  return status;
}
