// Fuzz target: the descriptor walk of a non-contiguous `target update`,
// forEachNonContigRun (src/core/non_contig.h), which dataUpdate calls for
// every map type with kMapNonContig before it copies each run. The input
// gives the base address, 1 to 16 dimension descriptors (offset, count,
// stride: small values mostly, any 64-bit value at times) and how many runs
// the visitor takes before it fails (as a copy would), so that no input
// walks for long.
//
// Asserted, against a reference: the recursive walk dataUpdate had before
// forEachNonContigRun, with every product and sum checked for wrapping:
//  - a walk that succeeds visits exactly the reference's runs, in its order,
//    none of which wraps (begin + size fits the address space, the size
//    fits an int64_t);
//  - a walk whose visitor fails stops at once and returns that failure,
//    after the reference's first runs;
//  - a walk that refuses the descriptors visits nothing, and the reference's
//    last run (every outer index at its last value) does wrap: nothing that
//    fits is refused.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz_check.h"
#include "non_contig.h"
#include "omptarget/abi.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

constexpr const char *kVisitorFailure = "fuzz visitor: enough runs";

struct Run {
  uint64_t Offset;
  uint64_t Size;
  bool Wraps;
};

// The walk before it was an iterative function, with wrap tracking.
struct Reference {
  Reference(const std::vector<__tgt_target_non_contig> &Dims, uintptr_t Base, size_t Limit)
      : Dims(Dims), Base(Base), Limit(Limit) {}

  const std::vector<__tgt_target_non_contig> &Dims;
  const uintptr_t Base;
  const size_t Limit;  // runs wanted at most
  const int32_t Count = static_cast<int32_t>(Dims.size());
  const int32_t Last = iteratedDimensions() - 1;
  std::vector<Run> Runs;

  int32_t iteratedDimensions() const {
    int32_t K = Count;
    while (K > 1 && Dims[K - 1].Offset == 0 &&
           Dims[K - 1].Count * Dims[K - 1].Stride == Dims[K - 2].Stride)
      --K;
    return K;
  }
  uint64_t offsetUnit(int32_t Depth) const {
    return Depth == Count - 2 ? Dims[Count - 1].Stride : Dims[Depth].Stride;
  }
  // Start of dimension Depth's element 0 from Offset; Wraps when it wraps.
  uint64_t start(int32_t Depth, uint64_t Offset, bool &Wraps) const {
    uint64_t Step, Start;
    Wraps |= __builtin_mul_overflow(Dims[Depth].Offset, offsetUnit(Depth), &Step);
    Wraps |= __builtin_add_overflow(Offset, Step, &Start);
    return Start;
  }
  Run run(uint64_t Start, bool Wraps) const {
    uint64_t Size, End, Limit;
    Wraps |= __builtin_mul_overflow(Dims[Last].Count, Dims[Last].Stride, &Size) ||
             Size > static_cast<uint64_t>(INT64_MAX) ||
             __builtin_add_overflow(Start, Size, &End) || __builtin_add_overflow(Base, End, &Limit);
    return Run{Start, Size, Wraps};
  }
  // Index * Dims[Depth].Stride past Start.
  uint64_t element(int32_t Depth, uint64_t Start, uint64_t Index, bool &Wraps) const {
    uint64_t Step, At;
    Wraps |= __builtin_mul_overflow(Index, Dims[Depth].Stride, &Step);
    Wraps |= __builtin_add_overflow(Start, Step, &At);
    return At;
  }

  void walk(int32_t Depth, uint64_t Offset, bool Wraps) {
    uint64_t Start = start(Depth, Offset, Wraps);
    if (Depth == Last) {
      Runs.push_back(run(Start, Wraps));
      return;
    }
    for (uint64_t I = 0; I < Dims[Depth].Count && Runs.size() < Limit; ++I) {
      bool ElementWraps = Wraps;
      uint64_t At = element(Depth, Start, I, ElementWraps);
      walk(Depth + 1, At, ElementWraps);
    }
  }
  // The last run, every outer index at its last value (outer counts > 0).
  Run lastRun() const {
    bool Wraps = false;
    uint64_t Offset = 0;
    for (int32_t D = 0; D < Last; ++D)
      Offset = element(D, start(D, Offset, Wraps), Dims[D].Count - 1, Wraps);
    return run(start(Last, Offset, Wraps), Wraps);
  }
};

uint64_t fieldValue(FuzzedDataProvider &In) {
  switch (In.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return In.ConsumeIntegralInRange<uint64_t>(0, 8);
    case 1: return In.ConsumeIntegralInRange<uint64_t>(0, 4096);
    case 2: return uint64_t{4} << In.ConsumeIntegralInRange<int>(0, 61);  // powers of two
    default: return In.ConsumeIntegral<uint64_t>();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  uintptr_t Base;
  switch (In.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: Base = 0x10000; break;
    case 1: Base = UINTPTR_MAX - In.ConsumeIntegralInRange<uintptr_t>(0, 1 << 16); break;
    default: Base = In.ConsumeIntegral<uintptr_t>(); break;
  }
  const auto Limit = In.ConsumeIntegralInRange<size_t>(1, 512);
  std::vector<__tgt_target_non_contig> Dims(In.ConsumeIntegralInRange<size_t>(1, 16));
  for (__tgt_target_non_contig &D : Dims) {
    D.Offset = fieldValue(In);
    D.Count = fieldValue(In);
    D.Stride = fieldValue(In);
  }

  Reference Ref(Dims, Base, Limit + 1);
  // An empty outer dimension: no run (and a walk of the others could be
  // long, visiting nothing).
  bool Empty = false;
  for (int32_t D = 0; D < Ref.Last; ++D) Empty |= Dims[D].Count == 0;
  if (!Empty) Ref.walk(0, 0, false);

  std::vector<Run> Visited;
  Status S = forEachNonContigRun(
      reinterpret_cast<void *>(Base), Dims.data(), static_cast<int32_t>(Dims.size()),
      [&](void *Begin, int64_t RunSize) -> Status {
        FUZZ_CHECK(RunSize >= 0);
        Visited.push_back(
            Run{reinterpret_cast<uintptr_t>(Begin) - Base, static_cast<uint64_t>(RunSize), false});
        if (Visited.size() > Limit) return makeError("%s", kVisitorFailure);
        return Status::success();
      });

  const bool VisitorFailed = !S && S.error().message() == kVisitorFailure;
  if (!S && !VisitorFailed) {
    // Refused: nothing visited, and the reference's last run wraps.
    FUZZ_CHECK(Visited.empty());
    FUZZ_CHECK(Ref.lastRun().Wraps);
    return 0;
  }
  // Visited: the reference's runs, none wrapping; all of them unless the
  // visitor stopped the walk at its failing run.
  FUZZ_CHECK(VisitorFailed ? Visited.size() == Limit + 1 : Visited.size() == Ref.Runs.size());
  FUZZ_CHECK(Visited.size() <= Ref.Runs.size());
  for (size_t I = 0; I < Visited.size(); ++I) {
    FUZZ_CHECK(!Ref.Runs[I].Wraps);
    FUZZ_CHECK(Visited[I].Offset == Ref.Runs[I].Offset && Visited[I].Size == Ref.Runs[I].Size);
  }
  return 0;
}
