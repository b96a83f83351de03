#include "mapping_queries.h"

#include "scoped_lock.h"

namespace omptarget::core {

std::optional<MappedRange> associate(Device &D, uintptr_t HstBegin, size_t Size,
                                     uintptr_t TgtBegin) {
  MappingTable &T = D.mappings();
  ScopedLock Lock(T.Mutex);
  LookupResult LR = T.lookup(HstBegin, static_cast<int64_t>(Size));
  if (LR.found()) {
    const MapEntry &E = *LR.Entry;
    if (E.HstBegin == HstBegin && E.HstEnd == HstBegin + Size && E.TgtBegin == TgtBegin)
      return std::nullopt;  // the same association again
    return MappedRange{E.HstBegin, E.size()};
  }
  MapEntry &E = T.insert(HstBegin, HstBegin, HstBegin + Size, TgtBegin, false, nullptr,
                         /*Infinite=*/true);
  T.markAssociated(E);
  return std::nullopt;
}

Disassociation disassociate(Device &D, uintptr_t HstBegin) {
  MappingTable &T = D.mappings();
  ScopedLock Lock(T.Mutex);
  LookupResult LR = T.lookup(HstBegin, 0);
  if (!LR.IsContained || LR.Entry->HstBegin != HstBegin) return Disassociation::NotAssociated;
  MapEntry &E = *LR.Entry;
  if (E.HoldRef > 0) return Disassociation::HoldReferenced;
  if (!E.Associated) return Disassociation::MappedByClause;
  T.erase(E);
  return Disassociation::Done;
}

std::optional<MappedRange> associationOverlapping(Device &D, uintptr_t TgtBegin, uintptr_t TgtEnd) {
  MappingTable &T = D.mappings();
  if (!T.hasAssociations()) return std::nullopt;
  ScopedLock Lock(T.Mutex);
  const MapEntry *E = T.associationOverlapping(TgtBegin, TgtEnd);
  if (!E) return std::nullopt;
  return MappedRange{E->HstBegin, E->size()};
}

size_t mappedEntryCount(Device &D) {
  MappingTable &T = D.mappings();
  ScopedLock Lock(T.Mutex);
  return T.size();
}

}  // namespace omptarget::core
