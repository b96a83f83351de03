// OMP_TARGET_OFFLOAD's parser (src/core/offload_policy.h): the three names
// in any case, nothing else (blanks and prefixes included).
#include "offload_policy.h"

#include <gtest/gtest.h>

namespace omptarget::core {
namespace {

TEST(OffloadPolicyTest, KnowsTheThreeNamesInAnyCase) {
  EXPECT_EQ(parseOffloadPolicy("MANDATORY"), OffloadPolicy::Mandatory);
  EXPECT_EQ(parseOffloadPolicy("mandatory"), OffloadPolicy::Mandatory);
  EXPECT_EQ(parseOffloadPolicy("Disabled"), OffloadPolicy::Disabled);
  EXPECT_EQ(parseOffloadPolicy("dEfAuLt"), OffloadPolicy::Default);
}

TEST(OffloadPolicyTest, RejectsEverythingElse) {
  for (const char *Text : {"", " mandatory", "mandatory ", "mandator", "mandatoryy", "disable", "0",
                           "true", "DEFAULT\t", "mandatory\n"})
    EXPECT_EQ(parseOffloadPolicy(Text), std::nullopt) << "'" << Text << "'";
  // A NUL inside the text is not the end of it.
  EXPECT_EQ(parseOffloadPolicy(std::string_view("default\0x", 9)), std::nullopt);
}

}  // namespace
}  // namespace omptarget::core
