// The CUDA plugin's device memory through its entry points, on the fake
// driver: the program loads the plugin (its path is the first argument) and
// calls __tgt_rtl_* itself, as a core would, one case per run (the second
// argument). Which driver calls served it is checked by the test's regular
// expressions over the plugin's driver-call statistics
// (OMPTARGET_CUDA_API_STATS=1) and the fake's pool statistics
// (OMPTARGET_FAKE_CUDA_POOL_STATS=1).
//   queued     two rounds of three 1 MiB allocations on a queue, data moved
//              through them, released on the queue, then synchronize: with
//              the memory pool, stream-ordered allocation and release, and
//              the second round reuses the first's memory
//   sync       three rounds of a 256 MiB data_alloc + data_delete
//   oom-trim   (capacity 96 MiB) 64 MiB on a queue, released; then 80 MiB
//              synchronously: out of memory until the pool gives the kept
//              64 MiB back; the retry succeeds
//   oom-fail   (capacity 96 MiB) 64 MiB on a queue, released; then 128 MiB
//              on a queue fails (after one retry); then 64 MiB works
//   exchange   (two devices) a copy between the devices' memory
// Prints "<case>: ok" when every result is right, FAILED lines otherwise.
// The checks (FileCheck, one prefix per test; CMakeLists.txt runs them; the
// statistics are printed at exit, in no fixed order):
//
// queued, with the memory pool: stream-ordered, the second round reuses.
// QUEUED: queued: ok
// QUEUED-DAG: api stats: cuMemAllocFromPoolAsync 6 {{[0-9]}}
// QUEUED-DAG: api stats: cuMemFreeAsync 6 {{[0-9]}}
// QUEUED-DAG: fake cuda pool 0 (device 0): 6 allocations, 3 reused, 3 grown, 0 trims
// queued, without it (OMPTARGET_CUDA_MEMORY_POOL=0, a device without pools, a
// driver without the entry points): cuMemAlloc, the releases at synchronize.
// QUEUEDNP: queued: ok
// QUEUEDNP-DAG: api stats: cuMemAlloc_v2 6 {{[0-9]}}
// QUEUEDNP-DAG: api stats: cuMemFree_v2 6 {{[0-9]}}
//
// sync, with the pool for synchronous allocations (the default): one block,
// reused; each release waits for the context first.
// SYNC: sync: ok
// SYNC-DAG: api stats: cuMemAllocFromPoolAsync 3 {{[0-9]}}
// SYNC-DAG: api stats: cuCtxSynchronize 3 {{[0-9]}}
// SYNC-DAG: fake cuda pool 0 (device 0): 3 allocations, 2 reused, 1 grown, 0 trims
// sync with OMPTARGET_CUDA_MEMORY_POOL=2: cuMemAlloc.
// SYNCMALLOC: sync: ok
// SYNCMALLOC-DAG: api stats: cuMemAlloc_v2 3 {{[0-9]}}
//
// oom-trim: 64 MiB grown, 80 MiB refused, trim, 80 MiB grown.
// OOMTRIM: oom-trim: ok
// OOMTRIM-DAG: api stats: cuMemPoolTrimTo 1 {{[0-9]}}
// OOMTRIM-DAG: fake cuda pool 0 (device 0): 3 allocations, 0 reused, 2 grown, 1 trims
//
// oom-fail: one retry after the trim, an error naming the size, the device
// and its free memory, then 64 MiB works.
// OOMFAIL: TARGET cuda RTL error: data_alloc_async: device 0: cannot allocate 134217728 bytes (TARGET_ALLOC_DEFAULT) (the device has 100663296 bytes free): cannot allocate 134217728 bytes of default (device) memory on CUDA device 0: cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// OOMFAIL-NEXT: 128 MiB: null
// OOMFAIL-NEXT: oom-fail: ok
// OOMFAIL-DAG: api stats: cuMemAllocFromPoolAsync 4 {{[0-9]}}
// OOMFAIL-DAG: api stats: cuMemPoolTrimTo 1 {{[0-9]}}
// OOMFAIL-DAG: fake cuda pool 0 (device 0): 4 allocations, 0 reused, 2 grown, 1 trims
//
// exchange: device 1's pool admits device 0 once peer access is on.
// EXCHANGE: exchange: ok
// EXCHANGE-DAG: api stats: cuMemPoolSetAccess 1 {{[0-9]}}
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "omptarget/abi.h"
#include "plugin_entries.h"

