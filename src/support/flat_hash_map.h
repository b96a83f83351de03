// FlatHashMap: a map from an address-like key (a pointer or an integer) to a
// small value, for lookups on the runtime's hot paths.
//
// Open addressing with linear probing in a power-of-two table kept at most
// half full, Fibonacci (multiply-shift) hashing: a lookup is a multiply, a
// shift and usually one probe, an insert or erase touches no allocator
// (std::unordered_map divides by a prime on every lookup and allocates a node
// per entry). Erase shifts the following entries of the probe run back
// (no tombstones), so a table that sees many inserts and erases keeps its
// short probes.
//
// The value type's value-initialized state (nullptr, 0) marks an empty slot
// and must never be stored. Any key may be stored. Not thread-safe: the
// owner locks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace omptarget {

template <typename KeyT, typename ValT>
class FlatHashMap {
  static_assert(std::is_trivially_copyable_v<ValT>, "values are copied around freely");

 public:
  // The value of Key, or ValT{} when there is none.
  ValT find(KeyT Key) const {
    if (Size_ == 0) return ValT{};
    uint64_t K = bits(Key);
    for (size_t I = home(K);; I = next(I)) {
      const Slot &S = Slots_[I];
      if (S.Val == ValT{}) return ValT{};
      if (S.Key == K) return S.Val;
    }
  }

  // Maps Key to Val (Val != ValT{}), replacing an existing mapping.
  void insert(KeyT Key, ValT Val) {
    if ((Size_ + 1) * 2 > Slots_.size()) grow();
    place(bits(Key), Val);
  }

  // Removes Key's mapping; false when there was none.
  bool erase(KeyT Key) {
    if (Size_ == 0) return false;
    uint64_t K = bits(Key);
    size_t Hole = home(K);
    for (;; Hole = next(Hole)) {
      if (Slots_[Hole].Val == ValT{}) return false;
      if (Slots_[Hole].Key == K) break;
    }
    // Move later members of the run into the hole when their home does not
    // lie (cyclically) in (Hole, I]: otherwise a lookup would stop at the hole.
    for (size_t I = next(Hole);; I = next(I)) {
      Slot &S = Slots_[I];
      if (S.Val == ValT{}) break;
      size_t Home = home(S.Key);
      bool StaysReachable = Hole < I ? (Hole < Home && Home <= I) : (Hole < Home || Home <= I);
      if (StaysReachable) continue;
      Slots_[Hole] = S;
      Hole = I;
    }
    Slots_[Hole] = Slot{};
    --Size_;
    return true;
  }

  void clear() {
    Slots_.clear();
    Size_ = 0;
    Mask_ = 0;
    Shift_ = 64;
  }
  size_t size() const { return Size_; }

 private:
  struct Slot {
    uint64_t Key = 0;
    ValT Val{};
  };

  static uint64_t bits(KeyT Key) {
    if constexpr (std::is_pointer_v<KeyT>)
      return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(Key));
    else
      return static_cast<uint64_t>(Key);
  }
  size_t home(uint64_t K) const {
    return static_cast<size_t>((K * 0x9E3779B97F4A7C15ull) >> Shift_) & Mask_;
  }
  size_t next(size_t I) const { return (I + 1) & Mask_; }

  void place(uint64_t K, ValT Val) {
    for (size_t I = home(K);; I = next(I)) {
      Slot &S = Slots_[I];
      if (S.Val == ValT{}) {
        S = Slot{K, Val};
        ++Size_;
        return;
      }
      if (S.Key == K) {
        S.Val = Val;
        return;
      }
    }
  }

  void grow() {
    std::vector<Slot> Old = std::move(Slots_);
    size_t Cap = Old.empty() ? 16 : Old.size() * 2;
    Slots_.assign(Cap, Slot{});
    Mask_ = Cap - 1;
    Shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(Cap));
    Size_ = 0;
    for (const Slot &S : Old)
      if (S.Val != ValT{}) place(S.Key, S.Val);
  }

  std::vector<Slot> Slots_;
  size_t Size_ = 0;
  size_t Mask_ = 0;
  unsigned Shift_ = 64;
};

}  // namespace omptarget
