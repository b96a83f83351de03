// Typed reads of environment variables. A malformed value never crashes: it
// is reported once (naming the variable and what was expected) and the
// default is used.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace omptarget::env {

std::optional<std::string> getString(const char *Name);

// Integer in decimal, or hex with 0x. Out-of-range or garbage → Default plus a warning.
int64_t getInt(const char *Name, int64_t Default, int64_t Min = INT64_MIN, int64_t Max = INT64_MAX);

// Parses an integer strictly; used by getInt and by the fuzz/unit tests.
std::optional<int64_t> parseInt(const std::string &Text);

// Whether Text is the name Lower (lower case ASCII) in any case, exactly: how
// the variables whose values are names compare them (OMP_TARGET_OFFLOAD,
// OMPTARGET_CUDA_SYNC_MODE). ASCII only, whatever the program's locale.
bool equalsIgnoringCase(std::string_view Text, std::string_view Lower);

// A 32-bit flag word (LIBOMPTARGET_INFO): any integer getInt accepts in
// [kFlagsMin, kFlagsMax]; a negative one stands for its 32-bit two's
// complement pattern, so -1 sets every bit (LLVM reads the variable with
// std::stoi into an int and uses it as a mask). Malformed: Default, warned.
constexpr int64_t kFlagsMin = INT32_MIN;
constexpr int64_t kFlagsMax = UINT32_MAX;
constexpr uint32_t flagsFromInt(int64_t Value) { return static_cast<uint32_t>(Value); }
uint32_t getFlags(const char *Name, uint32_t Default = 0);

// An integer variable read with getInt on first use, then kept. Declared at
// namespace scope it is constant-initialized (no static guard), so get() is
// one relaxed load on the hot path: the debug and info levels are asked
// several times per construct. set() overrides the value (e.g. an API call).
class CachedInt {
 public:
  constexpr CachedInt(const char *Name, int64_t Default, int64_t Min, int64_t Max)
      : Name_(Name), Default_(Default), Min_(Min), Max_(Max) {}
  [[gnu::always_inline]] int64_t get() const {
    int64_t V = Value_.load(std::memory_order_relaxed);
    return V != kUnread ? V : read();
  }
  void set(int64_t V) { Value_.store(V, std::memory_order_relaxed); }

 private:
  // A variable whose value is INT64_MIN is simply read again on every get().
  static constexpr int64_t kUnread = INT64_MIN;
  int64_t read() const;  // the first reader's value wins

  const char *Name_;
  int64_t Default_, Min_, Max_;
  mutable std::atomic<int64_t> Value_{kUnread};
};

}  // namespace omptarget::env
