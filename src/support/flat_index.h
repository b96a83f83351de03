// FlatIndex: a map from a handle (pointer or integer) to a uint32_t index,
// for the resource pools' lookups: a FlatHashMap (see there
// for the layout) that stores index + 1, so that index 0 is storable.
// Not thread-safe: the owner locks.
#pragma once

#include <cstdint>

#include "flat_hash_map.h"

namespace omptarget {

template <typename KeyT>
class FlatIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The index of Key, or kNone.
  uint32_t find(KeyT Key) const { return Map_.find(Key) - 1; }
  // Maps Key to Val (Val < kNone), replacing an existing mapping.
  void insert(KeyT Key, uint32_t Val) { Map_.insert(Key, Val + 1); }
  void clear() { Map_.clear(); }
  size_t size() const { return Map_.size(); }

 private:
  FlatHashMap<KeyT, uint32_t> Map_;  // index + 1; 0 (empty) becomes kNone
};

}  // namespace omptarget
