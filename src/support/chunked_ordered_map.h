// ChunkedOrderedMap: an ordered map from an address to a small value, laid
// out for searches through large tables.
//
// Keys live in sorted chunks of at most kChunk entries; a sorted vector holds
// each chunk's first key. A search is a binary search in that vector (a few
// KiB for 10,000 entries, warm in cache) and one in a chunk (contiguous keys),
// instead of the ~14 dependent pointer hops of a red-black tree of the same
// size, each a likely cache miss. Insert and erase move at most a chunk's
// entries; a full chunk splits in two, and a chunk that runs low merges with
// its successor when both fit in half a chunk, so chunks stay at least a
// quarter full on average under any pattern of inserts and erases.
//
// Keys are unique. Values must be cheap to copy (pointers). Not thread-safe,
// not even for concurrent const calls (around() remembers its position): the
// owner locks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace omptarget {

template <typename ValT>
class ChunkedOrderedMap {
 public:
  static constexpr uint32_t kChunk = 64;

  struct Item {
    uintptr_t Key;
    ValT Val;
  };
  // The last item with a key <= Key and the first with a key > Key.
  struct Neighbors {
    std::optional<Item> AtOrBefore;
    std::optional<Item> After;
  };

  // Remembers where the search ended: an insert of the same key before any
  // other change reuses it (a lookup that misses is usually followed by the
  // insert of what it looked for).
  Neighbors around(uintptr_t Key) const {
    Neighbors N;
    if (Size_ == 0) return N;
    size_t C = chunkFor(Key);
    const Chunk &Ch = *Chunks_[C];
    if (Key < Ch.Keys[0]) {  // before every key (C is 0)
      N.After = Item{Ch.Keys[0], Ch.Vals[0]};
      Last_ = LastSearch{Key, C, 0, true};
      return N;
    }
    uint32_t I = Ch.upperBound(Key);  // >= 1
    Last_ = LastSearch{Key, C, I, true};
    N.AtOrBefore = Item{Ch.Keys[I - 1], Ch.Vals[I - 1]};
    if (I < Ch.Size)
      N.After = Item{Ch.Keys[I], Ch.Vals[I]};
    else if (C + 1 < Chunks_.size())
      N.After = Item{Chunks_[C + 1]->Keys[0], Chunks_[C + 1]->Vals[0]};
    return N;
  }

  // Adds Key -> Val; false (and no change) when Key is present.
  bool insert(uintptr_t Key, ValT Val) {
    if (Chunks_.empty()) {
      Chunks_.push_back(newChunk());
      FirstKeys_.push_back(Key);
    }
    size_t C;
    uint32_t I;
    if (Last_.Valid && Last_.Key == Key) {
      C = Last_.Chunk;
      I = Last_.Index;
    } else {
      C = chunkFor(Key);
      I = Chunks_[C]->upperBound(Key);
    }
    if (I > 0 && Chunks_[C]->Keys[I - 1] == Key) return false;
    Last_.Valid = false;
    if (Chunks_[C]->Size == kChunk) {
      split(C);
      if (I > kChunk / 2) {
        ++C;
        I -= kChunk / 2;
      }
    }
    Chunk &Ch = *Chunks_[C];
    std::move_backward(Ch.Keys + I, Ch.Keys + Ch.Size, Ch.Keys + Ch.Size + 1);
    std::move_backward(Ch.Vals + I, Ch.Vals + Ch.Size, Ch.Vals + Ch.Size + 1);
    Ch.Keys[I] = Key;
    Ch.Vals[I] = Val;
    ++Ch.Size;
    FirstKeys_[C] = Ch.Keys[0];
    ++Size_;
    return true;
  }

  // Removes Key; false when it is not present.
  bool erase(uintptr_t Key) {
    if (Size_ == 0) return false;
    size_t C = chunkFor(Key);
    Chunk &Ch = *Chunks_[C];
    uint32_t I = Ch.upperBound(Key);
    if (I == 0 || Ch.Keys[I - 1] != Key) return false;
    Last_.Valid = false;
    --I;
    std::move(Ch.Keys + I + 1, Ch.Keys + Ch.Size, Ch.Keys + I);
    std::move(Ch.Vals + I + 1, Ch.Vals + Ch.Size, Ch.Vals + I);
    --Ch.Size;
    --Size_;
    if (Ch.Size == 0) {
      // The last chunk stays (empty): a table that goes from empty to one
      // entry and back, a construct mapping one array, touches no vector.
      if (Chunks_.size() > 1) removeChunk(C);
      return true;
    }
    FirstKeys_[C] = Ch.Keys[0];
    if (Ch.Size < kChunk / 4) {
      if (C + 1 < Chunks_.size() && Ch.Size + Chunks_[C + 1]->Size <= kChunk / 2)
        mergeIntoPrevious(C + 1);
      else if (C > 0 && Ch.Size + Chunks_[C - 1]->Size <= kChunk / 2)
        mergeIntoPrevious(C);
    }
    return true;
  }

