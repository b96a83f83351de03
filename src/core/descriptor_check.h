// Checks a binary descriptor given to __tgt_register_lib before the runtime
// walks it: the counts, the image bounds and the entry tables must have the
// shape clang 14 and clang 19 emit. A descriptor from a compiler with another layout (a
// larger __tgt_offload_entry, say) or a corrupt one gets a message saying
// what is wrong, instead of a read past the end of a table.
#pragma once

#include "error.h"
#include "omptarget/abi.h"

namespace omptarget::core {

// What kind of flaw a refused descriptor has, which decides what
// __tgt_register_lib does with it (runtime.cpp, docs/usage.md).
enum class DescriptorFlaw {
  // Well-formed counts and bounds holding records this runtime cannot read:
  // an entry table that is not a whole number of 32-byte records, a record
  // without a name or an address, an image whose table has another number
  // of records than the host's. What a compiler with another entry layout
  // emits; the descriptor is ignored, as an image no plugin accepts is, and
  // the program's target regions run on the host (under
  // OMP_TARGET_OFFLOAD=mandatory the first of them is a fatal error).
  Layout,
  // Counts or bounds that no compiler emits: a negative image count, a null
  // image array, a null or reversed bound. The pointer given is not a
  // descriptor (a wrong argument, or overwritten memory): fatal.
  Corrupt,
};

// clang 19's record of a translation unit's `#pragma omp requires` flags
// among the entries (abi::kEntryRequires; LLVM 19 compares the flags with
// ==, and so do we).
inline bool isRequiresRecord(const __tgt_offload_entry &E) {
  return E.flags == abi::kEntryRequires;
}

// Success, or "descriptor <p>: <what is wrong>" (without the hint on what
// to do); on failure `Flaw` says which kind of flaw it is. Reads only memory
// the descriptor's own counts and bounds describe, after checking them.
Status checkDescriptor(const __tgt_bin_desc &Desc, DescriptorFlaw &Flaw);
// The same, when the kind does not matter.
Status checkDescriptor(const __tgt_bin_desc &Desc);

// What __tgt_register_lib's message says to do, per kind.
inline constexpr const char *kLayoutDescriptorHint =
    "the program was built by a compiler whose offload entry layout this runtime does not "
    "support; rebuild it with clang 14 to offload its target regions";
inline constexpr const char *kCorruptDescriptorHint =
    "no compiler emits such counts or bounds: the pointer given to __tgt_register_lib is not an "
    "offload descriptor, or its memory was overwritten; rebuild the program with clang 14";

}  // namespace omptarget::core
