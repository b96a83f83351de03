// Locked (pinned) host memory, as LLVM's later runtimes name it:
//
//   void *llvm_omp_target_lock_mem(void *ptr, size_t size, int device_num)
//       Locks [ptr, ptr + size) for DMA with device_num and returns the
//       address at which the device reaches ptr (NULL on failure, with a
//       message). Locks are reference-counted per device by the plugin: a
//       range inside a locked one adds a reference; one that overlaps a
//       locked range without lying inside it is refused. Copies from and to
//       locked memory go straight to the device's DMA engine, asynchronously
//       in both directions (docs/usage.md, "Locked host memory").
//   void llvm_omp_target_unlock_mem(void *ptr, int device_num)
//       Drops one lock reference of the locked range that contains ptr; the
//       memory is unpinned when the last one goes. Memory that is not locked
//       is an error with a message; nothing changes.
//
// The initial device needs no lock: ptr itself is returned. A device whose
// plugin cannot lock memory (LLVM 14's) returns ptr too: its copies take the
// pageable route, as before.
#include <cinttypes>

#include "profile.h"
#include "debug.h"
#include "export.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {
// The ready device DeviceNum, or null after a message naming Call.
Device *deviceFor(int DeviceNum, const char *Call, const char *What) {
  Runtime &R = Runtime::get();
  if (!R.devices().get(DeviceNum)) {
    debug::error("%s; %s", invalidDeviceMessage(Call, DeviceNum).c_str(), What);
    return nullptr;
  }
  auto D = R.readyDevice(DeviceNum, Call);
  if (!D) {
    debug::error("%s; %s", D.error().message().c_str(), What);
    return nullptr;
  }
  return *D;
}
}  // namespace

extern "C" {

OMPT_EXPORT void *llvm_omp_target_lock_mem(void *Ptr, size_t Size, int DeviceNum) {
  const char *Call = "llvm_omp_target_lock_mem";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was locked (returning NULL)");
    return nullptr;
  }
  profile::HostSpan Span(Call, nullptr, DeviceNum);
  if (!Ptr || Size == 0 || Size > static_cast<size_t>(INT64_MAX)) {
    debug::error("%s: cannot lock host memory " OMPT_PTR_FMT " of %zu bytes on device %d: %s", Call,
                 OMPT_PTR(Ptr), Size, DeviceNum,
                 !Ptr        ? "null pointer"
                 : Size == 0 ? "zero size"
                             : "the size is too large");
    return nullptr;
  }
  if (isInitialDevice(DeviceNum)) return Ptr;
  Device *D = deviceFor(DeviceNum, Call, "nothing was locked");
  if (!D) return nullptr;
  Expected<void *> Locked = D->lockHost(Ptr, static_cast<int64_t>(Size));
  if (!Locked) {
    debug::error("%s: %s", Call, Locked.error().message().c_str());
    return nullptr;
  }
  return *Locked;
}

OMPT_EXPORT void llvm_omp_target_unlock_mem(void *Ptr, int DeviceNum) {
  const char *Call = "llvm_omp_target_unlock_mem";
  // Every lock ended with the runtime: nothing is left to unlock.
  RuntimeUse Use;
  if (!Use) return;
  profile::HostSpan Span(Call, nullptr, DeviceNum);
  if (!Ptr) {
    debug::error("%s: null pointer on device %d; nothing was unlocked", Call, DeviceNum);
    return;
  }
  if (isInitialDevice(DeviceNum)) return;
  Device *D = deviceFor(DeviceNum, Call, "nothing was unlocked");
  if (!D) return;
  if (Status S = D->unlockHost(Ptr); !S) debug::error("%s: %s", Call, S.error().message().c_str());
}

}  // extern "C"
