#include "runner_pool.h"

#include <system_error>
#include <vector>

#include "scoped_lock.h"

namespace omptarget::host {

struct RunnerPool::Runner {
  enum : uint32_t { kIdle, kCalling, kDone, kStop };

  std::atomic<uint32_t> State{kIdle};
  Call Pending;   // written by the caller before kCalling
  Status Result;  // written by the runner before kDone
  std::thread Thread;

  void loop() {
    for (;;) {
      uint32_t S = State.load(std::memory_order_acquire);
      while (S != kCalling && S != kStop) {
        State.wait(S, std::memory_order_acquire);
        S = State.load(std::memory_order_acquire);
      }
      if (S == kStop) return;
      Result = Pending.Fn(Pending.Ctx);
      State.store(kDone, std::memory_order_release);
      State.notify_all();
    }
  }
};

RunnerPool::RunnerPool() = default;

RunnerPool::~RunnerPool() {
  ScopedLock Lock(Mutex_);
  for (const std::unique_ptr<Runner> &R : Runners_) {
    R->State.store(Runner::kStop, std::memory_order_release);
    R->State.notify_all();
    if (R->Thread.joinable()) R->Thread.join();
  }
}

size_t RunnerPool::threadCount() {
  ScopedLock Lock(Mutex_);
  return Runners_.size();
}

Expected<RunnerPool::Runner *> RunnerPool::acquire() {
  {
    ScopedLock Lock(Mutex_);
    if (!Idle_.empty()) {
      Runner *R = Idle_.back();
      Idle_.pop_back();
      return R;
    }
  }
  // None idle: a new one, its thread started outside the lock (other
  // callers keep going meanwhile).
  Runner *R;
  {
    ScopedLock Lock(Mutex_);
    Runners_.push_back(std::make_unique<Runner>());
    R = Runners_.back().get();
  }
  try {
    R->Thread = std::thread([R] { R->loop(); });
  } catch (const std::system_error &E) {
    ScopedLock Lock(Mutex_);
    std::erase_if(Runners_, [R](const std::unique_ptr<Runner> &P) { return P.get() == R; });
    return makeError("cannot start a runner thread: %s", E.what());
  }
  return R;
}

void RunnerPool::giveBack(Runner &R) {
  ScopedLock Lock(Mutex_);
  Idle_.push_back(&R);
}

Status RunnerPool::runCall(Call C) {
  Expected<Runner *> Got = acquire();
  if (!Got) return Got.takeError();
  Runner &R = **Got;
  R.Pending = C;
  R.State.store(Runner::kCalling, std::memory_order_release);
  R.State.notify_all();
  while (R.State.load(std::memory_order_acquire) == Runner::kCalling)
    R.State.wait(Runner::kCalling, std::memory_order_acquire);
  Status Result = std::move(R.Result);
  R.State.store(Runner::kIdle, std::memory_order_relaxed);
  giveBack(R);
  return Result;
}

}  // namespace omptarget::host
