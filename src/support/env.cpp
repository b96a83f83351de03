#include "env.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace omptarget::env {

std::optional<std::string> getString(const char *Name) {
  const char *Value = std::getenv(Name);
  if (!Value) return std::nullopt;
  return std::string(Value);
}

bool equalsIgnoringCase(std::string_view Text, std::string_view Lower) {
  if (Text.size() != Lower.size()) return false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C >= 'A' && C <= 'Z') C = static_cast<char>(C - 'A' + 'a');
    if (C != Lower[I]) return false;
  }
  return true;
}

std::optional<int64_t> parseInt(const std::string &Text) {
  size_t Begin = Text.find_first_not_of(" \t");
  size_t End = Text.find_last_not_of(" \t");
  if (Begin == std::string::npos) return std::nullopt;
  std::string Trimmed = Text.substr(Begin, End - Begin + 1);
  // A sign or a digit first: strtoll would skip other white space ("\r5"
  // was 5, "5\r" an error; found by fuzz/env_parse.cpp).
  if (!std::isdigit(static_cast<unsigned char>(Trimmed[0])) && Trimmed[0] != '-' &&
      Trimmed[0] != '+')
    return std::nullopt;
  errno = 0;
  char *Stop = nullptr;
  // Decimal (leading zeros allowed, as LLVM reads these variables) or 0x-hex.
  size_t Digits = (Trimmed[0] == '-' || Trimmed[0] == '+') ? 1 : 0;
  bool Hex = Trimmed.size() > Digits + 1 && Trimmed[Digits] == '0' &&
             (Trimmed[Digits + 1] == 'x' || Trimmed[Digits + 1] == 'X');
  long long Value = std::strtoll(Trimmed.c_str(), &Stop, Hex ? 16 : 10);
  // The whole text: strtoll stops at a NUL, which a std::string may hold
  // before its end (found by fuzz/env_parse.cpp: "5\0x" was 5).
  if (errno != 0 || Stop == Trimmed.c_str() || Stop != Trimmed.c_str() + Trimmed.size())
    return std::nullopt;
  return static_cast<int64_t>(Value);
}

int64_t getInt(const char *Name, int64_t Default, int64_t Min, int64_t Max) {
  auto Text = getString(Name);
  if (!Text) return Default;
  auto Value = parseInt(*Text);
  if (!Value || *Value < Min || *Value > Max) {
    std::fprintf(stderr,
                 "Libomptarget warning: ignoring %s='%s': expected an integer in [%lld, %lld]; "
                 "using %lld\n",
                 Name, Text->c_str(), static_cast<long long>(Min), static_cast<long long>(Max),
                 static_cast<long long>(Default));
    return Default;
  }
  return *Value;
}

uint32_t getFlags(const char *Name, uint32_t Default) {
  return flagsFromInt(getInt(Name, Default, kFlagsMin, kFlagsMax));
}

int64_t CachedInt::read() const {
  int64_t Unread = kUnread;
  Value_.compare_exchange_strong(Unread, getInt(Name_, Default_, Min_, Max_));
  return Value_.load(std::memory_order_relaxed);
}

}  // namespace omptarget::env
