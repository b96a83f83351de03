// SpinLock: a one-word lock for the plugin's tiny critical sections.
//
// The pools and the memory manager hold their lock only for a few loads and
// stores (a hash lookup, a vector push/pop), never across a device call, so
// an uncontended lock/unlock pair is two atomic instructions instead of the
// two library calls of std::mutex. Under contention a waiter spins on a
// plain load (no cache-line ping-pong) with a pause, and yields the CPU
// after a short while so that a preempted holder can run (the machine may
// have fewer cores than threads). While the process has a single thread
// (glibc's __libc_single_threaded, the flag glibc's own mutexes and
// libstdc++'s shared_ptr consult) nobody can contend, so lock() is a plain
// store: an uncontended exchange costs ~20 cycles, a tenth of a small target
// region's runtime overhead. Nothing is held across thread creation (the
// critical sections make no calls), so the flag cannot change under a held
// lock. Meets BasicLockable: use std::lock_guard.
#pragma once

#include <atomic>
#include <thread>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define OMPTARGET_HAVE_SINGLE_THREADED 1
#endif

namespace omptarget::plugin {

class SpinLock {
 public:
  void lock() noexcept {
#ifdef OMPTARGET_HAVE_SINGLE_THREADED
    if (__libc_single_threaded) {
      Locked_.store(true, std::memory_order_relaxed);
      return;
    }
#endif
    while (Locked_.exchange(true, std::memory_order_acquire)) {
      for (unsigned Spins = 0; Locked_.load(std::memory_order_relaxed); ++Spins) {
        if (Spins < 64)
          cpuRelax();
        else
          std::this_thread::yield();
      }
    }
  }
  bool try_lock() noexcept {
    return !Locked_.load(std::memory_order_relaxed) &&
           !Locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() noexcept { Locked_.store(false, std::memory_order_release); }

 private:
  static void cpuRelax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  std::atomic<bool> Locked_{false};
};

}  // namespace omptarget::plugin
