// PinnedMap: see pinned_map.h for the rules and the locks.
#include "pinned_map.h"

#include <cinttypes>

#include "debug.h"
#include "scoped_lock.h"

namespace omptarget::plugin {

namespace {
constexpr const char *kTrace = "pinned map";

std::string rangeText(uintptr_t Begin, size_t Size) {
  return formatString("[%p, %p) (%zu bytes)", reinterpret_cast<void *>(Begin),
                      reinterpret_cast<void *>(Begin + Size), Size);
}
}  // namespace

namespace {
// The first entry of M that ends after B (the one containing B, or the
// first beginning after it), or M.end().
template <typename Map>
auto firstEndingAfterIn(Map &M, uintptr_t B) {
  auto It = M.upper_bound(B);  // first entry beginning after B
  if (It != M.begin()) {
    auto Prev = std::prev(It);
    if (Prev->second.end() > B) return Prev;
  }
  return It;
}
}  // namespace

PinnedMap::EntryMap::const_iterator PinnedMap::firstEndingAfter(uintptr_t B) const {
  return firstEndingAfterIn(Entries_, B);
}

PinnedMap::EntryMap::iterator PinnedMap::firstEndingAfter(uintptr_t B) {
  return firstEndingAfterIn(Entries_, B);
}

Error PinnedMap::lockError(uintptr_t B, size_t Size, const char *Why) const {
  return makeError("data_lock: device %d: cannot lock host range %s: %s", DeviceId_,
                   rangeText(B, Size).c_str(), Why);
}

Expected<void *> PinnedMap::lock(void *P, size_t Size) {
  const uintptr_t B = reinterpret_cast<uintptr_t>(P);
  if (B + Size < B) return lockError(B, Size, "the range wraps around the address space");
  ScopedLock Ops(OpsMutex_);
  {
    WriterLock Write(Mutex_);
    auto It = firstEndingAfter(B);
    if (It != Entries_.end() && It->first < B + Size) {
      Entry &E = It->second;
      if (E.Range.Begin <= B && B + Size <= E.end()) {
        ++E.Locks;
        OMPT_TRACE(kTrace, "device %d: %s is inside locked %s, now %" PRIu64 " locks", DeviceId_,
                   rangeText(B, Size).c_str(), rangeText(E.Range.Begin, E.Range.Size).c_str(),
                   E.Locks);
        return static_cast<char *>(E.Range.DevicePtr) + (B - E.Range.Begin);
      }
      auto Next = std::next(It);
      std::string Why = formatString(
          "it overlaps the locked range %s without lying inside it%s%s; lock a range inside it, "
          "or unlock it first (a locked range is never extended)",
          rangeText(E.Range.Begin, E.Range.Size).c_str(),
          Next != Entries_.end() && Next->first < B + Size ? " and the locked range " : "",
          Next != Entries_.end() && Next->first < B + Size
              ? rangeText(Next->second.Range.Begin, Next->second.Range.Size).c_str()
              : "");
      return lockError(B, Size, Why.c_str());
    }
  }
  // A new range: pinned with no hold of Mutex_ (lookups go on); no other
  // change can come in between (OpsMutex_).
  Expected<PinnedRange> Pinned = Pinner_.pin(P, Size);
  if (!Pinned) return lockError(B, Size, Pinned.error().message().c_str());
  PinnedRange R = *Pinned;
  {
    WriterLock Write(Mutex_);
    // A larger pinned range (someone else's, or one registered for another
    // device) may extend over ranges already in the map; then only the
    // asked range enters it (its unpin is still that of the larger range).
    if (R.Begin != B || R.Size != Size) {
      auto It = firstEndingAfter(R.Begin);
      if (It != Entries_.end() && It->first < R.Begin + R.Size) {
        R.DevicePtr = static_cast<char *>(R.DevicePtr) + (B - R.Begin);
        R.Begin = B;
        R.Size = Size;
      }
    }
    Entries_.emplace(R.Begin, Entry{R, 1, false});
    Count_.store(Entries_.size(), std::memory_order_release);
  }
  OMPT_TRACE(kTrace, "device %d: locked %s%s", DeviceId_, rangeText(R.Begin, R.Size).c_str(),
             R.External ? " (pinned already by the program: it will not be unpinned here)" : "");
  return static_cast<char *>(R.DevicePtr) + (B - R.Begin);
}

Status PinnedMap::unlock(void *P, bool *NotLocked) {
  const uintptr_t B = reinterpret_cast<uintptr_t>(P);
  if (NotLocked) *NotLocked = false;
  ScopedLock Ops(OpsMutex_);
  PinnedRange Gone;
  {
    WriterLock Write(Mutex_);
    auto Found = firstEndingAfter(B);
    if (Found == Entries_.end() || Found->first > B) {
      if (NotLocked) *NotLocked = true;
      return makeError(
          "data_unlock: device %d: host pointer %p is not in memory locked on this device "
          "(llvm_omp_target_lock_mem); nothing was unlocked",
          DeviceId_, P);
    }
    Entry &E = Found->second;
    if (E.Locks == 0)  // an allocation's entry that nobody locked
      return makeError(
          "data_unlock: device %d: host pointer %p is in pinned memory from "
          "llvm_omp_target_alloc_host %s that holds no lock (llvm_omp_target_lock_mem) to "
          "drop; it stays pinned until llvm_omp_target_free",
          DeviceId_, P, rangeText(E.Range.Begin, E.Range.Size).c_str());
    if (--E.Locks != 0 || E.FromAllocation) {
      OMPT_TRACE(kTrace, "device %d: unlocked %p in %s, %" PRIu64 " locks left", DeviceId_, P,
                 rangeText(E.Range.Begin, E.Range.Size).c_str(), E.Locks);
      return {};
    }
    Gone = E.Range;
    Entries_.erase(Found);
    Count_.store(Entries_.size(), std::memory_order_release);
  }
  OMPT_TRACE(kTrace, "device %d: last unlock of %s%s", DeviceId_,
             rangeText(Gone.Begin, Gone.Size).c_str(),
             Gone.External ? " (pinned by the program: left pinned)" : ", unpinning");
  if (Gone.External) return {};
  if (Status S = Pinner_.unpin(Gone); !S)
    return makeError("data_unlock: device %d: cannot unpin host range %s: %s", DeviceId_,
                     rangeText(Gone.Begin, Gone.Size).c_str(), S.error().message().c_str());
  return {};
}

void PinnedMap::addAllocation(void *P, size_t Size) {
  const uintptr_t B = reinterpret_cast<uintptr_t>(P);
  ScopedLock Ops(OpsMutex_);
  WriterLock Write(Mutex_);
  // Fresh memory cannot overlap live locked memory: an overlapping entry is
  // memory that was locked and then freed without an unlock.
  for (auto It = firstEndingAfter(B); It != Entries_.end() && It->first < B + Size;) {
    OMPT_TRACE(kTrace, "device %d: dropping stale %s (freed while locked)", DeviceId_,
               rangeText(It->second.Range.Begin, It->second.Range.Size).c_str());
    It = Entries_.erase(It);
  }
  Entries_.emplace(B, Entry{PinnedRange{B, Size, P, true}, 0, true});
  Count_.store(Entries_.size(), std::memory_order_release);
}

void PinnedMap::removeAllocation(void *P) {
  if (!mayContain()) return;
  ScopedLock Ops(OpsMutex_);
  WriterLock Write(Mutex_);
  auto It = Entries_.find(reinterpret_cast<uintptr_t>(P));
  if (It == Entries_.end() || !It->second.FromAllocation) return;
  Entries_.erase(It);
  Count_.store(Entries_.size(), std::memory_order_release);
}

size_t PinnedMap::unpinAll(Status *Failure) {
  ScopedLock Ops(OpsMutex_);
  EntryMap Taken;
  {
    WriterLock Write(Mutex_);
    Taken.swap(Entries_);
    Count_.store(0, std::memory_order_release);
  }
  size_t Locked = 0;
  for (auto &[Begin, E] : Taken) {
    if (E.Locks == 0) continue;
    ++Locked;
    if (E.Range.External) continue;
    Status S = Pinner_.unpin(E.Range);
    if (!S && Failure && *Failure) *Failure = std::move(S);
  }
  return Locked;
}

bool PinnedMap::contains(const void *P, size_t Size) const {
  return deviceAddress(P, Size) != nullptr;  // an entry's device address is never null
}

void *PinnedMap::deviceAddress(const void *P, size_t Size) const {
  const uintptr_t B = reinterpret_cast<uintptr_t>(P);
  ReaderLock Read(Mutex_);
  auto It = firstEndingAfter(B);
  if (It == Entries_.end() || It->first > B || B + Size > It->second.end()) return nullptr;
  return static_cast<char *>(It->second.Range.DevicePtr) + (B - It->first);
}

PinnedMap::Segment PinnedMap::segmentAt(const void *P, size_t Size) const {
  const uintptr_t B = reinterpret_cast<uintptr_t>(P);
  ReaderLock Read(Mutex_);
  auto It = firstEndingAfter(B);
  if (It == Entries_.end() || It->first >= B + Size) return {Size, false};
  if (It->first > B) return {It->first - B, false};
  return {std::min(Size, It->second.end() - B), true};
}

std::vector<PinnedMap::EntryInfo> PinnedMap::snapshot() const {
  ReaderLock Read(Mutex_);
  std::vector<EntryInfo> Out;
  Out.reserve(Entries_.size());
  for (const auto &[Begin, E] : Entries_) Out.push_back({E.Range, E.Locks, E.FromAllocation});
  return Out;
}

}  // namespace omptarget::plugin
