// FutexMutex: a one-word mutex whose uncontended lock and unlock are one
// atomic instruction each, inline (std::mutex is two calls into pthread's
// type-generic code, ~55 instructions a pair). A contended waiter spins
// briefly on a plain load, then sleeps in the kernel (std::atomic::wait, a
// futex on Linux) until the holder's unlock wakes one waiter, so a holder
// that blocks (a device allocation, a copy) never makes others burn CPU.
//
// States: 0 unlocked, 1 locked, 2 locked and someone may be asleep. unlock()
// only pays for a wake-up when it finds 2 (the classic three-state futex
// mutex). Meets Lockable: use std::lock_guard / std::unique_lock.
#pragma once

#include <atomic>
#include <cstdint>

namespace omptarget {

class FutexMutex {
 public:
  void lock() noexcept {
    uint32_t Expected = 0;
    if (State_.compare_exchange_strong(Expected, 1, std::memory_order_acquire,
                                       std::memory_order_relaxed)) [[likely]]
      return;
    lockContended();
  }
  bool try_lock() noexcept {
    uint32_t Expected = 0;
    return State_.compare_exchange_strong(Expected, 1, std::memory_order_acquire,
                                          std::memory_order_relaxed);
  }
  void unlock() noexcept {
    if (State_.exchange(0, std::memory_order_release) == 2) [[unlikely]]
      State_.notify_one();
  }

 private:
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
#endif
    }
    // Announce a sleeper (2) and sleep while the lock stays taken; whoever
    // takes it this way leaves 2 behind, so its unlock wakes the next one.
    while (State_.exchange(2, std::memory_order_acquire) != 0) State_.wait(2, std::memory_order_relaxed);
  }

  std::atomic<uint32_t> State_{0};
};

}  // namespace omptarget
