#include "memory_manager.h"

#include <algorithm>
#include <new>
#include <utility>

namespace omptarget::plugin {

namespace {
constexpr size_t kMinTableCapacity = 64;
constexpr std::align_val_t kTableAlign{64};
}  // namespace

MemoryManager::TablePtr MemoryManager::makeTable(size_t Capacity) {
  void *Mem = ::operator new(sizeof(Table) + Capacity * sizeof(Slot), kTableAlign);
  auto *T = new (Mem) Table{Capacity - 1, 64 - static_cast<unsigned>(std::countr_zero(Capacity))};
  Slot *Slots = T->slots();
  for (size_t I = 0; I < Capacity; ++I) new (&Slots[I]) Slot;
  return TablePtr(T);
}

void MemoryManager::TableDeleter::operator()(Table *T) const {
  Slot *Slots = T->slots();
  for (size_t I = 0; I <= T->Mask; ++I) Slots[I].~Slot();
  T->~Table();
  ::operator delete(T, kTableAlign);
}

MemoryManager::MemoryManager(AllocFn Alloc, FreeFn Free, TrimFn Trim)
    : Alloc_(std::move(Alloc)), FreeBlock_(std::move(Free)), Trim_(std::move(Trim)) {
  ScopedLock Lock(IndexMutex_);
  Tables_.push_back(makeTable(kMinTableCapacity));
  Table_.store(Tables_.back().get(), std::memory_order_release);
}

MemoryManager::~MemoryManager() = default;

void MemoryManager::setThreshold(size_t Threshold) {
  Threshold_.store(std::min(Threshold, kMaxThreshold), std::memory_order_relaxed);
}

// ---- size classes ----

MemoryManager::Record *MemoryManager::SizeClass::spare(unsigned Class) {
  if (!Spare) {
    Chunks.push_back(std::make_unique<Chunk>());
    for (Record &R : Chunks.back()->Records) {
      R.Class = static_cast<uint8_t>(Class);
      R.Next = Spare;
      Spare = &R;
    }
  }
  Record *R = Spare;
  Spare = R->Next;
  return R;
}

void MemoryManager::SizeClass::forgetAll() {
  Cached = nullptr;
  Spare = nullptr;
  NumCached = 0;
  NumLive = 0;
  for (auto &C : Chunks)
    for (Record &R : C->Records) {
      R.State = kSpare;
      R.Ptr = nullptr;
      R.Next = Spare;
      Spare = &R;
    }
}

// ---- the index (its writers hold IndexMutex_) ----

void MemoryManager::indexInsert(void *Ptr, Record *R) {
  Table *T = Tables_.back().get();
  if ((IndexUsed_ + 1) * 2 > T->Mask + 1) {
    indexRehash();
    T = Tables_.back().get();
  }
  auto K = reinterpret_cast<uintptr_t>(Ptr);
  Slot *Slots = T->slots();
  Slot *Free = nullptr;
  for (size_t I = T->home(K);; I = (I + 1) & T->Mask) {
    uintptr_t S = Slots[I].Key.load(std::memory_order_relaxed);
    if (S == K) {  // not reached: the backend does not hand out a block the cache holds
      Slots[I].Val.store(R, std::memory_order_release);
      return;
    }
    if (S == kTombstone) {
      if (!Free) Free = &Slots[I];
    } else if (S == kEmpty) {
      if (!Free) {
        Free = &Slots[I];
        ++IndexUsed_;
      }
      break;
    }
  }
  Free->Val.store(R, std::memory_order_release);
  Free->Key.store(K, std::memory_order_release);
  ++IndexLive_;
}

void MemoryManager::indexErase(void *Ptr) {
  Table *T = Tables_.back().get();
  auto K = reinterpret_cast<uintptr_t>(Ptr);
  Slot *Slots = T->slots();
  for (size_t I = T->home(K);; I = (I + 1) & T->Mask) {
    uintptr_t S = Slots[I].Key.load(std::memory_order_relaxed);
    if (S == kEmpty) return;
    if (S == K) {
      Slots[I].Key.store(kTombstone, std::memory_order_release);
      --IndexLive_;
      return;
    }
  }
}

void MemoryManager::indexClear() {
  Table *T = Tables_.back().get();
  Slot *Slots = T->slots();
  for (size_t I = 0; I <= T->Mask; ++I) Slots[I].Key.store(kEmpty, std::memory_order_release);
  IndexUsed_ = 0;
  IndexLive_ = 0;
}

// A purge in place empties the table before it refills it: a lock-free
// reader meanwhile misses (tryKeep answers false, deallocate asks again under
// IndexMutex_). A growth fills the new table before publishing it.
void MemoryManager::indexRehash() {
  Table *Old = Tables_.back().get();
  size_t Capacity = Old->Mask + 1;
  std::vector<std::pair<uintptr_t, Record *>> Live;
  Live.reserve(IndexLive_);
  Slot *OldSlots = Old->slots();
  for (size_t I = 0; I < Capacity; ++I) {
    uintptr_t K = OldSlots[I].Key.load(std::memory_order_relaxed);
    if (K != kEmpty && K != kTombstone)
      Live.emplace_back(K, OldSlots[I].Val.load(std::memory_order_relaxed));
  }
  Table *T = Old;
  if ((Live.size() + 1) * 4 > Capacity) {
    Tables_.push_back(makeTable(Capacity * 2));
    T = Tables_.back().get();
  } else {
    for (size_t I = 0; I < Capacity; ++I) OldSlots[I].Key.store(kEmpty, std::memory_order_release);
  }
  Slot *Slots = T->slots();
  for (auto [K, R] : Live) {
    size_t I = T->home(K);
    while (Slots[I].Key.load(std::memory_order_relaxed) != kEmpty) I = (I + 1) & T->Mask;
    Slots[I].Val.store(R, std::memory_order_release);
    Slots[I].Key.store(K, std::memory_order_release);
  }
  IndexUsed_ = Live.size();
  IndexLive_ = Live.size();
  // The replaced table stays in Tables_ (a reader may be in it).
  if (T != Old) Table_.store(T, std::memory_order_release);
}

// ---- allocate / deallocate ----

Expected<void *> MemoryManager::allocate(size_t Size) {
  if (void *Cached = takeCached(Size)) return Cached;
  unsigned Class = classOf(Size);
  Expected<void *> P = retryAfterReleasing([&] { return Alloc_(classSize(Class)); });
  if (!P || *P == nullptr) return P;  // a null block is not one to index
  Record *R;
  {
    SizeClass &C = Classes_[Class];
    ScopedLock Lock(C.Mutex);
    R = C.spare(Class);
    R->Ptr = *P;
    R->State = kLive;
    ++C.NumLive;
  }
  ScopedLock Lock(IndexMutex_);
  indexInsert(*P, R);
  return P;
}

Expected<bool> MemoryManager::deallocate(void *Ptr) {
  if (tryKeep(Ptr)) return true;  // a live block: the common case, no index lock
  if (!indexable(Ptr)) return false;
  ScopedLock Lock(IndexMutex_);
  // Exact under IndexMutex_: a record in the index holds Ptr (records are
  // reused only after freeCache() erased them).
  Record *R = lookup(Tables_.back().get(), Ptr);
  if (!R) return false;
  SizeClass &C = Classes_[R->Class];
  ScopedLock ClassLock(C.Mutex);
  if (R->State != kLive)
    return makeError(
        "not a live allocation of this device (already freed; the block is cached "
        "for reuse)");
  C.keep(R);
  return true;
}

bool MemoryManager::owns(void *Ptr) const {
  if (!indexable(Ptr)) return false;
  ScopedLock Lock(IndexMutex_);
  return lookup(Tables_.back().get(), Ptr) != nullptr;
}

// ---- giving blocks back ----

// Empties the free lists (their records become kReleased), erases the blocks
// from the index, frees them through the backend, and only then makes their
// records spare: until then a stale reader's check sees them not live, and
// deallocate() reports them as double frees.
size_t MemoryManager::freeCache() {
  std::vector<Record *> Released;
  for (SizeClass &C : Classes_) {
    ScopedLock Lock(C.Mutex);
    for (Record *R = C.Cached; R; R = R->Next) {
      R->State = kReleased;
      Released.push_back(R);
    }
    C.Cached = nullptr;
    C.NumCached = 0;
  }
  if (Released.empty()) return 0;
  {
    ScopedLock Lock(IndexMutex_);
    for (Record *R : Released) indexErase(R->Ptr);
  }
  size_t Failures = 0;
  for (Record *R : Released)
    if (!FreeBlock_(R->Ptr)) ++Failures;
  if (Failures) BackendFailures_.fetch_add(Failures, std::memory_order_relaxed);
  // Released is in class order: one lock per class that had blocks.
  for (size_t I = 0; I < Released.size();) {
    SizeClass &C = Classes_[Released[I]->Class];
    ScopedLock Lock(C.Mutex);
    for (; I < Released.size() && &Classes_[Released[I]->Class] == &C; ++I) {
      Record *R = Released[I];
      R->State = kSpare;
      R->Ptr = nullptr;
      R->Next = C.Spare;
      C.Spare = R;
    }
  }
  return Released.size();
}

void MemoryManager::releaseForRetry() {
  freeCache();
  if (Trim_) Trim_();
}

Status MemoryManager::deinit() {
  freeCache();
  {
    ScopedLock Lock(IndexMutex_);
    indexClear();
  }
  for (SizeClass &C : Classes_) {
    ScopedLock Lock(C.Mutex);
    C.forgetAll();
  }
  if (size_t N = BackendFailures_.exchange(0, std::memory_order_relaxed))
    return makeError("memory manager: %zu cached block(s) could not be freed", N);
  return {};
}

// ---- counters ----

size_t MemoryManager::numCached() const {
  size_t N = 0;
  for (const SizeClass &C : Classes_) {
    ScopedLock Lock(C.Mutex);
    N += C.NumCached;
  }
  return N;
}

size_t MemoryManager::cachedBytes() const {
  size_t Bytes = 0;
  for (unsigned I = 0; I < kNumClasses; ++I) {
    const SizeClass &C = Classes_[I];
    ScopedLock Lock(C.Mutex);
    Bytes += C.NumCached * classSize(I);
  }
  return Bytes;
}

size_t MemoryManager::numHandedOut() const {
  size_t N = 0;
  for (const SizeClass &C : Classes_) {
    ScopedLock Lock(C.Mutex);
    N += C.NumLive;
  }
  return N;
}

size_t MemoryManager::numBackendFailures() const {
  return BackendFailures_.load(std::memory_order_relaxed);
}

}  // namespace omptarget::plugin
