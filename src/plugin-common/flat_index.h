// FlatIndex: an insert-only map from a handle (pointer or integer) to a
// uint32_t index, for the pools' and the memory manager's lookups.
//
// Open addressing with linear probing in a power-of-two table kept at most
// half full, Fibonacci (multiply-shift) hashing: a lookup is a multiply, a
// shift and usually one probe (std::unordered_map needs an integer division
// per lookup and a node per entry). Entries are never erased one by one;
// clear() empties the table. Not thread-safe: the owner locks.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace omptarget::plugin {

template <typename KeyT>
class FlatIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The index of Key, or kNone.
  uint32_t find(KeyT Key) const {
    if (Slots_.empty()) return kNone;
    uint64_t K = bits(Key);
    for (size_t I = home(K);; I = (I + 1) & Mask_) {
      const Slot &S = Slots_[I];
      if (S.Val == 0) return kNone;
      if (S.Key == K) return S.Val - 1;
    }
  }

  // Maps Key to Val (Val < kNone), replacing an existing mapping.
  void insert(KeyT Key, uint32_t Val) {
    if ((Size_ + 1) * 2 > Slots_.size()) grow();
    uint64_t K = bits(Key);
    for (size_t I = home(K);; I = (I + 1) & Mask_) {
      Slot &S = Slots_[I];
      if (S.Val == 0 || S.Key == K) {
        if (S.Val == 0) ++Size_;
        S.Key = K;
        S.Val = Val + 1;
        return;
      }
    }
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
    uint32_t Val = 0;  // index + 1; 0 = empty
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

  void grow() {
    std::vector<Slot> Old = std::move(Slots_);
    size_t Cap = Old.empty() ? 16 : Old.size() * 2;
    Slots_.assign(Cap, Slot{});
    Mask_ = Cap - 1;
    Shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(Cap));
    Size_ = 0;
    for (const Slot &S : Old)
      if (S.Val != 0) insertBits(S.Key, S.Val);
  }
  void insertBits(uint64_t K, uint32_t StoredVal) {
    for (size_t I = home(K);; I = (I + 1) & Mask_) {
      if (Slots_[I].Val == 0) {
        Slots_[I] = Slot{K, StoredVal};
        ++Size_;
        return;
      }
    }
  }

  std::vector<Slot> Slots_;
  size_t Size_ = 0;
  size_t Mask_ = 0;
  unsigned Shift_ = 64;
};

}  // namespace omptarget::plugin
