// FreeListResource: a memory_resource that keeps freed blocks in per-size
// free lists and hands them out again, for containers whose nodes come and
// go at a high rate (the mapping table). Not thread safe: the owner's lock
// guards it. Blocks go back upstream when the resource is destroyed.
#pragma once

#include <array>
#include <cstddef>
#include <memory_resource>

namespace omptarget {

class FreeListResource final : public std::pmr::memory_resource {
 public:
  explicit FreeListResource(std::pmr::memory_resource *Upstream = std::pmr::new_delete_resource())
      : Upstream_(Upstream) {}
  FreeListResource(const FreeListResource &) = delete;
  FreeListResource &operator=(const FreeListResource &) = delete;
  ~FreeListResource() override {
    for (List &L : Lists_)
      while (L.Head) {
        Node *Next = L.Head->Next;
        Upstream_->deallocate(L.Head, L.Bytes, kAlign);
        L.Head = Next;
      }
  }

 private:
  static constexpr size_t kAlign = alignof(std::max_align_t);
  struct Node {
    Node *Next;
  };
  struct List {
    size_t Bytes = 0;  // 0: unused slot
    Node *Head = nullptr;
  };

  List *listFor(size_t Bytes) {
    for (List &L : Lists_) {
      if (L.Bytes == Bytes) return &L;
      if (L.Bytes == 0) {
        L.Bytes = Bytes;
        return &L;
      }
    }
    return nullptr;  // more distinct sizes than slots: no caching
  }

  void *do_allocate(size_t Bytes, size_t Align) override {
    if (Align <= kAlign && Bytes >= sizeof(Node))
      if (List *L = listFor(Bytes); L && L->Head) {
        Node *N = L->Head;
        L->Head = N->Next;
        return N;
      }
    return Upstream_->allocate(Bytes, Align <= kAlign ? kAlign : Align);
  }
  void do_deallocate(void *P, size_t Bytes, size_t Align) override {
    if (Align <= kAlign && Bytes >= sizeof(Node))
      if (List *L = listFor(Bytes)) {
        auto *N = static_cast<Node *>(P);
        N->Next = L->Head;
        L->Head = N;
        return;
      }
    Upstream_->deallocate(P, Bytes, Align <= kAlign ? kAlign : Align);
  }
  bool do_is_equal(const std::pmr::memory_resource &Other) const noexcept override {
    return this == &Other;
  }

  std::pmr::memory_resource *Upstream_;
  std::array<List, 8> Lists_{};
};

}  // namespace omptarget
