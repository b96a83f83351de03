// FutexMutex: the runtime's one mutex, core and plugins alike (the mapping
// table and its entries, the device table, the image registry, the plugins'
// pools, memory manager and CUDA tables). Taken with ScopedLock / UniqueLock
// (scoped_lock.h), which the thread-safety analysis follows; a thread that
// waits for a condition under it waits on a CondVar (cond_var.h).
//
// Why this kind, measured: a construct takes the mapping table's lock twice,
// and this lock instead of std::mutex took ~120 instructions off an empty
// target region (docs/benchmarks.md). The plugins' former SpinLock (the same
// one-word lock, spinning then yielding instead of sleeping, with the
// single-thread shortcut below) did the same job and is gone: the host
// benchmark before and after is in docs/benchmarks.md ("One kind of lock").
//
// A one-word mutex whose uncontended lock and unlock are one atomic
// instruction each, inline (std::mutex is two calls into pthread's
// type-generic code, ~55 instructions a pair). While the process has a
// single thread (glibc's __libc_single_threaded, the flag glibc's own
// mutexes and libstdc++'s shared_ptr consult) nobody can contend, so lock and
// unlock are plain stores. The flag only ever goes from true to false (at
// the first thread creation, which orders everything before it), so a lock
// taken with a plain store is seen as taken by any thread created later, and
// unlock() tests the flag again. A contended waiter spins briefly on a plain
// load, then sleeps in the kernel (std::atomic::wait, a futex on Linux) until
// the holder's unlock wakes one waiter, so a holder that blocks (a device
// allocation, a copy) never makes others burn CPU.
//
// States: 0 unlocked, 1 locked, 2 locked and someone may be asleep. unlock()
// only pays for a wake-up when it finds 2 (the classic three-state futex
// mutex). Meets Lockable.
#pragma once

#include <atomic>
#include <cstdint>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define OMPTARGET_HAVE_SINGLE_THREADED 1
#endif

#include "thread_annotations.h"

namespace omptarget {

class CAPABILITY("mutex") FutexMutex {
 public:
  void lock() noexcept ACQUIRE() {
    if (singleThreaded()) {
      State_.store(1, std::memory_order_relaxed);
      return;
    }
    uint32_t Expected = 0;
    if (State_.compare_exchange_strong(Expected, 1, std::memory_order_acquire,
                                       std::memory_order_relaxed)) [[likely]]
      return;
    lockContended();
  }
  bool try_lock() noexcept TRY_ACQUIRE(true) {
    uint32_t Expected = 0;
    return State_.compare_exchange_strong(Expected, 1, std::memory_order_acquire,
                                          std::memory_order_relaxed);
  }
  void unlock() noexcept RELEASE() {
    if (singleThreaded()) {
      State_.store(0, std::memory_order_relaxed);
      return;
    }
    if (State_.exchange(0, std::memory_order_release) == 2) [[unlikely]]
      State_.notify_one();
  }

 private:
  static bool singleThreaded() noexcept {
#ifdef OMPTARGET_HAVE_SINGLE_THREADED
    return __libc_single_threaded;
#else
    return false;
#endif
  }

  [[gnu::noinline]] void lockContended() noexcept {
    // A short spin first: critical sections are usually a table lookup.
    for (int Spin = 0; Spin < 100; ++Spin) {
      uint32_t Expected = 0;
      if (State_.load(std::memory_order_relaxed) == 0 &&
          State_.compare_exchange_weak(Expected, 1, std::memory_order_acquire,
                                       std::memory_order_relaxed))
        return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
    }
    // Announce a sleeper (2) and sleep while the lock stays taken; whoever
    // takes it this way leaves 2 behind, so its unlock wakes the next one.
    while (State_.exchange(2, std::memory_order_acquire) != 0)
      State_.wait(2, std::memory_order_relaxed);
  }

  std::atomic<uint32_t> State_{0};
};

}  // namespace omptarget
