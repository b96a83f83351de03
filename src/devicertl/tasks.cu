// Explicit tasks on the device run at once on the encountering thread
// (an undeferred task is a correct execution of any task); their
// dependences are then already satisfied, and taskwait has nothing to wait for.
#include "state.h"

using namespace devrtl;

namespace {
// The head of clang's task descriptor (kmp_task_t); the captured-variable
// block follows the descriptor.
struct TaskDescriptor {
  void *Shareds;
  int32_t (*Entry)(int32_t, TaskDescriptor *);
};
} // namespace

ENTRY TaskDescriptor *__kmpc_omp_task_alloc(IdentTy *, int32_t, int32_t, uint64_t DescriptorBytes,
                                            uint64_t SharedsBytes, int32_t (*Entry)(int32_t, TaskDescriptor *)) {
  auto *Task = static_cast<TaskDescriptor *>(malloc(DescriptorBytes + SharedsBytes));
  if (!Task)
    __builtin_trap();  // the device heap is exhausted
  Task->Shareds = reinterpret_cast<unsigned char *>(Task) + DescriptorBytes;
  Task->Entry = Entry;
  return Task;
}

ENTRY int32_t __kmpc_omp_task(IdentTy *, int32_t Gtid, TaskDescriptor *Task) {
  Task->Entry(Gtid, Task);
  free(Task);
  return 0;
}
ENTRY int32_t __kmpc_omp_task_with_deps(IdentTy *Loc, int32_t Gtid, TaskDescriptor *Task, int32_t, void *, int32_t,
                                        void *) {
  return __kmpc_omp_task(Loc, Gtid, Task);
}
// if(0) tasks: clang runs the entry itself between these two calls.
ENTRY void __kmpc_omp_task_begin_if0(IdentTy *, int32_t, TaskDescriptor *) {}
ENTRY void __kmpc_omp_task_complete_if0(IdentTy *, int32_t, TaskDescriptor *Task) { free(Task); }
ENTRY void __kmpc_omp_wait_deps(IdentTy *, int32_t, int32_t, void *, int32_t, void *) {}
ENTRY int32_t __kmpc_omp_taskwait(IdentTy *, int32_t) { return 0; }
ENTRY int32_t __kmpc_omp_taskyield(IdentTy *, int32_t, int32_t) { return 0; }
ENTRY void __kmpc_taskgroup(IdentTy *, int32_t) {}
ENTRY void __kmpc_end_taskgroup(IdentTy *, int32_t) {}

// A taskloop is one task that runs all its iterations: clang's entry reads
// the bounds from the descriptor, where clang put them.
ENTRY void __kmpc_taskloop(IdentTy *Loc, int32_t Gtid, TaskDescriptor *Task, int32_t, uint64_t *, uint64_t *,
                           int64_t, int32_t, int32_t, uint64_t, void *) {
  __kmpc_omp_task(Loc, Gtid, Task);
}
