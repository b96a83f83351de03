// The device runtime's static schedules (src/devicertl/loop_bounds.h), run on
// the host the way clang's generated loops use them: for every kind, loop
// type, bound and worker count, each iteration runs exactly once and exactly
// the worker that runs the last iteration is told so.
#include "../../src/devicertl/loop_bounds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <type_traits>
#include <vector>

namespace {
using namespace devrtl;

struct Share {
  std::vector<int64_t> Iterations;
  bool Last = false;
};

// Runs worker `Id`'s share the way clang's loop code does: a chunked
// schedule steps by Stride until the chunk starts past the loop's end; the
// others run [Lower, min(Upper, loop end)] once.
template <typename T, typename ST>
Share runShare(int32_t Kind, uint32_t Id, uint32_t Workers, T Lower, T Upper, ST Increment,
               ST Chunk) {
  T Lo = Lower, Hi = Upper;
  ST Stride = 0;
  int32_t Last = 0;
  staticBounds(Kind, Id, Workers, Lo, Hi, Stride, Increment, Chunk, Last);
  Share S;
  S.Last = Last != 0;
  bool Chunked =
      Chunk > 0 && (Kind == kSchedStaticChunked || Kind == kSchedDistributeStaticChunked ||
                    Kind == kSchedOrderedStaticChunked);
  // Wrap-free arithmetic in the loop's type (the simulation must not
  // overflow where clang's loop would not).
  auto step = [](T V, int64_t D) {
    return static_cast<T>(static_cast<uint64_t>(V) + static_cast<uint64_t>(D));
  };
  auto inRange = [&](T I, T End) { return Increment > 0 ? I <= End : I >= End; };
  const uint64_t StepSize =
      Increment > 0 ? static_cast<uint64_t>(Increment) : 0 - static_cast<uint64_t>(Increment);
  for (int Round = 0; Round < 100000; ++Round) {
    T End = Increment > 0 ? std::min(Hi, Upper) : std::max(Hi, Upper);
    if (!inRange(Lo, End)) break;
    for (T I = Lo;; I = step(I, Increment)) {
      S.Iterations.push_back(static_cast<int64_t>(I));
      uint64_t Left = Increment > 0 ? static_cast<uint64_t>(End) - static_cast<uint64_t>(I)
                                    : static_cast<uint64_t>(I) - static_cast<uint64_t>(End);
      if (Left < StepSize) break;
    }
    if (!Chunked) break;
    // Past the loop's end (or the type's edge) there is no further chunk.
    uint64_t Room =
        Increment > 0
            ? static_cast<uint64_t>(std::numeric_limits<T>::max()) - static_cast<uint64_t>(Lo)
            : static_cast<uint64_t>(Lo) - static_cast<uint64_t>(std::numeric_limits<T>::min());
    if (Room < (Increment > 0 ? static_cast<uint64_t>(Stride) : 0 - static_cast<uint64_t>(Stride)))
      break;
    Lo = step(Lo, Stride);
    Hi = step(Hi, Stride);
  }
  return S;
}

template <typename T, typename ST>
void checkSchedule(int32_t Kind, uint32_t Workers, T Lower, T Upper, ST Increment, ST Chunk) {
  SCOPED_TRACE(testing::Message() << "kind " << Kind << " workers " << Workers << " lower "
                                  << +Lower << " upper " << +Upper << " increment " << +Increment
                                  << " chunk " << +Chunk);
  std::map<int64_t, int> Runs;
  int LastWorkers = 0;
  int64_t Final = 0;
  uint64_t Trip = tripCount(Lower, Upper, Increment);
  if (Trip > 0)
    Final = static_cast<int64_t>(Lower) +
            static_cast<int64_t>(Trip - 1) * static_cast<int64_t>(Increment);
  for (uint32_t Id = 0; Id < Workers; ++Id) {
    Share S = runShare<T, ST>(Kind, Id, Workers, Lower, Upper, Increment, Chunk);
    for (int64_t I : S.Iterations) ++Runs[I];
    if (S.Last) {
      ++LastWorkers;
      EXPECT_NE(std::find(S.Iterations.begin(), S.Iterations.end(), Final), S.Iterations.end())
          << "worker " << Id << " is told it runs the last iteration but does not";
    }
  }
  EXPECT_EQ(Runs.size(), Trip);
  for (auto [I, N] : Runs) EXPECT_EQ(N, 1) << "iteration " << I;
  EXPECT_EQ(LastWorkers, Trip > 0 ? 1 : 0);
}

const int32_t kKinds[] = {kSchedStaticChunked,         kSchedStatic,
                          kSchedStaticBalancedChunked, kSchedDistributeStaticChunked,
                          kSchedDistributeStatic,      kSchedOrderedStaticChunked};

template <typename T, typename ST>
void sweep(T Base) {
  for (int32_t Kind : kKinds)
    for (uint32_t Workers : {1u, 2u, 3u, 7u, 32u})
      for (int Trip : {0, 1, 2, 5, 31, 32, 33, 100})
        for (ST Chunk : {ST(0), ST(1), ST(3), ST(8), ST(64)}) {
          // An empty unsigned loop from 0 cannot be written as bounds
          // (clang skips such a loop before its schedule is asked for).
          if (Trip == 0 && !std::is_signed_v<T> && Base == 0) continue;
          checkSchedule<T, ST>(Kind, Workers, Base, static_cast<T>(Base + Trip - 1), ST(1), Chunk);
        }
}

TEST(DeviceRtlLoopBounds, EveryScheduleCoversEachIterationOnce) {
  sweep<int32_t, int32_t>(0);
  sweep<int32_t, int32_t>(-17);
  sweep<uint32_t, int32_t>(0);
  sweep<uint32_t, int32_t>(1000);
  sweep<int64_t, int64_t>(0);
  sweep<int64_t, int64_t>(int64_t(1) << 40);
  sweep<uint64_t, int64_t>(0);
}

TEST(DeviceRtlLoopBounds, IncrementsOtherThanOne) {
  for (int32_t Kind : kKinds)
    for (uint32_t Workers : {1u, 3u, 8u})
      for (int32_t Chunk : {0, 1, 4}) {
        checkSchedule<int32_t, int32_t>(Kind, Workers, 0, 99, 3, Chunk);
        checkSchedule<int32_t, int32_t>(Kind, Workers, 50, -50, -1, Chunk);
        checkSchedule<int64_t, int64_t>(Kind, Workers, 10, -31, -7, Chunk);
      }
}

TEST(DeviceRtlLoopBounds, EmptySharesAtTheTypesEdgeStayEmpty) {
  // More workers than iterations, the loop ending at the type's largest
  // value: a worker with nothing to do must get Lower > Upper, not a wrapped
  // range.
  constexpr int32_t Max = std::numeric_limits<int32_t>::max();
  for (int32_t Kind : {kSchedStatic, kSchedDistributeStatic, kSchedStaticBalancedChunked}) {
    int32_t Lo = Max - 1, Hi = Max, Stride = 0, Last = 0;
    staticBounds<int32_t, int32_t>(Kind, 5, 8, Lo, Hi, Stride, 1, 1, Last);
    EXPECT_GT(Lo, Hi) << "kind " << Kind;
    EXPECT_EQ(Last, 0);
    uint64_t ULo = std::numeric_limits<uint64_t>::max() - 2,
             UHi = std::numeric_limits<uint64_t>::max();
    int64_t UStride = 0;
    staticBounds<uint64_t, int64_t>(Kind, 6, 7, ULo, UHi, UStride, 1, 1, Last);
    EXPECT_GT(ULo, UHi) << "kind " << Kind;
  }
  checkSchedule<int32_t, int32_t>(kSchedStatic, 8, Max - 2, Max, 1, 0);
  checkSchedule<uint64_t, int64_t>(kSchedStatic, 8, std::numeric_limits<uint64_t>::max() - 3,
                                   std::numeric_limits<uint64_t>::max(), 1, 0);
}

TEST(DeviceRtlLoopBounds, ModifierBitsDoNotChangeTheSchedule) {
  int32_t Monotonic = 1 << 29, Nonmonotonic = 1 << 30;
  for (int32_t Mod : {Monotonic, Nonmonotonic}) {
    int32_t A = 0, B = 99, S1 = 0, L1 = 0, C = 0, D = 99, S2 = 0, L2 = 0;
    staticBounds<int32_t, int32_t>(kSchedStaticChunked | Mod, 2, 4, A, B, S1, 1, 5, L1);
    staticBounds<int32_t, int32_t>(kSchedStaticChunked, 2, 4, C, D, S2, 1, 5, L2);
    EXPECT_EQ(A, C);
    EXPECT_EQ(B, D);
    EXPECT_EQ(S1, S2);
    EXPECT_EQ(L1, L2);
  }
  EXPECT_TRUE(isDistributeSchedule(kSchedDistributeStatic | Monotonic));
  EXPECT_FALSE(isDistributeSchedule(kSchedStatic));
}

}  // namespace
