#include "error.h"

#include <cstdio>
#include <vector>

namespace omptarget {

const std::string &Error::emptyMessage() {
  static const std::string Empty;
  return Empty;
}

std::string formatStringV(const char *Format, va_list Args) {
  va_list Copy;
  va_copy(Copy, Args);
  int Needed = std::vsnprintf(nullptr, 0, Format, Copy);
  va_end(Copy);
  if (Needed <= 0) return {};
  std::string Result(static_cast<size_t>(Needed), '\0');
  std::vsnprintf(Result.data(), Result.size() + 1, Format, Args);
  return Result;
}

std::string formatString(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::string Result = formatStringV(Format, Args);
  va_end(Args);
  return Result;
}

Error makeError(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::string Result = formatStringV(Format, Args);
  va_end(Args);
  return Error(std::move(Result));
}

}  // namespace omptarget
