// Debug trace (LIBOMPTARGET_DEBUG) and user-facing messages in LLVM 14's format.
//
// The trace needs no special build: LIBOMPTARGET_DEBUG=1 (or higher) enables
// it at run time. Messages users' scripts match keep LLVM's prefixes:
// "Libomptarget message:", "Libomptarget error:", "Libomptarget fatal error N:".
#pragma once

#include <cinttypes>
#include <cstdint>

#include "env.h"

namespace omptarget::debug {

namespace detail {
extern env::CachedInt Level;
}  // namespace detail

// Level from LIBOMPTARGET_DEBUG, read once (asked on every traced step).
inline int level() { return static_cast<int>(detail::Level.get()); }

// Trace line "<Component> --> <text>" on stderr when the debug level is >= 1.
void trace(const char *Component, const char *Format, ...) __attribute__((format(printf, 2, 3)));

void message(const char *Format, ...) __attribute__((format(printf, 1, 2)));
void error(const char *Format, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *Format, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void fatal(int Code, const char *Format, ...) __attribute__((format(printf, 2, 3)));
// A function fatal() calls after its message and before it aborts (the
// core's profile writes its file there); nullptr: none. Set once.
void setFatalHook(void (*Hook)());

}  // namespace omptarget::debug

// LLVM's pointer format in messages: 0x followed by 16 zero-padded hex
// digits, e.g. debug::error("at " OMPT_PTR_FMT, OMPT_PTR(P)).
#define OMPT_PTR_FMT "0x%016" PRIxPTR
#define OMPT_PTR(P) (reinterpret_cast<uintptr_t>(P))

#define OMPT_TRACE(Component, ...)                                                          \
  do {                                                                                      \
    if (::omptarget::debug::level() > 0) ::omptarget::debug::trace(Component, __VA_ARGS__); \
  } while (0)
