#include "progress_engine.h"

#include <sched.h>

#include <algorithm>

namespace omptarget::mpi {

ProgressEngine::ProgressEngine() : Thread_([this] { run(); }) {}

void ProgressEngine::add(std::shared_ptr<Progressable> P) {
  {
    std::lock_guard<std::mutex> Lock(Mutex_);
    if (Stop_) return;
    Work_.push_back(std::move(P));
  }
  Wake_.notify_one();
}

void ProgressEngine::stop() {
  {
    std::lock_guard<std::mutex> Lock(Mutex_);
    Stop_ = true;
    Work_.clear();
  }
  Wake_.notify_one();
  if (Thread_.joinable()) Thread_.join();
}

void ProgressEngine::run() {
  std::vector<std::shared_ptr<Progressable>> Pass, Finished;
  size_t Seen = 0;  // Work_'s size after the last pass
  auto Changed = std::chrono::steady_clock::now();
  for (;;) {
    {
      std::unique_lock<std::mutex> Lock(Mutex_);
      // Drop what the last pass finished (held until here, so that no new
      // object takes a finished one's address meanwhile).
      std::erase_if(Work_, [&](const std::shared_ptr<Progressable> &W) {
        return std::find(Finished.begin(), Finished.end(), W) != Finished.end();
      });
      const bool AnyFinished = !Finished.empty();
      Finished.clear();
      Wake_.wait(Lock, [&] { return Stop_ || !Work_.empty(); });
      if (Stop_) return;
      if (Work_.size() != Seen || AnyFinished) Changed = std::chrono::steady_clock::now();
      Pass = Work_;
    }
    for (const std::shared_ptr<Progressable> &W : Pass)
      if (W->tryProgress()) Finished.push_back(W);
    Seen = Pass.size();
    Pass.clear();
    if (!Finished.empty()) continue;
    // Nothing finished: yield while the work is fresh, then sleep, so that
    // a transfer whose peer is busy (a long kernel before a retrieve)
    // does not keep a CPU from the program's own threads.
    if (Yield_.load(std::memory_order_relaxed) &&
        std::chrono::steady_clock::now() - Changed < kYieldWindow)
      sched_yield();
    else
      std::this_thread::sleep_for(kIdleSleep);
  }
}

}  // namespace omptarget::mpi
