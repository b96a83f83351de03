// CondVar: the condition variable of the annotated lock family, waited on
// with a FutexMutex (futex_mutex.h) held, so that the thread-safety analysis
// follows the waiting code (std::condition_variable takes only
// std::unique_lock<std::mutex>, which the analysis does not see;
// std::condition_variable_any over a FutexMutex would work but adds an
// internal std::mutex and a shared_ptr to every wait).
//
// One word: a sequence number that every notify bumps. wait() reads it with
// the mutex held, releases the mutex, sleeps in the kernel (std::atomic::wait,
// a futex on Linux) while the number is unchanged, and takes the mutex again.
// A notifier changes the waited-for state with the mutex held and notifies
// after (with or without the mutex): its bump comes after the waiter's
// release of the mutex, so it is later than the number the waiter read, and
// the waiter does not sleep through it (unless exactly 2^32 notifies came
// between its read and its sleep). Wake-ups may be spurious (a notify for
// another waiter's condition): callers wait in a loop on their condition,
//
//   ScopedLock Lock(M);
//   while (!Ready) Cv.wait(M);
//
// which the analysis checks (Ready GUARDED_BY(M)); there is deliberately no
// predicate overload, since a lambda's body is analysed without the
// caller's locks. A notify with nobody asleep makes no system call
// (libstdc++ counts the waiters of an address).
#pragma once

#include <atomic>
#include <cstdint>

#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget {

class CondVar {
 public:
  CondVar() = default;
  CondVar(const CondVar &) = delete;
  CondVar &operator=(const CondVar &) = delete;

  // Releases M, sleeps until a notify (or spuriously), takes M again. The
  // caller holds M (through a ScopedLock or UniqueLock, which stays the
  // owner of the hold).
  void wait(FutexMutex &M) noexcept REQUIRES(M) {
    uint32_t Seen = Seq_.load(std::memory_order_relaxed);
    M.unlock();
    Seq_.wait(Seen, std::memory_order_relaxed);
    M.lock();
  }

  void notify_one() noexcept {
    Seq_.fetch_add(1, std::memory_order_relaxed);
    Seq_.notify_one();
  }
  void notify_all() noexcept {
    Seq_.fetch_add(1, std::memory_order_relaxed);
    Seq_.notify_all();
  }

 private:
  std::atomic<uint32_t> Seq_{0};
};

}  // namespace omptarget
