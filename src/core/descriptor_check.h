// Checks a binary descriptor given to __tgt_register_lib before the runtime
// walks it: the counts, the image bounds and the entry tables must have the
// shape clang 14 emits. A descriptor from a compiler with another layout (a
// larger __tgt_offload_entry, say) or a corrupt one gets a message saying
// what is wrong, instead of a read past the end of a table.
#pragma once

#include "error.h"
#include "omptarget/abi.h"

namespace omptarget::core {

// Success, or "descriptor <p>: <what is wrong>" (without the hint on what
// to do, kRebuildHint of entry_range.h). Reads only memory the descriptor's
// own counts and bounds describe, after checking them.
Status checkDescriptor(const __tgt_bin_desc &Desc);

}  // namespace omptarget::core
