// Queues and events of the host device.
//
// A HostQueue executes operations in submission order, in one of two modes
// chosen when it is created (the plugin reads OMPTARGET_HOST_ASYNC once):
//
//  * Immediate (default): enqueue() runs the operation on the calling thread
//    and returns its status; synchronize() has nothing to wait for. This is
//    the fast path: no lock, no allocation, no thread hand-off.
//  * Asynchronous: the queue owns a worker thread (created with the queue,
//    joined by its destructor) that runs the operations strictly in order,
//    after the enqueueing call has returned; enqueue() only appends to the
//    queue and never fails. An operation's error is kept (wrapped with the
//    operation's description, e.g. "kernel foo failed: ...") and returned by
//    the next synchronize(); after an error the queue skips its remaining
//    copies and kernels until that synchronize (their input is incomplete;
//    in Immediate mode the caller would not have issued them), but still
//    runs event records and waits so that other queues never hang on it,
//    and releases of device memory so that none is lost.
//    Operations capture everything by value; host buffers they read or
//    write must stay alive until synchronize() (the core guarantees this).
//    An optional delay (OMPTARGET_HOST_ASYNC_DELAY_US) is slept before each
//    operation, to widen race windows in tests.
//
// Thread safety of HostQueue (asynchronous mode): Mutex_ (a FutexMutex,
// futex_mutex.h, checked by the thread-safety analysis) guards Ops_,
// FirstError_, Stop_, WorkerSleeping_ and IdleWaiters_; Enqueued_ and Done_
// are written with it held (atomics, for the unlocked spins); WorkCV_ and
// IdleCV_ are CondVars (cond_var.h) waited on with it held. The worker
// runs an operation with Mutex_ released, so enqueue() and synchronize() from
// the owning thread never wait for an operation to finish (except
// synchronize(), by design). Copies and kernels of one queue are issued by
// one thread at a time (the core's protocol: a queue belongs to one
// AsyncInfo); another thread may enqueue an event record at any time, even
// after the owner's synchronize (the plugin says queues_persist): enqueue
// takes Mutex_, and a record that arrives during the owner's synchronize is
// simply waited for too.
// No busy-waiting: the worker sleeps on WorkCV_, synchronize() on IdleCV_.
//
// HostEvent: record(Q) creates a new generation G (Recorded_) and marks it
// pending; the record operation in Q completes G when Q reaches it. A wait
// (waitOn(Q): a wait operation enqueued in Q, the host not blocked; sync():
// the host blocks) refers to the generation last recorded when the wait is
// issued, and is satisfied once that generation completed. Generations are
// tracked individually (Pending_), so re-recording an event on another queue
// that finishes first never releases a wait for an older record. An event
// never recorded, or whose records all completed, is complete. In Immediate
// mode a record completes at once, nothing is ever pending, and
// record/wait/sync take no lock (PendingCount_ == 0 is the lock-free fast
// path). Mutex_ (a FutexMutex) guards Pending_ (and the non-atomic
// read-modify of Recorded_ together with Pending_); CompletedCV_ (a CondVar
// of Mutex_) wakes blocked waiters. A HostEvent's Mutex_ is never held while
// a queue's is taken, nor the other way round (a record's or wait's
// operation runs with its queue's Mutex_ released).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cond_var.h"
#include "error.h"
#include "futex_mutex.h"

namespace omptarget::host {

// Plugin-wide queue configuration, read once from the environment.
struct HostQueueMode {
  bool Async = false;    // OMPTARGET_HOST_ASYNC=1
  uint32_t DelayUs = 0;  // OMPTARGET_HOST_ASYNC_DELAY_US (asynchronous mode only)

  static HostQueueMode fromEnvironment();
};

// What an operation is, for error messages (formatted only on failure).
struct HostOp {
  enum Kind : uint8_t { Submit, Retrieve, Exchange, Kernel, Record, Wait, Release, Other };
  Kind K = Other;
  size_t Bytes = 0;
  const char *Name = nullptr;  // kernel name (stable until deinit) or a description

  std::string describe() const;
  // Skipped after an earlier failure of the same queue (copies, kernels).
  bool skippable() const { return K != Record && K != Wait && K != Release; }
};

class HostQueue {
 public:
  explicit HostQueue(HostQueueMode Mode = {});
  ~HostQueue();  // drains the queue and joins the worker
  HostQueue(const HostQueue &) = delete;
  HostQueue &operator=(const HostQueue &) = delete;

  bool isAsync() const { return Async_; }

  // Runs Op (returning Status) after every operation enqueued before it.
  // Immediate mode: runs it now and returns its status. Asynchronous mode:
  // appends it and returns success (errors surface at synchronize()).
  template <typename FnT>
  Status enqueue(const HostOp &Info, FnT &&Op) {
    if (!Async_) [[likely]]
      return std::forward<FnT>(Op)();
    return push(Info, std::function<Status()>(std::forward<FnT>(Op)));
  }

  // Whether every operation enqueued so far has run; never waits (any
  // thread may ask: the counters are atomics, and an operation's effects
  // happen before the Done_ increment that this load sees).
  bool idle() const {
    return !Async_ ||
           Done_.load(std::memory_order_acquire) == Enqueued_.load(std::memory_order_acquire);
  }

  // Waits until every operation enqueued so far has run; returns the first
  // error raised since the previous synchronize() and clears it.
  Status synchronize() {
    if (!Async_) [[likely]]
      return {};
    return waitIdle();
  }

 private:
  struct Item {
    HostOp Info;
    std::function<Status()> Fn;
  };

  Status push(const HostOp &Info, std::function<Status()> Fn);
  Status waitIdle();
  void workerLoop();

  const bool Async_;
  const uint32_t DelayUs_;

  FutexMutex Mutex_;
  CondVar WorkCV_;  // worker: Ops_ non-empty or Stop_
  CondVar IdleCV_;  // synchronize(): Done_ == Enqueued_
  std::deque<Item> Ops_ GUARDED_BY(Mutex_);
  // Written under Mutex_; atomics so the bounded spins can read them unlocked.
  std::atomic<uint64_t> Enqueued_{0};
  std::atomic<uint64_t> Done_{0};
  std::optional<Error> FirstError_ GUARDED_BY(Mutex_);
  bool Stop_ GUARDED_BY(Mutex_) = false;
  bool WorkerSleeping_ GUARDED_BY(Mutex_) = false;
  uint32_t IdleWaiters_ GUARDED_BY(Mutex_) = 0;
  std::thread Worker_;  // last: started once everything above is constructed
};

class HostEvent {
 public:
  Status record(HostQueue &Queue);
  Status waitOn(HostQueue &Queue);  // Queue waits; the host does not block
  void sync();                      // the host waits

 private:
  void complete(uint64_t Generation);
  void waitFor(uint64_t Generation);
  bool pendingLocked(uint64_t Generation) const REQUIRES(Mutex_);

  std::atomic<uint64_t> Recorded_{0};
  std::atomic<uint32_t> PendingCount_{0};  // == Pending_.size(); 0: all complete
  FutexMutex Mutex_;
  CondVar CompletedCV_;
  // Generations recorded but not yet completed.
  std::vector<uint64_t> Pending_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::host
