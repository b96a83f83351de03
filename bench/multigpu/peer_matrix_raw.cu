// peer_matrix_raw: the peer_matrix.c matrix with the CUDA driver API, for
// comparison: cuMemcpyPeerAsync between every ordered device pair (i==j: a
// copy inside device i), 1 GiB after one warm-up copy, with peer access
// enabled (cuCtxEnablePeerAccess, source context current) wherever
// cuDeviceCanAccessPeer says so. Then all pairs at once (device k -> (k+1)%N,
// every stream in flight together).
// Prints: devices=N bytes=B reps=R, peer=i,j can=0|1 enabled=0|1,
// pair=i,j gbps=X, allpairs aggregate_gbps=X.
// Knobs: MG_SMOKE=1, MG_BYTES, MG_REPS (as peer_matrix.c).
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = nullptr;
    cuGetErrorString(r, &s);
    std::printf("error: %s: %s\n", what, s ? s : "?");
    std::exit(1);
  }
}

static size_t env_size(const char *name, size_t def) {
  const char *v = std::getenv(name);
  return v && *v ? (size_t)std::strtoull(v, nullptr, 0) : def;
}

int main() {
  int smoke = std::getenv("MG_SMOKE") && std::atoi(std::getenv("MG_SMOKE"));
  size_t bytes = env_size("MG_BYTES", smoke ? (1u << 20) : (1u << 30));
  int reps = (int)env_size("MG_REPS", smoke ? 1 : 5);
  bytes &= ~(size_t)3;
  int n = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS || n < 1) {
    std::printf("peer_matrix_raw: skip: no CUDA device\n");
    return 0;
  }
  std::printf("devices=%d bytes=%zu reps=%d\n", n, bytes, reps);
  std::vector<CUdevice> dev(n);
  std::vector<CUcontext> ctx(n);
  std::vector<CUstream> st(n);
  std::vector<CUdeviceptr> a(n), b(n);
  for (int d = 0; d < n; d++) {
    check(cuDeviceGet(&dev[d], d), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx[d], dev[d]), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx[d]), "cuCtxSetCurrent");
    check(cuStreamCreate(&st[d], CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    check(cuMemAlloc(&a[d], bytes), "cuMemAlloc");
    check(cuMemAlloc(&b[d], bytes), "cuMemAlloc");
    check(cuMemsetD32(a[d], 0x01010101u * (d + 1), bytes / 4), "cuMemsetD32");
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j) continue;
      int can = 0, en = 0;
      check(cuDeviceCanAccessPeer(&can, dev[i], dev[j]), "cuDeviceCanAccessPeer");
      if (can) {
        check(cuCtxSetCurrent(ctx[i]), "cuCtxSetCurrent");
        CUresult r = cuCtxEnablePeerAccess(ctx[j], 0);
        en = r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
      }
      std::printf("peer=%d,%d can=%d enabled=%d\n", i, j, can, en);
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      check(cuCtxSetCurrent(ctx[i]), "cuCtxSetCurrent");
      check(cuMemcpyPeerAsync(b[j], ctx[j], a[i], ctx[i], bytes, st[i]), "cuMemcpyPeerAsync");  // warm-up
      check(cuStreamSynchronize(st[i]), "cuStreamSynchronize");
      double s = now_s();
      for (int r = 0; r < reps; r++)
        check(cuMemcpyPeerAsync(b[j], ctx[j], a[i], ctx[i], bytes, st[i]), "cuMemcpyPeerAsync");
      check(cuStreamSynchronize(st[i]), "cuStreamSynchronize");
      double e = now_s();
      unsigned v = 0;
      check(cuMemcpyDtoH(&v, b[j] + bytes - 4, 4), "cuMemcpyDtoH");
      std::printf("pair=%d,%d gbps=%.2f ok=%d\n", i, j, (double)bytes * reps / (e - s) / 1e9,
                  v == 0x01010101u * (i + 1));
      std::fflush(stdout);
    }
  // All pairs at once.
  for (int k = 0; k < n; k++) {
    check(cuCtxSetCurrent(ctx[k]), "cuCtxSetCurrent");
    check(cuMemcpyPeerAsync(b[(k + 1) % n], ctx[(k + 1) % n], a[k], ctx[k], bytes, st[k]), "cuMemcpyPeerAsync");
  }
  for (int k = 0; k < n; k++) check(cuStreamSynchronize(st[k]), "cuStreamSynchronize");
  double s = now_s();
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < n; k++) {
      check(cuCtxSetCurrent(ctx[k]), "cuCtxSetCurrent");
      check(cuMemcpyPeerAsync(b[(k + 1) % n], ctx[(k + 1) % n], a[k], ctx[k], bytes, st[k]), "cuMemcpyPeerAsync");
    }
  for (int k = 0; k < n; k++) check(cuStreamSynchronize(st[k]), "cuStreamSynchronize");
  double e = now_s();
  std::printf("allpairs streams=%d aggregate_gbps=%.2f\n", n, (double)bytes * reps * n / (e - s) / 1e9);
  for (int d = 0; d < n; d++) {
    cuCtxSetCurrent(ctx[d]);
    cuMemFree(a[d]);
    cuMemFree(b[d]);
    cuStreamDestroy(st[d]);
    cuDevicePrimaryCtxRelease(dev[d]);
  }
  std::printf("peer_matrix_raw: ok\n");
  return 0;
}
