// DeviceProfile: a device's side of the core's profile (profile_device in
// plugin_abi.h): the operations timed on the device's clock, kept per queue
// until that queue's synchronize, then handed to the core's function.
//
// Contract:
//   * Off until enable(); on() is then one relaxed load, the only cost the
//     operations pay while no profile is asked for (GenericDevice::onQueue
//     and the direct table's maySkipChecks ask it).
//   * A timed operation is a __tgt_device_op with two marks, taken by the
//     device's hooks around the operation on its queue
//     (GenericDevice::markImpl: the device writes or later resolves the
//     time at which it reaches the mark). keep() holds it for its queue;
//     take() hands a queue's operations to the synchronize that resolves
//     them. A TimedOp lives on the heap because a device may write its marks'
//     slots from its own worker until the queue's synchronize.
//   * emit() calls the core's function with a finished operation. The
//     function and its context are set together under Mutex_ and read
//     together (a replaced function never sees the other's context).
//
// Thread safety: Mutex_ (a FutexMutex) guards Fn_/Ctx_, Pending_ and
// Sizes_ (the sizes of allocations, for their releases' records); emit
// copies Fn_/Ctx_ under it and calls the function unlocked. Nothing else
// is taken under it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "futex_mutex.h"
#include "omptarget/plugin_abi.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

namespace omptarget::plugin {

// One operation between its two marks. The device fills BeginNs/EndNs (at
// once, from its worker, or at resolution); a mark's handle is what the
// device resolves later (null: the slot is already written or will be by
// the queue itself).
struct TimedOp {
  __tgt_device_op Op{};
  uint64_t BeginNs = 0, EndNs = 0;
  void *BeginMark = nullptr, *EndMark = nullptr;
};

class DeviceProfile {
 public:
  bool on() const { return On_.load(std::memory_order_relaxed); }

  void enable(__tgt_device_op_fn Fn, void *Ctx) {
    {
      ScopedLock Lock(Mutex_);
      Fn_ = Fn;
      Ctx_ = Ctx;
    }
    On_.store(true, std::memory_order_relaxed);
  }

  void keep(void *Queue, std::unique_ptr<TimedOp> Op) {
    ScopedLock Lock(Mutex_);
    Pending_[Queue].push_back(std::move(Op));
  }

  // Queue's kept operations, in issue order (every queue's when null).
  std::vector<std::unique_ptr<TimedOp>> take(void *Queue) {
    std::vector<std::unique_ptr<TimedOp>> Ops;
    ScopedLock Lock(Mutex_);
    if (!Queue) {
      for (auto &[Q, List] : Pending_)
        for (auto &Op : List) Ops.push_back(std::move(Op));
      Pending_.clear();
      return Ops;
    }
    auto It = Pending_.find(Queue);
    if (It == Pending_.end()) return Ops;
    Ops = std::move(It->second);
    Pending_.erase(It);
    return Ops;
  }

  // The sizes of the allocations made while on, for their releases.
  void noteSize(const void *Ptr, int64_t Bytes) {
    ScopedLock Lock(Mutex_);
    Sizes_[Ptr] = Bytes;
  }
  // Ptr's size (forgotten now), or 0 when it was allocated before enable().
  int64_t takeSize(const void *Ptr) {
    ScopedLock Lock(Mutex_);
    auto It = Sizes_.find(Ptr);
    if (It == Sizes_.end()) return 0;
    int64_t Bytes = It->second;
    Sizes_.erase(It);
    return Bytes;
  }

  void emit(const __tgt_device_op &Op) {
    __tgt_device_op_fn Fn;
    void *Ctx;
    {
      ScopedLock Lock(Mutex_);
      Fn = Fn_;
      Ctx = Ctx_;
    }
    if (Fn) Fn(Ctx, &Op);
  }

 private:
  std::atomic<bool> On_{false};
  FutexMutex Mutex_;
  __tgt_device_op_fn Fn_ GUARDED_BY(Mutex_) = nullptr;
  void *Ctx_ GUARDED_BY(Mutex_) = nullptr;
  std::unordered_map<void *, std::vector<std::unique_ptr<TimedOp>>> Pending_ GUARDED_BY(Mutex_);
  std::unordered_map<const void *, int64_t> Sizes_ GUARDED_BY(Mutex_);
};

// The host's steady clock in nanoseconds (the clock of __tgt_device_op) and
// the calling thread's Linux thread id.
uint64_t steadyNowNs();
uint64_t currentThreadId();

}  // namespace omptarget::plugin
