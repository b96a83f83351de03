// The default device of the calling thread: libomp's default-device ICV
// (OMP_DEFAULT_DEVICE, omp_set_default_device), read for every construct
// without a device clause.
//
// At exit() libomp (a shared library: no atexit handler of its own) shuts
// down in its library destructor, which may run before ours while other
// threads still offload (exit() from main while they run target regions).
// A thread that then asks libomp makes it initialize again, and libomp 14
// aborts there ("Assertion failure at kmp_runtime.cpp(7163)",
// `__kmp_all_nth == 0`): 47 of 200 exits of exit_work_in_flight.c's
// threads case when main exits as the threads start, 0 of 200 since. So,
// once exit() has begun (the exit mark is set by an atexit handler, before
// any library destructor), the runtime asks libomp no more: a thread gets
// the value it read last, or OMP_DEFAULT_DEVICE's (0 when unset) if it
// never asked. Not covered: omp_set_default_device called by a thread after
// exit() has begun is not seen.
//
// Thread safety: the last value read is thread-local.
#include <optional>

#include "env.h"
#include "exit_mark.h"
#include "runtime.h"

extern "C" int omp_get_default_device(void) __attribute__((weak));

namespace omptarget::core {

namespace {
thread_local std::optional<int64_t> LastRead;

[[gnu::cold]] int64_t defaultDeviceAtExit() {
  if (LastRead) return *LastRead;
  // libomp has warned about a value it did not take: 0, silently, as it did.
  if (auto Text = env::getString("OMP_DEFAULT_DEVICE"))
    if (auto Value = env::parseInt(*Text); Value && *Value >= 0) return *Value;
  return 0;
}

}  // namespace

int64_t defaultDevice() {
  if (!omp_get_default_device) return 0;
  if (exit_mark::begun()) [[unlikely]]
    return defaultDeviceAtExit();
  const int64_t Device = omp_get_default_device();
  LastRead = Device;
  return Device;
}

}  // namespace omptarget::core
