// ScopedLock and UniqueLock: RAII holders of a FutexMutex that Clang's
// thread-safety analysis follows (libstdc++'s std::lock_guard and
// std::unique_lock carry no annotations, so the analysis would not see them
// take the lock).
//
//   ScopedLock   held from construction to the end of the scope.
//   UniqueLock   held from construction; unlock() gives it back early (and
//                lock() takes it again); the destructor unlocks only if held.
#pragma once

#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget {

class SCOPED_CAPABILITY ScopedLock {
 public:
  explicit ScopedLock(FutexMutex &M) noexcept ACQUIRE(M) : M_(M) { M_.lock(); }
  ~ScopedLock() RELEASE() { M_.unlock(); }
  ScopedLock(const ScopedLock &) = delete;
  ScopedLock &operator=(const ScopedLock &) = delete;

 private:
  FutexMutex &M_;
};

class SCOPED_CAPABILITY UniqueLock {
 public:
  explicit UniqueLock(FutexMutex &M) noexcept ACQUIRE(M) : M_(M) { M_.lock(); }
  ~UniqueLock() RELEASE() {
    if (Held_) M_.unlock();
  }
  UniqueLock(const UniqueLock &) = delete;
  UniqueLock &operator=(const UniqueLock &) = delete;

  void lock() noexcept ACQUIRE() {
    M_.lock();
    Held_ = true;
  }
  void unlock() noexcept RELEASE() {
    M_.unlock();
    Held_ = false;
  }

 private:
  FutexMutex &M_;
  bool Held_ = true;
};

}  // namespace omptarget
