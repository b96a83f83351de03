// Fault injection on the fake CUDA driver: one driver call fails once
// (OMPTARGET_FAKE_CUDA_FAIL=<function>:+1, the first call after the
// program's mark), and the user must see one clear error, the runtime must
// give back what it took, and the next call must work. docs/faults.md has
// the table of every fault and what the user sees; CMakeLists.txt runs one
// case per test and FileChecks the output with the case's prefix.
//
// Each case first warms the device up (the module loaded, the stream, event
// and memory pools and the memory manager's cache in their steady state),
// then marks the fake's resources (omptarget_fake_cuda_mark: the plugins
// are not torn down at exit, so "released" means "back to what the runtime
// keeps between constructs"), then runs the faulting call and the next one.
// With OMPTARGET_FAKE_CUDA_LEAK_CHECK=1 the fake prints at exit whether
// anything grew since the mark.
//
// API cases (the routines report failure, the program goes on): alloc,
// h2d, d2h, d2d, peer (two devices), peer-enable, sync, free, event-create,
// event-record, event-sync, register.
// Construct cases (a failed construct is fatal under the default policy
// with a device present; the tests run them under `not --crash`): map-alloc,
// map-h2d, map-d2h, launch, region-sync.
// No kernel runs on the fake: device data is written and read with
// omp_target_memcpy and map clauses only.
//
// The checks, one prefix per test (CMakeLists.txt has the fault of each).
// One failed pool allocation is retried (after the cache is released and the
// pool trimmed) and succeeds: nothing to see.
// ALLOCRETRY: alloc: non-null
// ALLOCRETRY: next alloc: ok
// Two in a row: NULL, the plugin's reason and the API's line.
// ALLOC: TARGET cuda RTL error: data_alloc: device 0: cannot allocate 262144 bytes (TARGET_ALLOC_DEFAULT) (the device has {{[0-9]+}} bytes free): cannot allocate 262144 bytes of default (device) memory on CUDA device 0: cuMemAllocFromPoolAsync: CUDA_ERROR_UNKNOWN (unknown error)
// ALLOC-NEXT: Libomptarget error: omp_target_alloc: device 0: the plugin could not allocate 262144 bytes (its message, if any, says why)
// ALLOC-NEXT: alloc: null
// ALLOC-NEXT: next alloc: ok
// ALLOCNP: TARGET cuda RTL error: data_alloc: device 0: cannot allocate 262144 bytes (TARGET_ALLOC_DEFAULT) (the device has {{[0-9]+}} bytes free): cannot allocate 262144 bytes of default (device) memory on CUDA device 0: cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// ALLOCNP-NEXT: Libomptarget error: omp_target_alloc: device 0: the plugin could not allocate 262144 bytes (its message, if any, says why)
// ALLOCNP-NEXT: alloc: null
// ALLOCNP-NEXT: next alloc: ok
//
// H2D: TARGET cuda RTL error: data_submit: device 0: cuMemcpyHtoDAsync: CUDA_ERROR_UNKNOWN (unknown error)
// H2DSTAGED: TARGET cuda RTL error: data_submit: device 0: cuMemcpyHtoDAsync (staged): CUDA_ERROR_UNKNOWN (unknown error)
// H2DAPI-NEXT: Libomptarget error: omp_target_memcpy: device 0: copying 262144 bytes from host 0x{{[0-9a-f]+}} to device 0x{{[0-9a-f]+}} failed
// H2DAPI-NEXT: h2d: rc nonzero
// H2DAPI-NEXT: h2d again: ok
// D2H: TARGET cuda RTL error: data_retrieve: device 0: cuMemcpyDtoHAsync: CUDA_ERROR_UNKNOWN (unknown error)
// D2H-NEXT: Libomptarget error: omp_target_memcpy: device 0: copying 262144 bytes from device 0x{{[0-9a-f]+}} to host 0x{{[0-9a-f]+}} failed
// D2H-NEXT: d2h: rc nonzero
// D2H-NEXT: d2h again: ok
// D2D: TARGET cuda RTL error: data_exchange: device 0: cuMemcpyDtoDAsync: CUDA_ERROR_UNKNOWN (unknown error)
// D2D-NEXT: Libomptarget error: omp_target_memcpy: copying 262144 bytes from device 0 (0x{{[0-9a-f]+}}) to device 0 (0x{{[0-9a-f]+}}) failed
// D2D-NEXT: d2d: rc nonzero
// D2D-NEXT: d2d again: ok
// PEER: TARGET cuda RTL error: data_exchange: device 0: cuMemcpyPeerAsync: CUDA_ERROR_UNKNOWN (unknown error)
// PEER-NEXT: Libomptarget error: omp_target_memcpy: copying 262144 bytes from device 0 (0x{{[0-9a-f]+}}) to device 1 (0x{{[0-9a-f]+}}) failed
// PEER-NEXT: peer: rc nonzero
// PEER-NEXT: peer again: ok
// Peer access that cannot be enabled is remembered; the copies are staged
// by the driver: nothing to see, the data arrives.
// PEERENABLE: peer-enable: rc 0
// PEERENABLE-NEXT: peer-enable again: ok
// A failed stream synchronize (omp_target_memcpy waits for its copy).
// SYNC: TARGET cuda RTL error: synchronize: device 0: cuStreamSynchronize: CUDA_ERROR_UNKNOWN (unknown error)
// SYNC-NEXT: Libomptarget error: omp_target_memcpy: device 0: waiting for queued work failed
// SYNC-NEXT: sync: rc nonzero
// SYNC-NEXT: sync again: ok
// A refused free leaves the block allocated and the program's: freed again.
// FREE: TARGET cuda RTL error: data_delete: device 0: cannot free 0x{{[0-9a-f]+}}: cuMemFreeAsync: CUDA_ERROR_UNKNOWN (unknown error)
// FREE-NEXT: Libomptarget error: omp_target_free: device 0: freeing device memory at 0x{{[0-9a-f]+}} failed; the block stays allocated: free it again
// FREE-NEXT: free: returned
// FREE-NEXT: free again: returned
// FREE-NEXT: next alloc: ok
// `interop use` waits for the targetsync stream with an event of the pool.
// EVRECORD: TARGET cuda RTL error: record_event: device 0: cuEventRecord: CUDA_ERROR_UNKNOWN (unknown error)
// EVRECORD-NEXT: Libomptarget error: interop use: device 0: recording an event on the targetsync queue 0x{{[0-9a-f]+}} failed
// EVSYNC: TARGET cuda RTL error: sync_event: device 0: cuEventSynchronize: CUDA_ERROR_UNKNOWN (unknown error)
// EVSYNC-NEXT: Libomptarget error: interop use: device 0: waiting for the targetsync queue 0x{{[0-9a-f]+}} failed (work queued on it failed?)
// EVENT-NEXT: event-{{record|sync}}: use returned
// EVENT-NEXT: event-{{record|sync}}: use again returned
// EVENT-NEXT: next alloc: ok
// REGISTER: TARGET cuda RTL error: data_lock: device 0: cannot lock host range [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) (262144 bytes): cuMemHostRegister: CUDA_ERROR_UNKNOWN (unknown error) {{.*}}
// REGISTER-NEXT: Libomptarget error: llvm_omp_target_lock_mem: device 0: the plugin could not lock host memory 0x{{[0-9a-f]+}} (262144 bytes); its message, if any, says why
// REGISTER-NEXT: lock: null
// REGISTER-NEXT: lock again: non-null
// REGISTER-NEXT: next alloc: ok
//
// Every API case ends with nothing leaked since the mark (API).
// API: mapped entries: 0
// API-NEXT: {{[a-z0-9-]+}}: done
// API: fake cuda leak check: nothing leaked since the mark
//
// Faults while the device starts (its first use, here omp_target_alloc): the
// call fails, what the start took is given back, the next call starts the
// device afresh; at exit the runtime holds what a run without the fault
// holds (INITSTEADY), one context retain, 33 streams (32 of the pool, the memory
// pool's), 32 events and one module among them.
// INITCTX: TARGET cuda RTL error: init_device: device 0: cuDevicePrimaryCtxRetain: CUDA_ERROR_UNKNOWN (unknown error)
// INITSTREAM: TARGET cuda RTL error: init_device: device 0: cannot create initial queue 4 of 32: cuStreamCreate: CUDA_ERROR_UNKNOWN (unknown error)
// INITEVENT: TARGET cuda RTL error: init_device: device 0: cannot create initial event 3 of 32: cuEventCreate: CUDA_ERROR_UNKNOWN (unknown error)
// INITFAIL-NEXT: Libomptarget error: omp_target_alloc: device 0: plugin {{.*}}libomptarget.rtl.cuda.so failed to initialize its device 0
// INITMODULE: TARGET cuda RTL error: load_binary: device 0: cuModuleLoadDataEx: CUDA_ERROR_UNKNOWN (unknown error)
// INITKERNEL: TARGET cuda RTL error: load_binary: device 0: cannot resolve kernel '__omp_offloading_{{.*}}': cuModuleGetFunction: CUDA_ERROR_UNKNOWN (unknown error)
// INITLOAD-NEXT: Libomptarget error: omp_target_alloc: device 0: plugin {{.*}}libomptarget.rtl.cuda.so could not load the device image at 0x{{[0-9a-f]+}}
// INITNULL-NEXT: first alloc: null
// No memory pool (cuMemPoolCreate failed: cuMemAlloc serves), no pinned
// small-copy buffer (cuMemAllocHost failed: copies go directly): nothing to
// see.
// INITSILENT: first alloc: non-null
// INIT: next alloc: ok
// INIT-NEXT: mapped entries: 0
// INIT-NEXT: init: done
// INITSTEADY-NEXT: fake cuda resources at exit: 1 device allocation(s), 262144 device byte(s), 1 pinned host allocation(s), 33 stream(s), 32 event(s), 1 module(s), 1 memory pool(s), 1 primary context retain(s)
// INITPOOL-NEXT: fake cuda resources at exit: 1 device allocation(s), 64 device byte(s), 1 pinned host allocation(s), 32 stream(s), 32 event(s), 1 module(s), 1 primary context retain(s)
// INITPINNED-NEXT: fake cuda resources at exit: 1 device allocation(s), 262144 device byte(s), 33 stream(s), 32 event(s), 1 module(s), 1 memory pool(s), 1 primary context retain(s)
//
// Failed constructs: the plugin's reason, the core's chain ending in the
// construct's line, then the fatal error (FATAL).
// MAPALLOC: TARGET cuda RTL error: data_alloc_async: device 0: cannot allocate 262144 bytes (TARGET_ALLOC_DEFAULT) (the device has {{[0-9]+}} bytes free): cannot allocate 262144 bytes of default (device) memory on CUDA device 0: cuMemAllocFromPoolAsync: CUDA_ERROR_UNKNOWN (unknown error)
// MAPALLOC: Libomptarget error: __tgt_target_data_begin: mapping {{.*}} (host 0x{{[0-9a-f]+}}, 262144 bytes) failed: device 0: the plugin could not allocate 262144 bytes (its message, if any, says why)
// MAPH2D: TARGET cuda RTL error: data_submit: device 0: cuMemcpyHtoDAsync: CUDA_ERROR_UNKNOWN (unknown error)
// MAPH2D: Libomptarget error: __tgt_target_data_begin: mapping {{.*}} (host 0x{{[0-9a-f]+}}, 262144 bytes) failed: device 0: copying 262144 bytes from host 0x{{[0-9a-f]+}} to device 0x{{[0-9a-f]+}} failed
// MAPD2H: TARGET cuda RTL error: data_retrieve: device 0: cuMemcpyDtoHAsync: CUDA_ERROR_UNKNOWN (unknown error)
// MAPD2H: Libomptarget error: __tgt_target_data_end: device 0: copying 262144 bytes from device 0x{{[0-9a-f]+}} to host 0x{{[0-9a-f]+}} failed
// LAUNCH: TARGET cuda RTL error: run_target_region: device 0: kernel __omp_offloading_{{.*}}_main_l{{[0-9]+}}: cuLaunchKernel ({{[0-9]+}} blocks, {{[0-9]+}} threads, 0 bytes of dynamic shared memory): CUDA_ERROR_UNKNOWN (unknown error)
// LAUNCH: Libomptarget error: __tgt_target: kernel __omp_offloading_{{.*}}_main_l{{[0-9]+}} on device 0 failed: device 0: launching the kernel failed
// Not a fault: the launch case with LIBOMPTARGET_INFO=0x10 and no fault
// (test fake-cuda-launch-info). The generic line gives the construct's
// num_teams and thread_limit ("default": none given), the CUDA plugin's line
// (LLVM 14's) the blocks and threads it chose.
// LAUNCHINFO: Libomptarget device 0 info: Launching kernel __omp_offloading_{{.*}}_main_l{{[0-9]+}} with 1 teams and default threads (1 argument(s), trip count 0){{$}}
// LAUNCHINFO-NEXT: CUDA device 0 info: Launching kernel __omp_offloading_{{.*}}_main_l{{[0-9]+}} with 1 blocks and {{[1-9][0-9]*}} threads in Generic mode{{$}}
// LAUNCHINFO: launch: done
// REGIONSYNC: TARGET cuda RTL error: synchronize: device 0: kernel __omp_offloading_{{.*}}_main_l{{[0-9]+}} failed (found at stream synchronization): CUDA_ERROR_UNKNOWN (unknown error)
// REGIONSYNC: Libomptarget error: __tgt_target: device 0: waiting for queued work failed
// FATAL: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
// FATAL-NOT: not reached
#include <dlfcn.h>
#include <omp.h>
#include <omptarget/omp_target_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1 << 16 };  // 256 KiB of ints: above the memory manager's blocks

