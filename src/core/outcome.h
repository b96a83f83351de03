// What happens after a construct succeeded or failed, per OMP_TARGET_OFFLOAD
// (LLVM 14's observable behaviour): with offloading mandatory a failure is
// fatal, after pointing at the source location of the construct.
#pragma once

#include "error.h"
#include "omptarget/abi.h"
#include "runtime.h"

namespace omptarget::core {

// Reports `Result` for the construct at `Loc` reached through `Call`;
// returns normally only when the program may continue.
void handleOutcome(const ident_t *Loc, const Status &Result, const char *Call);

// handleOutcome, with the usual case (success while offloading is
// mandatory: nothing to do) decided inline.
inline void reportOutcome(Runtime &R, const ident_t *Loc, const Status &Result, const char *Call) {
  if (Result && R.policy() == OffloadPolicy::Mandatory) [[likely]]
    return;
  handleOutcome(Loc, Result, Call);
}

}  // namespace omptarget::core
