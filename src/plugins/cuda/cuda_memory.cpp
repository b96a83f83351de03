#include "cuda_memory.h"

#include <vector>

#include "cuda_driver.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

namespace {
const char *kindName(abi::TargetAllocKind Kind) {
  switch (Kind) {
    case abi::kAllocDevice: return "device";
    case abi::kAllocHost: return "pinned host";
    case abi::kAllocShared: return "managed";
    case abi::kAllocDefault: return "default (device)";
  }
  return "unknown";
}
}  // namespace

Expected<void *> CudaAllocations::allocate(size_t Size, abi::TargetAllocKind Kind) {
  const Driver &D = driver();
  size_t Bytes = Size == 0 ? 1 : Size;
  void *Ptr = nullptr;
  CUresult R;
  switch (Kind) {
    case abi::kAllocHost: R = D.cuMemAllocHost(&Ptr, Bytes); break;
    case abi::kAllocShared: {
      CUdeviceptr P = 0;
      R = D.cuMemAllocManaged(&P, Bytes, CU_MEM_ATTACH_GLOBAL);
      Ptr = reinterpret_cast<void *>(P);
      break;
    }
    default: {
      CUdeviceptr P = 0;
      R = D.cuMemAlloc(&P, Bytes);
      Ptr = reinterpret_cast<void *>(P);
      break;
    }
  }
  if (R != CUDA_SUCCESS) {
    std::string Why = errorText(R);
    size_t Free = 0, Total = 0;
    if (R == CUDA_ERROR_OUT_OF_MEMORY && D.cuMemGetInfo(&Free, &Total) == CUDA_SUCCESS)
      Why +=
          formatString("; device %d has %zu of %zu MiB free", DeviceId_, Free >> 20, Total >> 20);
    return makeError("cannot allocate %zu bytes of %s memory on CUDA device %d: %s", Size,
                     kindName(Kind), DeviceId_, Why.c_str());
  }
  ScopedLock Lock(Mutex_);
  Live_[Ptr] = Block{Kind, Bytes};
  if (Kind == abi::kAllocHost || Kind == abi::kAllocShared)
    HostReachable_[reinterpret_cast<uintptr_t>(Ptr)] = Bytes;
  return Ptr;
}

Status CudaAllocations::freeBlock(void *Ptr, abi::TargetAllocKind Kind) {
  const Driver &D = driver();
  if (Kind == abi::kAllocHost) return check(D.cuMemFreeHost(Ptr), "cuMemFreeHost");
  return check(D.cuMemFree(reinterpret_cast<CUdeviceptr>(Ptr)), "cuMemFree");
}

Status CudaAllocations::freeBlock(void *Ptr) {
  Block B;
  {
    ScopedLock Lock(Mutex_);
    auto It = Live_.find(Ptr);
    if (It == Live_.end())
      return makeError("%p was not allocated on CUDA device %d (or was already freed)", Ptr,
                       DeviceId_);
    B = It->second;
    Live_.erase(It);
    HostReachable_.erase(reinterpret_cast<uintptr_t>(Ptr));
  }
  return freeBlock(Ptr, B.Kind);
}

size_t CudaAllocations::freeAll() {
  std::vector<std::pair<void *, Block>> All;
  {
    ScopedLock Lock(Mutex_);
    All.assign(Live_.begin(), Live_.end());
    Live_.clear();
    HostReachable_.clear();
  }
  for (auto &[Ptr, B] : All) (void)freeBlock(Ptr, B.Kind);
  return All.size();
}

bool CudaAllocations::hostAccessible(const void *Ptr, size_t Size) const {
  auto Addr = reinterpret_cast<uintptr_t>(Ptr);
  ScopedLock Lock(Mutex_);
  auto It = HostReachable_.upper_bound(Addr);
  if (It == HostReachable_.begin()) return false;
  --It;
  uintptr_t Offset = Addr - It->first;
  return Offset < It->second && Size <= It->second - Offset;
}

size_t CudaAllocations::liveBlocks() const {
  ScopedLock Lock(Mutex_);
  return Live_.size();
}

}  // namespace omptarget::cuda
