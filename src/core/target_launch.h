// A target region: map the arguments, build the kernel's argument list
// (device pointers, literals, (first-)private buffers), launch, unmap —
// all on the construct's one AsyncInfo, synchronized once at the end.
#pragma once

#include <cstdint>

#include "async_info.h"
#include "data_constructs.h"

namespace omptarget::core {

struct LaunchParams {
  void *HostRegion = nullptr;  // the region id clang passes
  // The kernel's shape: clang14Launch (device.h) for clang 14's entries,
  // the __tgt_kernel_arguments of clang 15 and later otherwise.
  __tgt_kernel_launch Kernel = clang14Launch(false, 0, 0, 0);
};

// With Deferrable, the region runs on that AsyncInfo and, once it has
// queued everything without a failure, returns without synchronizing: the
// caller completes it (deferred_constructs.h). Without, on one of its own,
// synchronized before it returns.
Status runTargetRegion(const ident_t *Loc, Device &D, const MapArgs &Args,
                       const LaunchParams &Launch, AsyncInfo *Deferrable = nullptr);

}  // namespace omptarget::core
