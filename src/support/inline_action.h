// InlineAction: a move-only `Status()` callable stored inside the object
// (no heap allocation), and InlineActionList: a list of them with inline
// room for the common case. Used for the post-synchronization actions of a
// construct, which run on every target region's hot path.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "error.h"

namespace omptarget {

class InlineAction {
 public:
  static constexpr size_t kCapacity = 48;

  InlineAction() = default;
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InlineAction>>>
  InlineAction(F &&Fn) {  // NOLINT: implicit from any callable, like std::function
    using T = std::decay_t<F>;
    static_assert(sizeof(T) <= kCapacity, "capture too large for InlineAction");
    static_assert(alignof(T) <= alignof(std::max_align_t));
    std::construct_at(reinterpret_cast<T *>(Storage_), std::forward<F>(Fn));
    Ops_ = &opsFor<T>;
  }
  InlineAction(InlineAction &&Other) noexcept { moveFrom(Other); }
  InlineAction &operator=(InlineAction &&Other) noexcept {
    if (this != &Other) {
      reset();
      moveFrom(Other);
    }
    return *this;
  }
  InlineAction(const InlineAction &) = delete;
  InlineAction &operator=(const InlineAction &) = delete;
  ~InlineAction() { reset(); }

  explicit operator bool() const { return Ops_ != nullptr; }
  Status operator()() { return Ops_->Invoke(Storage_); }

 private:
  struct Ops {
    Status (*Invoke)(void *);
    void (*MoveTo)(void *From, void *To);
    void (*Destroy)(void *);
  };
  template <typename T>
  static constexpr Ops opsFor = {[](void *P) { return (*static_cast<T *>(P))(); },
                                 [](void *From, void *To) {
                                   std::construct_at(static_cast<T *>(To),
                                                     std::move(*static_cast<T *>(From)));
                                   std::destroy_at(static_cast<T *>(From));
                                 },
                                 [](void *P) { std::destroy_at(static_cast<T *>(P)); }};

  void moveFrom(InlineAction &Other) {
    if (!Other.Ops_) return;
    Other.Ops_->MoveTo(Other.Storage_, Storage_);
    Ops_ = Other.Ops_;
    Other.Ops_ = nullptr;
  }
  void reset() {
    if (Ops_) Ops_->Destroy(Storage_);
    Ops_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char Storage_[kCapacity];
  const Ops *Ops_ = nullptr;
};

// Ordered list of actions; the first kInline live in the object, constructed
// only when pushed (an empty list costs nothing to create or destroy: one
// exists in every construct's AsyncInfo).
class InlineActionList {
 public:
  static constexpr size_t kInline = 6;
  InlineActionList() = default;
  InlineActionList(const InlineActionList &) = delete;
  InlineActionList &operator=(const InlineActionList &) = delete;
  ~InlineActionList() { clear(); }

  void push(InlineAction Action) {
    if (Size_ < kInline)
      std::construct_at(inlineSlot(Size_), std::move(Action));
    else
      Overflow_.push_back(std::move(Action));
    ++Size_;
  }
  bool empty() const { return Size_ == 0; }
  void clear() {
    if (Size_ == 0) return;  // the usual case: nothing was pushed
    for (size_t I = 0; I < Size_ && I < kInline; ++I) std::destroy_at(inlineSlot(I));
    Overflow_.clear();
    Size_ = 0;
  }
  // Runs every action in order (even after a failure) and clears the list;
  // returns the first failure.
  Status runAll() {
    if (Size_ == 0) return {};
    return runAllSlow();
  }

 private:
  Status runAllSlow() {
    Status Result;
    // Actions may push more actions; run until none remain.
    for (size_t I = 0; I < Size_; ++I) {
      InlineAction Action = std::move(I < kInline ? *inlineSlot(I) : Overflow_[I - kInline]);
      Status S = Action();
      if (!S && Result) Result = std::move(S);
    }
    clear();
    return Result;
  }
  InlineAction *inlineSlot(size_t I) {
    return std::launder(reinterpret_cast<InlineAction *>(Inline_ + I * sizeof(InlineAction)));
  }
  alignas(InlineAction) unsigned char Inline_[kInline * sizeof(InlineAction)];
  std::vector<InlineAction> Overflow_;
  size_t Size_ = 0;
};

}  // namespace omptarget
