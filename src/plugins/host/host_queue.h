// Queues and events of the host device.
//
// A HostQueue executes operations in submission order. Today it has one mode,
// Immediate: enqueue() runs the operation on the calling thread and returns
// its status. An asynchronous mode (a worker thread per queue, errors kept
// until synchronize(); OMPTARGET_HOST_ASYNC=1) plugs in here: every host
// device operation already goes through enqueue()/synchronize(), and the
// event protocol below is correct for both modes.
//
// HostEvent: record() on a queue bumps Recorded_ and enqueues an operation
// that marks that generation complete; a wait (on a queue or on the host)
// waits for the generation last recorded at the time of the call. An event
// never recorded is complete. Recorded_ and Completed_ are atomics, so that
// in Immediate mode record/wait/sync take no lock at all; Mutex_ and
// CompletedCV_ are used only by a waiter that must block (Waiters_ > 0):
// complete() publishes Completed_ before it reads Waiters_, and a waiter
// counts itself in Waiters_ before it checks Completed_ under Mutex_, so no
// wake-up is lost (both sides use sequentially consistent operations).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <utility>

#include "error.h"

namespace omptarget::host {

class HostQueue {
 public:
  // Runs Op (returning Status) after every operation enqueued before it.
  template <typename FnT>
  Status enqueue(FnT &&Op) {
    return std::forward<FnT>(Op)();  // Immediate mode
  }
  // Waits until every enqueued operation has run; returns the first error.
  Status synchronize() { return {}; }
};

class HostEvent {
 public:
  Status record(HostQueue &Queue);
  Status waitOn(HostQueue &Queue);  // Queue waits; the host does not block
  void sync();                      // the host waits

 private:
  void complete(uint64_t Generation);
  void waitFor(uint64_t Generation);
  uint64_t lastRecorded() const { return Recorded_.load(); }

  std::atomic<uint64_t> Recorded_{0};
  std::atomic<uint64_t> Completed_{0};
  std::atomic<uint32_t> Waiters_{0};
  std::mutex Mutex_;
  std::condition_variable CompletedCV_;
};

}  // namespace omptarget::host
