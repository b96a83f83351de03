// The walk of a non-contiguous `target update` (map type kMapNonContig):
// instead of a list item's begin and size, clang 14 passes an array of
// __tgt_target_non_contig descriptors, outermost dimension first, the last
// one the element (offset 0, count 1, stride the element size), and their
// number as the size. The walk splits the section into the contiguous runs
// that are copied one by one.
//
// The descriptors come through the ABI and nothing but their number bounds
// them. Before the first run is visited, the walk checks that the furthest
// byte of the section (every outer index at its last value, plus the last
// run) lies within the address space from the base, without a product or a
// sum wrapping, and that a run's size fits an int64_t: a descriptor that
// does not is an error, never a wrapped address. A section with an empty
// outer dimension has no run. The walk is iterative: the number of
// dimensions costs no stack.
#pragma once

#include <cstdint>
#include <functional>

#include "error.h"
#include "omptarget/abi.h"

namespace omptarget::core {

// Calls Visit(Begin, Size) for each contiguous run of the section based at
// Base whose Count (> 0) descriptors are Dims, the outermost dimension
// slowest; stops at, and returns, the first failure of Visit. Trailing
// dimensions that are fully covered fold into one run of their outer
// dimension.
Status forEachNonContigRun(void *Base, const __tgt_target_non_contig *Dims, int32_t Count,
                           const std::function<Status(void *Begin, int64_t Size)> &Visit);

}  // namespace omptarget::core
