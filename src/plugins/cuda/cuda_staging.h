// Pipelined pinned staging for large copies between pageable host memory and
// one CUDA device (so that pageable copies come close to pinned bandwidth).
//
// A cuMemcpy{HtoD,DtoH}Async from pageable memory runs at a fraction of the
// pinned bandwidth: the driver stages it through its own pinned buffer with
// one CPU thread. For copies of at least OMPTARGET_CUDA_STAGING_THRESHOLD
// bytes (default 8 MiB; 0 disables) whose host side is pageable, the device
// stages them itself:
//
//   * kNumBuffers pinned buffers of kChunkBytes (cuMemAllocHost), allocated
//     lazily by the first staged copy and freed by tearDown() (device deinit),
//     each with a CUevent recorded after the DMA that last used it;
//   * a pool of memcpy helper threads (min(8, hardware_concurrency / 2)
//     threads in all, the calling thread included), created lazily and joined
//     by tearDown() or the destructor; each chunk's host memcpy is split
//     across them.
//
// H2D, for each chunk: wait for the buffer's event (its previous DMA is done),
// parallel memcpy user -> pinned, cuMemcpyHtoDAsync pinned -> device on the
// construct's stream, record the buffer's event on that stream. The memcpy of
// chunk i+1 overlaps the DMA of chunk i. The call returns once the last chunk
// is enqueued: the user buffer has been read completely, the last DMAs may
// still be in flight (ordered on the stream; a buffer is never refilled
// before its event completes).
//
// D2H is synchronous: up to kNumBuffers DMAs device -> pinned are enqueued on
// the stream (after any earlier work on it, e.g. the kernel), and for each
// chunk in turn the call waits for its event, copies pinned -> user in
// parallel and enqueues the next chunk's DMA into the freed buffer. The data
// is in user memory when the call returns (a stronger guarantee than the
// asynchronous retrieve needs; the core only reads it after synchronize).
//
// The host side counts as pageable when cuPointerGetAttribute(MEMORY_TYPE) of
// its first byte fails with CUDA_ERROR_INVALID_VALUE (not allocated by,
// registered with or mapped by CUDA) or reports no memory type; pinned
// (cuMemAllocHost, cuMemHostRegister) and managed memory keep the direct path.
//
// The caller makes the device's context current before every call.
// Thread safety: one pipeline per device; its Mutex_ guards the buffers, the
// events, the copier and Failed_, and serializes staged copies (concurrent
// large copies to one device run one after the other; each already uses all
// helper threads and the copy engine). A ParallelCopier's Mutex_ guards its
// job and the counters its helpers wait on (Start_ and Done_, CondVars of
// that mutex). Lock order: the pipeline's Mutex_, then its copier's. Both
// are FutexMutexes (futex_mutex.h), checked by the thread-safety analysis.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "cond_var.h"
#include "error.h"
#include "futex_mutex.h"

namespace omptarget::cuda {

// Splits memcpys across a fixed set of threads: the caller plus helpers.
class ParallelCopier {
 public:
  explicit ParallelCopier(unsigned Threads);  // Threads >= 1, caller included
  ~ParallelCopier();
  ParallelCopier(const ParallelCopier &) = delete;
  ParallelCopier &operator=(const ParallelCopier &) = delete;

  // memcpy(Dst, Src, Size), split across the threads; returns when all of it
  // is done. One call at a time.
  void copy(void *Dst, const void *Src, size_t Size);
  unsigned threads() const { return static_cast<unsigned>(Helpers_.size()) + 1; }

 private:
  // One memcpy: thread Index copies [Index * Slice, (Index + 1) * Slice).
  struct Job {
    char *Dst = nullptr;
    const char *Src = nullptr;
    size_t Size = 0, Slice = 0;
  };

  void helperLoop(unsigned Index);
  static void copySlice(const Job &J, unsigned Index);

  FutexMutex Mutex_;
  CondVar Start_;               // helpers: a new Generation_ or Stop_
  CondVar Done_;                // copy(): Pending_ == 0
  Job Job_ GUARDED_BY(Mutex_);  // helpers copy it out; the caller keeps its memory alive
  uint64_t Generation_ GUARDED_BY(Mutex_) = 0;
  unsigned Pending_ GUARDED_BY(Mutex_) = 0;  // helpers still copying the current job
  bool Stop_ GUARDED_BY(Mutex_) = false;
  std::vector<std::thread> Helpers_;  // written by the constructor only
};

class StagingPipeline {
 public:
  static constexpr size_t kChunkBytes = size_t(16) << 20;
  static constexpr size_t kNumBuffers = 4;
  static constexpr size_t kDefaultThreshold = size_t(8) << 20;

  StagingPipeline() = default;
  ~StagingPipeline();
  StagingPipeline(const StagingPipeline &) = delete;
  StagingPipeline &operator=(const StagingPipeline &) = delete;

  // Reads OMPTARGET_CUDA_STAGING_THRESHOLD; called by device init.
  void configure(int32_t DeviceId);

  // Whether a copy of Size bytes with host side HostPtr should be staged.
  bool wanted(const void *HostPtr, size_t Size) const;

  Status hostToDevice(CUdeviceptr Dst, const void *Src, size_t Size, CUstream Stream);
  Status deviceToHost(void *Dst, CUdeviceptr Src, size_t Size, CUstream Stream);

  // Waits for in-flight DMAs, frees the buffers and events, joins the
  // helpers. The context must be current. Idempotent.
  Status tearDown();

 private:
  // Allocates buffers, events and helpers once; false when unavailable.
  bool ready() REQUIRES(Mutex_);
  Status tearDownLocked() REQUIRES(Mutex_);
  // The DMA of chunk I of a Size-byte device-to-host copy from Src into its
  // buffer, once the buffer's previous use is done.
  Status issueDeviceToHost(size_t I, CUdeviceptr Src, size_t Size, CUstream Stream)
      REQUIRES(Mutex_);
  static size_t chunkBytes(size_t I, size_t Size) {
    return std::min(kChunkBytes, Size - I * kChunkBytes);
  }

  int32_t DeviceId_ = -1;                 // set by configure (device init)
  size_t Threshold_ = kDefaultThreshold;  // set by configure (device init)
  FutexMutex Mutex_;
  bool Failed_ GUARDED_BY(Mutex_) = false;  // allocation failed once: keep the direct path
  void *Buffers_[kNumBuffers] GUARDED_BY(Mutex_) = {};
  CUevent Events_[kNumBuffers] GUARDED_BY(Mutex_) = {};
  std::unique_ptr<ParallelCopier> Copier_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::cuda
