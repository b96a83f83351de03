// `nowait` constructs that complete after their call returns, on libomp 19.
//
// libomp 19 keeps a slot in each target task for the offload runtime
// (__kmpc_omp_get_target_async_handle_ptr). A `nowait` construct whose work
// is still queued on its device when its call ends stores a handle there and
// returns; libomp then puts the task back in a task queue, and each thread
// that picks it up calls __tgt_target_nowait_query with the slot instead of
// the task's routine, until the runtime empties the slot. The task completes
// (its dependent tasks and its taskwait go on) only then, and no thread waits
// on the device meanwhile: a query asks the plugin (query_async) whether the
// queue is done. A thread whose queries found work still running
// OMPTARGET_QUERY_COUNT_THRESHOLD times (5) more than it found work done
// waits for the next one (synchronize), as LLVM 19's runtime does, so that a
// thread with nothing else to run does not spin: each query of running work
// adds one (up to OMPTARGET_QUERY_COUNT_MAX, 10), each completed construct
// scales the count by OMPTARGET_QUERY_COUNT_BACKOFF_FACTOR (0.5).
//
// A construct is deferred only when all of these hold: its call is a
// `nowait` one, libomp has the two entry points (libomp 14 has neither: the
// weak symbols are null), the thread has a task team, the slot exists and is
// empty, and the construct left work queued (not on a device whose work is
// done when issued). Otherwise it completes before returning, as always.
//
// Ownership: the registry owns every deferred construct; the handle in the
// slot is its address, checked against the registry by every query (a handle
// that is not ours gets an error line and is cleared, never dereferenced).
// A query that finds the construct done reports its outcome (as the
// construct's call would have: OMP_TARGET_OFFLOAD), runs its post-completion
// work and destroys it. The registry's destructor (the runtime's, at exit,
// before the devices go) completes those left, waiting for their queues; a
// query after that finds the gate closed and only empties the slot.
//
// Thread safety: Mutex_ (a FutexMutex, a leaf lock) guards Live_. A construct itself is
// used by one thread at a time: its creator until it is registered, then the
// thread running its task's query (libomp runs a task on one thread at a
// time), or the registry's destructor, which runs after every call ended.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "async_info.h"
#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::core {

// Where the running target task keeps its handle, when the construct may be
// deferred (see the conditions above, except the last); else null.
void **targetTaskHandleSlot();

class DeferredConstruct {
 public:
  DeferredConstruct(Device &D, const char *Call, const ident_t *Loc)
      : Async_(D), Call_(Call), Loc_(Loc) {}
  AsyncInfo &async() { return Async_; }
  const char *call() const { return Call_; }
  const ident_t *loc() const { return Loc_; }
  // Queries that found its work still running (for the trace).
  int64_t &runningQueries() { return RunningQueries_; }

 private:
  AsyncInfo Async_;
  int64_t RunningQueries_ = 0;
  const char *Call_;
  const ident_t *Loc_;
};

class DeferredConstructs {
 public:
  DeferredConstructs() = default;
  ~DeferredConstructs();  // completes every construct left
  DeferredConstructs(const DeferredConstructs &) = delete;
  DeferredConstructs &operator=(const DeferredConstructs &) = delete;

  // Ends a construct that ran on C's AsyncInfo: with work still queued and a
  // slot to keep it in, C is registered and its handle stored in *Slot;
  // otherwise it completes now. Returns the construct's status so far (its
  // final one when it completed).
  Status finishOrDefer(std::unique_ptr<DeferredConstruct> C, void **Slot, Status SoFar);
  // __tgt_target_nowait_query: polls (or, past the threshold, waits for) the
  // construct behind *Handle; once it is done, reports its outcome, destroys
  // it and empties the slot.
  void query(void **Handle);
  // Whether no construct is deferred now (one may be deferred right after).
  bool empty();

 private:
  // The construct behind Handle, if it is one of ours.
  DeferredConstruct *find(void *Handle);
  void destroy(DeferredConstruct *C);

  FutexMutex Mutex_;
  std::unordered_map<void *, std::unique_ptr<DeferredConstruct>> Live_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::core
