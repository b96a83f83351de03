#include "cuda_memory.h"

#include <utility>
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

CUdeviceptr devPtr(const void *P) { return reinterpret_cast<CUdeviceptr>(P); }
void *hostPtr(CUdeviceptr P) { return reinterpret_cast<void *>(P); }
bool isDeviceKind(abi::TargetAllocKind Kind) {
  return Kind == abi::kAllocDevice || Kind == abi::kAllocDefault;
}
}  // namespace

Error CudaAllocations::allocFailed(size_t Size, abi::TargetAllocKind Kind, Error Why) const {
  return makeError("cannot allocate %zu bytes of %s memory on CUDA device %d: %s", Size,
                   kindName(Kind), DeviceId_, Why.message().c_str());
}

void CudaAllocations::record(void *Ptr, const Block &B) {
  ScopedLock Lock(Mutex_);
  Live_[Ptr] = B;
  if (B.Kind == abi::kAllocHost || B.Kind == abi::kAllocShared)
    HostReachable_[reinterpret_cast<uintptr_t>(Ptr)] = B.Size;
}

Expected<void *> CudaAllocations::allocate(size_t Size, abi::TargetAllocKind Kind) {
  const Driver &D = driver();
  size_t Bytes = Size == 0 ? 1 : Size;
  if (isDeviceKind(Kind) && Pool_.servesSynchronous()) {
    Expected<CUdeviceptr> P = Pool_.allocateNow(Bytes);
    if (!P) return allocFailed(Size, Kind, P.takeError());
    record(hostPtr(*P), Block{Kind, Bytes, true});
    return hostPtr(*P);
  }
  void *Ptr = nullptr;
  CUresult R;
  const char *Call;
  switch (Kind) {
    case abi::kAllocHost:
      Call = "cuMemAllocHost";
      R = D.cuMemAllocHost(&Ptr, Bytes);
      break;
    case abi::kAllocShared: {
      Call = "cuMemAllocManaged";
      CUdeviceptr P = 0;
      R = D.cuMemAllocManaged(&P, Bytes, CU_MEM_ATTACH_GLOBAL);
      Ptr = hostPtr(P);
      break;
    }
    default: {
      Call = "cuMemAlloc";
      CUdeviceptr P = 0;
      R = D.cuMemAlloc(&P, Bytes);
      Ptr = hostPtr(P);
      break;
    }
  }
  // The device's free memory is in the generic layer's message.
  if (R != CUDA_SUCCESS) return allocFailed(Size, Kind, check(R, Call).takeError());
  record(Ptr, Block{Kind, Bytes, false});
  return Ptr;
}

Expected<void *> CudaAllocations::allocateOnStream(size_t Size, CUstream Stream) {
  Expected<CUdeviceptr> P = Pool_.allocate(Size, Stream);
  if (!P) return allocFailed(Size, abi::kAllocDefault, P.takeError());
  record(hostPtr(*P), Block{abi::kAllocDefault, Size, true});
  return hostPtr(*P);
}

Expected<CudaAllocations::Block> CudaAllocations::take(void *Ptr) {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(Ptr);
  if (It == Live_.end())
    return makeError("%p was not allocated on CUDA device %d (or was already freed)", Ptr,
                     DeviceId_);
  Block B = It->second;
  Live_.erase(It);
  if (B.Kind == abi::kAllocHost || B.Kind == abi::kAllocShared)
    HostReachable_.erase(reinterpret_cast<uintptr_t>(Ptr));
  return B;
}

Status CudaAllocations::freeSynchronously(void *Ptr, const Block &B, bool *Freed) {
  const Driver &D = driver();
  if (B.Pooled) return Pool_.releaseNow(devPtr(Ptr), Freed);
  Status S = B.Kind == abi::kAllocHost ? check(D.cuMemFreeHost(Ptr), "cuMemFreeHost")
                                       : check(D.cuMemFree(devPtr(Ptr)), "cuMemFree");
  *Freed = static_cast<bool>(S);
  return S;
}

// A block the driver refused to free stays recorded: it is still allocated,
// so the caller may free it again, and deinit's freeAll frees it (it used to
// be dropped from the table here, and was then lost until the process
// ended).
Status CudaAllocations::freeBlock(void *Ptr) {
  Expected<Block> B = take(Ptr);
  if (!B) return B.takeError();
  bool Freed = false;
  Status S = freeSynchronously(Ptr, *B, &Freed);
  if (!Freed) record(Ptr, *B);
  return S;
}

Status CudaAllocations::freeBlockOnStream(void *Ptr, CUstream Stream) {
  Expected<Block> B = take(Ptr);
  if (!B) return B.takeError();
  if (B->Pooled) {
    Status S = Pool_.release(devPtr(Ptr), Stream);
    if (!S) record(Ptr, *B);  // still allocated (see freeBlock)
    return S;
  }
  // cuMemFree knows nothing of Stream: wait for it first.
  if (Status S = check(driver().cuStreamSynchronize(Stream), "cuStreamSynchronize"); !S) {
    record(Ptr, *B);  // still live: the caller's error, not a lost block
    return S;
  }
  bool Freed = false;
  Status S = freeSynchronously(Ptr, *B, &Freed);
  if (!Freed) record(Ptr, *B);
  return S;
}

size_t CudaAllocations::freeAll() {
  std::vector<std::pair<void *, Block>> All;
  {
    ScopedLock Lock(Mutex_);
    All.assign(Live_.begin(), Live_.end());
    Live_.clear();
    HostReachable_.clear();
  }
  // Pool memory: one context synchronize for all of it.
  std::vector<CUdeviceptr> Pooled;
  bool Freed = false;  // nothing more can be done at deinit
  for (auto &[Ptr, B] : All) {
    if (B.Pooled)
      Pooled.push_back(devPtr(Ptr));
    else
      (void)freeSynchronously(Ptr, B, &Freed);
  }
  Pool_.releaseAll(Pooled);
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
