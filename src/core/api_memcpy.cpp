// omp_target_memcpy and omp_target_memcpy_rect between any two of the host
// and the devices. Device-to-device copies use the plugin's data_exchange
// when the pair supports it and stage through the host otherwise. The copy
// helpers (namespace memcpy_impl) are shared with the asynchronous variants
// in api_memcpy_async.cpp.
#include <cinttypes>
#include <climits>
#include <cstring>
#include <vector>

#include "async_info.h"
#include "debug.h"
#include "export.h"
#include "info.h"
#include "memcpy_impl.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

namespace omptarget::core::memcpy_impl {

// One contiguous copy; `Async` batches the copies of a rectangle.
Status copyBytes(char *Dst, Device *DstDev, const char *Src, Device *SrcDev, size_t Length) {
  if (Length == 0) return Status::success();
  auto Size = static_cast<int64_t>(Length);
  if (!SrcDev && !DstDev) {
    std::memmove(Dst, Src, Length);
    return Status::success();
  }
  if (!SrcDev) {
    AsyncInfo Async(*DstDev);
    if (Status S = DstDev->submit(Dst, const_cast<char *>(Src), Size, Async); !S) return S;
    return Async.synchronize();
  }
  if (!DstDev) {
    AsyncInfo Async(*SrcDev);
    if (Status S = SrcDev->retrieve(Dst, const_cast<char *>(Src), Size, Async); !S) return S;
    return Async.synchronize();
  }
  if (SrcDev->canExchangeWith(*DstDev)) {
    AsyncInfo Async(*SrcDev);
    if (Status S = SrcDev->exchange(const_cast<char *>(Src), *DstDev, Dst, Size, Async); !S) return S;
    return Async.synchronize();
  }
  std::vector<char> Staging(Length);
  {
    AsyncInfo Async(*SrcDev);
    if (Status S = SrcDev->retrieve(Staging.data(), const_cast<char *>(Src), Size, Async); !S) return S;
    if (Status S = Async.synchronize(); !S) return S;
  }
  AsyncInfo Async(*DstDev);
  if (Status S = DstDev->submit(Dst, Staging.data(), Size, Async); !S) return S;
  return Async.synchronize();
}

// Resolves a device number of a memcpy call: null Device* means the host.
Expected<Device *> memcpyDevice(int DeviceNum, const char *Call, const char *Which) {
  if (isInitialDevice(DeviceNum)) return static_cast<Device *>(nullptr);
  auto D = Runtime::get().readyDevice(DeviceNum, Call);
  if (!D) return makeError("%s (%s device)", D.error().message().c_str(), Which);
  return *D;
}

// Both ends of a copy (null: the host); false after reporting a bad device.
bool resolveEnds(const char *Call, int DstDevice, int SrcDevice, Device *&Dst, Device *&Src) {
  auto DstDev = memcpyDevice(DstDevice, Call, "destination");
  auto SrcDev = memcpyDevice(SrcDevice, Call, "source");
  if (!DstDev || !SrcDev) {
    debug::error("%s", (!DstDev ? DstDev.error() : SrcDev.error()).message().c_str());
    return false;
  }
  Dst = *DstDev;
  Src = *SrcDev;
  return true;
}

Status copyRect(char *Dst, Device *DstDev, const char *Src, Device *SrcDev, size_t ElementSize,
                int NumDims, const size_t *Volume, const size_t *DstOffsets,
                const size_t *SrcOffsets, const size_t *DstDims, const size_t *SrcDims) {
  if (NumDims == 1)
    return copyBytes(Dst + DstOffsets[0] * ElementSize, DstDev, Src + SrcOffsets[0] * ElementSize,
                     SrcDev, Volume[0] * ElementSize);
  // Bytes spanned by one index step of the outermost dimension.
  size_t DstStride = ElementSize, SrcStride = ElementSize;
  for (int I = 1; I < NumDims; ++I) {
    DstStride *= DstDims[I];
    SrcStride *= SrcDims[I];
  }
  for (size_t I = 0; I < Volume[0]; ++I) {
    Status S = copyRect(Dst + (DstOffsets[0] + I) * DstStride, DstDev,
                        Src + (SrcOffsets[0] + I) * SrcStride, SrcDev, ElementSize, NumDims - 1,
                        Volume + 1, DstOffsets + 1, SrcOffsets + 1, DstDims + 1, SrcDims + 1);
    if (!S) return S;
  }
  return Status::success();
}

bool validRectArguments(const char *Call, const void *Dst, const void *Src, size_t ElementSize,
                        int NumDims, const size_t *Volume, const size_t *DstOffsets,
                        const size_t *SrcOffsets, const size_t *DstDims, const size_t *SrcDims) {
  if (Dst && Src && ElementSize != 0 && NumDims >= 1 && Volume && DstOffsets && SrcOffsets &&
      DstDims && SrcDims)
    return true;
  debug::error("%s: invalid arguments (dst " OMPT_PTR_FMT ", src " OMPT_PTR_FMT
               ", element size %zu, %d dims); pointers and arrays must be non-null, sizes positive",
               Call, OMPT_PTR(Dst), OMPT_PTR(Src), ElementSize, NumDims);
  return false;
}

}  // namespace omptarget::core::memcpy_impl

using namespace omptarget::core::memcpy_impl;

extern "C" {

OMPT_EXPORT int omp_target_memcpy(void *Dst, const void *Src, size_t Length, size_t DstOffset,
                                  size_t SrcOffset, int DstDevice, int SrcDevice) {
  const char *Call = "omp_target_memcpy";
  if (Length == 0) return abi::kOffloadSuccess;
  if (!Dst || !Src) {
    debug::error("%s: null %s pointer (dst " OMPT_PTR_FMT ", src " OMPT_PTR_FMT ", %zu bytes)", Call,
                 !Dst ? "destination" : "source", OMPT_PTR(Dst), OMPT_PTR(Src), Length);
    return abi::kOffloadFail;
  }
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
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
  // Both null: the caller asks how many dimensions are supported.
  if (!Dst && !Src) return INT_MAX;
  if (!validRectArguments(Call, Dst, Src, ElementSize, NumDims, Volume, DstOffsets, SrcOffsets,
                          DstDimensions, SrcDimensions))
    return abi::kOffloadFail;
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  Status S = copyRect(static_cast<char *>(Dst), DstDev, static_cast<const char *>(Src), SrcDev,
                      ElementSize, NumDims, Volume, DstOffsets, SrcOffsets, DstDimensions,
                      SrcDimensions);
  if (!S) {
    debug::error("%s: %s", Call, S.error().message().c_str());
    return abi::kOffloadFail;
  }
  return abi::kOffloadSuccess;
}

}  // extern "C"
