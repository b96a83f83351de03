// Explicit tasks for the asynchronous device-memory routines
// (omp_target_memcpy[_rect]_async, omp_target_memset_async), made through
// libomp's tasking ABI, which is resolved at call time (weak symbols): libomp
// is loaded in every OpenMP program, but the core must not require it.
//
// A routine checks its arguments, flattens its depend objects with
// collectDepobjs, then makes a DeferredTask: its payload (PayloadBytes bytes,
// 8-byte aligned, in the task's private area) holds everything the work
// needs, because the caller's arrays may die when the routine returns.
// submit() hands the task to libomp with the dependences; libomp runs
// Run(Payload, /*Deferred=*/true) on some thread once they are satisfied. The
// task is allocated as a target task (the task of `target nowait`), so libomp
// defers it to its hidden helper threads where it enables them, and
// `taskwait`, `depend` and barriers order it like any other task. Without
// libomp nothing can be deferred or ordered: submit() runs the work at once
// (Deferred false). The payload is trivially copyable and never destroyed.
//
// Thread safety: a DeferredTask belongs to the thread that made it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "error.h"

namespace omptarget::core::tasks {

// kmp_depend_info (LLVM 14's kmp.h): {base address, length, flags byte (in 1,
// out 2, mutexinoutset 4)}, 24 bytes.
struct KmpDependInfo {
  intptr_t BaseAddr;
  size_t Len;
  uint8_t Flags;
};
static_assert(sizeof(KmpDependInfo) == 24);

using OmpDepend = void *;  // omp_depend_t in <omp.h>

// Checks depobj_list and appends the elements of its depend objects to Deps;
// false after reporting a bad count, list or object ("<Call>: ...").
bool collectDepobjs(const char *Call, int DepobjCount, const OmpDepend *DepobjList,
                    std::vector<KmpDependInfo> &Deps);

// What a task does with its payload; Deferred tells whether it runs as a
// task (false: inline, without libomp). Failures can only be reported.
using TaskRun = void (*)(void *Payload, bool Deferred);

class DeferredTask {
 public:
  // A task with PayloadBytes of payload; fails (with the message to report)
  // only when libomp cannot allocate it.
  static Expected<DeferredTask> create(const char *Call, size_t PayloadBytes, TaskRun Run);

  DeferredTask(DeferredTask &&) = default;
  DeferredTask &operator=(DeferredTask &&) = default;

  void *payload() { return Payload_; }
  // Hands the task to libomp with Deps (copied during the call), or runs it
  // now without libomp. Call once.
  void submit(const std::vector<KmpDependInfo> &Deps);

 private:
  DeferredTask() = default;
  void *Task_ = nullptr;         // libomp's kmp_task_t (null without libomp)
  int32_t Gtid_ = 0;             // the submitting thread's libomp id
  std::vector<uint64_t> Local_;  // the payload without libomp
  void *Payload_ = nullptr;
  TaskRun Run_ = nullptr;
};

}  // namespace omptarget::core::tasks
