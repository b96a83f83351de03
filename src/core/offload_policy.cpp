#include "offload_policy.h"

#include <array>
#include <utility>

namespace omptarget::core {

namespace {
bool equalsIgnoringCase(std::string_view Text, std::string_view Lower) {
  if (Text.size() != Lower.size()) return false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C >= 'A' && C <= 'Z') C = static_cast<char>(C - 'A' + 'a');
    if (C != Lower[I]) return false;
  }
  return true;
}
}  // namespace

std::optional<OffloadPolicy> parseOffloadPolicy(std::string_view Text) {
  static constexpr std::array<std::pair<std::string_view, OffloadPolicy>, 3> kNames = {{
      {"mandatory", OffloadPolicy::Mandatory},
      {"disabled", OffloadPolicy::Disabled},
      {"default", OffloadPolicy::Default},
  }};
  for (const auto &[Name, Policy] : kNames)
    if (equalsIgnoringCase(Text, Name)) return Policy;
  return std::nullopt;
}

}  // namespace omptarget::core
