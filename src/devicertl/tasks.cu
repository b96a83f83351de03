// Explicit tasks on the device run at once on the encountering thread
// (an undeferred task is a correct execution of any task); their
// dependences are then already satisfied, and taskwait has nothing to wait for.
//
// Task reductions (task_reduction on a taskgroup or taskloop, the task
// modifier of a reduction clause, in_reduction on tasks) follow from that: a
// task updates the list item of the thread that runs it, which is the thread
// that created it. Under a taskgroup that is the original item (the
// taskgroup's thread runs its tasks one at a time); under a reduction(task,
// ...) clause it is the thread's own copy of the construct's reduction, which
// the construct then combines as usual. So __kmpc_task_reduction_get_th_data
// hands back the item it is given, and there is nothing to initialize or
// combine. The exception is a task that runs in an active parallel region
// (its taskgroup is another thread's, e.g. a parallel region inside the
// taskgroup, or several threads' taskgroups reduce into one variable): such
// a task updates the original item while holding a device-wide lock, taken
// when it first asks for an item and released when it completes (a task it
// creates meanwhile runs inside it and uses the lock it holds).
#include "state.h"

using namespace devrtl;

namespace {
// The head of clang's task descriptor (kmp_task_t); the captured-variable
// block follows the descriptor.
struct TaskDescriptor {
  void *Shareds;
  int32_t (*Entry)(int32_t, TaskDescriptor *);
};

// What the runtime keeps with a task, just below its descriptor: whether
// the thread held the task-reduction lock before the task started (an if(0)
// task starts and completes in two calls).
struct alignas(16) TaskHeader {
  bool LockHeldBefore;
};
INLINE TaskHeader *headerOf(TaskDescriptor *Task) {
  return reinterpret_cast<TaskHeader *>(Task) - 1;
}

GLOBAL uint32_t TaskReductionLock;
// The task group handed out for a reduction(task, ...) clause: its tasks
// update the creating thread's copy, which no other thread touches.
GLOBAL unsigned char ThreadCopyGroup;

INLINE bool holdsTaskReductionLock() { return threadState().Flags & kHoldsTaskReductionLock; }

// A task that took the lock while it ran (and not before) gives it back.
INLINE void completeTask(TaskDescriptor *Task) {
  ThreadState &S = threadState();
  if (!headerOf(Task)->LockHeldBefore && (S.Flags & kHoldsTaskReductionLock)) {
    S.Flags = static_cast<uint8_t>(S.Flags & ~kHoldsTaskReductionLock);
    spinUnlock(&TaskReductionLock);
  }
  free(headerOf(Task));
}
}  // namespace

ENTRY TaskDescriptor *__kmpc_omp_task_alloc(IdentTy *, int32_t, int32_t, uint64_t DescriptorBytes,
                                            uint64_t SharedsBytes,
                                            int32_t (*Entry)(int32_t, TaskDescriptor *)) {
  auto *Header =
      static_cast<TaskHeader *>(malloc(sizeof(TaskHeader) + DescriptorBytes + SharedsBytes));
  if (!Header) __builtin_trap();  // the device heap is exhausted
  auto *Task = reinterpret_cast<TaskDescriptor *>(Header + 1);
  Task->Shareds = reinterpret_cast<unsigned char *>(Task) + DescriptorBytes;
  Task->Entry = Entry;
  return Task;
}

ENTRY int32_t __kmpc_omp_task(IdentTy *, int32_t Gtid, TaskDescriptor *Task) {
  headerOf(Task)->LockHeldBefore = holdsTaskReductionLock();
  Task->Entry(Gtid, Task);
  completeTask(Task);
  return 0;
}
ENTRY int32_t __kmpc_omp_task_with_deps(IdentTy *Loc, int32_t Gtid, TaskDescriptor *Task, int32_t,
                                        void *, int32_t, void *) {
  return __kmpc_omp_task(Loc, Gtid, Task);
}
// if(0) tasks: clang runs the entry itself between these two calls.
ENTRY void __kmpc_omp_task_begin_if0(IdentTy *, int32_t, TaskDescriptor *Task) {
  headerOf(Task)->LockHeldBefore = holdsTaskReductionLock();
}
ENTRY void __kmpc_omp_task_complete_if0(IdentTy *, int32_t, TaskDescriptor *Task) {
  completeTask(Task);
}
ENTRY void __kmpc_omp_wait_deps(IdentTy *, int32_t, int32_t, void *, int32_t, void *) {}
ENTRY int32_t __kmpc_omp_taskwait(IdentTy *, int32_t) { return 0; }
ENTRY int32_t __kmpc_omp_taskyield(IdentTy *, int32_t, int32_t) { return 0; }
ENTRY void __kmpc_taskgroup(IdentTy *, int32_t) {}
ENTRY void __kmpc_end_taskgroup(IdentTy *, int32_t) {}

// A taskloop is one task that runs all its iterations: clang's entry reads
// the bounds from the descriptor, where clang put them.
ENTRY void __kmpc_taskloop(IdentTy *Loc, int32_t Gtid, TaskDescriptor *Task, int32_t, uint64_t *,
                           uint64_t *, int64_t, int32_t, int32_t, uint64_t, void *) {
  __kmpc_omp_task(Loc, Gtid, Task);
}

// --- task reductions ------------------------------------------------------------
// clang 14 passes an array of kmp_taskred_input_t (shared item, original
// item, size, init/fini/combine functions, flags) or, from older code,
// kmp_task_red_input_t; neither needs reading (see the top of the file). The
// group handle is what clang hands back to __kmpc_task_reduction_get_th_data.
ENTRY void *__kmpc_taskred_init(int32_t, int32_t, void *Data) { return Data; }
ENTRY void *__kmpc_task_reduction_init(int32_t, int32_t, void *Data) { return Data; }
ENTRY void *__kmpc_taskred_modifier_init(IdentTy *, int32_t, int32_t, int32_t, void *) {
  return &ThreadCopyGroup;
}
ENTRY void *__kmpc_task_reduction_modifier_init(IdentTy *, int32_t, int32_t, int32_t, void *) {
  return &ThreadCopyGroup;
}
ENTRY void __kmpc_task_reduction_modifier_fini(IdentTy *, int32_t, int32_t) {}

ENTRY void *__kmpc_task_reduction_get_th_data(int32_t, void *Group, void *Item) {
  ThreadState &S = threadState();
  bool Concurrent = S.Level > 0 && (S.Flags & kActiveRegion);
  if (Group != &ThreadCopyGroup && Concurrent && !(S.Flags & kHoldsTaskReductionLock)) {
    spinLock(&TaskReductionLock);
    S.Flags = static_cast<uint8_t>(S.Flags | kHoldsTaskReductionLock);
  }
  return Item;
}
