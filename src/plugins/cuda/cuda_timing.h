// CudaTiming: the CUDA device's clock for the profile (profile_device):
// timing events recorded on a construct's stream as marks, and their
// translation to the host's steady clock.
//
// Contract:
//   * mark(Stream) records a timing event (created without
//     CU_EVENT_DISABLE_TIMING; kept in a free list for reuse) on Stream.
//   * resolve(Begin, End) is called after the stream's synchronize, with
//     both events complete: Begin's time is the anchor's host time plus
//     cuEventElapsedTime(anchor, Begin), End's is Begin's plus
//     cuEventElapsedTime(Begin, End), so a duration is exact to the event
//     resolution (about 0.5 us) however far the anchor lies. Both events go
//     back to the free list, also when resolution fails; release() returns
//     events without resolving them (the stream failed).
//   * The anchor: an event recorded on the idle legacy stream and waited
//     for, its host time taken as the midpoint of the host clock read before
//     the record and after the wait (tried up to three times until that
//     bracket is within kTightBracketNs: the error is at most half of it). It is taken on
//     the first resolve, and again once events lie more than kReanchorMs
//     after it, because cuEventElapsedTime answers in float milliseconds
//     whose resolution falls to about 1 us at 10 s. An event older than the
//     current anchor (another stream resolved late) is measured from the
//     previous one.
//   * tearDown() destroys every event; the device's context must be current
//     and no mark may be outstanding (GenericDevice::deinit releases them
//     first).
//
// Thread safety: Mutex_ (a FutexMutex) guards the free list, the count of
// events and both anchors; driver calls that wait (the anchor's
// synchronize) run under it, on the profiled path only.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

#include "error.h"
#include "futex_mutex.h"
#include "thread_annotations.h"

namespace omptarget::cuda {

class CudaTiming {
 public:
  Expected<void *> mark(CUstream Stream);
  Status resolve(void *Begin, void *End, uint64_t *BeginNs, uint64_t *EndNs);
  void release(void *Mark);
  Status tearDown();

  static constexpr float kReanchorMs = 8000.0f;
  static constexpr uint64_t kTightBracketNs = 20000;

 private:
  struct Anchor {
    CUevent Event = nullptr;
    uint64_t HostNs = 0;
  };
  Status takeAnchor() REQUIRES(Mutex_);
  // The steady-clock time of a completed event, from the current anchor or
  // the previous one.
  Expected<uint64_t> timeOf(CUevent E) REQUIRES(Mutex_);
  void giveBack(CUevent E) REQUIRES(Mutex_);
  Status resolveLocked(CUevent B, CUevent E, uint64_t *BeginNs, uint64_t *EndNs) REQUIRES(Mutex_);

  FutexMutex Mutex_;
  std::vector<CUevent> Free_ GUARDED_BY(Mutex_);
  size_t Created_ GUARDED_BY(Mutex_) = 0;
  Anchor Current_ GUARDED_BY(Mutex_), Previous_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::cuda
