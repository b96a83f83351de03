#include "entry_kernels.h"

#include "async_info.h"
#include "debug.h"

namespace omptarget::core {

Status runEntryKernels(Device &D, std::span<const EntryKernel> Kernels, const char *What) {
  if (Kernels.empty()) return Status::success();
  AsyncInfo Async(D);
  // No arguments; some plugins want non-null arrays all the same.
  void *NoArgs[1] = {nullptr};
  ptrdiff_t NoOffsets[1] = {0};
  for (const EntryKernel &K : Kernels) {
    OMPT_TRACE("omptarget", "Device %d: running the %s kernel %s (%p)", D.id(), What, K.Name,
               K.Entry);
    if (Status S = D.launch(K.Entry, NoArgs, NoOffsets, 0,
                            clang14Launch(/*Teams=*/true, /*NumTeams=*/1, /*ThreadLimit=*/1,
                                          /*TripCount=*/0),
                            *Async.raw());
        !S)
      return makeError("the %s kernel %s of a declare-target global: %s", What, K.Name,
                       S.error().message().c_str());
  }
  if (Status S = Async.synchronize(); !S)
    return makeError("the %s kernel(s) of declare-target globals (the last: %s): %s", What,
                     Kernels.back().Name, S.error().message().c_str());
  return Status::success();
}

}  // namespace omptarget::core
