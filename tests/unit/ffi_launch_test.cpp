// callWithPointerArgs (src/plugins/host/ffi_launch.h), the host device's
// call of an outlined region: each parameter is (char *)Args[I] +
// Offsets[I], and with EnvironmentFirst (a kernel of clang 15 and later) a
// null launch environment comes first; through a direct call up to 16
// parameters, through libffi beyond (a prepared cif up to 64, one per call
// after that).
#include <gtest/gtest.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "ffi_launch.h"

namespace {

std::vector<void *> Seen;

template <size_t>
using Ptr = void *;

template <size_t... Is>
void recordParams(Ptr<Is>... Params) {
  Seen = {Params...};
}

template <size_t... Is>
void *recorderOf(std::index_sequence<Is...>) {
  return reinterpret_cast<void *>(&recordParams<Is...>);
}

template <size_t NumArgs, bool EnvironmentFirst>
void checkCall() {
  constexpr size_t NumParams = NumArgs + (EnvironmentFirst ? 1 : 0);
  void *Entry = recorderOf(std::make_index_sequence<NumParams>{});
  std::vector<char> Storage(NumArgs * 16 + 16);
  std::vector<void *> Args(NumArgs + 1);
  std::vector<ptrdiff_t> Offsets(NumArgs + 1);
  for (size_t I = 0; I < NumArgs; ++I) {
    Args[I] = &Storage[I * 16];
    Offsets[I] = static_cast<ptrdiff_t>(I % 3);  // a base and its begin's offset
  }
  Seen.clear();
  omptarget::Status S =
      omptarget::host::callWithPointerArgs(Entry, Args.data(), Offsets.data(),
                                           static_cast<int32_t>(NumArgs), EnvironmentFirst);
  ASSERT_TRUE(S) << S.error().message();
  ASSERT_EQ(Seen.size(), NumParams)
      << NumArgs << " arguments, environment first " << EnvironmentFirst;
  const size_t Lead = EnvironmentFirst ? 1 : 0;
  if (EnvironmentFirst) {
    EXPECT_EQ(Seen[0], nullptr) << "the host has no launch environment";
  }
  for (size_t I = 0; I < NumArgs; ++I)
    EXPECT_EQ(Seen[I + Lead], &Storage[I * 16] + I % 3) << "argument " << I << " of " << NumArgs;
}

TEST(CallWithPointerArgs, DirectCalls) {
  checkCall<0, false>();
  checkCall<1, false>();
  checkCall<16, false>();
  checkCall<0, true>();
  checkCall<3, true>();
  checkCall<15, true>();  // 16 parameters: the last direct one
}

TEST(CallWithPointerArgs, ThroughLibffi) {
  checkCall<17, false>();
  checkCall<16, true>();  // 17 parameters
  checkCall<64, false>();
  checkCall<63, true>();  // 64: the last prepared cif
  checkCall<65, false>();
  checkCall<64, true>();  // 65: a cif for this call
}

TEST(CallWithPointerArgs, NegativeCountIsAnError) {
  omptarget::Status S = omptarget::host::callWithPointerArgs(nullptr, nullptr, nullptr, -1);
  ASSERT_FALSE(S);
  EXPECT_NE(S.error().message().find("-1 arguments"), std::string::npos) << S.error().message();
}

}  // namespace
