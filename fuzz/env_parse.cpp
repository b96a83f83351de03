// Fuzz target: the parsing of environment variables (src/support/env.h):
// parseInt, getInt, getFlags and env::CachedInt, and, where the CUDA plugin
// is built, its OMPTARGET_CUDA_SYNC_MODE parser parseSyncMode
// (cuda_sync_mode.h), and the core's OMP_TARGET_OFFLOAD parser
// parseOffloadPolicy (offload_policy.h). The input gives a default, a range
// and the text; the text is set as the value of a variable of this
// harness's own (FUZZ_ENV_PARSE_VALUE) for the readers.
//
// Asserted, against the documented grammar (blanks, i.e. spaces and tabs,
// around an optional sign and decimal digits, or 0x / 0X and hex digits;
// the value must fit an int64_t):
//  - parseInt answers exactly the grammar's value, or nothing;
//  - getInt answers the value when it lies in [Min, Max], else the default
//    (with a warning, which goes to /dev/null here); an unset variable
//    answers the default;
//  - getFlags answers the value's 32-bit pattern for a value in
//    [INT32_MIN, UINT32_MAX], else the default;
//  - a CachedInt answers what getInt does, keeps it, and set() overrides it
//    (with any value but INT64_MIN, its mark of a value not read yet);
//  - parseSyncMode knows auto, spin, yield and blocking in any case and
//    nothing else; parseOffloadPolicy knows mandatory, disabled and default
//    in any case and nothing else.
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <fuzzer/FuzzedDataProvider.h>

#include "env.h"
#include "fuzz_check.h"
#include "offload_policy.h"
#ifdef OMPTARGET_FUZZ_HAVE_CUDA
#include "cuda_sync_mode.h"
#endif

using namespace omptarget;

namespace {

constexpr const char *kName = "FUZZ_ENV_PARSE_VALUE";

// The grammar's value of Text, or nothing.
std::optional<int64_t> expectedInt(std::string_view Text) {
  size_t Begin = Text.find_first_not_of(" \t");
  if (Begin == std::string_view::npos) return std::nullopt;
  Text = Text.substr(Begin, Text.find_last_not_of(" \t") - Begin + 1);
  bool Negative = false;
  if (Text[0] == '+' || Text[0] == '-') {
    Negative = Text[0] == '-';
    Text.remove_prefix(1);
  }
  unsigned Base = 10;
  if (Text.size() > 2 && Text[0] == '0' && (Text[1] == 'x' || Text[1] == 'X')) {
    Base = 16;
    Text.remove_prefix(2);
  }
  if (Text.empty()) return std::nullopt;
  constexpr uint64_t kMagnitudeLimit = uint64_t{1} << 63;  // -INT64_MIN
  uint64_t Magnitude = 0;
  for (char C : Text) {
    unsigned Digit;
    if (C >= '0' && C <= '9')
      Digit = static_cast<unsigned>(C - '0');
    else if (Base == 16 && C >= 'a' && C <= 'f')
      Digit = static_cast<unsigned>(C - 'a' + 10);
    else if (Base == 16 && C >= 'A' && C <= 'F')
      Digit = static_cast<unsigned>(C - 'A' + 10);
    else
      return std::nullopt;
    if (Magnitude > (kMagnitudeLimit - Digit) / Base) return std::nullopt;
    Magnitude = Magnitude * Base + Digit;
  }
  if (Negative) return Magnitude == kMagnitudeLimit ? INT64_MIN : -static_cast<int64_t>(Magnitude);
  if (Magnitude == kMagnitudeLimit) return std::nullopt;
  return static_cast<int64_t>(Magnitude);
}

// The readers' warnings go to /dev/null while they run; sanitizer reports
// keep the real stderr (LLVMFuzzerInitialize).
int RealStderr = -1, DevNull = -1;
struct QuietStderr {
  QuietStderr() {
    std::fflush(stderr);
    dup2(DevNull, 2);
  }
  ~QuietStderr() {
    std::fflush(stderr);
    dup2(RealStderr, 2);
  }
};

std::string lowerCase(std::string_view Text) {
  std::string Lower;
  for (char C : Text) Lower += (C >= 'A' && C <= 'Z') ? static_cast<char>(C - 'A' + 'a') : C;
  return Lower;
}

void checkOffloadPolicy(std::string_view Text) {
  using core::OffloadPolicy;
  const std::string Lower = lowerCase(Text);
  std::optional<OffloadPolicy> Expected;
  if (Lower == "mandatory") Expected = OffloadPolicy::Mandatory;
  if (Lower == "disabled") Expected = OffloadPolicy::Disabled;
  if (Lower == "default") Expected = OffloadPolicy::Default;
  FUZZ_CHECK(core::parseOffloadPolicy(Text) == Expected);
}

#ifdef OMPTARGET_FUZZ_HAVE_CUDA
void checkSyncMode(std::string_view Text) {
  using cuda::SyncMode;
  const std::string Lower = lowerCase(Text);
  std::optional<SyncMode> Expected;
  if (Lower == "auto") Expected = SyncMode::Auto;
  if (Lower == "spin") Expected = SyncMode::Spin;
  if (Lower == "yield") Expected = SyncMode::Yield;
  if (Lower == "blocking") Expected = SyncMode::Blocking;
  FUZZ_CHECK(cuda::parseSyncMode(Text) == Expected);
}
#endif

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  RealStderr = dup(2);
  DevNull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (RealStderr < 0 || DevNull < 0) std::abort();
  __sanitizer_set_report_fd(reinterpret_cast<void *>(static_cast<intptr_t>(RealStderr)));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  const auto Default = In.ConsumeIntegral<int64_t>();
  // Mostly ranges around the small values variables take.
  auto Min = In.ConsumeBool() ? In.ConsumeIntegral<int64_t>() : In.ConsumeIntegralInRange<int64_t>(-4, 4);
  auto Max = In.ConsumeBool() ? In.ConsumeIntegral<int64_t>() : In.ConsumeIntegralInRange<int64_t>(0, 1 << 20);
  const auto FlagsDefault = In.ConsumeIntegral<uint32_t>();
  const std::string Text = In.ConsumeRemainingBytesAsString();

