// Typed reads of environment variables. A malformed value never crashes: it
// is reported once (naming the variable and what was expected) and the
// default is used.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace omptarget::env {

std::optional<std::string> getString(const char *Name);

// Integer in decimal, or hex with 0x. Out-of-range or garbage → Default plus a warning.
int64_t getInt(const char *Name, int64_t Default, int64_t Min = INT64_MIN, int64_t Max = INT64_MAX);

// Parses an integer strictly; used by getInt and by the fuzz/unit tests.
std::optional<int64_t> parseInt(const std::string &Text);

}  // namespace omptarget::env
