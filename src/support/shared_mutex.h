// SharedMutex: a reader-writer lock for the few tables that are read on a hot
// path by many threads at once and written rarely (the pinned host memory map
// of a plugin device: every large copy asks it, only lock/unlock calls
// change it). A pthread rwlock that prefers writers (below), with Clang
// thread-safety annotations, and the guards that the analysis follows:
//
//   ReaderLock   a shared hold, from construction to the end of the scope
//   WriterLock   an exclusive hold, from construction to the end of the scope
//
// Readers do not serialize each other. FutexMutex (futex_mutex.h) stays the
// lock of everything else: a construct's critical sections are a lookup and
// an update together, which a reader lock would not shorten.
//
// Writers go first: a writer that waits makes new readers wait behind it.
// glibc's default rwlock (std::shared_mutex) prefers readers, and a few
// threads that look up in a loop (copies from many threads) kept a writer
// out for milliseconds per lock/unlock (tests/unit/pinned_map_test.cpp,
// 2 readers on 2 cores: 0.8 ms a lock+unlock instead of 0.2 us). The price
// of writer preference: a reader must not take the lock again while it
// holds it (it could wait behind a writer that waits for it).
#pragma once

#include <pthread.h>

#include <cstdlib>

#include "thread_annotations.h"

namespace omptarget {

class CAPABILITY("shared mutex") SharedMutex {
 public:
  SharedMutex() {
    pthread_rwlockattr_t Attr;
    pthread_rwlockattr_init(&Attr);
    pthread_rwlockattr_setkind_np(&Attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    if (pthread_rwlock_init(&M_, &Attr) != 0) std::abort();
    pthread_rwlockattr_destroy(&Attr);
  }
  ~SharedMutex() { pthread_rwlock_destroy(&M_); }
  SharedMutex(const SharedMutex &) = delete;
  SharedMutex &operator=(const SharedMutex &) = delete;

  void lock() ACQUIRE() { pthread_rwlock_wrlock(&M_); }
  void unlock() RELEASE() { pthread_rwlock_unlock(&M_); }
  void lock_shared() ACQUIRE_SHARED() { pthread_rwlock_rdlock(&M_); }
  void unlock_shared() RELEASE_SHARED() { pthread_rwlock_unlock(&M_); }

 private:
  pthread_rwlock_t M_;
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
