// RunnerPool: plain threads (created by the plugin, never OpenMP threads of
// the program) that run calls for other threads, the calling thread waiting
// until its call returned. The synchronous host device uses it to run a
// teams region as libomp runs one only from an initial thread (see
// kernel_call.h); whatever OpenMP the call itself uses, libomp sees the
// runner as a new root thread.
//
// One runner per concurrent caller: run() takes an idle runner, or starts a
// new one when none is idle, and gives it back when the call returned. So
// callers never wait for each other's calls (no serialization, and no
// deadlock even when a call itself calls run()); the pool grows to the
// largest number of simultaneous calls and its threads are reused after
// that. Idle runners sleep (std::atomic::wait, a futex) and cost no CPU.
//
// Hand-off: each Runner has one atomic State. The caller, owning an idle
// runner, writes the call into Pending and stores Calling (release), then
// sleeps until the state leaves Calling; the runner, woken, makes the call,
// writes its status into Result and stores Done (release); the caller reads
// Result after seeing Done (acquire) and gives the runner back. Pending and
// Result are touched by one side at a time, in that order, so they need no
// lock.
//
// Locks: Mutex_ (a FutexMutex) guards Runners_ and Idle_ only; it is never held while a
// call runs, while a caller waits, or while a thread starts, and no other
// lock is taken under it. run() is thread safe. The destructor stops and
// joins every runner; no run() may be in progress (the plugin's pool is
// never destroyed: its runners sleep until the process exits).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "error.h"
#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::host {

class RunnerPool {
 public:
  RunnerPool();
  ~RunnerPool();
  RunnerPool(const RunnerPool &) = delete;
  RunnerPool &operator=(const RunnerPool &) = delete;

  // Runs Fn() (returning Status) on a runner thread and returns its status
  // once it returned. Fails without calling Fn when no runner thread can be
  // started.
  template <typename FnT>
  Status run(FnT &&Fn) {
    using Plain = std::remove_reference_t<FnT>;
    return runCall(Call{[](void *Ctx) -> Status { return (*static_cast<Plain *>(Ctx))(); },
                        const_cast<void *>(static_cast<const void *>(&Fn))});
  }

  // Runner threads started so far (for tests).
  size_t threadCount();

 private:
  struct Call {
    Status (*Fn)(void *) = nullptr;
    void *Ctx = nullptr;
  };
  struct Runner;

  Status runCall(Call C);
  Expected<Runner *> acquire();
  void giveBack(Runner &R);

  FutexMutex Mutex_;
  std::vector<std::unique_ptr<Runner>> Runners_ GUARDED_BY(Mutex_);  // every runner started
  std::vector<Runner *> Idle_ GUARDED_BY(Mutex_);                    // runners waiting for a call
};

}  // namespace omptarget::host
