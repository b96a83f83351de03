// OpenMP 5.1 omp_target_memcpy_async and omp_target_memcpy_rect_async (not in
// LLVM 14; declared in include/omptarget/omp_target_ext.h).
//
// Every argument is checked synchronously, before anything is submitted: a bad
// call returns nonzero with a message and creates no task. A good call becomes
// an explicit libomp task whose dependences are the union of the elements of
// the depend objects in depobj_list; its body performs exactly the copy of
// omp_target_memcpy[_rect] (memcpy_impl in api_memcpy.cpp, device-to-device
// exchange included). The task is allocated through libomp's target-task
// allocator, so it is deferred like the task of `target nowait` (to libomp's
// hidden helper threads where libomp enables them) and `taskwait`, `depend`
// and barriers order it like any other task. Errors of the deferred copy can
// only be reported by message. Without libomp the copy is done synchronously.
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "debug.h"
#include "error.h"
#include "export.h"
#include "info.h"
#include "memcpy_impl.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;


using namespace omptarget::core::memcpy_impl;

// libomp's tasking ABI (LLVM 14, kmp.h), resolved at call time: libomp is
// loaded in every OpenMP program, but the core must not require it.
namespace {

struct Ident {  // ident_t
  int32_t Reserved1;
  int32_t Flags;
  int32_t Reserved2;
  int32_t Reserved3;
  const char *PSource;
};

using TaskEntry = int32_t (*)(int32_t Gtid, void *Task);

struct KmpTask {  // kmp_task_t: 40 bytes, as clang 14 emits it
  void *Shareds;
  TaskEntry Routine;
  int32_t PartId;
  void *Data1;  // kmp_cmplrdata_t (destructors / priority)
  void *Data2;
};
static_assert(sizeof(KmpTask) == 40);

// kmp_depend_info: {intptr base_addr; size_t len; flags byte (in 1, out 2,
// mtx 4)}, 24 bytes. A depend object (omp_depend_t) made by `#pragma omp
// depobj` points at element 1 of an array from __kmpc_alloc whose element 0
// holds the number of elements in base_addr (clang 14's code generation).
struct KmpDependInfo {
  intptr_t BaseAddr;
  size_t Len;
  uint8_t Flags;
};
static_assert(sizeof(KmpDependInfo) == 24);

constexpr int32_t kTaskTied = 1;
constexpr int32_t kIdentKmpc = 2;

}  // namespace

extern "C" {
int32_t __kmpc_global_thread_num(Ident *Loc) __attribute__((weak));
void *__kmpc_omp_task_alloc(Ident *Loc, int32_t Gtid, int32_t Flags, size_t SizeofKmpTask,
                            size_t SizeofShareds, TaskEntry Entry) __attribute__((weak));
void *__kmpc_omp_target_task_alloc(Ident *Loc, int32_t Gtid, int32_t Flags, size_t SizeofKmpTask,
                                   size_t SizeofShareds, TaskEntry Entry, int64_t DeviceId)
    __attribute__((weak));
int32_t __kmpc_omp_task_with_deps(Ident *Loc, int32_t Gtid, void *Task, int32_t NDeps,
                                  void *DepList, int32_t NDepsNoAlias, void *NoAliasDepList)
    __attribute__((weak));
}

