// CudaDevice: locked (pinned) host memory and the copies that use it.
//
// Pinning: the plugin's HostRegistrations (host_registrations.h) registers
// the range with cuMemHostRegister (portable: once for all devices) or finds
// it pinned already by the program, which unpins it itself.
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
}  // namespace

Expected<plugin::PinnedRange> CudaDevice::pinHostImpl(void *HstPtr, size_t Size) {
  if (Status S = activate(); !S) return S.takeError();
  return Registrations_.pin(HstPtr, Size);
}

Status CudaDevice::unpinHostImpl(const plugin::PinnedRange &R) {
  if (Status S = activate(); !S) return S;
  return Registrations_.unpin(R);
}

Status CudaDevice::submitAroundLocked(void *TgtPtr, const void *HstPtr, size_t Size, void *Queue) {
  const char *H = static_cast<const char *>(HstPtr);
  char *T = static_cast<char *>(TgtPtr);
  return pinnedMap().forEachSegment(
      HstPtr, Size,
      [&](size_t Off, size_t Len) {
        return checkOnStream(driver().cuMemcpyHtoDAsync(devPtr(T + Off), H + Off, Len,
                                                        static_cast<CUstream>(Queue)),
                             "cuMemcpyHtoDAsync", Queue);
      },
      [&](size_t Off, size_t Len) { return submitPageable(T + Off, H + Off, Len, Queue); });
}

Status CudaDevice::retrieveAroundLocked(void *HstPtr, const void *TgtPtr, size_t Size,
                                        void *Queue) {
  char *H = static_cast<char *>(HstPtr);
  const char *T = static_cast<const char *>(TgtPtr);
  return pinnedMap().forEachSegment(
      HstPtr, Size,
      [&](size_t Off, size_t Len) {
        return checkOnStream(driver().cuMemcpyDtoHAsync(H + Off, devPtr(T + Off), Len,
                                                        static_cast<CUstream>(Queue)),
                             "cuMemcpyDtoHAsync", Queue);
      },
      [&](size_t Off, size_t Len) { return retrievePageable(H + Off, T + Off, Len, Queue); });
}

}  // namespace omptarget::cuda
