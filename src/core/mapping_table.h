// The host-to-device mapping table of one device.
//
// Entries are keyed by host begin address and never overlap. Each entry has a
// dynamic and a hold reference count (OpenMP 5.1 + ompx_hold); kInfiniteRef
// marks entries that never go away (declare-target globals, associated
// pointers). Shadow pointers remember the host value of every attached
// pointer (PTR_AND_OBJ) so that copying a struct back never leaks a device
// address into host memory.
//
// Locking (all three are FutexMutexes, see futex_mutex.h; taken with
// ScopedLock / UniqueLock):
//   * `Mutex`, taken twice by every construct, guards the entry map and
//     indexes and every entry's reference counts, ranges and flags.
//   * an entry's `TransferMutex` guards its `Event` and `CopyQueue`, and is
//     held while its host-to-device copy is being issued, so that a thread
//     that reuses the entry can wait for the copy to be complete.
//   * `ShadowMutex_` guards the shadow map.
// Lock order: Mutex before TransferMutex; ShadowMutex_ is never held with
// another lock of this table.
//
// The analysis checks the table's members and the entries' `Event` /
// `CopyQueue`. An entry's other fields are guarded by the table's Mutex,
// which an entry cannot name (it does not know its table): they are reached
// only through lookup() / insert() / forEach(), which require it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "chunked_ordered_map.h"
#include "flat_hash_map.h"
#include "futex_mutex.h"
#include "object_pool.h"
#include "omptarget/abi.h"
#include "scoped_lock.h"
#include "thread_annotations.h"

namespace omptarget::core {

constexpr uint64_t kInfiniteRef = ~uint64_t(0);

struct MapEntry {
  // Ranges, counts, Name and Associated: guarded by the owning table's Mutex.
  uintptr_t HstBase = 0;
  uintptr_t HstBegin = 0;
  uintptr_t HstEnd = 0;
  uintptr_t TgtBegin = 0;
  // Bytes of the device allocation before TgtBegin: a struct's entry that
  // begins at a member is allocated from the struct's alignment down, so
  // that its device copy keeps the host layout's alignment, while the entry
  // (what is present) covers only the mapped members.
  uintptr_t TgtPadding = 0;
  uint64_t DynRef = 1;
  uint64_t HoldRef = 0;
  map_var_info_t Name = nullptr;
  // Created by omp_target_associate_ptr (only those may be disassociated).
  bool Associated = false;
  // Its host range was locked for the entry's lifetime
  // (LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS); unlocked when it is removed.
  bool HostLocked = false;
  // Held while a fill of the entry (its allocation on a queue, a H2D copy)
  // is being issued (see entry_copies.h).
  FutexMutex TransferMutex;
  // Plugin event ordered after the entry's latest fill (null: none yet /
  // no events); it means that only while FillsInFlight is non-zero.
  // Destroyed with the entry.
  void *Event GUARDED_BY(TransferMutex) = nullptr;
  // The queue that issued the entry's latest fill, for plugins whose queues
  // persist: Event is then recorded on it only when a reusing construct
  // needs it.
  void *CopyQueue GUARDED_BY(TransferMutex) = nullptr;
  // Read without TransferMutex (that is their point). FillsInFlight: the
  // fills issued by constructs that have not synchronized yet (each
  // construct takes its own back when its queue is done): while non-zero a
  // reusing construct waits for Event.
  std::atomic<uint32_t> FillsInFlight{0};
  // True while a thread issues a fill (set under the table lock, cleared
  // before TransferMutex is released): a reuser that sees it false and no
  // fill in flight needs neither the lock nor a wait.
  std::atomic<bool> TransferBusy{false};

  int64_t size() const { return static_cast<int64_t>(HstEnd - HstBegin); }
  // What the device allocator returned for the entry (to free it).
  uintptr_t allocationBegin() const { return TgtBegin - TgtPadding; }
  uint64_t totalRef() const;
  void incRef(bool Hold);
  void decRef(bool Hold);
  // Would one decrement of the chosen count (after a reset when AfterReset)
  // drop the entry?
  bool decShouldRemove(bool Hold, bool AfterReset = false) const;
  void resetRef(bool Hold);
  // Drops one reference of the chosen count, after resetRef when Reset
  // (`delete`): what an exiting map does, matching decShouldRemove.
  void dropRef(bool Hold, bool Reset) {
    if (Reset) resetRef(Hold);
    decRef(Hold);
  }
  std::string refToString(bool Hold) const;

  // Event, for an entry whose last reference just went (the table's Mutex
  // held, the entry about to be unlinked). Read without TransferMutex, safely:
  // every thread that takes TransferMutex (the copier, a waiter) holds a
  // reference to the entry while it does, so none can be left.
  void *eventOfUnreferenced() const NO_THREAD_SAFETY_ANALYSIS { return Event; }
};

struct LookupResult {
  MapEntry *Entry = nullptr;
  bool IsContained = false;
  bool ExtendsBefore = false;
  bool ExtendsAfter = false;
  bool found() const { return IsContained || ExtendsBefore || ExtendsAfter; }
};

struct ShadowPointer {
  void *HstPtrValue;  // the pointer's original host value
  void *TgtPtrAddr;   // where the pointer lives on the device
  void *TgtPtrValue;  // the device address written there
};

class MappingTable {
 public:
  MappingTable() = default;
  MappingTable(const MappingTable &) = delete;
  MappingTable &operator=(const MappingTable &) = delete;
  ~MappingTable();