static int failures = 0;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

static void mark(void) {
  void *fake = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  void (*fn)(void) = fake ? (void (*)(void))dlsym(fake, "omptarget_fake_cuda_mark") : NULL;
  if (!fn) {
    printf("FAILED: the fake driver's omptarget_fake_cuda_mark is not loaded\n");
    exit(1);
  }
  fn();
}

static void mapped_entries_cb(void *ctx, const char *key, const char *value) {
  if (strcmp(key, "mapped_entries") == 0) *(long *)ctx = atol(value);
}
static long mapped_entries(int dev) {
  long n = -1;
  omptarget_get_device_properties(dev, mapped_entries_cb, &n);
  return n;
}

static int host_buf[N], back[N];
static void fill(int *p, int seed) {
  for (int i = 0; i < N; ++i) p[i] = seed * 1000003 + i;
}
static int check(const int *p, int seed) {
  for (int i = 0; i < N; ++i)
    if (p[i] != seed * 1000003 + i) return 0;
  return 1;
}

// Everything the fault cases use once, so that the runtime's pools and
// caches are in their steady state at the mark.
static void warm_up(int dev) {
  int host = omp_get_initial_device();
  fill(host_buf, 1);
  int x = 1;
#pragma omp target enter data map(to : host_buf[0:N]) device(dev)
#pragma omp target update from(host_buf[0:N]) device(dev)
#pragma omp target exit data map(from : host_buf[0:N]) device(dev)
#pragma omp target map(tofrom : x) device(dev)
  x += 1;
  int *d = omp_target_alloc(sizeof host_buf, dev);
  int *e = omp_target_alloc(sizeof host_buf, dev);
  expect(d && e, "warm-up allocations");
  expect(omp_target_memcpy(d, host_buf, sizeof host_buf, 0, 0, dev, host) == 0, "warm-up h2d");
  expect(omp_target_memcpy(e, d, sizeof host_buf, 0, 0, dev, dev) == 0, "warm-up d2d");
  expect(omp_target_memcpy(back, e, sizeof back, 0, 0, host, dev) == 0, "warm-up d2h");
  expect(check(back, 1), "warm-up data");
  omp_target_free(d, dev);
  omp_target_free(e, dev);
}

