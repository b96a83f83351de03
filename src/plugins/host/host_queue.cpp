#include "host_queue.h"

namespace omptarget::host {

Status HostEvent::record(HostQueue &Queue) {
  uint64_t Generation = Recorded_.fetch_add(1) + 1;
  return Queue.enqueue([this, Generation]() -> Status {
    complete(Generation);
    return {};
  });
}

Status HostEvent::waitOn(HostQueue &Queue) {
  uint64_t Generation = lastRecorded();
  if (Completed_.load() >= Generation) return {};  // nothing to wait for
  return Queue.enqueue([this, Generation]() -> Status {
    waitFor(Generation);
    return {};
  });
}

void HostEvent::sync() { waitFor(lastRecorded()); }

void HostEvent::complete(uint64_t Generation) {
  uint64_t Done = Completed_.load();
  while (Done < Generation && !Completed_.compare_exchange_weak(Done, Generation)) {
  }
  if (Waiters_.load() == 0) return;
  { std::lock_guard Lock(Mutex_); }  // a waiter between its check and its wait holds Mutex_
  CompletedCV_.notify_all();
}

void HostEvent::waitFor(uint64_t Generation) {
  if (Completed_.load() >= Generation) return;
  std::unique_lock Lock(Mutex_);
  Waiters_.fetch_add(1);
  CompletedCV_.wait(Lock, [&] { return Completed_.load() >= Generation; });
  Waiters_.fetch_sub(1);
}

}  // namespace omptarget::host
