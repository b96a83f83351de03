// Google Benchmark of plugin-common's MemoryManager (the per-device cache of
// small freed device blocks) on a malloc backend: the cost of a cached
// allocation + free pair, alone and from 4 threads on one size class or on
// four. Prints figures; asserts nothing about time (docs/benchmarks.md,
// "Memory manager").
//
//   take+keep        takeCached + tryKeep: the inline halves that the
//                    direct table's data_alloc/data_delete use
//   allocate+free    allocate + deallocate
//   .../mt_process   the same pair on one thread of a process that has
//                    started another thread (locks then use atomic
//                    instructions; a single-threaded process locks with
//                    plain stores)
//   lock pairs       a FutexMutex lock + unlock, and a SharedMutex read lock
//                    + unlock: what a reader lock on the address index
//                    would add to every free
//   pair/threads:4   the device's path (takeCached, else allocate; tryKeep,
//                    else deallocate) from 4 threads; same_class: all on
//                    the 128-byte class, other_classes: thread i on class i
//
// The single-threaded cases are registered first: once a benchmark has
// started a thread the process stays multi-threaded.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <thread>

#include "memory_manager.h"
#include "scoped_lock.h"
#include "shared_mutex.h"

using omptarget::Expected;
using omptarget::Status;
using omptarget::plugin::MemoryManager;

namespace {

MemoryManager &manager() {
  static MemoryManager *MM = [] {
    auto *M = new MemoryManager(
        [](size_t Size) -> Expected<void *> { return std::aligned_alloc(64, Size); },
        [](void *P) -> Status {
          std::free(P);
          return {};
        });
    M->setThreshold(MemoryManager::kDefaultThreshold);
    return M;
  }();
  return *MM;
}

void makeMultiThreaded(const benchmark::State &State) {
  if (State.range(0) != 0) std::thread([] {}).join();
}

void *take(MemoryManager &MM, size_t Size) {
  if (void *P = MM.takeCached(Size)) return P;
  Expected<void *> P = MM.allocate(Size);
  if (!P) std::abort();
  return *P;
}

void keep(MemoryManager &MM, void *P) {
  if (MM.tryKeep(P)) return;
  Expected<bool> Kept = MM.deallocate(P);
  if (!Kept || !*Kept) std::abort();
}

void BM_TakeKeep(benchmark::State &State) {
  makeMultiThreaded(State);
  MemoryManager &MM = manager();
  keep(MM, take(MM, 128));  // one cached block of the class
  for (auto _ : State) {
    void *P = MM.takeCached(128);
    benchmark::DoNotOptimize(P);
    if (!MM.tryKeep(P)) std::abort();
  }
}

void BM_AllocateDeallocate(benchmark::State &State) {
  makeMultiThreaded(State);
  MemoryManager &MM = manager();
  keep(MM, take(MM, 128));
  for (auto _ : State) {
    Expected<void *> P = MM.allocate(128);
    benchmark::DoNotOptimize(*P);
    Expected<bool> Kept = MM.deallocate(*P);
    benchmark::DoNotOptimize(*Kept);
  }
}

void BM_FutexMutexPair(benchmark::State &State) {
  makeMultiThreaded(State);
  static omptarget::FutexMutex M;
  for (auto _ : State) {
    omptarget::ScopedLock Lock(M);
    benchmark::ClobberMemory();
  }
}

void BM_SharedMutexReadPair(benchmark::State &State) {
  makeMultiThreaded(State);
  static omptarget::SharedMutex M;
  for (auto _ : State) {
    omptarget::ReaderLock Lock(M);
    benchmark::ClobberMemory();
  }
}

void BM_PairSameClass(benchmark::State &State) {
  MemoryManager &MM = manager();
  for (auto _ : State) {
    void *P = take(MM, 128);
    benchmark::DoNotOptimize(P);
    keep(MM, P);
  }
  State.SetItemsProcessed(State.iterations());
}

void BM_PairOtherClasses(benchmark::State &State) {
  MemoryManager &MM = manager();
  size_t Size = MemoryManager::classSize(static_cast<unsigned>(State.thread_index()));
  for (auto _ : State) {
    void *P = take(MM, Size);
    benchmark::DoNotOptimize(P);
    keep(MM, P);
  }
  State.SetItemsProcessed(State.iterations());
}

BENCHMARK(BM_TakeKeep)->Arg(0)->ArgName("mt_process");
BENCHMARK(BM_AllocateDeallocate)->Arg(0)->ArgName("mt_process");
BENCHMARK(BM_FutexMutexPair)->Arg(0)->ArgName("mt_process");
BENCHMARK(BM_SharedMutexReadPair)->Arg(0)->ArgName("mt_process");
BENCHMARK(BM_TakeKeep)->Arg(1)->ArgName("mt_process");
BENCHMARK(BM_AllocateDeallocate)->Arg(1)->ArgName("mt_process");
BENCHMARK(BM_FutexMutexPair)->Arg(1)->ArgName("mt_process");
BENCHMARK(BM_SharedMutexReadPair)->Arg(1)->ArgName("mt_process");
BENCHMARK(BM_PairSameClass)->Threads(4)->UseRealTime();
BENCHMARK(BM_PairOtherClasses)->Threads(4)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
