// HostRegistrations: the host ranges this plugin registered with
// cuMemHostRegister, shared by its devices.
//
// A registration is portable (CU_MEMHOSTREGISTER_PORTABLE): every context of
// the process sees the memory as pinned. Each device counts its own locks
// (its PinnedMap); this table counts the devices that hold each registered
// range, so that a range locked on two devices is registered once, by the
// first, and unregistered once, when the last device unpins it, instead of
// one device's unlock leaving another's entry on memory that is no longer
// pinned.
//
// pin(P, Size): a range inside one we registered gains a holder; otherwise
// the driver is asked whether the memory is pinned already (the program's
// own registration or cuMemAllocHost: External, never unregistered by us);
// otherwise it is registered here. unpin(R): drops the holder of the
// registered range that contains R.Begin; the last unregisters it.
//
// The caller makes a context current. Thread safety: Mutex_ (a FutexMutex)
// guards Ranges_ and is held across the driver's register and unregister
// calls, so that two devices locking or unlocking the same memory see one
// order. Taken after the device's PinnedMap change lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "error.h"
#include "futex_mutex.h"
#include "pinned_map.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class HostRegistrations {
 public:
  Expected<plugin::PinnedRange> pin(void *P, size_t Size);
  Status unpin(const plugin::PinnedRange &R);

  size_t numRegistered() const;

 private:
  struct Registered {
    size_t Size;
    uint32_t Holders;
  };
  mutable FutexMutex Mutex_;
  std::map<uintptr_t, Registered> Ranges_ GUARDED_BY(Mutex_);  // begin -> range
};

}  // namespace omptarget::cuda
