#include "omp_tasks.h"

#include <cinttypes>
#include <climits>

#include "debug.h"

namespace omptarget::core::tasks {

// libomp's tasking ABI (LLVM 14, kmp.h).
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

// The private area of our tasks: the TaskRun, then the payload.
constexpr size_t kRunOffset = sizeof(KmpTask);
constexpr size_t kPayloadOffset = kRunOffset + sizeof(TaskRun);
static_assert(kPayloadOffset % alignof(uint64_t) == 0);

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

Ident TaskLoc = {0, kIdentKmpc, 0, 0, ";unknown;omptarget asynchronous device routine;0;0;;"};

bool haveLibomp() {
  return __kmpc_global_thread_num && __kmpc_omp_task_with_deps &&
         (__kmpc_omp_target_task_alloc || __kmpc_omp_task_alloc);
}

int32_t taskEntry(int32_t, void *Task) {
  auto *Base = static_cast<char *>(Task);
  TaskRun Run = *reinterpret_cast<TaskRun *>(Base + kRunOffset);
  Run(Base + kPayloadOffset, /*Deferred=*/true);
  return 0;
}

}  // namespace

bool collectDepobjs(const char *Call, int DepobjCount, const OmpDepend *DepobjList,
                    std::vector<KmpDependInfo> &Deps) {
  if (DepobjCount < 0 || (DepobjCount > 0 && !DepobjList)) {
    debug::error("%s: invalid dependences (depobj_count %d, depobj_list " OMPT_PTR_FMT
                 "); the count must be >= 0 and the list non-null when it is positive",
                 Call, DepobjCount, OMPT_PTR(DepobjList));
    return false;
  }
  for (int I = 0; I < DepobjCount; ++I) {
    // A depend object made by `#pragma omp depobj` points at element 1 of an
    // array from __kmpc_alloc whose element 0 holds the number of elements
    // in its base address (clang 14's code generation).
    auto *Obj = static_cast<const KmpDependInfo *>(DepobjList[I]);
    if (!Obj) {
      debug::error(
          "%s: depobj_list[%d] is not an initialized depend object (null); create it "
          "with '#pragma omp depobj(obj) depend(...)'",
          Call, I);
      return false;
    }
    intptr_t N = Obj[-1].BaseAddr;
    if (N < 0 || N > (intptr_t{1} << 24)) {
      debug::error("%s: depobj_list[%d] (" OMPT_PTR_FMT
                   ") is not a valid depend object "
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

Expected<DeferredTask> DeferredTask::create(const char *Call, size_t PayloadBytes, TaskRun Run) {
  DeferredTask T;
  T.Run_ = Run;
  if (!haveLibomp()) {
    T.Local_.resize((PayloadBytes + sizeof(uint64_t) - 1) / sizeof(uint64_t) + 1);
    T.Payload_ = T.Local_.data();
    return T;
  }
  size_t Size = kPayloadOffset + PayloadBytes;
  T.Gtid_ = __kmpc_global_thread_num(&TaskLoc);
  // A target task, as clang 14 makes for `target nowait`: libomp defers it
  // to its hidden helper threads when they are enabled.
  T.Task_ = __kmpc_omp_target_task_alloc
                ? __kmpc_omp_target_task_alloc(&TaskLoc, T.Gtid_, kTaskTied, Size, 0, taskEntry, -1)
                : __kmpc_omp_task_alloc(&TaskLoc, T.Gtid_, kTaskTied, Size, 0, taskEntry);
  if (!T.Task_) return makeError("%s: libomp could not allocate the task (%zu bytes)", Call, Size);
  auto *Base = static_cast<char *>(T.Task_);
  *reinterpret_cast<TaskRun *>(Base + kRunOffset) = Run;
  T.Payload_ = Base + kPayloadOffset;
  return T;
}

void DeferredTask::submit(const std::vector<KmpDependInfo> &Deps) {
  if (!Run_) return;  // submitted already
  TaskRun Run = Run_;
  Run_ = nullptr;
  if (!Task_) {
    // No tasking runtime: nothing can be deferred or ordered, so run now.
    OMPT_TRACE("omptarget", "libomp is not loaded; running the asynchronous routine now");
    Run(Payload_, /*Deferred=*/false);
    return;
  }
  // libomp records the dependences during the call: Deps may die afterwards.
  __kmpc_omp_task_with_deps(&TaskLoc, Gtid_, Task_, static_cast<int32_t>(Deps.size()),
                            Deps.empty() ? nullptr : const_cast<KmpDependInfo *>(Deps.data()), 0,
                            nullptr);
  Task_ = nullptr;
}

}  // namespace omptarget::core::tasks
