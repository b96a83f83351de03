// SpinLock: a one-word lock for the plugin's tiny critical sections.
//
// The pools and the memory manager hold their lock only for a few loads and
// stores (a hash lookup, a vector push/pop), never across a device call, so
// an uncontended lock/unlock pair is two atomic instructions instead of the
// two library calls of std::mutex. Under contention a waiter spins on a
// plain load (no cache-line ping-pong) with a pause, and yields the CPU
// after a short while so that a preempted holder can run (the machine may
// have fewer cores than threads). Meets BasicLockable: use std::lock_guard.
#pragma once

#include <atomic>
#include <thread>

namespace omptarget::plugin {

class SpinLock {
 public:
  void lock() noexcept {
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