  const std::optional<int64_t> Value = expectedInt(Text);
  FUZZ_CHECK(env::parseInt(Text) == Value);
  checkOffloadPolicy(Text);
#ifdef OMPTARGET_FUZZ_HAVE_CUDA
  checkSyncMode(Text);
#endif

  // The environment holds the text up to its first NUL.
  const std::string CText = Text.c_str();
  const std::optional<int64_t> CValue = expectedInt(CText);
  if (setenv(kName, CText.c_str(), 1) != 0) std::abort();
  // Any value but INT64_MIN, CachedInt's mark of a value not read yet.
  const int64_t Override = Default == INT64_MIN + 1 ? 0 : Default ^ 1;
  int64_t Int, Cached, CachedAgain, CachedSet;
  uint32_t Flags;
  {
    QuietStderr Quiet;
    Int = env::getInt(kName, Default, Min, Max);
    Flags = env::getFlags(kName, FlagsDefault);
    env::CachedInt Variable(kName, Default, Min, Max);
    Cached = Variable.get();
    CachedAgain = Variable.get();
    Variable.set(Override);
    CachedSet = Variable.get();
  }
  FUZZ_CHECK(Int == (CValue && *CValue >= Min && *CValue <= Max ? *CValue : Default));
  FUZZ_CHECK(Flags == (CValue && *CValue >= env::kFlagsMin && *CValue <= env::kFlagsMax
                           ? static_cast<uint32_t>(*CValue)
                           : FlagsDefault));
  FUZZ_CHECK(Cached == Int && CachedAgain == Int && CachedSet == Override);

  unsetenv(kName);
  FUZZ_CHECK(env::getInt(kName, Default, Min, Max) == Default);
  FUZZ_CHECK(!env::getString(kName));
  return 0;
}
