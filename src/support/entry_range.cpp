#include "entry_range.h"

#include <cstdint>

namespace omptarget {

Expected<size_t> checkEntryRange(const __tgt_offload_entry *Begin, const __tgt_offload_entry *End) {
  // Compared as integers: the bounds may not belong to one array.
  auto B = reinterpret_cast<uintptr_t>(Begin);
  auto E = reinterpret_cast<uintptr_t>(End);
  if ((B == 0) != (E == 0))
    return makeError("the entry table [%p, %p) has one null bound",
                     static_cast<const void *>(Begin), static_cast<const void *>(End));
  if (E < B)
    return makeError("the entry table [%p, %p) ends before it begins",
                     static_cast<const void *>(Begin), static_cast<const void *>(End));
  if ((E - B) % sizeof(__tgt_offload_entry) != 0)
    return makeError(
        "the entry table [%p, %p) is %zu bytes, not a multiple of the %zu-byte "
        "__tgt_offload_entry",
        static_cast<const void *>(Begin), static_cast<const void *>(End),
        static_cast<size_t>(E - B), sizeof(__tgt_offload_entry));
  return static_cast<size_t>((E - B) / sizeof(__tgt_offload_entry));
}

}  // namespace omptarget
