#include "memcpy_engine.h"

#include <cstring>
#include <optional>
#include <vector>

#include "async_info.h"
#include "debug.h"
#include "runtime.h"

namespace omptarget::core::memcpy_engine {

Status copyBytes(char *Dst, Device *DstDev, const char *Src, Device *SrcDev, size_t Length) {
  if (Length == 0) return Status::success();
  auto Size = static_cast<int64_t>(Length);
  if (!SrcDev && !DstDev) {
    std::memmove(Dst, Src, Length);
    return Status::success();
  }
  if (!SrcDev) {
    AsyncInfo Async(*DstDev);
    if (Status S = DstDev->submit(Dst, const_cast<char *>(Src), Size, *Async.raw()); !S) return S;
    return Async.synchronize();
  }
  if (!DstDev) {
    AsyncInfo Async(*SrcDev);
    if (Status S = SrcDev->retrieve(Dst, const_cast<char *>(Src), Size, *Async.raw()); !S) return S;
    return Async.synchronize();
  }
  if (SrcDev->canExchangeWith(*DstDev)) {
    AsyncInfo Async(*SrcDev);
    if (Status S = SrcDev->exchange(const_cast<char *>(Src), *DstDev, Dst, Size, *Async.raw()); !S)
      return S;
    return Async.synchronize();
  }
  std::vector<char> Staging(Length);
  {
    AsyncInfo Async(*SrcDev);
    if (Status S = SrcDev->retrieve(Staging.data(), const_cast<char *>(Src), Size, *Async.raw());
        !S)
      return S;
    if (Status S = Async.synchronize(); !S) return S;
  }
  AsyncInfo Async(*DstDev);
  if (Status S = DstDev->submit(Dst, Staging.data(), Size, *Async.raw()); !S) return S;
  return Async.synchronize();
}

namespace {
// Resolves a device number of a memcpy call: null Device* means the host.
Expected<Device *> memcpyDevice(int DeviceNum, const char *Call, const char *Which) {
  if (isInitialDevice(DeviceNum)) return static_cast<Device *>(nullptr);
  auto D = Runtime::get().readyDevice(DeviceNum, Call);
  if (!D) return makeError("%s (%s device)", D.error().message().c_str(), Which);
  return *D;
}
}  // namespace

bool validCopyRanges(const char *Call, const void *Dst, size_t DstOffset, const void *Src,
                     size_t SrcOffset, size_t Length) {
  if (!rangeFits(Dst, DstOffset, Length) || !rangeFits(Src, SrcOffset, Length)) {
    debug::error(
        "%s: %zu bytes at offset %zu (destination) and %zu (source) do not fit in the "
        "address space (a negative value passed as a size?); nothing was copied",
        Call, Length, DstOffset, SrcOffset);
    return false;
  }
  AllocationRegistry &Blocks = Runtime::get().allocations();
  struct End {
    const char *Which;
    const void *Base;
    size_t Offset;
  };
  for (const End &E : {End{"destination", Dst, DstOffset}, End{"source", Src, SrcOffset}})
    if (auto Why = Blocks.overrun(E.Base, E.Offset, Length)) {
      debug::error("%s: %s: %s; nothing was copied", Call, E.Which, Why->c_str());
      return false;
    }
  return true;
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

namespace {
// One past the last byte of the box copied from or into an array of Dims
// (ElementSize-byte elements) at Offsets, counted from the array's start;
// nullopt when it does not fit in size_t. The box is non-empty and inside
// the array (checked first).
std::optional<size_t> boxEnd(size_t ElementSize, int NumDims, const size_t *Volume,
                             const size_t *Offsets, const size_t *Dims) {
  size_t End = ElementSize, Stride = ElementSize;
  for (int I = NumDims - 1; I >= 0; --I) {
    size_t Last = 0;
    if (__builtin_mul_overflow(Offsets[I] + Volume[I] - 1, Stride, &Last) ||
        __builtin_add_overflow(End, Last, &End) ||
        (I > 0 && __builtin_mul_overflow(Stride, Dims[I], &Stride)))
      return std::nullopt;
  }
  return End;
}
}  // namespace

bool validRectArguments(const char *Call, const void *Dst, const void *Src, size_t ElementSize,
                        int NumDims, const size_t *Volume, const size_t *DstOffsets,
                        const size_t *SrcOffsets, const size_t *DstDims, const size_t *SrcDims) {
  if (!Dst || !Src || ElementSize == 0 || NumDims < 1 || !Volume || !DstOffsets || !SrcOffsets ||
      !DstDims || !SrcDims) {
    debug::error("%s: invalid arguments (dst " OMPT_PTR_FMT ", src " OMPT_PTR_FMT
                 ", element size %zu, %d dims); pointers and arrays must be non-null, sizes "
                 "positive",
                 Call, OMPT_PTR(Dst), OMPT_PTR(Src), ElementSize, NumDims);
    return false;
  }
  // The copied box must lie inside both arrays (the asynchronous copy runs
  // later: catch what can be caught now).
  bool Empty = false;
  for (int I = 0; I < NumDims; ++I) {
    const char *Side = nullptr;
    if (DstOffsets[I] > DstDims[I] || Volume[I] > DstDims[I] - DstOffsets[I])
      Side = "destination";
    else if (SrcOffsets[I] > SrcDims[I] || Volume[I] > SrcDims[I] - SrcOffsets[I])
      Side = "source";
    if (Side) {
      debug::error("%s: dimension %d: volume %zu at %s offset %zu exceeds the %s dimension %zu",
                   Call, I, Volume[I], Side, Side[0] == 'd' ? DstOffsets[I] : SrcOffsets[I], Side,
                   Side[0] == 'd' ? DstDims[I] : SrcDims[I]);
      return false;
    }
    Empty |= Volume[I] == 0;
  }
  if (Empty) return true;
  // ...and the bytes it touches inside the block from omp_target_alloc (or
  // llvm_omp_target_alloc_*) that holds the array's start, as for
  // omp_target_memcpy: the dimensions are the caller's word, the block's
  // size is the runtime's (LLVM 14 copies past the block).
  struct Side {
    const char *Which;
    const void *Base;
    const size_t *Offsets, *Dims;
  };
  for (const Side &S :
       {Side{"destination", Dst, DstOffsets, DstDims}, Side{"source", Src, SrcOffsets, SrcDims}}) {
    std::optional<size_t> End = boxEnd(ElementSize, NumDims, Volume, S.Offsets, S.Dims);
    if (!End || !rangeFits(S.Base, 0, *End)) {
      debug::error(
          "%s: %s: the copied box does not fit in the address space (a negative value "
          "passed as a size?); nothing was copied",
          Call, S.Which);
      return false;
    }
    if (auto Why = Runtime::get().allocations().overrun(S.Base, 0, *End)) {
      debug::error("%s: %s: the copied box: %s; nothing was copied", Call, S.Which, Why->c_str());
      return false;
    }
  }
  return true;
}

}  // namespace omptarget::core::memcpy_engine