  FutexMutex Mutex;

  // All of the following require Mutex to be held.
  // The entry holding [Begin, Begin + Size), or the one it overlaps. Inline
  // for the common case, an entry that starts exactly at Begin.
  LookupResult lookup(uintptr_t Begin, int64_t Size) REQUIRES(Mutex) {
    if (MapEntry *Exact = ByBegin_.find(Begin)) {
      uintptr_t End = Begin + static_cast<uintptr_t>(Size);
      if (Exact->HstBegin == Exact->HstEnd ? Size == 0 : End <= Exact->HstEnd)
        return LookupResult{Exact, /*IsContained=*/true, false, false};
    }
    return lookupAround(Begin, Size);
  }
  MapEntry &insert(uintptr_t Base, uintptr_t Begin, uintptr_t End, uintptr_t Tgt, bool Hold,
                   map_var_info_t Name, bool Infinite = false) REQUIRES(Mutex);
  void erase(MapEntry &Entry) REQUIRES(Mutex);
  // erase() in two steps, for an entry whose construct still refers to it
  // until its synchronize: unlink takes it out of the table (nobody finds
  // it), destroyUnlinked gives its storage back. relink puts an unlinked
  // entry back when its range is still free (false: it is not).
  void unlink(MapEntry &Entry) REQUIRES(Mutex);
  bool relink(MapEntry &Entry) REQUIRES(Mutex);
  void destroyUnlinked(MapEntry &Entry) REQUIRES(Mutex) { Entries_.destroy(Entry); }
  size_t size() const REQUIRES(Mutex) { return ByRange_.size(); }
  // Visit entries in address order (for dumps and teardown).
  void forEach(const std::function<void(const MapEntry &)> &Visit) const REQUIRES(Mutex);
  // Removes the entries that begin in [Begin, End); returns how many.
  size_t eraseRange(uintptr_t Begin, uintptr_t End) REQUIRES(Mutex);

  // Associations (omp_target_associate_ptr's entries) are counted, so that
  // omp_target_free looks for one that names its block only when there is
  // any. markAssociated flags a new entry as one.
  void markAssociated(MapEntry &Entry) REQUIRES(Mutex);
  bool hasAssociations() const { return Associations_.load(std::memory_order_acquire) > 0; }
  // An association whose device range overlaps [TgtBegin, TgtEnd), or null.
  const MapEntry *associationOverlapping(uintptr_t TgtBegin, uintptr_t TgtEnd) const
      REQUIRES(Mutex);

  // Shadow pointers (take ShadowMutex_ internally).
  // Returns true if the entry was created or its device value changed.
  bool setShadow(void **HstPtrAddr, const ShadowPointer &Shadow);
  // False when no pointer was ever attached (lets the hot path skip shadows).
  bool hasShadows() const { return ShadowCount_.load(std::memory_order_acquire) > 0; }
  // Calls Visit for every shadow whose host address is in [Begin, End); erases
  // them afterwards when Erase.
  void forEachShadow(uintptr_t Begin, uintptr_t End, bool Erase,
                     const std::function<void(void **, const ShadowPointer &)> &Visit);
  // After a copy back into [Begin, +Size): puts back the host pointer
  // values that the copy overwrote with device addresses.
  void restoreShadows(uintptr_t Begin, int64_t Size);

 private:
  // Entries live in Entries_ (stable addresses, in chunks; a freed entry's
  // slot is the next one handed out, so mapping and unmapping a fresh array
  // costs no trip to malloc). ByRange_ holds every live entry, ordered by
  // address for
  // range lookups in contiguous sorted chunks (a search through 10,000
  // entries touches a few cache lines, not a tree's 14 nodes). ByBegin_
  // finds them by exact begin address, the common lookup (open addressing:
  // no allocation). All guarded by Mutex.
  // lookup() without an exact-begin match: the address-ordered search.
  LookupResult lookupAround(uintptr_t Begin, int64_t Size) REQUIRES(Mutex);
  // lookupAround for a zero-length item: the entry that holds the address.
  LookupResult lookupAddress(uintptr_t Addr) REQUIRES(Mutex);

  ObjectPool<MapEntry> Entries_ GUARDED_BY(Mutex);
  ChunkedOrderedMap<MapEntry *> ByRange_ GUARDED_BY(Mutex);
  FlatHashMap<uintptr_t, MapEntry *> ByBegin_ GUARDED_BY(Mutex);
  FutexMutex ShadowMutex_;
  std::map<uintptr_t, ShadowPointer> Shadows_ GUARDED_BY(ShadowMutex_);
  // Shadows_.size(), an atomic written under ShadowMutex_ and read without it.
  std::atomic<size_t> ShadowCount_{0};
  // The linked entries flagged Associated; written under Mutex, read without it.
  std::atomic<size_t> Associations_{0};
};

}  // namespace omptarget::core
