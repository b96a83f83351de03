// QueueReleases: device memory released on a queue (data_delete_async) that
// the device cannot release in the queue's order itself, kept until that
// queue's synchronize.
//
// A release on a queue promises that the memory is not reused before the
// work queued before it is done. A device with stream-ordered release
// (GenericDevice::hasAsyncAllocation) hands the pointer to its driver, which
// keeps that promise; for every other pointer (a block of the memory
// manager, whose next owner may run on any queue; a device without
// stream-ordered release) the generic layer keeps the promise here: the
// pointer waits in this list until synchronize has waited for its queue, and
// is then released as a synchronous data_delete would.
//
// Thread safety: Mutex_ guards Pending_; NumPending_ is an atomic copy of
// its size, read without the lock so that a synchronize with nothing pending
// costs one load.
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include "futex_mutex.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

class QueueReleases {
 public:
  // Ptr is released once Queue has been synchronized.
  void defer(void *Queue, void *Ptr) {
    ScopedLock Lock(Mutex_);
    Pending_.emplace_back(Queue, Ptr);
    NumPending_.store(Pending_.size(), std::memory_order_release);
  }

  // Removes the pointers deferred on Queue (all of them when Queue is null)
  // and calls Release on each, in the order they were deferred, without the
  // lock held.
  template <typename ReleaseFn>
  void releaseFor(void *Queue, ReleaseFn &&Release) {
    if (NumPending_.load(std::memory_order_acquire) == 0) [[likely]]
      return;
    std::vector<void *> Due;
    {
      ScopedLock Lock(Mutex_);
      size_t Kept = 0;
      for (auto &[Q, P] : Pending_) {
        if (!Queue || Q == Queue)
          Due.push_back(P);
        else
          Pending_[Kept++] = {Q, P};
      }
      Pending_.resize(Kept);
      NumPending_.store(Kept, std::memory_order_release);
    }
    for (void *P : Due) Release(P);
  }

  size_t size() const { return NumPending_.load(std::memory_order_acquire); }

 private:
  mutable FutexMutex Mutex_;
  std::vector<std::pair<void *, void *>> Pending_ GUARDED_BY(Mutex_);  // (queue, pointer)
  std::atomic<size_t> NumPending_{0};
};

}  // namespace omptarget::plugin
