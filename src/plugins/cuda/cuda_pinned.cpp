// CudaDevice: locked (pinned) host memory and the copies that use it.
//
// Pinning: cuMemHostRegister(CU_MEMHOSTREGISTER_PORTABLE), so that every
// context of the process (other devices, the program's CUDA runtime) sees
// the memory as pinned. Memory that is pinned already (the program's own
// cudaHostRegister / cuMemHostRegister, cuMemAllocHost, another device's
// lock) is found through cuPointerGetAttribute and used as it is: its owner
// unpins it, never we. If that owner unpins it while our entry lives, copies
// still come out right: the driver then treats the memory as pageable.
//
// Copies: when the device's pinned map is not empty, a copy is cut where it
// enters and leaves locked ranges; each piece inside one goes straight to
// cuMemcpyHtoDAsync / cuMemcpyDtoHAsync on the construct's stream (the DMA
// reads or writes user memory; a retrieve lands by the stream's
// synchronize, when the core reads it), and each piece outside takes the
// pageable route. A copy that lies inside one locked range, the usual case,
// is one piece.
#include "cuda_device.h"
#include "cuda_driver.h"

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

Expected<plugin::PinnedRange> CudaDevice::pinHostImpl(void *HstPtr, size_t Size) {
  if (Status S = activate(); !S) return S.takeError();
  const uintptr_t B = reinterpret_cast<uintptr_t>(HstPtr);
  DriverPinned Known = askDriver(HstPtr);
  if (Known.Managed)  // the device reaches it already; nothing to register
    return plugin::PinnedRange{B, Size, HstPtr, true};
  if (Known.Pinned) {
    if (Known.Size == 0)  // the driver does not say how far: use the asked range
      return plugin::PinnedRange{B, Size, deviceAddressOf(HstPtr), true};
    if (B + Size > Known.Begin + Known.Size)
      return makeError(
          "the memory is pinned already as [%p, %p) (%zu bytes, by the program's "
          "cuMemHostRegister/cudaHostRegister or cuMemAllocHost, or by a lock on another "
          "device), which does not contain the range; lock a range inside it",
          reinterpret_cast<void *>(Known.Begin),
          reinterpret_cast<void *>(Known.Begin + Known.Size), Known.Size);
    void *Begin = reinterpret_cast<void *>(Known.Begin);
    return plugin::PinnedRange{Known.Begin, Known.Size, deviceAddressOf(Begin), true};
  }
  CUresult R = driver().cuMemHostRegister(HstPtr, Size, CU_MEMHOSTREGISTER_PORTABLE);
  if (R == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    return makeError(
        "cuMemHostRegister: %s: part of the range is pinned already (by the program or a "
        "lock on another device); lock a range inside the pinned memory, or one outside it",
        errorText(R).c_str());
  if (R != CUDA_SUCCESS)
    return makeError(
        "cuMemHostRegister: %s (pinning needs physical memory and the process's locked-memory "
        "limit, ulimit -l)",
        errorText(R).c_str());
  return plugin::PinnedRange{B, Size, deviceAddressOf(HstPtr), false};
}

Status CudaDevice::unpinHostImpl(const plugin::PinnedRange &R) {
  if (Status S = activate(); !S) return S;
  return check(driver().cuMemHostUnregister(reinterpret_cast<void *>(R.Begin)),
               "cuMemHostUnregister");
}

Status CudaDevice::submitAroundLocked(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) {
  const char *H = static_cast<const char *>(HstPtr);
  char *T = static_cast<char *>(TgtPtr);
  while (Size != 0) {
    plugin::PinnedMap::Segment Piece = pinnedMap().segmentAt(H, Size);
    Status S = Piece.Locked
                   ? checkOnStream(driver().cuMemcpyHtoDAsync(devPtr(T), H, Piece.Size,
                                                              static_cast<CUstream>(Queue)),
                                   "cuMemcpyHtoDAsync", Queue)
                   : submitPageable(T, H, Piece.Size, Queue);
    if (!S) return S;
    H += Piece.Size, T += Piece.Size, Size -= Piece.Size;
  }
  return {};
}

Status CudaDevice::retrieveAroundLocked(void *HstPtr, const void *TgtPtr, size_t Size,
                                        void *Queue) {
  char *H = static_cast<char *>(HstPtr);
  const char *T = static_cast<const char *>(TgtPtr);
  while (Size != 0) {
    plugin::PinnedMap::Segment Piece = pinnedMap().segmentAt(H, Size);
    Status S = Piece.Locked
                   ? checkOnStream(driver().cuMemcpyDtoHAsync(H, devPtr(T), Piece.Size,
                                                              static_cast<CUstream>(Queue)),
                                   "cuMemcpyDtoHAsync", Queue)
                   : retrievePageable(H, T, Piece.Size, Queue);
    if (!S) return S;
    H += Piece.Size, T += Piece.Size, Size -= Piece.Size;
  }
  return {};
}

}  // namespace omptarget::cuda
