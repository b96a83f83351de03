// One value-or-error type for every fallible call in the project.
//
// An Error carries a human-readable message; Expected<T> holds either a T or
// an Error. Errors never cross the C ABI as exceptions: the exporters turn
// them into OFFLOAD_FAIL plus a printed message.
#pragma once

#include <cstdarg>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace omptarget {

class Error {
 public:
  explicit Error(std::string Message) : Message_(std::move(Message)) {}
  const std::string &message() const { return Message_; }

 private:
  std::string Message_;
};

// printf-style construction of an Error.
Error makeError(const char *Format, ...) __attribute__((format(printf, 1, 2)));
std::string formatString(const char *Format, ...) __attribute__((format(printf, 1, 2)));
std::string formatStringV(const char *Format, va_list Args);

template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T Value) : Storage_(std::move(Value)) {}
  Expected(Error E) : Storage_(std::move(E)) {}

  explicit operator bool() const { return Storage_.index() == 0; }
  T &operator*() { return std::get<0>(Storage_); }
  const T &operator*() const { return std::get<0>(Storage_); }
  T *operator->() { return &std::get<0>(Storage_); }
  const Error &error() const { return std::get<1>(Storage_); }
  Error takeError() { return std::move(std::get<1>(Storage_)); }

 private:
  std::variant<T, Error> Storage_;
};

// Expected<void>: success or an Error. Success carries no string, so the
// hot path constructs and destroys it for free.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error E) : Error_(std::move(E)) {}
  static Status success() { return Status(); }

  explicit operator bool() const { return !Error_.has_value(); }
  const Error &error() const { return *Error_; }
  Error takeError() { return std::move(*Error_); }

 private:
  std::optional<Error> Error_;
};

}  // namespace omptarget
