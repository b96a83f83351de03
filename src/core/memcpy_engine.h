// The copy engine behind omp_target_memcpy[_rect] and their asynchronous
// variants: host/device endpoints, device-to-device through the plugin's
// exchange when the pair supports it, staging through the host otherwise.
// Each contiguous copy is one AsyncInfo, synchronized before it returns.
// Nothing here is inline: a copy costs a plugin call and a synchronize, which
// dwarf a call into another file (and the build's LTO may inline it anyway).
#pragma once

#include <cstddef>

#include "device.h"
#include "error.h"

namespace omptarget::core::memcpy_engine {

// One contiguous copy between two endpoints (null Device*: the host).
Status copyBytes(char *Dst, Device *DstDev, const char *Src, Device *SrcDev, size_t Length);
// A num_dims-dimensional block, innermost dimension contiguous.
Status copyRect(char *Dst, Device *DstDev, const char *Src, Device *SrcDev, size_t ElementSize,
                int NumDims, const size_t *Volume, const size_t *DstOffsets,
                const size_t *SrcOffsets, const size_t *DstDims, const size_t *SrcDims);
// Both endpoints of a copy; false after reporting a bad device number.
bool resolveEnds(const char *Call, int DstDevice, int SrcDevice, Device *&Dst, Device *&Src);
// The ranges of a contiguous copy (omp_target_memcpy[_async]): length and
// offsets that fit in the address space (a negative value passed as size_t
// does not), and neither end running past a block from omp_target_alloc /
// llvm_omp_target_alloc_* that contains it (the plugin would write past the
// block: on the host device the heap); false after reporting.
bool validCopyRanges(const char *Call, const void *Dst, size_t DstOffset, const void *Src,
                     size_t SrcOffset, size_t Length);
// The argument checks omp_target_memcpy_rect[_async] share; false after
// reporting (both pointers null is the caller's dimension query, not checked).
bool validRectArguments(const char *Call, const void *Dst, const void *Src, size_t ElementSize,
                        int NumDims, const size_t *Volume, const size_t *DstOffsets,
                        const size_t *SrcOffsets, const size_t *DstDims, const size_t *SrcDims);

}  // namespace omptarget::core::memcpy_engine
