#include "host_queue.h"

namespace omptarget::host {

Status HostEvent::record(HostQueue &Queue) {
  uint64_t Generation;
  {
    std::lock_guard Lock(Mutex_);
    Generation = ++Recorded_;
  }
  return Queue.enqueue([this, Generation]() -> Status {
    complete(Generation);
    return {};
  });
}

Status HostEvent::waitOn(HostQueue &Queue) {
  uint64_t Generation = lastRecorded();
  return Queue.enqueue([this, Generation]() -> Status {
    waitFor(Generation);
    return {};
  });
}

void HostEvent::sync() { waitFor(lastRecorded()); }

void HostEvent::complete(uint64_t Generation) {
  {
    std::lock_guard Lock(Mutex_);
    if (Generation > Completed_) Completed_ = Generation;
  }
  CompletedCV_.notify_all();
}

void HostEvent::waitFor(uint64_t Generation) {
  std::unique_lock Lock(Mutex_);
  CompletedCV_.wait(Lock, [&] { return Completed_ >= Generation; });
}

uint64_t HostEvent::lastRecorded() {
  std::lock_guard Lock(Mutex_);
  return Recorded_;
}

}  // namespace omptarget::host
