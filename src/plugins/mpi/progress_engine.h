// ProgressEngine: one thread that moves posted transfers (MPI requests)
// along while no thread of the program waits for them, so that a nowait
// copy to or from a remote device proceeds while the program computes.
// MPI moves a large message only when one of its calls runs in the
// process (Open MPI's shared-memory transport sends 32 KiB pieces, each
// after the receiver took the previous one): without this thread a posted
// copy would move only at its queue's synchronize.
//
// Contract:
//  - add() hands the engine a Progressable; the engine calls its
//    tryProgress() in a loop until it says it is finished, then drops it.
//    tryProgress() must not block (a Progressable that a waiting thread
//    holds answers at once: that thread moves it).
//  - While nothing is unfinished the thread sleeps on a condition variable
//    (no polling). While something is, it polls: after a pass that
//    finished nothing it yields the CPU for kYieldWindow after the work
//    last changed (setYield(true): the node has a CPU per rank), else sleeps
//    kIdleSleep (an oversubscribed node, where a polling thread would keep
//    a peer rank off a CPU; or a transfer whose peer is busy, which should
//    not keep a CPU from the program's threads).
//  - stop() ends the thread (joined); add() after it is ignored (the
//    transfer is then moved only by its wait). The owner calls stop()
//    before MPI is finalized; the thread is started by the constructor,
//    which the transport runs before MPI_Init (a thread started after Open
//    MPI's MPI_Init failed ThreadSanitizer's own check when joined; see
//    server/keep_alive.h).
// Locks: Mutex_ guards Work_ and Stop_ (Yield_ is atomic); it is never held while a
// Progressable is called (the pass works on a copy of the list).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace omptarget::mpi {

class Progressable {
 public:
  virtual ~Progressable() = default;
  // Moves what can move without blocking; true once nothing is left to do
  // (done, failed or cancelled).
  virtual bool tryProgress() = 0;
};

class ProgressEngine {
 public:
  static constexpr auto kIdleSleep = std::chrono::microseconds(50);
  static constexpr auto kYieldWindow = std::chrono::milliseconds(1);

  ProgressEngine();
  ~ProgressEngine() { stop(); }
  ProgressEngine(const ProgressEngine &) = delete;
  ProgressEngine &operator=(const ProgressEngine &) = delete;

  // Whether to yield between passes (see above); false until set.
  void setYield(bool Yield) { Yield_.store(Yield, std::memory_order_relaxed); }
  void add(std::shared_ptr<Progressable> P);
  void stop();

 private:
  void run();

  std::atomic<bool> Yield_{false};
  std::mutex Mutex_;
  std::condition_variable Wake_;
  std::vector<std::shared_ptr<Progressable>> Work_;  // guarded by Mutex_
  bool Stop_ = false;                                // guarded by Mutex_
  std::thread Thread_;
};

}  // namespace omptarget::mpi
