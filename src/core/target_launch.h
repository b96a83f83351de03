// A target region: map the arguments, build the kernel's argument list
// (device pointers, literals, (first-)private buffers), launch, unmap —
// all on the construct's one AsyncInfo, synchronized once at the end.
#pragma once

#include <cstdint>

#include "data_constructs.h"

namespace omptarget::core {

struct LaunchParams {
  void *HostRegion = nullptr;  // the region id clang passes
  bool Teams = false;
  int32_t NumTeams = 0;
  int32_t ThreadLimit = 0;
  uint64_t TripCount = 0;
};

Status runTargetRegion(const ident_t *Loc, Device &D, const MapArgs &Args,
                       const LaunchParams &Launch);

}  // namespace omptarget::core
