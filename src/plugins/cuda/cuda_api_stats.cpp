#include "cuda_api_stats.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "env.h"

namespace omptarget::cuda {

namespace {

enum EntryIndex : size_t {
#define OMPT_CUDA_INDEX(Name, Symbol) Index_##Name,
  OMPT_CUDA_DRIVER_ALL_ENTRIES(OMPT_CUDA_INDEX)
#undef OMPT_CUDA_INDEX
      EntryCount
};

struct Counter {
  const char *Symbol = nullptr;
  std::atomic<uint64_t> Calls{0};
  std::atomic<uint64_t> Nanoseconds{0};
};

std::array<Counter, EntryCount> Counters;
// The driver's own entry points, indexed like Counters.
std::array<void *, EntryCount> RealEntries{};

template <size_t Index, typename Fn>
struct TimedEntry;

template <size_t Index, typename Result, typename... Args>
struct TimedEntry<Index, Result (*)(Args...)> {
  static Result call(Args... Arguments) {
    const auto Start = std::chrono::steady_clock::now();
    Result R = reinterpret_cast<Result (*)(Args...)>(RealEntries[Index])(Arguments...);
    const auto Spent = std::chrono::steady_clock::now() - Start;
    Counters[Index].Calls.fetch_add(1, std::memory_order_relaxed);
    Counters[Index].Nanoseconds.fetch_add(
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Spent).count()),
        std::memory_order_relaxed);
    return R;
  }
};

void printApiStats() {
  std::vector<const Counter *> Used;
  for (const Counter &C : Counters)
    if (C.Calls.load(std::memory_order_relaxed) > 0) Used.push_back(&C);
  std::sort(Used.begin(), Used.end(), [](const Counter *A, const Counter *B) {
    return A->Nanoseconds.load(std::memory_order_relaxed) >
           B->Nanoseconds.load(std::memory_order_relaxed);
  });
  std::fprintf(stderr, "omptarget cuda api stats: %-44s %12s %14s %10s\n", "entry point", "calls",
               "total us", "mean us");
  for (const Counter *C : Used) {
    const uint64_t Calls = C->Calls.load(std::memory_order_relaxed);
    const double TotalUs =
        static_cast<double>(C->Nanoseconds.load(std::memory_order_relaxed)) / 1e3;
    std::fprintf(stderr, "omptarget cuda api stats: %-44s %12llu %14.1f %10.3f\n", C->Symbol,
                 static_cast<unsigned long long>(Calls), TotalUs,
                 TotalUs / static_cast<double>(Calls));
  }
}

}  // namespace

void installApiStatsIfRequested(Driver &Table) {
  if (env::getInt("OMPTARGET_CUDA_API_STATS", 0, 0, 1) == 0) return;
#define OMPT_CUDA_WRAP(Name, SymbolName)                            \
  Counters[Index_##Name].Symbol = SymbolName;                       \
  RealEntries[Index_##Name] = reinterpret_cast<void *>(Table.Name); \
  if (Table.Name) Table.Name = &TimedEntry<Index_##Name, decltype(Table.Name)>::call;
  OMPT_CUDA_DRIVER_ALL_ENTRIES(OMPT_CUDA_WRAP)
#undef OMPT_CUDA_WRAP
  std::atexit(printApiStats);
}

}  // namespace omptarget::cuda
