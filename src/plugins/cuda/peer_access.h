// Peer access between the CUDA devices of one plugin.
//
// canAccess(Src, Dst): cuDeviceCanAccessPeer, asked once per ordered pair.
// enable(Src, Dst): makes Src's context able to reach Dst's memory
// (cuCtxEnablePeerAccess with Src's context current and Dst's as the peer:
// the current context gains access to the peer's allocations), once per
// ordered pair; CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED (someone else, e.g.
// the application through the runtime API, enabled it) counts as success.
// Failures are remembered too, so a pair that cannot be enabled is not
// retried on every copy (the copy still works: cuMemcpyPeerAsync stages
// through the host without peer access).
//
// Thread safety: Mutex_ (a FutexMutex) guards the table; enable() runs the driver call under
// it (it happens once per pair).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <utility>

#include "error.h"
#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class PeerAccessTable {
 public:
  bool canAccess(int32_t SrcId, CUdevice Src, int32_t DstId, CUdevice Dst);
  // Whether direct access is enabled after the call (false: staged copies).
  bool enable(int32_t SrcId, CUcontext SrcCtx, int32_t DstId, CUcontext DstCtx);

 private:
  enum class State : uint8_t { Unknown, Yes, No };
  struct Pair {
    State Capable = State::Unknown;
    State Enabled = State::Unknown;
  };
  FutexMutex Mutex_;
  std::map<std::pair<int32_t, int32_t>, Pair> Pairs_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::cuda
