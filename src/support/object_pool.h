// ObjectPool<T>: stable storage for objects created and destroyed at a high
// rate (the mapping table's entries). Objects live in chunks of kChunk
// slots that stay put until the pool goes; a destroyed object's slot joins
// an intrusive free list and is the next one handed out, so creating and
// destroying an object is a few pointer moves: no malloc, no list links,
// and recently used memory comes back first.
//
// The owner destroys every object it created before the pool goes (the pool
// frees the chunks, not the objects in them). Not thread safe: the owner
// locks.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace omptarget {

template <typename T, size_t kChunk = 64>
class ObjectPool {
 public:
  ObjectPool() = default;
  ObjectPool(const ObjectPool &) = delete;
  ObjectPool &operator=(const ObjectPool &) = delete;

  template <typename... ArgTs>
  T &create(ArgTs &&...Args) {
    Slot *S = Free_;
    if (S)
      Free_ = S->Next;
    else
      S = carve();
    return *std::construct_at(reinterpret_cast<T *>(S->Bytes), std::forward<ArgTs>(Args)...);
  }

  // Obj must come from create() of this pool and not be destroyed yet.
  void destroy(T &Obj) {
    std::destroy_at(&Obj);
    auto *S = reinterpret_cast<Slot *>(&Obj);  // the object sits at the slot's start
    S->Next = Free_;
    Free_ = S;
  }

  size_t capacity() const { return Chunks_.size() * kChunk; }

 private:
  union Slot {
    Slot *Next;
    alignas(T) unsigned char Bytes[sizeof(T)];
  };

  Slot *carve() {
    if (Chunks_.empty() || Carved_ == kChunk) {
      Chunks_.push_back(std::make_unique_for_overwrite<Slot[]>(kChunk));
      Carved_ = 0;
    }
    return &Chunks_.back()[Carved_++];
  }

  std::vector<std::unique_ptr<Slot[]>> Chunks_;
  size_t Carved_ = 0;  // slots of the last chunk handed out at least once
  Slot *Free_ = nullptr;
};

}  // namespace omptarget
