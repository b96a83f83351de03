#include "region_call.h"

namespace omptarget::host {

Status callRegionOnRunner(RunnerPool &Runners, void *Entry, void **Args, const ptrdiff_t *Offsets,
                          int32_t NumArgs, bool EnvironmentFirst) {
  // The caller waits, so the core's argument arrays outlive the call.
  return Runners.run(
      [&] { return callWithPointerArgs(Entry, Args, Offsets, NumArgs, EnvironmentFirst); });
}

}  // namespace omptarget::host
