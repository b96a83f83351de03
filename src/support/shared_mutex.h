// SharedMutex: a reader-writer lock for the few tables that are read on a hot
// path by many threads at once and written rarely (the pinned host memory map
// of a plugin device: every large copy asks it, only lock/unlock calls
// change it). A std::shared_mutex (pthread rwlock) with Clang thread-safety
// annotations, and the guards that the analysis follows:
//
//   ReaderLock   a shared hold, from construction to the end of the scope
//   WriterLock   an exclusive hold, from construction to the end of the scope
//
// Readers do not serialize each other. FutexMutex (futex_mutex.h) stays the
// lock of everything else: a construct's critical sections are a lookup and
// an update together, which a reader lock would not shorten.
#pragma once

#include <shared_mutex>

#include "thread_annotations.h"

namespace omptarget {

class CAPABILITY("shared mutex") SharedMutex {
 public:
  void lock() ACQUIRE() { M_.lock(); }
  void unlock() RELEASE() { M_.unlock(); }
  void lock_shared() ACQUIRE_SHARED() { M_.lock_shared(); }
  void unlock_shared() RELEASE_SHARED() { M_.unlock_shared(); }

 private:
  std::shared_mutex M_;
};

class SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex &M) ACQUIRE_SHARED(M) : M_(M) { M_.lock_shared(); }
  ~ReaderLock() RELEASE_GENERIC() { M_.unlock_shared(); }
  ReaderLock(const ReaderLock &) = delete;
  ReaderLock &operator=(const ReaderLock &) = delete;

 private:
  SharedMutex &M_;
};

class SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex &M) ACQUIRE(M) : M_(M) { M_.lock(); }
  ~WriterLock() RELEASE() { M_.unlock(); }
  WriterLock(const WriterLock &) = delete;
  WriterLock &operator=(const WriterLock &) = delete;

 private:
  SharedMutex &M_;
};

}  // namespace omptarget
