// One value-or-error type for every fallible call in the project.
//
// An Error carries a human-readable message; Expected<T> holds either a T or
// an Error. Errors never cross the C ABI as exceptions: the exporters turn
// them into OFFLOAD_FAIL plus a printed message.
#pragma once

#include <cstdarg>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace omptarget {

class Error {
 public:
  explicit Error(std::string Message)
      : Message_(std::make_unique<const std::string>(std::move(Message))) {}
  Error(const Error &Other) { *this = Other; }
  Error &operator=(const Error &Other) {
    if (this != &Other)
      Message_ = Other.Message_ ? std::make_unique<const std::string>(*Other.Message_) : nullptr;
    return *this;
  }
  Error(Error &&) noexcept = default;
  Error &operator=(Error &&) noexcept = default;

  const std::string &message() const { return Message_ ? *Message_ : emptyMessage(); }

 private:
  template <typename T>
  friend class Expected;
  friend class Status;
  Error() = default;  // "no error": only Status and Expected hold one
  bool isError() const { return Message_ != nullptr; }
  static const std::string &emptyMessage();

  // One pointer: a success (no error) is a null pointer, so Status and
  // Expected<T> cost one word more than their value and an untaken error
  // path costs a null test, on every layer a call crosses.
  std::unique_ptr<const std::string> Message_;
};

// printf-style construction of an Error.
Error makeError(const char *Format, ...) __attribute__((format(printf, 1, 2)));
std::string formatString(const char *Format, ...) __attribute__((format(printf, 1, 2)));
std::string formatStringV(const char *Format, va_list Args);

// A T or an Error (the value in a union beside the Error's pointer).
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T Value) : HasValue_(true) { new (&Value_) T(std::move(Value)); }
  Expected(Error E) : Error_(std::move(E)) {}
  Expected(Expected &&Other) noexcept(std::is_nothrow_move_constructible_v<T>)
      : Error_(std::move(Other.Error_)), HasValue_(Other.HasValue_) {
    if (HasValue_) new (&Value_) T(std::move(Other.Value_));
  }
  Expected(const Expected &Other) : Error_(Other.Error_), HasValue_(Other.HasValue_) {
    if (HasValue_) new (&Value_) T(Other.Value_);
  }
  Expected &operator=(Expected Other) noexcept(std::is_nothrow_move_constructible_v<T>) {
    destroyValue();
    Error_ = std::move(Other.Error_);
    HasValue_ = Other.HasValue_;
    if (HasValue_) new (&Value_) T(std::move(Other.Value_));
    return *this;
  }
  ~Expected() { destroyValue(); }

  explicit operator bool() const { return HasValue_; }
  T &operator*() { return Value_; }
  const T &operator*() const { return Value_; }
  T *operator->() { return &Value_; }
  const Error &error() const { return Error_; }
  // Leaves this an error with an empty message.
  Error takeError() { return std::move(Error_); }

 private:
  void destroyValue() {
    if constexpr (!std::is_trivially_destructible_v<T>)
      if (HasValue_) Value_.~T();
  }

  union {
    T Value_;
  };
  Error Error_;
  bool HasValue_ = false;
};

// Expected<void>: success or an Error, one pointer wide.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error E) : Error_(std::move(E)) {
    if (!Error_.isError()) Error_ = Error(std::string());
  }
  static Status success() { return Status(); }

  explicit operator bool() const { return !Error_.isError(); }
  const Error &error() const { return Error_; }
  // Leaves this an error with an empty message, as a moved-from one was.
  Error takeError() {
    Error Taken = std::move(Error_);
    Error_ = Error(std::string());
    return Taken;
  }

 private:
  Error Error_;
};

}  // namespace omptarget
