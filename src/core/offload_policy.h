// OMP_TARGET_OFFLOAD: what the program asks of offloading, and the parser of
// the variable's value. The value is one of MANDATORY, DISABLED and DEFAULT,
// in any case, exactly (no blanks, nothing after it), as LLVM 14's runtime
// reads it; anything else answers nothing (the runtime warns and keeps the
// default). A pure function: the environment is read by the caller
// (Runtime's constructor), so the fuzz target fuzz/env_parse.cpp can call it.
#pragma once

#include <optional>
#include <string_view>

namespace omptarget::core {

enum class OffloadPolicy { Default, Mandatory, Disabled };

std::optional<OffloadPolicy> parseOffloadPolicy(std::string_view Text);

}  // namespace omptarget::core