namespace {

namespace abi = omptarget::abi;

int Failures = 0;
void expect(bool Ok, const char *What) {
  if (!Ok) {
    std::printf("FAILED: %s\n", What);
    ++Failures;
  }
}

using Plugin = fake_cuda::PluginEntries;

constexpr int64_t MiB = int64_t(1) << 20;

void *allocOn(Plugin &P, int32_t Dev, int64_t Size, __tgt_async_info &AI) {
  void *Ptr = nullptr;
  if (P.data_alloc_async(Dev, Size, nullptr, abi::kAllocDefault, &Ptr, &AI) != abi::kOffloadSuccess)
    return nullptr;
  return Ptr;
}

// Everything on one queue, compared after its synchronize.
void queued(Plugin &P) {
  for (int Round = 0; Round < 2; ++Round) {
    std::vector<unsigned char> Host[3], Back[3];
    __tgt_async_info AI;
    void *Dev[3];
    for (int I = 0; I < 3; ++I) {
      Host[I].assign(MiB, static_cast<unsigned char>(0x10 * (Round + 1) + I));
      Back[I].assign(MiB, 0);
      Dev[I] = allocOn(P, 0, MiB, AI);
      expect(Dev[I] != nullptr, "data_alloc_async of 1 MiB");
    }
    for (int I = 0; I < 3; ++I) {
      expect(P.data_submit_async(0, Dev[I], Host[I].data(), MiB, &AI) == abi::kOffloadSuccess,
             "data_submit_async");
      expect(P.data_retrieve_async(0, Back[I].data(), Dev[I], MiB, &AI) == abi::kOffloadSuccess,
             "data_retrieve_async");
    }
    for (void *D : Dev)
      expect(P.data_delete_async(0, D, &AI) == abi::kOffloadSuccess, "data_delete_async");
    expect(P.synchronize(0, &AI) == abi::kOffloadSuccess, "synchronize");
    expect(AI.Queue == nullptr, "the queue went back at synchronize");
    for (int I = 0; I < 3; ++I) expect(Host[I] == Back[I], "data through the allocations");
  }
}

void sync(Plugin &P) {
  for (int Round = 0; Round < 3; ++Round) {
    void *D = P.data_alloc(0, 256 * MiB, nullptr, abi::kAllocDefault);
    expect(D != nullptr, "data_alloc of 256 MiB");
    expect(P.data_delete(0, D) == abi::kOffloadSuccess, "data_delete of 256 MiB");
  }
}

// 64 MiB on a queue and released there: the pool keeps it.
void keep64(Plugin &P) {
  __tgt_async_info AI;
  void *D = allocOn(P, 0, 64 * MiB, AI);
  expect(D != nullptr, "64 MiB on a queue");
  expect(P.data_delete_async(0, D, &AI) == abi::kOffloadSuccess, "its release on the queue");
  expect(P.synchronize(0, &AI) == abi::kOffloadSuccess, "synchronize");
}

void oomTrim(Plugin &P) {
  keep64(P);
  void *D = P.data_alloc(0, 80 * MiB, nullptr, abi::kAllocDefault);
  expect(D != nullptr, "80 MiB after the pool gave its kept memory back");
  if (D) expect(P.data_delete(0, D) == abi::kOffloadSuccess, "data_delete of 80 MiB");
}

void oomFail(Plugin &P) {
  keep64(P);
  __tgt_async_info AI;
  void *D = nullptr;
  expect(P.data_alloc_async(0, 128 * MiB, nullptr, abi::kAllocDefault, &D, &AI) ==
             abi::kOffloadFail,
         "128 MiB of a 96 MiB device fails");
  std::printf("128 MiB: %s\n", D ? "non-null" : "null");
  void *Later = allocOn(P, 0, 64 * MiB, AI);
  expect(Later != nullptr, "64 MiB after the failure");
  if (Later) expect(P.data_delete_async(0, Later, &AI) == abi::kOffloadSuccess, "its release");
  expect(P.synchronize(0, &AI) == abi::kOffloadSuccess, "synchronize");
}

void exchange(Plugin &P) {
  std::vector<unsigned char> Host(MiB, 0x5a), Back(MiB, 0);
  __tgt_async_info A0, A1;
  void *D0 = allocOn(P, 0, MiB, A0);
  void *D1 = allocOn(P, 1, MiB, A1);
  expect(D0 && D1, "1 MiB on each device");
  expect(P.synchronize(1, &A1) == abi::kOffloadSuccess, "device 1's allocation done");
  expect(P.data_submit_async(0, D0, Host.data(), MiB, &A0) == abi::kOffloadSuccess, "submit");
  expect(P.data_exchange_async(0, D0, 1, D1, MiB, &A0) == abi::kOffloadSuccess, "exchange");
  expect(P.synchronize(0, &A0) == abi::kOffloadSuccess, "synchronize device 0");
  expect(P.data_retrieve_async(1, Back.data(), D1, MiB, &A1) == abi::kOffloadSuccess, "retrieve");
  expect(P.synchronize(1, &A1) == abi::kOffloadSuccess, "synchronize device 1");
  expect(Host == Back, "data exchanged between the devices' pool memory");
  expect(P.data_delete(0, D0) == abi::kOffloadSuccess && P.data_delete(1, D1) == abi::kOffloadSuccess,
         "synchronous release of queue-allocated memory");
}

}  // namespace

int main(int Argc, char **Argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (Argc != 3) {
    std::printf("usage: pool_entries PLUGIN CASE\n");
    return 2;
  }
  Plugin P;
  if (!fake_cuda::loadPluginEntries(
          Argv[1], P,
          {"number_of_devices", "init_device", "data_alloc", "data_delete", "data_alloc_async",
           "data_delete_async", "data_submit_async", "data_retrieve_async", "data_exchange_async",
           "synchronize"}))
    return 1;
  const int32_t Devices = P.number_of_devices();
  for (int32_t D = 0; D < Devices; ++D)
    expect(P.init_device(D) == abi::kOffloadSuccess, "init_device");
  expect(Devices > 0, "a device");
  if (Failures) return 1;
  const char *Case = Argv[2];
  if (!std::strcmp(Case, "queued"))
    queued(P);
  else if (!std::strcmp(Case, "sync"))
    sync(P);
  else if (!std::strcmp(Case, "oom-trim"))
    oomTrim(P);
  else if (!std::strcmp(Case, "oom-fail"))
    oomFail(P);
  else if (!std::strcmp(Case, "exchange") && Devices >= 2)
    exchange(P);
  else {
    std::printf("FAILED: unknown case %s (or too few devices)\n", Case);
    return 2;
  }
  if (Failures) return 1;
  std::printf("%s: ok\n", Case);
  return 0;
}