// One round trip through fresh device memory of dev: the next call works.
static void round_trip(int dev, int seed, const char *what) {
  int host = omp_get_initial_device();
  int *d = omp_target_alloc(sizeof host_buf, dev);
  fill(host_buf, seed);
  memset(back, 0, sizeof back);
  int ok = d && omp_target_memcpy(d, host_buf, sizeof host_buf, 0, 0, dev, host) == 0 &&
           omp_target_memcpy(back, d, sizeof back, 0, 0, host, dev) == 0 && check(back, seed);
  printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
  omp_target_free(d, dev);
}

// A copy that fails (rc != 0), then the same copy again, which works.
static void copy_fails_then_works(int dst_dev, int src_dev, const char *what) {
  int host = omp_get_initial_device();
  int *src = src_dev == host ? host_buf : omp_target_alloc(sizeof host_buf, src_dev);
  int *dst = dst_dev == host ? back : omp_target_alloc(sizeof back, dst_dev);
  fill(host_buf, 7);
  if (src != host_buf)
    expect(omp_target_memcpy(src, host_buf, sizeof host_buf, 0, 0, src_dev, host) == 0, "source");
  mark();
  int rc = omp_target_memcpy(dst, src, sizeof host_buf, 0, 0, dst_dev, src_dev);
  printf("%s: rc %s\n", what, rc == 0 ? "0" : "nonzero");
  memset(back, 0, sizeof back);
  rc = omp_target_memcpy(dst, src, sizeof host_buf, 0, 0, dst_dev, src_dev);
  if (dst != back) expect(omp_target_memcpy(back, dst, sizeof back, 0, 0, host, dst_dev) == 0, "read back");
  printf("%s again: %s\n", what, rc == 0 && check(back, 7) ? "ok" : "FAILED");
  if (src != host_buf) omp_target_free(src, src_dev);
  if (dst != back) omp_target_free(dst, dst_dev);
}

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  const char *c = argc > 1 ? argv[1] : "";
  int dev = 0, host = omp_get_initial_device();
  if (omp_get_num_devices() < 1) {
    printf("FAILED: no device\n");
    return 1;
  }
  if (!strcmp(c, "init")) {
    // A fault while the device starts (the first call that uses it): the
    // call fails, and the next one starts the device afresh.
    void *p = omp_target_alloc(sizeof host_buf, dev);
    printf("first alloc: %s\n", p ? "non-null" : "null");
    omp_target_free(p, dev);
    warm_up(dev);
    round_trip(dev, 6, "next alloc");
    printf("mapped entries: %ld\n", mapped_entries(dev));
    if (failures) return 1;
    printf("%s: done\n", c);
    return 0;
  }
  warm_up(dev);
  if (omp_get_num_devices() > 1) warm_up(1);

  if (!strcmp(c, "alloc")) {
    mark();
    void *p = omp_target_alloc(sizeof host_buf, dev);
    printf("alloc: %s\n", p ? "non-null" : "null");
    omp_target_free(p, dev);
    round_trip(dev, 2, "next alloc");
  } else if (!strcmp(c, "h2d")) {
    copy_fails_then_works(dev, host, "h2d");
  } else if (!strcmp(c, "d2h")) {
    copy_fails_then_works(host, dev, "d2h");
  } else if (!strcmp(c, "d2d")) {
    copy_fails_then_works(dev, dev, "d2d");
  } else if (!strcmp(c, "peer") || !strcmp(c, "peer-enable")) {
    copy_fails_then_works(1, 0, c);
  } else if (!strcmp(c, "sync")) {
    copy_fails_then_works(host, dev, "sync");
  } else if (!strcmp(c, "free")) {
    mark();
    void *p = omp_target_alloc(sizeof host_buf, dev);
    omp_target_free(p, dev);
    printf("free: returned\n");
    omp_target_free(p, dev);  // the block is still the program's after a failed free
    printf("free again: returned\n");
    round_trip(dev, 3, "next alloc");
  } else if (!strncmp(c, "event-", 6)) {
    omp_interop_t obj = omp_interop_none;
#pragma omp interop init(targetsync : obj) device(dev)
    mark();
#pragma omp interop use(obj)
    printf("%s: use returned\n", c);
#pragma omp interop use(obj)
    printf("%s: use again returned\n", c);
#pragma omp interop destroy(obj)
    round_trip(dev, 4, "next alloc");
  } else if (!strcmp(c, "register")) {
    mark();
    void *l = llvm_omp_target_lock_mem(host_buf, sizeof host_buf, dev);
    printf("lock: %s\n", l ? "non-null" : "null");
    l = llvm_omp_target_lock_mem(host_buf, sizeof host_buf, dev);
    printf("lock again: %s\n", l ? "non-null" : "null");
    if (l) llvm_omp_target_unlock_mem(host_buf, dev);
    round_trip(dev, 5, "next alloc");
  } else if (!strcmp(c, "map-alloc") || !strcmp(c, "map-h2d")) {
    mark();
#pragma omp target enter data map(to : host_buf[0:N]) device(dev)
    printf("not reached\n");
  } else if (!strcmp(c, "map-d2h")) {
#pragma omp target enter data map(to : host_buf[0:N]) device(dev)
    mark();
#pragma omp target exit data map(from : host_buf[0:N]) device(dev)
    printf("not reached\n");
  } else if (!strcmp(c, "launch") || !strcmp(c, "region-sync")) {
    int x = 1;
    mark();
#pragma omp target map(tofrom : x) device(dev)
    x += 1;
    printf("not reached\n");
  } else {
    printf("FAILED: unknown case '%s'\n", c);
    return 1;
  }
  // Nothing of the program's stays mapped (only declare-target globals, if any).
  printf("mapped entries: %ld\n", mapped_entries(dev));
  if (failures) return 1;
  printf("%s: done\n", c);
  return 0;
}
