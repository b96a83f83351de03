#include "deferred_constructs.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>

#include "debug.h"
#include "env.h"
#include "outcome.h"
#include "runtime.h"
#include "scoped_lock.h"

// libomp 19's entry points for the offload runtime (weak: libomp 14 has
// neither, and then no construct is deferred).
extern "C" {
int32_t __kmpc_global_thread_num(void *Loc) __attribute__((weak));
int __kmpc_omp_has_task_team(int32_t Gtid) __attribute__((weak));
void **__kmpc_omp_get_target_async_handle_ptr(int32_t Gtid) __attribute__((weak));
}

namespace omptarget::core {

namespace {

// The query counts (LLVM 19's variables and defaults; see the header).
struct QueryCounts {
  int64_t Max = env::getInt("OMPTARGET_QUERY_COUNT_MAX", 10, 0);
  int64_t Threshold = env::getInt("OMPTARGET_QUERY_COUNT_THRESHOLD", 5, 0);
  double BackoffFactor = backoffFactor();

  static double backoffFactor() {
    auto Text = env::getString("OMPTARGET_QUERY_COUNT_BACKOFF_FACTOR");
    if (!Text) return 0.5;
    char *End = nullptr;
    double Value = std::strtod(Text->c_str(), &End);
    if (End != Text->c_str() && *End == '\0' && Value >= 0 && Value <= 1) return Value;
    debug::warning(
        "ignoring OMPTARGET_QUERY_COUNT_BACKOFF_FACTOR='%s': expected a number from 0 to 1",
        Text->c_str());
    return 0.5;
  }
};
const QueryCounts &queryCounts() {
  static const QueryCounts Counts;
  return Counts;
}
// This thread's count of queries that found work still running.
thread_local int64_t RunningQueries = 0;

}  // namespace

void **targetTaskHandleSlot() {
  if (!__kmpc_omp_get_target_async_handle_ptr || !__kmpc_omp_has_task_team ||
      !__kmpc_global_thread_num)
    return nullptr;
  const int32_t Gtid = __kmpc_global_thread_num(nullptr);
  if (Gtid < 0 || !__kmpc_omp_has_task_team(Gtid)) return nullptr;
  void **Slot = __kmpc_omp_get_target_async_handle_ptr(Gtid);
  // A slot already holding a handle belongs to another construct of this
  // task (a task runs one construct; never overwrite one).
  return Slot && !*Slot ? Slot : nullptr;
}

Status DeferredConstructs::finishOrDefer(std::unique_ptr<DeferredConstruct> C, void **Slot,
                                         Status SoFar) {
  AsyncInfo &Async = C->async();
  if (!SoFar || !Slot || Async.nothingInFlight()) {
    Status Sync = Async.synchronize();
    return !SoFar ? std::move(SoFar) : std::move(Sync);
  }
  void *Handle = C.get();
  {
    ScopedLock Lock(Mutex_);
    Live_.emplace(Handle, std::move(C));
  }
  *Slot = Handle;
  OMPT_TRACE("omptarget",
             "%s: work still queued on device %d: the construct completes when a query of "
             "its target task finds it done (handle %p)",
             static_cast<DeferredConstruct *>(Handle)->call(),
             static_cast<DeferredConstruct *>(Handle)->async().device().id(), Handle);
  return Status::success();
}

bool DeferredConstructs::empty() {
  ScopedLock Lock(Mutex_);
  return Live_.empty();
}

DeferredConstruct *DeferredConstructs::find(void *Handle) {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(Handle);
  return It == Live_.end() ? nullptr : It->second.get();
}

void DeferredConstructs::destroy(DeferredConstruct *C) {
  std::unique_ptr<DeferredConstruct> Owned;
  {
    ScopedLock Lock(Mutex_);
    auto It = Live_.find(C);
    if (It == Live_.end()) return;
    Owned = std::move(It->second);
    Live_.erase(It);
  }
}

void DeferredConstructs::query(void **Handle) {
  DeferredConstruct *C = find(*Handle);
  if (!C) {
    debug::error(
        "__tgt_target_nowait_query: handle %p (in %p) was not made by this runtime, or its "
        "construct has completed; the handle is cleared",
        *Handle, static_cast<void *>(Handle));
    *Handle = nullptr;
    return;
  }
  const QueryCounts &Counts = queryCounts();
  std::optional<Status> Done;
  if (RunningQueries > Counts.Threshold)
    Done = C->async().synchronize();
  else
    Done = C->async().poll();
  if (!Done) {
    RunningQueries = std::min(RunningQueries + 1, Counts.Max);
    ++C->runningQueries();
    return;
  }
  OMPT_TRACE("omptarget", "%s: completed (handle %p) after %" PRId64 " queries found it running",
             C->call(), static_cast<void *>(C), C->runningQueries());
  RunningQueries = static_cast<int64_t>(static_cast<double>(RunningQueries) * Counts.BackoffFactor);
  const ident_t *Loc = C->loc();
  const char *Call = C->call();
  destroy(C);
  *Handle = nullptr;
  reportOutcome(Runtime::get(), Loc, *Done, Call);
}

DeferredConstructs::~DeferredConstructs() {
  // Every call has ended (the runtime is being destroyed): the constructs
  // left complete now, waiting for their queues; their tasks' slots keep
  // stale handles, which a later query (gate closed) only clears.
  for (auto &[Handle, C] : Live_) {
    if (Status S = C->async().synchronize(); !S)
      debug::error("%s: %s", C->call(), S.error().message().c_str());
  }
}

}  // namespace omptarget::core
