// OpenMP device queries beyond LLVM 14: omp_get_mapped_ptr and
// omp_target_is_accessible (5.1), omp_get_uid_from_device and
// omp_get_device_from_uid (6.0). clang 14's omp.h declares the first two;
// include/omptarget/omp_target_ext.h declares the others.
//
//   omp_get_mapped_ptr        the device address of a mapped host address
//                             (NULL when unmapped; the address itself under
//                             unified shared memory); the host pointer for
//                             the initial device; NULL (with a message) for
//                             an invalid device. Never changes a count.
//   omp_target_is_accessible  1 for the initial device and, under
//                             `requires unified_shared_memory`, for every
//                             device; otherwise the plugin's answer
//                             (is_accessible_ptr): our host plugin's devices
//                             share the host's memory (always 1), our CUDA
//                             plugin reaches the pinned host and managed
//                             memory of llvm_omp_target_alloc_host / _shared
//                             of that device and memory locked on it (1),
//                             not pageable memory (0); a plugin without the
//                             entry (LLVM 14's)
//                             gets 0, the answer that never misleads.
//   omp_get_uid_from_device   the device's id (plugin's get_device_uid, see
//                             Device::uid); kHostUid for the initial device;
//                             NULL (with a message) for an invalid device.
//   omp_get_device_from_uid   the device whose id it is, the initial device
//                             for kHostUid, omp_invalid_device otherwise.
#include <cstring>

#include "debug.h"
#include "export.h"
#include "map_ops.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {
// The initial device's id (the value LLVM's later runtimes use).
constexpr const char *kHostUid = "HOST";
}  // namespace

extern "C" {

// After shutdown nothing is mapped and no device is left.
OMPT_EXPORT void *omp_get_mapped_ptr(const void *Ptr, int DeviceNum) {
  RuntimeUse Use;
  if (!Use) return nullptr;
  if (isInitialDevice(DeviceNum)) return const_cast<void *>(Ptr);
  Device *D = Runtime::get().devices().get(DeviceNum);
  if (!D) {
    debug::error("%s", invalidDeviceMessage("omp_get_mapped_ptr", DeviceNum).c_str());
    return nullptr;
  }
  if (!Ptr) return nullptr;
  return translate(*D, const_cast<void *>(Ptr), 0);
}

OMPT_EXPORT int omp_target_is_accessible(const void *Ptr, size_t Size, int DeviceNum) {
  const char *Call = "omp_target_is_accessible";
  RuntimeUse Use;
  if (!Use) return 0;
  Runtime &R = Runtime::get();
  if (isInitialDevice(DeviceNum)) return 1;
  if (!R.devices().get(DeviceNum)) {
    debug::error("%s", invalidDeviceMessage(Call, DeviceNum).c_str());
    return 0;
  }
  if (!Ptr) return 0;
  if (R.unifiedSharedMemory()) return 1;
  auto D = R.readyDevice(DeviceNum, Call);
  if (!D) {
    debug::error("%s", D.error().message().c_str());
    return 0;
  }
  return (*D)->canAccess(Ptr, Size) ? 1 : 0;
}

OMPT_EXPORT const char *omp_get_uid_from_device(int DeviceNum) {
  RuntimeUse Use;
  if (!Use) return nullptr;
  if (isInitialDevice(DeviceNum)) return kHostUid;
  Device *D = Runtime::get().devices().get(DeviceNum);
  if (!D) {
    debug::error("%s", invalidDeviceMessage("omp_get_uid_from_device", DeviceNum).c_str());
    return nullptr;
  }
  return D->uid();
}

OMPT_EXPORT int omp_get_device_from_uid(const char *Uid) {
  RuntimeUse Use;
  if (!Uid || !Use) return static_cast<int>(abi::kOmpInvalidDevice);
  if (std::strcmp(Uid, kHostUid) == 0) return initialDevice();
  DeviceTable &T = Runtime::get().devices();
  for (int32_t I = 0, N = T.size(); I < N; ++I)
    if (Device *D = T.get(I); D && std::strcmp(D->uid(), Uid) == 0) return I;
  return static_cast<int>(abi::kOmpInvalidDevice);
}

}  // extern "C"
