#include "offload_policy.h"

#include <array>
#include <utility>

#include "env.h"

namespace omptarget::core {

std::optional<OffloadPolicy> parseOffloadPolicy(std::string_view Text) {
  static constexpr std::array<std::pair<std::string_view, OffloadPolicy>, 3> kNames = {{
      {"mandatory", OffloadPolicy::Mandatory},
      {"disabled", OffloadPolicy::Disabled},
      {"default", OffloadPolicy::Default},
  }};
  for (const auto &[Name, Policy] : kNames)
    if (env::equalsIgnoringCase(Text, Name)) return Policy;
  return std::nullopt;
}

}  // namespace omptarget::core
