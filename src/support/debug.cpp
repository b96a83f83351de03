#include "debug.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "env.h"
#include "error.h"

namespace omptarget::debug {

namespace detail {
constinit env::CachedInt Level("LIBOMPTARGET_DEBUG", 0, 0, 1 << 30);
}  // namespace detail

namespace {
std::atomic<void (*)()> FatalHook{nullptr};

// Whole lines go out in one fputs so that threads do not interleave.
void emit(const std::string &Line) { std::fputs(Line.c_str(), stderr); }

std::string formatV(const char *Prefix, const char *Format, va_list Args) {
  std::string Line = Prefix;
  Line += formatStringV(Format, Args);
  if (Line.empty() || Line.back() != '\n') Line += '\n';
  return Line;
}
}  // namespace

void trace(const char *Component, const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::string Prefix = std::string(Component) + " --> ";
  emit(formatV(Prefix.c_str(), Format, Args));
  va_end(Args);
}

void message(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  emit(formatV("Libomptarget message: ", Format, Args));
  va_end(Args);
}

void error(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  emit(formatV("Libomptarget error: ", Format, Args));
  va_end(Args);
}

void warning(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  emit(formatV("Libomptarget warning: ", Format, Args));
  va_end(Args);
}

void setFatalHook(void (*Hook)()) { FatalHook.store(Hook, std::memory_order_release); }

void fatal(int Code, const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::string Prefix = "Libomptarget fatal error " + std::to_string(Code) + ": ";
  emit(formatV(Prefix.c_str(), Format, Args));
  va_end(Args);
  std::fflush(stderr);
  if (void (*Hook)() = FatalHook.load(std::memory_order_acquire)) Hook();
  std::abort();
}

}  // namespace omptarget::debug
