#include "non_contig.h"

#include <vector>

namespace omptarget::core {

namespace {
// Number of leading dimensions to iterate: trailing dimensions that are
// fully covered (offset 0, count * stride == the outer stride) fold into one
// contiguous run of their outer dimension.
int32_t iteratedDimensions(const __tgt_target_non_contig *Dims, int32_t Count) {
  int32_t K = Count;
  while (K > 1 && Dims[K - 1].Offset == 0 &&
         Dims[K - 1].Count * Dims[K - 1].Stride == Dims[K - 2].Stride)
    --K;
  return K;
}

// clang 14 gives offsets in elements of each dimension and strides in bytes
// that include the section's step. The unit of the innermost dimension is
// the element size (the last descriptor); outer units are taken to be the
// stride, which is exact for unit steps (clang 14 does not pass the extent
// that a strided outer dimension would need).
uint64_t offsetUnit(const __tgt_target_non_contig *Dims, int32_t Depth, int32_t Count) {
  if (Depth == Count - 2) return Dims[Count - 1].Stride;
  return Dims[Depth].Stride;
}

// Sum += A * B, false when the product or the sum wraps.
bool addProduct(uint64_t &Sum, uint64_t A, uint64_t B) {
  uint64_t Product;
  return !__builtin_mul_overflow(A, B, &Product) && !__builtin_add_overflow(Sum, Product, &Sum);
}
}  // namespace

Status forEachNonContigRun(void *Base, const __tgt_target_non_contig *Dims, int32_t Count,
                           const std::function<Status(void *Begin, int64_t Size)> &Visit) {
  const int32_t Last = iteratedDimensions(Dims, Count) - 1;  // its runs are contiguous
  // An empty outer dimension: no run (the odometer below needs every outer
  // count positive).
  for (int32_t D = 0; D < Last; ++D)
    if (Dims[D].Count == 0) return Status::success();

  // The end of the last run (every outer index at its last value) must fit
  // the address space from Base, and a run's size an int64_t. Every run
  // starts at or before the last one (all terms grow with the indices), so
  // then no offset below wraps. (Found by fuzz/noncontig_update.cpp: the
  // walk made wrapped addresses, and negative sizes, from such descriptors.)
  const auto BaseAddr = reinterpret_cast<uintptr_t>(Base);
  uint64_t RunSize = 0, End = 0;
  bool Fits = addProduct(RunSize, Dims[Last].Count, Dims[Last].Stride) &&
              RunSize <= static_cast<uint64_t>(INT64_MAX);
  for (int32_t D = 0; D <= Last && Fits; ++D) {
    Fits = addProduct(End, Dims[D].Offset, offsetUnit(Dims, D, Count));
    if (Fits && D < Last) Fits = addProduct(End, Dims[D].Count - 1, Dims[D].Stride);
  }
  uintptr_t Limit;
  if (!Fits || __builtin_add_overflow(End, RunSize, &End) ||
      __builtin_add_overflow(BaseAddr, End, &Limit))
    return makeError(
        "non-contiguous update from %p: its %d dimension descriptors (offset, count, stride) "
        "reach past the end of the address space (a corrupt descriptor?)",
        Base, Count);

  // An odometer over the outer dimensions: Index[D] is dimension D's
  // current index, Origin[D] the offset where its element 0 lies.
  std::vector<uint64_t> Index(static_cast<size_t>(Last) + 1, 0);
  std::vector<uint64_t> Origin(static_cast<size_t>(Last) + 1, 0);
  auto Descend = [&](int32_t From) {  // Origin and Index of dimensions From..Last
    for (int32_t D = From; D <= Last; ++D) {
      uint64_t Outer = D == 0 ? 0 : Origin[D - 1] + Index[D - 1] * Dims[D - 1].Stride;
      Origin[D] = Outer + Dims[D].Offset * offsetUnit(Dims, D, Count);
      Index[D] = 0;
    }
  };
  Descend(0);
  for (;;) {
    if (Status S = Visit(reinterpret_cast<void *>(BaseAddr + Origin[Last]),
                         static_cast<int64_t>(RunSize));
        !S)
      return S;
    int32_t D = Last - 1;
    while (D >= 0 && ++Index[D] == Dims[D].Count) --D;
    if (D < 0) return Status::success();
    Descend(D + 1);
  }
}

}  // namespace omptarget::core
