// Runs an operation returning Status for a C entry point: OFFLOAD_SUCCESS, or
// the error (or a stray exception) written as one "TARGET <name> RTL error:"
// line by the plugin and OFFLOAD_FAIL. No exception leaves it. The failure
// paths are out of line (cold), so that callers which inline everything
// else (the direct table) keep only the success path.
#pragma once

#include <exception>

#include "generic_plugin.h"

namespace omptarget::plugin {

namespace detail {
[[gnu::cold, gnu::noinline]] inline int32_t reportFailed(const GenericPlugin &Plugin,
                                                         const Error &E) noexcept {
  Plugin.reportError(E);
  return abi::kOffloadFail;
}
// What: the exception's what(), or nullptr for one that is no std::exception.
[[gnu::cold, gnu::noinline]] inline int32_t reportInternal(const GenericPlugin &Plugin,
                                                           const char *Call,
                                                           const char *What) noexcept {
  try {
    Plugin.reportError(What ? makeError("%s: internal error: %s", Call, What)
                            : makeError("%s: internal error", Call));
  } catch (...) {
  }
  return abi::kOffloadFail;
}
}  // namespace detail

template <typename FnT>
int32_t reportFailures(const GenericPlugin &Plugin, const char *Call, FnT &&Body) noexcept {
  try {
    Status S = Body();
    if (S) [[likely]]
      return abi::kOffloadSuccess;
    return detail::reportFailed(Plugin, S.error());
  } catch (const std::exception &E) {
    return detail::reportInternal(Plugin, Call, E.what());
  } catch (...) {
    return detail::reportInternal(Plugin, Call, nullptr);
  }
}

}  // namespace omptarget::plugin
