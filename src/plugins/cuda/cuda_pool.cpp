#include "cuda_pool.h"

#include <algorithm>
#include <cstring>

#include "cuda_driver.h"
#include "debug.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";

const char *useName(CudaPool::Use U) {
  switch (U) {
    case CudaPool::Use::Off: return "off";
    case CudaPool::Use::All: return "every device allocation";
    case CudaPool::Use::QueuedOnly: return "queue-ordered allocations only";
  }
  return "?";
}
}  // namespace

void CudaPool::init(CUdevice Device, Use Wanted) {
  const Driver &D = driver();
  if (Wanted == Use::Off) {
    OMPT_TRACE(kComponent, "device %d: memory pool off (OMPTARGET_CUDA_MEMORY_POOL=0)", DeviceId_);
    return;
  }
  if (!D.hasMemoryPools()) {
    OMPT_TRACE(kComponent,
               "device %d: memory pool off (the driver has no stream-ordered allocator)",
               DeviceId_);
    return;
  }
  int Supported = 0;
  if (D.cuDeviceGetAttribute(&Supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, Device) !=
          CUDA_SUCCESS ||
      !Supported) {
    OMPT_TRACE(kComponent, "device %d: memory pool off (the device does not support memory pools)",
               DeviceId_);
    return;
  }
  CUmemPoolProps Props;
  std::memset(&Props, 0, sizeof(Props));
  Props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  Props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  Props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Props.location.id = static_cast<int>(Device);
  CUmemoryPool Pool = nullptr;
  if (CUresult R = D.cuMemPoolCreate(&Pool, &Props); R != CUDA_SUCCESS) {
    OMPT_TRACE(kComponent, "device %d: memory pool off (cuMemPoolCreate: %s)", DeviceId_,
               errorText(R).c_str());
    return;
  }
  // The settings (cuda_pool.h says why); a refusal leaves the driver's value.
  cuuint64_t Keep = UINT64_MAX;
  int On = 1, Off = 0;
  struct Setting {
    CUmemPool_attribute Attr;
    void *Value;
    const char *Name;
  } Settings[] = {
      {CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &Keep, "CU_MEMPOOL_ATTR_RELEASE_THRESHOLD"},
      {CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &On,
       "CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES"},
      {CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &On, "CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC"},
      {CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &Off,
       "CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES"},
  };
  for (const Setting &S : Settings)
    if (CUresult R = D.cuMemPoolSetAttribute(Pool, S.Attr, S.Value); R != CUDA_SUCCESS)
      OMPT_TRACE(kComponent, "device %d: cuMemPoolSetAttribute(%s): %s (the driver's value stays)",
                 DeviceId_, S.Name, errorText(R).c_str());
  CUstream Stream = nullptr;
  if (CUresult R = D.cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING); R != CUDA_SUCCESS) {
    OMPT_TRACE(kComponent, "device %d: memory pool off (cuStreamCreate: %s)", DeviceId_,
               errorText(R).c_str());
    (void)D.cuMemPoolDestroy(Pool);
    return;
  }
  Pool_ = Pool;
  Stream_ = Stream;
  Use_ = Wanted;
  OMPT_TRACE(kComponent, "device %d: memory pool on (%s)", DeviceId_, useName(Wanted));
}

Status CudaPool::destroy() {
  if (!Pool_) return {};
  const Driver &D = driver();
  Status S = check(D.cuStreamSynchronize(Stream_), "cuStreamSynchronize (memory pool stream)");
  (void)D.cuStreamDestroy(Stream_);
  // Frees still pending on other streams: the driver destroys the pool once
  // they complete (cuMemPoolDestroy returns at once).
  if (Status P = check(D.cuMemPoolDestroy(Pool_), "cuMemPoolDestroy"); !P && S) S = std::move(P);
  Pool_ = nullptr;
  Stream_ = nullptr;
  Use_ = Use::Off;
  return S;
}

Expected<CUdeviceptr> CudaPool::allocate(size_t Size, CUstream Stream) {
  CUdeviceptr P = 0;
  if (Status S = check(driver().cuMemAllocFromPoolAsync(&P, Size, Pool_, Stream),
                       "cuMemAllocFromPoolAsync");
      !S)
    return S.takeError();
  return P;
}

Status CudaPool::release(CUdeviceptr Ptr, CUstream Stream) {
  return check(driver().cuMemFreeAsync(Ptr, Stream), "cuMemFreeAsync");
}

Expected<CUdeviceptr> CudaPool::allocateNow(size_t Size) {
  Expected<CUdeviceptr> P = allocate(Size, Stream_);
  if (!P) return P;
  if (Status S =
          check(driver().cuStreamSynchronize(Stream_), "cuStreamSynchronize (memory pool stream)");
      !S) {
    (void)release(*P, Stream_);
    return S.takeError();
  }
  return P;
}

Status CudaPool::releaseNow(CUdeviceptr Ptr, bool *Released) {
  // Work on any stream may still use the memory (cuMemFree would wait for
  // it). A failed wait (a kernel faulted: nothing runs any more) still
  // releases, and is the error reported.
  Status Synced = check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
  Status Release = release(Ptr, Stream_);
  *Released = static_cast<bool>(Release);
  return Synced ? std::move(Release) : std::move(Synced);
}

void CudaPool::releaseAll(const std::vector<CUdeviceptr> &Ptrs) {
  if (Ptrs.empty()) return;
  (void)driver().cuCtxSynchronize();
  for (CUdeviceptr P : Ptrs) (void)release(P, Stream_);
}

bool CudaPool::trim() {
  if (!Pool_) return false;
  const Driver &D = driver();
  const uint64_t Before = reservedBytes();
  // Frees queued on streams count as in use until their completion is seen.
  (void)D.cuCtxSynchronize();
  CUresult R = D.cuMemPoolTrimTo(Pool_, 0);
  const uint64_t After = reservedBytes();
  OMPT_TRACE(kComponent, "device %d: out of memory: memory pool trimmed from %llu to %llu bytes%s",
             DeviceId_, static_cast<unsigned long long>(Before),
             static_cast<unsigned long long>(After),
             R == CUDA_SUCCESS ? "" : (" (cuMemPoolTrimTo: " + errorText(R) + ")").c_str());
  return After < Before;
}

uint64_t CudaPool::reservedBytes() const {
  cuuint64_t Bytes = 0;
  if (!Pool_ || driver().cuMemPoolGetAttribute(Pool_, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
                                               &Bytes) != CUDA_SUCCESS)
    return 0;
  return Bytes;
}

void CudaPool::grantAccess(int32_t PeerId, CUdevice Peer) {
  if (!Pool_) return;
  ScopedLock Lock(Mutex_);
  if (std::find(Granted_.begin(), Granted_.end(), PeerId) != Granted_.end()) return;
  Granted_.push_back(PeerId);  // once, granted or not
  CUmemAccessDesc Access;
  std::memset(&Access, 0, sizeof(Access));
  Access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Access.location.id = static_cast<int>(Peer);
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CUresult R = driver().cuMemPoolSetAccess(Pool_, &Access, 1);
  OMPT_TRACE(kComponent, "device %d: memory pool %s to device %d%s", DeviceId_,
             R == CUDA_SUCCESS ? "accessible" : "not made accessible", PeerId,
             R == CUDA_SUCCESS ? "" : (": cuMemPoolSetAccess: " + errorText(R)).c_str());
}

}  // namespace omptarget::cuda
