// The CUDA device's clock for the profile (cuda_timing.h).
#include "cuda_timing.h"

#include <algorithm>
#include <cmath>

#include "cuda_driver.h"
#include "device_profile.h"
#include "scoped_lock.h"

namespace omptarget::cuda {

Expected<void *> CudaTiming::mark(CUstream Stream) {
  CUevent E = nullptr;
  {
    ScopedLock Lock(Mutex_);
    if (!Free_.empty()) {
      E = Free_.back();
      Free_.pop_back();
    }
  }
  if (!E) {
    if (Status S = check(driver().cuEventCreate(&E, CU_EVENT_DEFAULT), "cuEventCreate"); !S)
      return S.takeError();
    ScopedLock Lock(Mutex_);
    ++Created_;
  }
  if (Status S = check(driver().cuEventRecord(E, Stream), "cuEventRecord"); !S) {
    release(E);
    return S.takeError();
  }
  return static_cast<void *>(E);
}

void CudaTiming::giveBack(CUevent E) {
  if (E) Free_.push_back(E);
}

void CudaTiming::release(void *Mark) {
  ScopedLock Lock(Mutex_);
  giveBack(static_cast<CUevent>(Mark));
}

Status CudaTiming::takeAnchor() {
  CUevent E = nullptr;
  if (Status S = check(driver().cuEventCreate(&E, CU_EVENT_DEFAULT), "cuEventCreate"); !S)
    return S;
  ++Created_;
  // The event's host time lies between the clock reads around its record
  // and wait: tried again (up to three times) until that bracket is tight.
  uint64_t At = 0;
  for (int Try = 0; Try < 3; ++Try) {
    uint64_t Before = plugin::steadyNowNs();
    Status S = check(driver().cuEventRecord(E, nullptr), "cuEventRecord");
    if (S) S = check(driver().cuEventSynchronize(E), "cuEventSynchronize");
    if (!S) {
      giveBack(E);
      return S;
    }
    uint64_t After = plugin::steadyNowNs();
    At = Before + (After - Before) / 2;
    if (After - Before <= kTightBracketNs) break;
  }
  giveBack(Previous_.Event);
  Previous_ = Current_;
  Current_ = Anchor{E, At};
  return {};
}

Expected<uint64_t> CudaTiming::timeOf(CUevent E) {
  if (!Current_.Event)
    if (Status S = takeAnchor(); !S) return S.takeError();
  float Ms = 0;
  if (Status S = check(driver().cuEventElapsedTime(&Ms, Current_.Event, E), "cuEventElapsedTime");
      !S)
    return S.takeError();
  if (Ms < 0 && Previous_.Event) {
    float Older = 0;
    if (check(driver().cuEventElapsedTime(&Older, Previous_.Event, E), "cuEventElapsedTime"))
      return Previous_.HostNs + static_cast<uint64_t>(std::llround(std::max(Older, 0.0f) * 1e6));
  }
  double Ns = static_cast<double>(Current_.HostNs) + static_cast<double>(Ms) * 1e6;
  if (Ms > kReanchorMs) (void)takeAnchor();  // for the events that follow
  return static_cast<uint64_t>(std::max(Ns, 0.0));
}

Status CudaTiming::resolveLocked(CUevent B, CUevent E, uint64_t *BeginNs, uint64_t *EndNs) {
  Expected<uint64_t> At = timeOf(B);
  if (!At) return At.takeError();
  float Ms = 0;
  if (Status S = check(driver().cuEventElapsedTime(&Ms, B, E), "cuEventElapsedTime"); !S) return S;
  *BeginNs = *At;
  *EndNs = *At + static_cast<uint64_t>(std::llround(std::max(Ms, 0.0f) * 1e6));
  return {};
}

Status CudaTiming::resolve(void *Begin, void *End, uint64_t *BeginNs, uint64_t *EndNs) {
  auto B = static_cast<CUevent>(Begin), E = static_cast<CUevent>(End);
  ScopedLock Lock(Mutex_);
  Status Result;
  if (BeginNs && EndNs && B && E) Result = resolveLocked(B, E, BeginNs, EndNs);
  giveBack(B);
  giveBack(E);
  return Result;
}

Status CudaTiming::tearDown() {
  ScopedLock Lock(Mutex_);
  giveBack(Current_.Event);
  giveBack(Previous_.Event);
  Current_ = Previous_ = Anchor{};
  Status Result;
  size_t Destroyed = 0;
  for (CUevent E : Free_) {
    Status S = check(driver().cuEventDestroy(E), "cuEventDestroy");
    if (!S && Result) Result = std::move(S);
    ++Destroyed;
  }
  Free_.clear();
  if (Destroyed != Created_ && Result)
    Result = makeError("%zu timing event(s) were still in use at teardown", Created_ - Destroyed);
  Created_ = 0;
  return Result;
}

}  // namespace omptarget::cuda
