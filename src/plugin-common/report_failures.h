// Runs an operation returning Status for a C entry point: OFFLOAD_SUCCESS, or
// the error (or a stray exception) written as one "TARGET <name> RTL error:"
// line by the plugin and OFFLOAD_FAIL. No exception leaves it.
#pragma once

#include <exception>

#include "generic_plugin.h"

namespace omptarget::plugin {

template <typename FnT>
int32_t reportFailures(const GenericPlugin &Plugin, const char *Call, FnT &&Body) noexcept {
  try {
    Status S = Body();
    if (S) [[likely]]
      return abi::kOffloadSuccess;
    Plugin.reportError(S.error());
  } catch (const std::exception &E) {
    Plugin.reportError(makeError("%s: internal error: %s", Call, E.what()));
  } catch (...) {
    Plugin.reportError(makeError("%s: internal error", Call));
  }
  return abi::kOffloadFail;
}

}  // namespace omptarget::plugin
