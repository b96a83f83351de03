// GPU only (tests/gpu/run_gpu_tests.sh builds tests/gpu/cuda/*.c): a raw
// CUDA kernel on an interop object's targetsync stream, between OpenMP target
// regions, is ordered by `interop use` and `interop destroy`.
//
// The program loads the CUDA driver itself (dlopen "libcuda.so.1"), makes the
// object's context current, JIT-loads a PTX kernel from a string and
// launches it on the object's stream. The kernel first spins for 200 ms
// (%globaltimer), then computes a[i] = a[i] * mul + add on the device copy of
// a mapped array. The next OpenMP region runs on another (non-blocking)
// stream of the same device, so only the interop construct's wait on the
// targetsync stream keeps it from running, and the copy back from reading,
// before the raw kernel has written: without it the host sees the values of
// the OpenMP regions alone (the FAILED lines below name the first bad
// element). Also checks the CUDA properties of the object.
// LLVM 14's `interop use` does not wait for the stream (its targetsync is
// initialised but never synchronized), hence omptarget-core.
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t
// RUN: %run %t 2>&1 | %fcheck
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

typedef int CUresult;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;

static CUresult (*cuCtxSetCurrent)(CUcontext);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, CUstream, void **, void **);
static CUresult (*cuGetErrorName)(CUresult, const char **);

// spin_scale(int *a, int n, u64 ns, int mul, int add): spin ns nanoseconds,
// then a[i] = a[i] * mul + add for i < n.
static const char kPtx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry spin_scale(.param .u64 p_a, .param .u32 p_n, .param .u64 p_ns,\n"
    "                           .param .u32 p_mul, .param .u32 p_add)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [p_a];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  ld.param.u64 %rd2, [p_ns];\n"
    "  ld.param.u32 %r2, [p_mul];\n"
    "  ld.param.u32 %r3, [p_add];\n"
    "  mov.u64 %rd3, %globaltimer;\n"
    "SPIN:\n"
    "  mov.u64 %rd4, %globaltimer;\n"
    "  sub.u64 %rd5, %rd4, %rd3;\n"
    "  setp.lt.u64 %p1, %rd5, %rd2;\n"
    "  @%p1 bra SPIN;\n"
    "  mov.u32 %r4, %ctaid.x;\n"
    "  mov.u32 %r5, %ntid.x;\n"
    "  mov.u32 %r6, %tid.x;\n"
    "  mad.lo.s32 %r7, %r4, %r5, %r6;\n"
    "  setp.ge.s32 %p2, %r7, %r1;\n"
    "  @%p2 bra DONE;\n"
    "  cvta.to.global.u64 %rd6, %rd1;\n"
    "  mul.wide.s32 %rd7, %r7, 4;\n"
    "  add.s64 %rd8, %rd6, %rd7;\n"
    "  ld.global.u32 %r8, [%rd8];\n"
    "  mad.lo.s32 %r9, %r8, %r2, %r3;\n"
    "  st.global.u32 [%rd8], %r9;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

#define N 4096

static int a[N];
static CUfunction kernel;

static int check(CUresult r, const char *what) {
  if (r == 0) return 1;
  const char *name = "?";
  if (cuGetErrorName) cuGetErrorName(r, &name);
  printf("FAILED: %s: %s (%d)\n", what, name, r);
  return 0;
}

static int launch(CUstream stream, void *dev_a, int mul, int add) {
  int n = N;
  unsigned long long ns = 200ull * 1000 * 1000;
  void *params[] = {&dev_a, &n, &ns, &mul, &add};
  return check(cuLaunchKernel(kernel, N / 256, 1, 1, 256, 1, 1, 0, stream, params, NULL), "cuLaunchKernel");
}

static int expect(const char *what, int mul, int add) {
  for (int i = 0; i < N; ++i)
    if (a[i] != (i + 1) * mul + add) {
      printf("FAILED: %s: a[%d] = %d, expected %d\n", what, i, a[i], (i + 1) * mul + add);
      return 0;
    }
  printf("%s: ok\n", what);
  return 1;
}

int main(void) {
  setbuf(stdout, NULL);
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda) {
    printf("FAILED: dlopen libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  *(void **)&cuCtxSetCurrent = dlsym(cuda, "cuCtxSetCurrent");
  *(void **)&cuModuleLoadData = dlsym(cuda, "cuModuleLoadData");
  *(void **)&cuModuleGetFunction = dlsym(cuda, "cuModuleGetFunction");
  *(void **)&cuLaunchKernel = dlsym(cuda, "cuLaunchKernel");
  *(void **)&cuGetErrorName = dlsym(cuda, "cuGetErrorName");
  if (!cuCtxSetCurrent || !cuModuleLoadData || !cuModuleGetFunction || !cuLaunchKernel) {
    printf("FAILED: libcuda.so.1 lacks an entry point\n");
    return 1;
  }

  for (int i = 0; i < N; ++i) a[i] = i;
#pragma omp target enter data map(to : a)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i) a[i] += 1;  // a[i] = i + 1
  // The device address of a.
  int *p = a;
  void *dev_a = NULL;
#pragma omp target data use_device_ptr(p)
  dev_a = p;

  omp_interop_t obj = omp_interop_none;
#pragma omp interop init(targetsync : obj)
  int rc = 99;
  // CHECK: fr_id=1 fr_name=cuda vendor=nvidia device_num=0
  printf("fr_id=%ld fr_name=%s vendor=%s device_num=%ld\n", (long)omp_get_interop_int(obj, omp_ipr_fr_id, NULL),
         omp_get_interop_str(obj, omp_ipr_fr_name, NULL), omp_get_interop_str(obj, omp_ipr_vendor_name, NULL),
         (long)omp_get_interop_int(obj, omp_ipr_device_num, NULL));
  CUcontext ctx = omp_get_interop_ptr(obj, omp_ipr_device_context, &rc);
  CUstream stream = omp_get_interop_ptr(obj, omp_ipr_targetsync, NULL);
  // CHECK-NEXT: handles: context=1 stream=1
  printf("handles: context=%d stream=%d\n", ctx != NULL && rc == 0, stream != NULL);
  if (!ctx || !stream) return 1;
  CUmodule module;
  if (!check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") || !check(cuModuleLoadData(&module, kPtx), "cuModuleLoadData") ||
      !check(cuModuleGetFunction(&kernel, module, "spin_scale"), "cuModuleGetFunction"))
    return 1;

  // Raw kernel, then `interop use`, then an OpenMP region reading its result.
  if (!launch(stream, dev_a, 2, 0)) return 1;  // a[i] = 2 (i + 1)
#pragma omp interop use(obj)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i) a[i] += 3;  // a[i] = 2 (i + 1) + 3
#pragma omp target update from(a)
  // CHECK-NEXT: ordered by interop use: ok
  expect("ordered by interop use", 2, 3);

  // Raw kernel, then `interop destroy`, then the copy back.
  if (!check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") || !launch(stream, dev_a, 1, 10)) return 1;  // + 10
#pragma omp interop destroy(obj)
#pragma omp target exit data map(from : a)
  // CHECK-NEXT: ordered by interop destroy: ok
  expect("ordered by interop destroy", 2, 13);
  // CHECK-NOT: FAILED
  return 0;
}
