#include "cuda_staging.h"

#include <algorithm>
#include <cstring>
#include <system_error>

#include "cuda_driver.h"
#include "debug.h"
#include "env.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
// Below this a memcpy is not worth waking the helpers for.
constexpr size_t kMinParallelBytes = size_t(1) << 20;
// Slices are multiples of a page: no two threads write the same page.
constexpr size_t kSliceAlign = 4096;
}  // namespace

// ---- ParallelCopier --------------------------------------------------------

ParallelCopier::ParallelCopier(unsigned Threads) {
  for (unsigned I = 1; I < Threads; ++I) {
    try {
      Helpers_.emplace_back([this, I] { helperLoop(I); });
    } catch (const std::system_error &) {
      break;  // fewer helpers; the caller always copies its own slice
    }
  }
}

ParallelCopier::~ParallelCopier() {
  {
    ScopedLock Lock(Mutex_);
    Stop_ = true;
  }
  Start_.notify_all();
  for (std::thread &T : Helpers_) T.join();
}

void ParallelCopier::copySlice(const Job &J, unsigned Index) {
  size_t Begin = J.Slice * Index;
  if (Begin >= J.Size) return;
  std::memcpy(J.Dst + Begin, J.Src + Begin, std::min(J.Slice, J.Size - Begin));
}

void ParallelCopier::helperLoop(unsigned Index) {
  uint64_t Seen = 0;
  UniqueLock Lock(Mutex_);
  for (;;) {
    while (!Stop_ && Generation_ == Seen) Start_.wait(Mutex_);
    if (Stop_) return;
    Seen = Generation_;
    Job J = Job_;  // the memory it names stays valid until Pending_ is 0
    Lock.unlock();
    copySlice(J, Index);
    Lock.lock();
    if (--Pending_ == 0) Done_.notify_one();
  }
}

void ParallelCopier::copy(void *Dst, const void *Src, size_t Size) {
  if (Helpers_.empty() || Size < kMinParallelBytes) {
    std::memcpy(Dst, Src, Size);
    return;
  }
  size_t Threads = Helpers_.size() + 1;
  size_t Slice = (Size + Threads - 1) / Threads;
  Slice = (Slice + kSliceAlign - 1) / kSliceAlign * kSliceAlign;
  Job J{static_cast<char *>(Dst), static_cast<const char *>(Src), Size, Slice};
  {
    ScopedLock Lock(Mutex_);
    Job_ = J;
    Pending_ = static_cast<unsigned>(Helpers_.size());
    ++Generation_;
  }
  Start_.notify_all();
  copySlice(J, 0);
  ScopedLock Lock(Mutex_);
  while (Pending_ != 0) Done_.wait(Mutex_);
}

// ---- StagingPipeline -------------------------------------------------------

StagingPipeline::~StagingPipeline() {
  // Without a deinit (the driver may already be gone at exit), only the
  // helpers are stopped; the pinned buffers go with the process.
  Copier_.reset();
}

void StagingPipeline::configure(int32_t DeviceId) {
  DeviceId_ = DeviceId;
  Threshold_ = static_cast<size_t>(env::getInt("OMPTARGET_CUDA_STAGING_THRESHOLD",
                                               static_cast<int64_t>(kDefaultThreshold), 0,
                                               int64_t(1) << 40));
  if (Threshold_)
    OMPT_TRACE(kComponent,
               "device %d: pageable copies of %zu bytes or more go through pinned staging",
               DeviceId_, Threshold_);
  else
    OMPT_TRACE(kComponent, "device %d: pinned staging disabled", DeviceId_);
}

bool StagingPipeline::wanted(const void *HostPtr, size_t Size) const {
  if (Threshold_ == 0 || Size < Threshold_) return false;
  unsigned int Type = 0;
  CUresult R = driver().cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                              reinterpret_cast<CUdeviceptr>(HostPtr));
  // INVALID_VALUE: not allocated, registered or mapped by CUDA, i.e. pageable.
  // Pinned memory reports HOST, managed memory DEVICE: the driver DMAs both.
  if (R == CUDA_ERROR_INVALID_VALUE) return true;
  return R == CUDA_SUCCESS && Type == 0;
}

