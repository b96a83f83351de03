#include "mapping_table.h"

#include <cassert>

namespace omptarget::core {

uint64_t MapEntry::totalRef() const {
  if (DynRef == kInfiniteRef || HoldRef == kInfiniteRef) return kInfiniteRef;
  return DynRef + HoldRef;
}

void MapEntry::incRef(bool Hold) {
  uint64_t &Count = Hold ? HoldRef : DynRef;
  if (Count != kInfiniteRef) ++Count;
}

void MapEntry::decRef(bool Hold) {
  uint64_t &Count = Hold ? HoldRef : DynRef;
  if (Count != kInfiniteRef && Count > 0) --Count;
}

bool MapEntry::decShouldRemove(bool Hold, bool AfterReset) const {
  uint64_t This = Hold ? HoldRef : DynRef;
  uint64_t Other = Hold ? DynRef : HoldRef;
  if (Other > 0) return false;
  if (AfterReset) return This != kInfiniteRef;
  return This == 1;
}

void MapEntry::resetRef(bool Hold) {
  uint64_t &Count = Hold ? HoldRef : DynRef;
  if (Count != kInfiniteRef && Count > 0) Count = 1;
}

std::string MapEntry::refToString(bool Hold) const {
  uint64_t Count = Hold ? HoldRef : DynRef;
  return Count == kInfiniteRef ? "INF" : std::to_string(Count);
}

MappingTable::~MappingTable() {
  // Nobody else can reach a table being destroyed: no lock. (The analysis
  // skips destructors, but not the lambdas in them.)
  ByRange_.forEach([&](uintptr_t, MapEntry *Entry)
                       NO_THREAD_SAFETY_ANALYSIS { Entries_.destroy(*Entry); });
}

LookupResult MappingTable::lookupAround(uintptr_t Begin, int64_t Size) {
  LookupResult Result;
  if (ByRange_.empty()) return Result;
  if (Size == 0) return lookupAddress(Begin);
  uintptr_t End = Begin + static_cast<uintptr_t>(Size);
  auto Near = ByRange_.around(Begin);
  if (Near.AtOrBefore) {
    MapEntry &E = *Near.AtOrBefore->Val;
    Result.Entry = &E;
    Result.IsContained = Begin >= E.HstBegin && Begin < E.HstEnd && End <= E.HstEnd;
    Result.ExtendsAfter = Begin < E.HstEnd && End > E.HstEnd;
  }
  if (!(Result.IsContained || Result.ExtendsAfter) && Near.After) {
    MapEntry &E = *Near.After->Val;
    Result.Entry = &E;
    Result.ExtendsBefore = Begin < E.HstBegin && End > E.HstBegin;
    Result.ExtendsAfter = Begin < E.HstEnd && End > E.HstEnd;
  }
  if (!Result.found()) Result.Entry = nullptr;
  return Result;
}

// A zero-length list item (a pointer captured by a region, use_device_ptr,
// use_device_addr) is an address, not a range: it belongs to the entry
// whose range holds it, or else to the entry it points into through the
// entry's base. An entry mapped as a section of a pointer's pointee
// (`map(A[64:128])`) has the pointer's value as its base, so the pointer
// itself finds it even though the section starts past it (OpenMP 5.1,
// pointer initialization for device data environments). An address at an
// entry's end, past its base, belongs to none.
LookupResult MappingTable::lookupAddress(uintptr_t Addr) {
  LookupResult Result;
  auto Near = ByRange_.around(Addr);
  if (Near.AtOrBefore) {
    MapEntry &E = *Near.AtOrBefore->Val;
    // A zero-sized entry contains exactly its own address.
    Result.IsContained =
        Addr < E.HstEnd || Addr < E.HstBase || (E.HstBegin == E.HstEnd && Addr == E.HstBegin);
    if (Result.IsContained) Result.Entry = &E;
  }
  if (!Result.IsContained && Near.After) {
    MapEntry &E = *Near.After->Val;
    Result.IsContained = Addr >= E.HstBase;
    if (Result.IsContained) Result.Entry = &E;
  }
  return Result;
}

MapEntry &MappingTable::insert(uintptr_t Base, uintptr_t Begin, uintptr_t End, uintptr_t Tgt,
                               bool Hold, map_var_info_t Name, bool Infinite) {
  MapEntry &Entry = Entries_.create();
  [[maybe_unused]] bool Inserted = ByRange_.insert(Begin, &Entry);
  assert(Inserted && "overlapping map entry");
  Entry.HstBase = Base;
  Entry.HstBegin = Begin;
  Entry.HstEnd = End;
  Entry.TgtBegin = Tgt;
  Entry.Name = Name;
  if (Infinite) {
    Entry.DynRef = kInfiniteRef;
    Entry.HoldRef = 0;
  } else {
    Entry.DynRef = Hold ? 0 : 1;
    Entry.HoldRef = Hold ? 1 : 0;
  }
  ByBegin_.insert(Begin, &Entry);
  return Entry;
}

void MappingTable::erase(MapEntry &Entry) {
  unlink(Entry);
  Entries_.destroy(Entry);
}

void MappingTable::unlink(MapEntry &Entry) {
  ByBegin_.erase(Entry.HstBegin);
  ByRange_.erase(Entry.HstBegin);
  if (Entry.Associated) Associations_.fetch_sub(1, std::memory_order_release);
}

bool MappingTable::relink(MapEntry &Entry) {
  if (lookup(Entry.HstBegin, Entry.size()).found()) return false;
  if (!ByRange_.insert(Entry.HstBegin, &Entry)) return false;
  ByBegin_.insert(Entry.HstBegin, &Entry);
  if (Entry.Associated) Associations_.fetch_add(1, std::memory_order_release);
  return true;
}

void MappingTable::markAssociated(MapEntry &Entry) {
  if (Entry.Associated) return;
  Entry.Associated = true;
  Associations_.fetch_add(1, std::memory_order_release);
}

const MapEntry *MappingTable::associationOverlapping(uintptr_t TgtBegin, uintptr_t TgtEnd) const {
  const MapEntry *Found = nullptr;
  if (!hasAssociations()) return nullptr;
  ByRange_.forEach([&](uintptr_t, const MapEntry *Entry) {
    if (!Found && Entry->Associated && Entry->TgtBegin < TgtEnd &&
        TgtBegin < Entry->TgtBegin + static_cast<uintptr_t>(Entry->size()))
      Found = Entry;
  });
  return Found;
}

void MappingTable::forEach(const std::function<void(const MapEntry &)> &Visit) const {
  ByRange_.forEach([&](uintptr_t, const MapEntry *Entry) { Visit(*Entry); });
}

size_t MappingTable::eraseRange(uintptr_t Begin, uintptr_t End) {
  auto Doomed = ByRange_.range(Begin, End);
  for (const auto &Item : Doomed) erase(*Item.Val);
  return Doomed.size();
}

bool MappingTable::setShadow(void **HstPtrAddr, const ShadowPointer &Shadow) {
  ScopedLock Lock(ShadowMutex_);
  auto [It, Inserted] = Shadows_.try_emplace(reinterpret_cast<uintptr_t>(HstPtrAddr), Shadow);
  if (Inserted) {
    ShadowCount_.store(Shadows_.size(), std::memory_order_release);
    return true;
  }
  if (It->second.TgtPtrValue == Shadow.TgtPtrValue && It->second.TgtPtrAddr == Shadow.TgtPtrAddr)
    return false;
  It->second = Shadow;
  return true;
}

void MappingTable::forEachShadow(uintptr_t Begin, uintptr_t End, bool Erase,
                                 const std::function<void(void **, const ShadowPointer &)> &Visit) {
  ScopedLock Lock(ShadowMutex_);
  auto It = Shadows_.lower_bound(Begin);
  while (It != Shadows_.end() && It->first < End) {
    Visit(reinterpret_cast<void **>(It->first), It->second);
    It = Erase ? Shadows_.erase(It) : std::next(It);
  }
  ShadowCount_.store(Shadows_.size(), std::memory_order_release);
}

void MappingTable::restoreShadows(uintptr_t Begin, int64_t Size) {
  forEachShadow(Begin, Begin + static_cast<uintptr_t>(Size), false,
                [](void **HstAddr, const ShadowPointer &Shadow) { *HstAddr = Shadow.HstPtrValue; });
}

}  // namespace omptarget::core
