// OpenMP 5.1 omp_target_memcpy_async and omp_target_memcpy_rect_async (not in
// LLVM 14; declared in include/omptarget/omp_target_ext.h).
//
// Every argument is checked synchronously, before anything is submitted: a bad
// call returns nonzero with a message and creates no task. A good call becomes
// an explicit libomp task whose dependences are the union of the elements of
// the depend objects in depobj_list; its body performs exactly the copy of
// omp_target_memcpy[_rect] (memcpy_engine.h, device-to-device
// exchange included). The task machinery is omp_tasks.h's (a target task of
// libomp, deferred like the task of `target nowait`; without libomp the copy
// is done synchronously). Errors of the deferred copy can only be reported by
// message.
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "profile.h"
#include "debug.h"
#include "error.h"
#include "export.h"
#include "memcpy_engine.h"
#include "omp_tasks.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;
using namespace omptarget::core::memcpy_engine;

namespace {

// The copy a task performs: the task's payload, followed for a rectangle by
// the 5 * NumDims size_t of volume, dst/src offsets and dst/src dimensions
// (the caller's arrays may die when the call returns).
struct CopyArgs {
  const char *Call;
  char *Dst;
  const char *Src;
  Device *DstDev;  // null: the host
  Device *SrcDev;
  int DstDevice;
  int SrcDevice;
  size_t Length;  // contiguous copy: bytes (offsets already applied)
  size_t ElementSize;
  int NumDims;  // 0: contiguous copy
  size_t *dims() { return reinterpret_cast<size_t *>(this + 1); }
};
static_assert(sizeof(CopyArgs) % alignof(size_t) == 0);

Status runCopy(CopyArgs &A) {
  if (A.NumDims == 0) return copyBytes(A.Dst, A.DstDev, A.Src, A.SrcDev, A.Length);
  size_t *D = A.dims();
  size_t N = static_cast<size_t>(A.NumDims);
  return copyRect(A.Dst, A.DstDev, A.Src, A.SrcDev, A.ElementSize, A.NumDims, D, D + N, D + 2 * N,
                  D + 3 * N, D + 4 * N);
}

// Runs the copy; reports (it cannot return) a failure.
void copyAndReport(CopyArgs &A, bool Deferred) {
  RuntimeUse Use;
  if (!Use) {
    debug::error("%s: the runtime was shut down before the asynchronous copy (dst " OMPT_PTR_FMT
                 " on device %d, src " OMPT_PTR_FMT " on device %d) ran; the copy was not done",
                 A.Call, OMPT_PTR(A.Dst), A.DstDevice, OMPT_PTR(A.Src), A.SrcDevice);
    return;
  }
  Status S = runCopy(A);
  if (!S)
    debug::error("%s: %scopy from " OMPT_PTR_FMT " (device %d) to " OMPT_PTR_FMT
                 " (device %d) failed: %s",
                 A.Call, Deferred ? "asynchronous " : "", OMPT_PTR(A.Src), A.SrcDevice,
                 OMPT_PTR(A.Dst), A.DstDevice, S.error().message().c_str());
}

void runCopyTask(void *Payload, bool Deferred) {
  copyAndReport(*static_cast<CopyArgs *>(Payload), Deferred);
}

// Creates the copy task (or, without libomp, copies now). `Fill` initializes
// the CopyArgs and the `Extra` bytes after it.
template <typename FillFn>
int submit(const char *Call, size_t Extra, const std::vector<tasks::KmpDependInfo> &Deps,
           FillFn Fill) {
  auto Task = tasks::DeferredTask::create(Call, sizeof(CopyArgs) + Extra, runCopyTask);
  if (!Task) {
    debug::error("%s", Task.error().message().c_str());
    return abi::kOffloadFail;
  }
  Fill(*static_cast<CopyArgs *>(Task->payload()));
  Task->submit(Deps);
  return abi::kOffloadSuccess;
}

}  // namespace

extern "C" {

OMPT_EXPORT int omp_target_memcpy_async(void *Dst, const void *Src, size_t Length, size_t DstOffset,
                                        size_t SrcOffset, int DstDevice, int SrcDevice,
                                        int DepobjCount, tasks::OmpDepend *DepobjList) {
  const char *Call = "omp_target_memcpy_async";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was copied");
    return abi::kOffloadFail;
  }
  profile::HostSpan Span(Call, nullptr, -1);
  if (Length != 0 && (!Dst || !Src)) {
    debug::error("%s: null %s pointer (dst " OMPT_PTR_FMT ", src " OMPT_PTR_FMT ", %zu bytes)",
                 Call, !Dst ? "destination" : "source", OMPT_PTR(Dst), OMPT_PTR(Src), Length);
    return abi::kOffloadFail;
  }
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  if (Length != 0 && !validCopyRanges(Call, Dst, DstOffset, Src, SrcOffset, Length))
    return abi::kOffloadFail;
  std::vector<tasks::KmpDependInfo> Deps;
  if (!tasks::collectDepobjs(Call, DepobjCount, DepobjList, Deps)) return abi::kOffloadFail;
  // A 0-byte copy still becomes a task: it orders its dependences.
  return submit(Call, 0, Deps, [&](CopyArgs &A) {
    A = CopyArgs{Call,
                 Length ? static_cast<char *>(Dst) + DstOffset : nullptr,
                 Length ? static_cast<const char *>(Src) + SrcOffset : nullptr,
                 DstDev,
                 SrcDev,
                 DstDevice,
                 SrcDevice,
                 Length,
                 0,
                 0};
  });
}

OMPT_EXPORT int omp_target_memcpy_rect_async(void *Dst, const void *Src, size_t ElementSize,
                                             int NumDims, const size_t *Volume,
                                             const size_t *DstOffsets, const size_t *SrcOffsets,
                                             const size_t *DstDimensions,
                                             const size_t *SrcDimensions, int DstDevice,
                                             int SrcDevice, int DepobjCount,
                                             tasks::OmpDepend *DepobjList) {
  const char *Call = "omp_target_memcpy_rect_async";
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
  if (NumDims > (1 << 20)) {
    debug::error(
        "%s: %d dimensions is more than this implementation copies asynchronously "
        "(1048576)",
        Call, NumDims);
    return abi::kOffloadFail;
  }
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  std::vector<tasks::KmpDependInfo> Deps;
  if (!tasks::collectDepobjs(Call, DepobjCount, DepobjList, Deps)) return abi::kOffloadFail;
  size_t N = static_cast<size_t>(NumDims);
  return submit(Call, 5 * N * sizeof(size_t), Deps, [&](CopyArgs &A) {
    A = CopyArgs{Call,
                 static_cast<char *>(Dst),
                 static_cast<const char *>(Src),
                 DstDev,
                 SrcDev,
                 DstDevice,
                 SrcDevice,
                 0,
                 ElementSize,
                 NumDims};
    size_t *D = A.dims();
    const size_t *Arrays[5] = {Volume, DstOffsets, SrcOffsets, DstDimensions, SrcDimensions};
    for (size_t K = 0; K < 5; ++K) std::memcpy(D + K * N, Arrays[K], N * sizeof(size_t));
  });
}

}  // extern "C"
