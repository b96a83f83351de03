// Checks a [Begin, End) table of __tgt_offload_entry records that arrived
// through the ABI (a compiler-made descriptor or device image, a plugin's
// table) before anything walks it: a malformed table must give a message,
// not a read past its end.
#pragma once

#include <cstddef>

#include "error.h"
#include "omptarget/abi.h"

namespace omptarget {

// The number of records, or an error "the entry table [B, E) ..." saying
// what is wrong: one null bound, End before Begin, or a size that is not a
// whole number of the 32-byte records clang 14 emits (a compiler with a
// larger entry layout produces that). An empty table (both null, or equal
// bounds) has 0 records.
Expected<size_t> checkEntryRange(const __tgt_offload_entry *Begin, const __tgt_offload_entry *End);

// The hint that goes with a malformed table or entry from the compiler.
inline constexpr const char *kRebuildHint =
    "the program was built by a compiler whose offload entry layout this runtime does not "
    "support (or its offload descriptor is corrupt); rebuild it with clang 14";

}  // namespace omptarget
