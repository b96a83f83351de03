// The clock and thread id of __tgt_device_op (device_profile.h).
#include "device_profile.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>

namespace omptarget::plugin {

uint64_t steadyNowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

uint64_t currentThreadId() {
  thread_local const uint64_t Id = static_cast<uint64_t>(::syscall(SYS_gettid));
  return Id;
}

}  // namespace omptarget::plugin
