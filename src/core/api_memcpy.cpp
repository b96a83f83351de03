// omp_target_memcpy and omp_target_memcpy_rect between any two of the host
// and the devices: argument checks, then the copy engine (memcpy_engine.h),
// which the asynchronous variants in api_memcpy_async.cpp share.
#include <climits>

#include "profile.h"
#include "debug.h"
#include "export.h"
#include "memcpy_engine.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;
using namespace omptarget::core::memcpy_engine;

extern "C" {

OMPT_EXPORT int omp_target_memcpy(void *Dst, const void *Src, size_t Length, size_t DstOffset,
                                  size_t SrcOffset, int DstDevice, int SrcDevice) {
  const char *Call = "omp_target_memcpy";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was copied");
    return abi::kOffloadFail;
  }
  profile::HostSpan Span(Call, nullptr, -1);
  if (Length == 0) return abi::kOffloadSuccess;
  if (!Dst || !Src) {
    debug::error("%s: null %s pointer (dst " OMPT_PTR_FMT ", src " OMPT_PTR_FMT ", %zu bytes)",
                 Call, !Dst ? "destination" : "source", OMPT_PTR(Dst), OMPT_PTR(Src), Length);
    return abi::kOffloadFail;
  }
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  if (!validCopyRanges(Call, Dst, DstOffset, Src, SrcOffset, Length)) return abi::kOffloadFail;
  Status S = copyBytes(static_cast<char *>(Dst) + DstOffset, DstDev,
                       static_cast<const char *>(Src) + SrcOffset, SrcDev, Length);
  if (!S) {
    debug::error("%s: %s", Call, S.error().message().c_str());
    return abi::kOffloadFail;
  }
  return abi::kOffloadSuccess;
}

OMPT_EXPORT int omp_target_memcpy_rect(void *Dst, const void *Src, size_t ElementSize, int NumDims,
                                       const size_t *Volume, const size_t *DstOffsets,
                                       const size_t *SrcOffsets, const size_t *DstDimensions,
                                       const size_t *SrcDimensions, int DstDevice, int SrcDevice) {
  const char *Call = "omp_target_memcpy_rect";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was copied");
    return abi::kOffloadFail;
  }
  profile::HostSpan Span(Call, nullptr, -1);
  // Both null: the caller asks how many dimensions are supported.
  if (!Dst && !Src) return INT_MAX;
  if (!validRectArguments(Call, Dst, Src, ElementSize, NumDims, Volume, DstOffsets, SrcOffsets,
                          DstDimensions, SrcDimensions))
    return abi::kOffloadFail;
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  Status S =
      copyRect(static_cast<char *>(Dst), DstDev, static_cast<const char *>(Src), SrcDev,
               ElementSize, NumDims, Volume, DstOffsets, SrcOffsets, DstDimensions, SrcDimensions);
  if (!S) {
    debug::error("%s: %s", Call, S.error().message().c_str());
    return abi::kOffloadFail;
  }
  return abi::kOffloadSuccess;
}

}  // extern "C"
