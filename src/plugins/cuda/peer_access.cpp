#include "peer_access.h"

#include "cuda_driver.h"
#include "debug.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
}

bool PeerAccessTable::canAccess(int32_t SrcId, CUdevice Src, int32_t DstId, CUdevice Dst) {
  ScopedLock Lock(Mutex_);
  Pair &P = Pairs_[{SrcId, DstId}];
  if (P.Capable == State::Unknown) {
    int Can = 0;
    CUresult R = driver().cuDeviceCanAccessPeer(&Can, Src, Dst);
    P.Capable = R == CUDA_SUCCESS && Can ? State::Yes : State::No;
    OMPT_TRACE(kComponent, "device %d %s access device %d's memory%s", SrcId,
               P.Capable == State::Yes ? "can" : "cannot", DstId,
               R == CUDA_SUCCESS ? "" : (" (" + errorText(R) + ")").c_str());
  }
  return P.Capable == State::Yes;
}

bool PeerAccessTable::enable(int32_t SrcId, CUcontext SrcCtx, int32_t DstId, CUcontext DstCtx) {
  ScopedLock Lock(Mutex_);
  Pair &P = Pairs_[{SrcId, DstId}];
  if (P.Enabled != State::Unknown) return P.Enabled == State::Yes;
  const Driver &D = driver();
  CUresult R = D.cuCtxSetCurrent(SrcCtx);
  if (R == CUDA_SUCCESS) R = D.cuCtxEnablePeerAccess(DstCtx, 0);
  bool Ok = R == CUDA_SUCCESS || R == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  P.Enabled = Ok ? State::Yes : State::No;
  OMPT_TRACE(kComponent, "peer access device %d -> device %d: %s", SrcId, DstId,
             Ok ? "enabled" : ("not enabled, copies are staged: " + errorText(R)).c_str());
  return Ok;
}

}  // namespace omptarget::cuda