bool StagingPipeline::ready() {
  if (Copier_) return true;
  if (Failed_) return false;
  const Driver &D = driver();
  Status S;
  for (size_t I = 0; I < kNumBuffers && S; ++I) {
    S = check(D.cuMemAllocHost(&Buffers_[I], kChunkBytes), "cuMemAllocHost");
    if (!S) {
      Buffers_[I] = nullptr;
      break;
    }
    S = check(D.cuEventCreate(&Events_[I], CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    if (!S) Events_[I] = nullptr;
  }
  if (!S) {
    OMPT_TRACE(kComponent, "device %d: no pinned staging buffers (%s); pageable copies go direct",
               DeviceId_, S.error().message().c_str());
    (void)tearDownLocked();
    Failed_ = true;
    return false;
  }
  unsigned Hw = std::thread::hardware_concurrency();
  unsigned Threads = std::max(1u, std::min(8u, Hw / 2));
  Copier_ = std::make_unique<ParallelCopier>(Threads);
  OMPT_TRACE(kComponent,
             "device %d: pinned staging ready: %zu x %zu MiB buffers, %u memcpy thread(s)",
             DeviceId_, kNumBuffers, kChunkBytes >> 20, Copier_->threads());
  return true;
}

Status StagingPipeline::hostToDevice(CUdeviceptr Dst, const void *Src, size_t Size,
                                     CUstream Stream) {
  const Driver &D = driver();
  ScopedLock Lock(Mutex_);
  if (!ready()) return check(D.cuMemcpyHtoDAsync(Dst, Src, Size, Stream), "cuMemcpyHtoDAsync");
  const char *From = static_cast<const char *>(Src);
  Status S;
  for (size_t I = 0, Off = 0; Off < Size; ++I, Off += kChunkBytes) {
    size_t B = I % kNumBuffers;
    size_t Len = std::min(kChunkBytes, Size - Off);
    if (!(S = check(D.cuEventSynchronize(Events_[B]), "cuEventSynchronize (staging buffer)")))
      break;
    Copier_->copy(Buffers_[B], From + Off, Len);
    if (!(S = check(D.cuMemcpyHtoDAsync(Dst + Off, Buffers_[B], Len, Stream),
                    "cuMemcpyHtoDAsync (staged)")))
      break;
    if (!(S = check(D.cuEventRecord(Events_[B], Stream), "cuEventRecord (staging buffer)"))) break;
  }
  // A DMA enqueued without its event must not outlive the failed call.
  if (!S) (void)D.cuStreamSynchronize(Stream);
  return S;
}

Status StagingPipeline::deviceToHost(void *Dst, CUdeviceptr Src, size_t Size, CUstream Stream) {
  const Driver &D = driver();
  ScopedLock Lock(Mutex_);
  if (!ready()) return check(D.cuMemcpyDtoHAsync(Dst, Src, Size, Stream), "cuMemcpyDtoHAsync");
  char *To = static_cast<char *>(Dst);
  size_t NumChunks = (Size + kChunkBytes - 1) / kChunkBytes;
  Status S;
  for (size_t I = 0; I < std::min(kNumBuffers, NumChunks) && S; ++I)
    S = issueDeviceToHost(I, Src, Size, Stream);
  for (size_t I = 0; I < NumChunks && S; ++I) {
    size_t B = I % kNumBuffers;
    if (!(S = check(D.cuEventSynchronize(Events_[B]), "cuEventSynchronize (staged copy)"))) break;
    Copier_->copy(To + I * kChunkBytes, Buffers_[B], chunkBytes(I, Size));
    if (I + kNumBuffers < NumChunks) S = issueDeviceToHost(I + kNumBuffers, Src, Size, Stream);
  }
  if (!S) (void)D.cuStreamSynchronize(Stream);
  return S;
}

Status StagingPipeline::issueDeviceToHost(size_t I, CUdeviceptr Src, size_t Size, CUstream Stream) {
  const Driver &D = driver();
  size_t B = I % kNumBuffers;
  if (Status S = check(D.cuEventSynchronize(Events_[B]), "cuEventSynchronize (staging buffer)"); !S)
    return S;
  if (Status S = check(D.cuMemcpyDtoHAsync(Buffers_[B], Src + I * kChunkBytes, chunkBytes(I, Size),
                                           Stream),
                       "cuMemcpyDtoHAsync (staged)");
      !S)
    return S;
  return check(D.cuEventRecord(Events_[B], Stream), "cuEventRecord (staging buffer)");
}

Status StagingPipeline::tearDown() {
  ScopedLock Lock(Mutex_);
  return tearDownLocked();
}

Status StagingPipeline::tearDownLocked() {
  Copier_.reset();
  const Driver &D = driver();
  Status First;
  auto Keep = [&](Status S) {
    if (!S && First) First = std::move(S);
  };
  for (size_t I = 0; I < kNumBuffers; ++I) {
    if (Events_[I]) {
      Keep(check(D.cuEventSynchronize(Events_[I]), "cuEventSynchronize (staging buffer)"));
      Keep(check(D.cuEventDestroy(Events_[I]), "cuEventDestroy (staging buffer)"));
      Events_[I] = nullptr;
    }
    if (Buffers_[I]) {
      Keep(check(D.cuMemFreeHost(Buffers_[I]), "cuMemFreeHost (staging buffer)"));
      Buffers_[I] = nullptr;
    }
  }
  return First;
}

}  // namespace omptarget::cuda