  // Visits the items in key order.
  template <typename FnT>
  void forEach(FnT &&Visit) const {
    for (const auto &Ch : Chunks_)
      for (uint32_t I = 0; I < Ch->Size; ++I) Visit(Ch->Keys[I], Ch->Vals[I]);
  }

  // The items whose keys are in [Begin, End), in key order.
  std::vector<Item> range(uintptr_t Begin, uintptr_t End) const {
    std::vector<Item> Found;
    if (Size_ == 0 || Begin >= End) return Found;
    for (size_t C = chunkFor(Begin); C < Chunks_.size(); ++C) {
      const Chunk &Ch = *Chunks_[C];
      for (uint32_t I = 0; I < Ch.Size; ++I) {
        if (Ch.Keys[I] >= End) return Found;
        if (Ch.Keys[I] >= Begin) Found.push_back(Item{Ch.Keys[I], Ch.Vals[I]});
      }
    }
    return Found;
  }

  size_t size() const { return Size_; }
  bool empty() const { return Size_ == 0; }
  size_t numChunks() const { return Chunks_.size(); }

 private:
  struct Chunk {
    uint32_t Size;  // set by newChunk(); the arrays stay uninitialized
    uintptr_t Keys[kChunk];
    ValT Vals[kChunk];
    // Index of the first key > Key.
    uint32_t upperBound(uintptr_t Key) const {
      return static_cast<uint32_t>(firstAbove(Keys, Size, Key));
    }
  };

  // Index of the first of the N sorted keys at Keys that is > Key. (A
  // branch-free search measured slower here: it serializes the loads that
  // the branchy one speculates ahead.)
  static size_t firstAbove(const uintptr_t *Keys, size_t N, uintptr_t Key) {
    return static_cast<size_t>(std::upper_bound(Keys, Keys + N, Key) - Keys);
  }

  // The chunk whose range holds Key: the last one whose first key is <= Key,
  // or the first chunk. Chunks_ must not be empty.
  size_t chunkFor(uintptr_t Key) const {
    size_t Above = firstAbove(FirstKeys_.data(), FirstKeys_.size(), Key);
    return Above == 0 ? 0 : Above - 1;
  }

  void split(size_t C) {
    std::unique_ptr<Chunk> Upper = newChunk();
    Chunk &Lower = *Chunks_[C];
    constexpr uint32_t Half = kChunk / 2;
    std::copy(Lower.Keys + Half, Lower.Keys + kChunk, Upper->Keys);
    std::copy(Lower.Vals + Half, Lower.Vals + kChunk, Upper->Vals);
    Upper->Size = kChunk - Half;
    Lower.Size = Half;
    FirstKeys_.insert(FirstKeys_.begin() + static_cast<ptrdiff_t>(C) + 1, Upper->Keys[0]);
    Chunks_.insert(Chunks_.begin() + static_cast<ptrdiff_t>(C) + 1, std::move(Upper));
  }

  // Appends chunk C to chunk C - 1 and removes it.
  void mergeIntoPrevious(size_t C) {
    Chunk &Into = *Chunks_[C - 1];
    const Chunk &From = *Chunks_[C];
    std::copy(From.Keys, From.Keys + From.Size, Into.Keys + Into.Size);
    std::copy(From.Vals, From.Vals + From.Size, Into.Vals + Into.Size);
    Into.Size += From.Size;
    removeChunk(C);
  }

  static std::unique_ptr<Chunk> newChunk() {
    auto C = std::make_unique_for_overwrite<Chunk>();
    C->Size = 0;
    return C;
  }

  void removeChunk(size_t C) {
    FirstKeys_.erase(FirstKeys_.begin() + static_cast<ptrdiff_t>(C));
    Chunks_.erase(Chunks_.begin() + static_cast<ptrdiff_t>(C));
  }

  // The position around() found for Key (chunk, first index with a larger
  // key); cleared by every change, so it is never stale.
  struct LastSearch {
    uintptr_t Key = 0;
    size_t Chunk = 0;
    uint32_t Index = 0;
    bool Valid = false;
  };
  mutable LastSearch Last_;
  std::vector<uintptr_t> FirstKeys_;  // FirstKeys_[C] == Chunks_[C]->Keys[0]
  std::vector<std::unique_ptr<Chunk>> Chunks_;
  size_t Size_ = 0;
};

}  // namespace omptarget
