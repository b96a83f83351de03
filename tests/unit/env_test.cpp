// env::parseInt / env::getInt: strict parsing, defaults on anything malformed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "env.h"

using omptarget::env::getInt;
using omptarget::env::parseInt;

namespace {

TEST(EnvParseInt, Decimal) {
  EXPECT_EQ(parseInt("0"), 0);
  EXPECT_EQ(parseInt("42"), 42);
  EXPECT_EQ(parseInt("-17"), -17);
  EXPECT_EQ(parseInt("+5"), 5);
  EXPECT_EQ(parseInt("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parseInt("-9223372036854775808"), INT64_MIN);
}

TEST(EnvParseInt, Hex) {
  EXPECT_EQ(parseInt("0x10"), 16);
  EXPECT_EQ(parseInt("0X1f"), 31);
  EXPECT_EQ(parseInt("0x7fffffffffffffff"), INT64_MAX);
  EXPECT_EQ(parseInt("-0x10"), -16);
  EXPECT_EQ(parseInt("0x"), std::nullopt);
  EXPECT_EQ(parseInt("0xg"), std::nullopt);
}

// The header promises "decimal, or hex with 0x": a leading zero is decimal
// (as LIBOMPTARGET_* variables are read by LLVM 14, with std::stoi base 10).
TEST(EnvParseInt, LeadingZeroIsDecimal) {
  EXPECT_EQ(parseInt("010"), 10);
  EXPECT_EQ(parseInt("08"), 8);
  EXPECT_EQ(parseInt("00"), 0);
}

TEST(EnvParseInt, Whitespace) {
  EXPECT_EQ(parseInt("  7"), 7);
  EXPECT_EQ(parseInt("7  "), 7);
  EXPECT_EQ(parseInt("\t7\t"), 7);
  EXPECT_EQ(parseInt(""), std::nullopt);
  EXPECT_EQ(parseInt("   "), std::nullopt);
  EXPECT_EQ(parseInt("1 2"), std::nullopt);
  EXPECT_EQ(parseInt("- 1"), std::nullopt);
}

TEST(EnvParseInt, Garbage) {
  for (const char *Text : {"abc", "12abc", "abc12", "1.5", "1e3", "--1", "+-1", "0x10z", "one"})
    EXPECT_EQ(parseInt(Text), std::nullopt) << Text;
}

// Found by fuzz/env_parse.cpp (its corpus keeps the inputs as
// crash-nul-in-text and crash-leading-cr): strtoll stopped at a NUL inside
// the text and skipped white space other than blanks before it.
TEST(EnvParseInt, OnlyTheGrammar) {
  using namespace std::string_literals;
  EXPECT_EQ(parseInt("5\0x"s), std::nullopt);
  EXPECT_EQ(parseInt("-0x8000000000000000\0"s), std::nullopt);
  EXPECT_EQ(parseInt("\0"s), std::nullopt);
  for (const char *Text : {"\r5", "\n5", "\v5", "\f5", " \n-5", "\t\r0x10", "5\r", "5\n"})
    EXPECT_EQ(parseInt(Text), std::nullopt) << Text;
  EXPECT_EQ(parseInt(" \t-5\t "), -5);  // blanks around are fine
}

TEST(EnvParseInt, Overflow) {
  EXPECT_EQ(parseInt("9223372036854775808"), std::nullopt);
  EXPECT_EQ(parseInt("-9223372036854775809"), std::nullopt);
  EXPECT_EQ(parseInt("0xffffffffffffffff"), std::nullopt);
  EXPECT_EQ(parseInt("99999999999999999999999999"), std::nullopt);
}

class EnvGetInt : public ::testing::Test {
 protected:
  static constexpr const char *kVar = "OMPTARGET_UNIT_TEST_INT";
  void set(const char *V) { ASSERT_EQ(setenv(kVar, V, 1), 0); }
  void TearDown() override { unsetenv(kVar); }
};

TEST_F(EnvGetInt, UnsetGivesDefault) {
  unsetenv(kVar);
  EXPECT_EQ(getInt(kVar, 123), 123);
}

TEST_F(EnvGetInt, ValidValues) {
  set("77");
  EXPECT_EQ(getInt(kVar, 1), 77);
  set(" 0x20 ");
  EXPECT_EQ(getInt(kVar, 1), 32);
  set("-3");
  EXPECT_EQ(getInt(kVar, 1), -3);
}

TEST_F(EnvGetInt, MalformedGivesDefault) {
  for (const char *V : {"", "x", "12x", "99999999999999999999", "0x"}) {
    set(V);
    testing::internal::CaptureStderr();
    EXPECT_EQ(getInt(kVar, 5), 5) << "'" << V << "'";
    std::string Err = testing::internal::GetCapturedStderr();
    EXPECT_NE(Err.find(kVar), std::string::npos) << "warning names the variable: " << Err;
  }
}

TEST_F(EnvGetInt, RangeIsInclusive) {
  set("10");
  EXPECT_EQ(getInt(kVar, 1, 0, 10), 10);
  EXPECT_EQ(getInt(kVar, 1, 10, 20), 10);
  testing::internal::CaptureStderr();
  EXPECT_EQ(getInt(kVar, 1, 0, 9), 1);
  EXPECT_EQ(getInt(kVar, 2, 11, 20), 2);
  set("-1");
  EXPECT_EQ(getInt(kVar, 3, 0, 100), 3);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("[0, 9]"), std::string::npos) << Err;
}

}  // namespace

namespace {

TEST(EnvCachedInt, ReadsOnFirstUseThenKeepsTheValueUntilSet) {
  ::setenv("OMPTARGET_TEST_CACHED_INT", "7", 1);
  omptarget::env::CachedInt V("OMPTARGET_TEST_CACHED_INT", 3, -1, 100);
  EXPECT_EQ(V.get(), 7);
  ::setenv("OMPTARGET_TEST_CACHED_INT", "9", 1);
  EXPECT_EQ(V.get(), 7) << "read once, not on every get()";
  V.set(-1);
  EXPECT_EQ(V.get(), -1);
  ::unsetenv("OMPTARGET_TEST_CACHED_INT");
}

TEST(EnvCachedInt, OutOfRangeOrUnsetGivesTheDefault) {
  ::setenv("OMPTARGET_TEST_CACHED_INT", "101", 1);
  omptarget::env::CachedInt Bad("OMPTARGET_TEST_CACHED_INT", 3, -1, 100);
  EXPECT_EQ(Bad.get(), 3);
  ::unsetenv("OMPTARGET_TEST_CACHED_INT");
  omptarget::env::CachedInt Unset("OMPTARGET_TEST_CACHED_INT", 4, 0, 100);
  EXPECT_EQ(Unset.get(), 4);
}

}  // namespace

namespace {

// LIBOMPTARGET_INFO is a bit mask: LLVM's documentation says -1 for
// everything, and LLVM reads it with std::stoi, so every negative int is its
// 32-bit pattern. Both the core and the plugins read it with getFlags.
class EnvGetFlags : public ::testing::Test {
 protected:
  static constexpr const char *kVar = "OMPTARGET_UNIT_TEST_FLAGS";
  void set(const char *V) { ASSERT_EQ(setenv(kVar, V, 1), 0); }
  void TearDown() override { unsetenv(kVar); }
};

TEST_F(EnvGetFlags, NegativeValuesAreTheirBitPattern) {
  using omptarget::env::getFlags;
  testing::internal::CaptureStderr();
  set("-1");
  EXPECT_EQ(getFlags(kVar), 0xffffffffu);
  set("-2");
  EXPECT_EQ(getFlags(kVar), 0xfffffffeu);
  set("-2147483648");
  EXPECT_EQ(getFlags(kVar), 0x80000000u);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "valid values are not warned about";
}

TEST_F(EnvGetFlags, OtherFormsStillWork) {
  using omptarget::env::getFlags;
  unsetenv(kVar);
  EXPECT_EQ(getFlags(kVar), 0u);
  EXPECT_EQ(getFlags(kVar, 5), 5u);
  set("0x20");
  EXPECT_EQ(getFlags(kVar), 0x20u);
  set("4294967295");
  EXPECT_EQ(getFlags(kVar), 0xffffffffu);
  set(" 33 ");
  EXPECT_EQ(getFlags(kVar), 33u);
}

TEST_F(EnvGetFlags, OutsideThe32BitRangeOrMalformedGivesTheDefault) {
  using omptarget::env::getFlags;
  for (const char *V : {"4294967296", "-2147483649", "all", "-1x", ""}) {
    set(V);
    testing::internal::CaptureStderr();
    EXPECT_EQ(getFlags(kVar, 7), 7u) << "'" << V << "'";
    std::string Err = testing::internal::GetCapturedStderr();
    EXPECT_NE(Err.find(kVar), std::string::npos) << "warning names the variable: " << Err;
  }
}

}  // namespace
