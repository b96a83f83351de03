// HostRegistrations: see host_registrations.h.
//
// Memory that is pinned already (the program's own cudaHostRegister /
// cuMemHostRegister, cuMemAllocHost) is found through cuPointerGetAttribute
// and used as it is: its owner unpins it, never we. If that owner unpins it
// while a device's entry lives, copies still come out right: the driver
// then treats the memory as pageable.
#include "host_registrations.h"

#include "cuda_driver.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

namespace {
CUdeviceptr devPtr(const void *P) { return reinterpret_cast<CUdeviceptr>(P); }

// What the driver knows of the memory at P: pageable (nothing set), managed
// or device memory, or pinned host memory and, when the driver says, the
// pinned range around P.
struct DriverPinned {
  bool Pinned = false;   // host memory the driver DMAs directly
  bool Managed = false;  // managed (or device) memory: nothing to pin
  uintptr_t Begin = 0;   // the pinned range, when its attributes are known
  size_t Size = 0;
};
DriverPinned askDriver(const void *P) {
  const Driver &D = driver();
  DriverPinned Out;
  unsigned Type = 0;
  if (D.cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, devPtr(P)) != CUDA_SUCCESS)
    return Out;  // not allocated, registered or mapped by CUDA: pageable
  if (Type != CU_MEMORYTYPE_HOST) {
    Out.Managed = Type != 0;
    return Out;
  }
  Out.Pinned = true;
  CUdeviceptr Start = 0;
  size_t Size = 0;
  if (D.cuPointerGetAttribute(&Start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, devPtr(P)) ==
          CUDA_SUCCESS &&
      D.cuPointerGetAttribute(&Size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, devPtr(P)) == CUDA_SUCCESS) {
    Out.Begin = static_cast<uintptr_t>(Start);
    Out.Size = Size;
  }
  return Out;
}

void *deviceAddressOf(void *P) {
  CUdeviceptr Dev = 0;
  if (driver().cuPointerGetAttribute(&Dev, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, devPtr(P)) !=
      CUDA_SUCCESS)
    return P;  // unified addressing: the host address is the device's
  return reinterpret_cast<void *>(Dev);
}
}  // namespace

Expected<plugin::PinnedRange> HostRegistrations::pin(void *HstPtr, size_t Size) {
  const uintptr_t B = reinterpret_cast<uintptr_t>(HstPtr);
  ScopedLock Lock(Mutex_);
  // Registered by us for another device: one more holder.
  auto It = Ranges_.upper_bound(B);
  if (It != Ranges_.begin()) {
    auto Prev = std::prev(It);
    if (B < Prev->first + Prev->second.Size) {
      if (B + Size > Prev->first + Prev->second.Size)
        return makeError(
            "the memory is registered already as [%p, %p) (%zu bytes, locked on another "
            "device), which does not contain the range; lock a range inside it",
            reinterpret_cast<void *>(Prev->first),
            reinterpret_cast<void *>(Prev->first + Prev->second.Size), Prev->second.Size);
      ++Prev->second.Holders;
      void *Begin = reinterpret_cast<void *>(Prev->first);
      return plugin::PinnedRange{Prev->first, Prev->second.Size, deviceAddressOf(Begin), false};
    }
  }
  DriverPinned Known = askDriver(HstPtr);
  if (Known.Managed)  // the device reaches it already; nothing to register
    return plugin::PinnedRange{B, Size, HstPtr, true};
  if (Known.Pinned) {
    if (Known.Size == 0)  // the driver does not say how far: use the asked range
      return plugin::PinnedRange{B, Size, deviceAddressOf(HstPtr), true};
    if (B + Size > Known.Begin + Known.Size)
      return makeError(
          "the memory is pinned already as [%p, %p) (%zu bytes, by the program's "
          "cuMemHostRegister/cudaHostRegister or cuMemAllocHost), which does not contain the "
          "range; lock a range inside it",
          reinterpret_cast<void *>(Known.Begin), reinterpret_cast<void *>(Known.Begin + Known.Size),
          Known.Size);
    void *Begin = reinterpret_cast<void *>(Known.Begin);
    return plugin::PinnedRange{Known.Begin, Known.Size, deviceAddressOf(Begin), true};
  }
  CUresult R = driver().cuMemHostRegister(HstPtr, Size, CU_MEMHOSTREGISTER_PORTABLE);
  if (R == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    return makeError(
        "cuMemHostRegister: %s: part of the range is pinned already (by the program); lock a "
        "range inside the pinned memory, or one outside it",
        errorText(R).c_str());
  if (R != CUDA_SUCCESS)
    return makeError(
        "cuMemHostRegister: %s (pinning needs physical memory and the process's locked-memory "
        "limit, ulimit -l)",
        errorText(R).c_str());
  Ranges_.emplace(B, Registered{Size, 1});
  return plugin::PinnedRange{B, Size, deviceAddressOf(HstPtr), false};
}

Status HostRegistrations::unpin(const plugin::PinnedRange &R) {
  ScopedLock Lock(Mutex_);
  auto It = Ranges_.upper_bound(R.Begin);
  if (It == Ranges_.begin() || R.Begin >= std::prev(It)->first + std::prev(It)->second.Size)
    return makeError("host range %p is not registered by this plugin",
                     reinterpret_cast<void *>(R.Begin));
  --It;
  if (--It->second.Holders != 0) return {};
  void *Begin = reinterpret_cast<void *>(It->first);
  Ranges_.erase(It);
  return check(driver().cuMemHostUnregister(Begin), "cuMemHostUnregister");
}

size_t HostRegistrations::numRegistered() const {
  ScopedLock Lock(Mutex_);
  return Ranges_.size();
}

}  // namespace omptarget::cuda