namespace {

// The copy a task performs; lives in the task's private area (after the
// KmpTask), followed for a rectangle by the 5 * NumDims size_t of volume,
// dst/src offsets and dst/src dimensions (the caller's arrays may die when
// the call returns).
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
  if (Runtime::stopped()) {
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

int32_t copyTaskEntry(int32_t, void *Task) {
  auto *Args = reinterpret_cast<CopyArgs *>(static_cast<char *>(Task) + sizeof(KmpTask));
  copyAndReport(*Args, /*Deferred=*/true);
  return 0;
}

using OmpDepend = void *;  // omp_depend_t in <omp.h>

// Checks depobj_list and flattens the depend objects into one list.
bool collectDeps(const char *Call, int DepobjCount, const OmpDepend *DepobjList,
                 std::vector<KmpDependInfo> &Deps) {
  if (DepobjCount < 0 || (DepobjCount > 0 && !DepobjList)) {
    debug::error("%s: invalid dependences (depobj_count %d, depobj_list " OMPT_PTR_FMT
                 "); the count must be >= 0 and the list non-null when it is positive",
                 Call, DepobjCount, OMPT_PTR(DepobjList));
    return false;
  }
  for (int I = 0; I < DepobjCount; ++I) {
    auto *Obj = static_cast<const KmpDependInfo *>(DepobjList[I]);
    if (!Obj) {
      debug::error("%s: depobj_list[%d] is not an initialized depend object (null); create it "
                   "with '#pragma omp depobj(obj) depend(...)'",
                   Call, I);
      return false;
    }
    intptr_t N = Obj[-1].BaseAddr;
    if (N < 0 || N > (intptr_t{1} << 24)) {
      debug::error("%s: depobj_list[%d] (" OMPT_PTR_FMT ") is not a valid depend object "
                   "(element count %" PRIdPTR ")",
                   Call, I, OMPT_PTR(Obj), N);
      return false;
    }
    Deps.insert(Deps.end(), Obj, Obj + N);
  }
  if (Deps.size() > static_cast<size_t>(INT32_MAX)) {
    debug::error("%s: too many dependences (%zu)", Call, Deps.size());
    return false;
  }
  return true;
}

// Creates the copy task (or, without libomp, copies now). `Fill` initializes
// the CopyArgs and the `Extra` bytes after it.
template <typename FillFn>
int submit(const char *Call, size_t Extra, const std::vector<KmpDependInfo> &Deps, FillFn Fill) {
  bool HaveLibomp = __kmpc_global_thread_num && __kmpc_omp_task_with_deps &&
                    (__kmpc_omp_target_task_alloc || __kmpc_omp_task_alloc);
  size_t Size = sizeof(KmpTask) + sizeof(CopyArgs) + Extra;
  if (!HaveLibomp) {
    // No tasking runtime: nothing can be deferred or ordered, so copy now.
    std::vector<size_t> Storage((Size + sizeof(size_t) - 1) / sizeof(size_t));
    auto *Args = reinterpret_cast<CopyArgs *>(reinterpret_cast<char *>(Storage.data()) +
                                              sizeof(KmpTask));
    Fill(*Args);
    OMPT_TRACE("omptarget", "%s: libomp is not loaded; copying synchronously", Call);
    copyAndReport(*Args, /*Deferred=*/false);
    return abi::kOffloadSuccess;
  }
  static Ident Loc = {0, kIdentKmpc, 0, 0, ";unknown;omp_target_memcpy_async;0;0;;"};
  int32_t Gtid = __kmpc_global_thread_num(&Loc);
  // A target task, as clang 14 makes for `target nowait`: libomp defers it to
  // its hidden helper threads when they are enabled.
  void *Task = __kmpc_omp_target_task_alloc
                   ? __kmpc_omp_target_task_alloc(&Loc, Gtid, kTaskTied, Size, 0, copyTaskEntry,
                                                  -1)
                   : __kmpc_omp_task_alloc(&Loc, Gtid, kTaskTied, Size, 0, copyTaskEntry);
  if (!Task) {
    debug::error("%s: libomp could not allocate the copy task (%zu bytes)", Call, Size);
    return abi::kOffloadFail;
  }
  Fill(*reinterpret_cast<CopyArgs *>(static_cast<char *>(Task) + sizeof(KmpTask)));
  // libomp records the dependences during the call: Deps may die afterwards.
  __kmpc_omp_task_with_deps(&Loc, Gtid, Task, static_cast<int32_t>(Deps.size()),
                            Deps.empty() ? nullptr : const_cast<KmpDependInfo *>(Deps.data()), 0,
                            nullptr);
  return abi::kOffloadSuccess;
}

}  // namespace

extern "C" {

OMPT_EXPORT int omp_target_memcpy_async(void *Dst, const void *Src, size_t Length,
                                        size_t DstOffset, size_t SrcOffset, int DstDevice,
                                        int SrcDevice, int DepobjCount, OmpDepend *DepobjList) {
  const char *Call = "omp_target_memcpy_async";
  if (Length != 0 && (!Dst || !Src)) {
    debug::error("%s: null %s pointer (dst " OMPT_PTR_FMT ", src " OMPT_PTR_FMT ", %zu bytes)", Call,
                 !Dst ? "destination" : "source", OMPT_PTR(Dst), OMPT_PTR(Src), Length);
    return abi::kOffloadFail;
  }
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  std::vector<KmpDependInfo> Deps;
  if (!collectDeps(Call, DepobjCount, DepobjList, Deps)) return abi::kOffloadFail;
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
                                             OmpDepend *DepobjList) {
  const char *Call = "omp_target_memcpy_rect_async";
  // Both null: the caller asks how many dimensions are supported.
  if (!Dst && !Src) return INT_MAX;
  if (!validRectArguments(Call, Dst, Src, ElementSize, NumDims, Volume, DstOffsets, SrcOffsets,
                          DstDimensions, SrcDimensions))
    return abi::kOffloadFail;
  if (NumDims > (1 << 20)) {
    debug::error("%s: %d dimensions is more than this implementation copies asynchronously "
                 "(1048576)",
                 Call, NumDims);
    return abi::kOffloadFail;
  }
  // The copied box must lie inside both arrays (the copy runs later: catch
  // what can be caught now).
  for (int I = 0; I < NumDims; ++I) {
    const char *Side = nullptr;
    if (DstOffsets[I] > DstDimensions[I] || Volume[I] > DstDimensions[I] - DstOffsets[I])
      Side = "destination";
    else if (SrcOffsets[I] > SrcDimensions[I] || Volume[I] > SrcDimensions[I] - SrcOffsets[I])
      Side = "source";
    if (Side) {
      debug::error("%s: dimension %d: volume %zu at %s offset %zu exceeds the %s dimension %zu", Call,
                   I, Volume[I], Side, Side[0] == 'd' ? DstOffsets[I] : SrcOffsets[I], Side,
                   Side[0] == 'd' ? DstDimensions[I] : SrcDimensions[I]);
      return abi::kOffloadFail;
    }
  }
  Device *DstDev = nullptr, *SrcDev = nullptr;
  if (!resolveEnds(Call, DstDevice, SrcDevice, DstDev, SrcDev)) return abi::kOffloadFail;
  std::vector<KmpDependInfo> Deps;
  if (!collectDeps(Call, DepobjCount, DepobjList, Deps)) return abi::kOffloadFail;
  size_t N = static_cast<size_t>(NumDims);
  return submit(Call, 5 * N * sizeof(size_t), Deps, [&](CopyArgs &A) {
    A = CopyArgs{Call,      static_cast<char *>(Dst), static_cast<const char *>(Src),
                 DstDev,    SrcDev,                   DstDevice,
                 SrcDevice, 0,                        ElementSize,
                 NumDims};
    size_t *D = A.dims();
    const size_t *Arrays[5] = {Volume, DstOffsets, SrcOffsets, DstDimensions, SrcDimensions};
    for (size_t K = 0; K < 5; ++K) std::memcpy(D + K * N, Arrays[K], N * sizeof(size_t));
  });
}

}  // extern "C"
