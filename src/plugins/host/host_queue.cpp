#include "host_queue.h"

#include <algorithm>
#include <chrono>

#include "env.h"
#include "scoped_lock.h"

namespace omptarget::host {

HostQueueMode HostQueueMode::fromEnvironment() {
  HostQueueMode M;
  M.Async = env::getInt("OMPTARGET_HOST_ASYNC", 0, 0, 1) != 0;
  M.DelayUs = static_cast<uint32_t>(env::getInt("OMPTARGET_HOST_ASYNC_DELAY_US", 0, 0, 1000000));
  return M;
}

std::string HostOp::describe() const {
  switch (K) {
    case Submit: return formatString("copy of %zu bytes host→device", Bytes);
    case Retrieve: return formatString("copy of %zu bytes device→host", Bytes);
    case Exchange: return formatString("copy of %zu bytes device→device", Bytes);
    case Kernel: return formatString("kernel %s", Name ? Name : "<unknown>");
    case Record: return "event record";
    case Wait: return "event wait";
    case Release: return formatString("release of %zu bytes of device memory", Bytes);
    case Other: break;
  }
  return Name ? Name : "operation";
}

// ---- HostQueue ----

HostQueue::HostQueue(HostQueueMode Mode) : Async_(Mode.Async), DelayUs_(Mode.DelayUs) {
  if (Async_) Worker_ = std::thread([this] { workerLoop(); });
}

HostQueue::~HostQueue() {
  if (!Async_) return;
  {
    ScopedLock Lock(Mutex_);
    Stop_ = true;
  }
  WorkCV_.notify_one();
  Worker_.join();  // the worker drains Ops_ first
}

Status HostQueue::push(const HostOp &Info, std::function<Status()> Fn) {
  bool Wake;
  {
    ScopedLock Lock(Mutex_);
    Ops_.push_back(Item{Info, std::move(Fn)});
    ++Enqueued_;
    Wake = WorkerSleeping_;
  }
  if (Wake) WorkCV_.notify_one();
  return {};
}

namespace {
// Cross-thread wake-ups cost tens of microseconds on small VMs. Both sides
// first spin this long (yielding) before they sleep on a condition variable,
// so back-to-back operations of one construct need no wake-up at all.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(50);

template <typename Pred>
void spinBriefly(Pred Ready) {
  auto Until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
  while (!Ready() && std::chrono::steady_clock::now() < Until) std::this_thread::yield();
}
}  // namespace

Status HostQueue::waitIdle() {
  spinBriefly([this] { return Done_.load() == Enqueued_.load(); });
  ScopedLock Lock(Mutex_);
  ++IdleWaiters_;
  while (Done_ != Enqueued_) IdleCV_.wait(Mutex_);
  --IdleWaiters_;
  if (!FirstError_) return {};
  Error E = std::move(*FirstError_);
  FirstError_.reset();
  return E;
}

void HostQueue::workerLoop() {
  UniqueLock Lock(Mutex_);
  for (;;) {
    if (Ops_.empty()) {
      if (Stop_) return;
      // More work usually follows within microseconds (the rest of the
      // construct): look for it before going to sleep.
      uint64_t Seen = Enqueued_.load();
      Lock.unlock();
      spinBriefly([&] { return Enqueued_.load() != Seen; });
      Lock.lock();
      if (!Ops_.empty() || Stop_) continue;
      WorkerSleeping_ = true;
      while (!Stop_ && Ops_.empty()) WorkCV_.wait(Mutex_);
      WorkerSleeping_ = false;
      continue;
    }
    Item It = std::move(Ops_.front());
    Ops_.pop_front();
    // FirstError_ only changes on this thread or in waitIdle() while the
    // queue is idle, so this decision is stable while the operation runs.
    bool Skip = FirstError_.has_value() && It.Info.skippable();
    Lock.unlock();
    if (DelayUs_ != 0) std::this_thread::sleep_for(std::chrono::microseconds(DelayUs_));
    Status S = Skip ? Status() : It.Fn();
    It.Fn = nullptr;  // release the captures outside the lock
    Lock.lock();
    if (!S && !FirstError_)
      FirstError_ =
          makeError("%s failed: %s", It.Info.describe().c_str(), S.error().message().c_str());
    ++Done_;
    if (Done_ == Enqueued_ && IdleWaiters_ != 0) IdleCV_.notify_all();
  }
}

// ---- HostEvent ----

bool HostEvent::pendingLocked(uint64_t Generation) const {
  return std::find(Pending_.begin(), Pending_.end(), Generation) != Pending_.end();
}

Status HostEvent::record(HostQueue &Queue) {
  if (!Queue.isAsync()) {
    // Immediate: the queue has already reached this point.
    Recorded_.fetch_add(1, std::memory_order_relaxed);
    return {};
  }
  uint64_t Generation;
  {
    ScopedLock Lock(Mutex_);
    Generation = Recorded_.load(std::memory_order_relaxed) + 1;
    Recorded_.store(Generation, std::memory_order_relaxed);
    Pending_.push_back(Generation);
    PendingCount_.store(static_cast<uint32_t>(Pending_.size()));
  }
  return Queue.enqueue(HostOp{HostOp::Record}, [this, Generation]() -> Status {
    complete(Generation);
    return {};
  });
}

Status HostEvent::waitOn(HostQueue &Queue) {
  if (PendingCount_.load() == 0) return {};  // every record so far completed
  uint64_t Generation;
  {
    ScopedLock Lock(Mutex_);
    Generation = Recorded_.load(std::memory_order_relaxed);
    if (!pendingLocked(Generation)) return {};
  }
  return Queue.enqueue(HostOp{HostOp::Wait}, [this, Generation]() -> Status {
    waitFor(Generation);
    return {};
  });
}

void HostEvent::sync() {
  if (PendingCount_.load() == 0) return;
  ScopedLock Lock(Mutex_);
  uint64_t Generation = Recorded_.load(std::memory_order_relaxed);
  while (pendingLocked(Generation)) CompletedCV_.wait(Mutex_);
}

void HostEvent::complete(uint64_t Generation) {
  {
    ScopedLock Lock(Mutex_);
    auto Pos = std::find(Pending_.begin(), Pending_.end(), Generation);
    if (Pos != Pending_.end()) Pending_.erase(Pos);
    PendingCount_.store(static_cast<uint32_t>(Pending_.size()));
  }
  CompletedCV_.notify_all();
}

void HostEvent::waitFor(uint64_t Generation) {
  ScopedLock Lock(Mutex_);
  while (pendingLocked(Generation)) CompletedCV_.wait(Mutex_);
}

}  // namespace omptarget::host
