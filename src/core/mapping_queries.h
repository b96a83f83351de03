// The mapping layer's operations for the OpenMP API: associations
// (omp_target_associate_ptr / omp_target_disassociate_ptr), the association
// that names a device block (omp_target_free refuses to free it), and the
// number of entries (the device's properties). Each takes the device's
// table lock (MappingTable::Mutex) itself, once, and returns with it
// released; the API files never take it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "device.h"

namespace omptarget::core {

// A mapped host range, as the API's messages name it.
struct MappedRange {
  uintptr_t HstBegin = 0;
  int64_t Size = 0;
};

// Associates the host range [HstBegin, +Size) with device address TgtBegin
// (an entry that never goes). The same association again succeeds without
// a change. Returns the mapping the range overlaps instead, with nothing
// associated.
std::optional<MappedRange> associate(Device &D, uintptr_t HstBegin, size_t Size,
                                     uintptr_t TgtBegin);

enum class Disassociation {
  Done,
  NotAssociated,   // no entry begins at the address
  HoldReferenced,  // its hold count is not zero: it stays
  MappedByClause,  // the entry was made by a map clause, not an association
};
Disassociation disassociate(Device &D, uintptr_t HstBegin);

// The association whose device range overlaps [TgtBegin, TgtEnd), if any.
std::optional<MappedRange> associationOverlapping(Device &D, uintptr_t TgtBegin, uintptr_t TgtEnd);

// How many entries D's mapping table holds.
size_t mappedEntryCount(Device &D);

}  // namespace omptarget::core
