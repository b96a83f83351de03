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

// A system call each time, on the profiled path only: no thread_local here,
// because the plugin is dlopen'ed and its thread-locals live in dynamic TLS,
// which LLVM 14's LeakSanitizer cannot walk on this glibc (its tracer
// crashed at exit in every profiled program whose other threads offload).
uint64_t currentThreadId() { return static_cast<uint64_t>(::syscall(SYS_gettid)); }

}  // namespace omptarget::plugin
