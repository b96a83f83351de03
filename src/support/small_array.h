// SmallArray<T, N>: a growable array of trivially copyable T whose first N
// elements live inside the object, in raw storage until written (no element
// is constructed up front, default member initializers included). The
// per-construct lists (kernel arguments, offsets, device addresses, deferred
// drops) use it: no allocator object to set up and tear down, no zeroing,
// and no heap for the usual handful of arguments.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace omptarget {

template <typename T, size_t N>
class SmallArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  // Room for Capacity elements without growing.
  explicit SmallArray(size_t Capacity = 0) { reserve(Capacity); }
  SmallArray(const SmallArray &) = delete;
  SmallArray &operator=(const SmallArray &) = delete;

  void reserve(size_t Capacity) {
    if (Capacity <= Capacity_) return;
    std::vector<T> Bigger(Capacity);
    std::copy(Data_, Data_ + Size_, Bigger.begin());
    Heap_ = std::move(Bigger);
    Data_ = Heap_.data();
    Capacity_ = Capacity;
  }
  void push_back(const T &Value) {
    if (Size_ == Capacity_) reserve(Capacity_ * 2);
    std::construct_at(Data_ + Size_++, Value);
  }
  // Size Count, every element Value.
  void assign(size_t Count, const T &Value) {
    reserve(Count);
    std::uninitialized_fill_n(Data_, Count, Value);
    Size_ = Count;
  }
  // Adds Count elements copied from First.
  void append(const T *First, size_t Count) {
    reserve(Size_ + Count);
    for (size_t I = 0; I < Count; ++I) std::construct_at(Data_ + Size_ + I, First[I]);
    Size_ += Count;
  }
  T &operator[](size_t I) { return Data_[I]; }
  T *data() { return Data_; }
  T *begin() { return Data_; }
  T *end() { return Data_ + Size_; }
  size_t size() const { return Size_; }

 private:
  T *inlineData() { return std::launder(reinterpret_cast<T *>(Inline_)); }

  alignas(T) unsigned char Inline_[N * sizeof(T)];
  std::vector<T> Heap_;
  T *Data_ = inlineData();
  size_t Size_ = 0;
  size_t Capacity_ = N;
};

}  // namespace omptarget
