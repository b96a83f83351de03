// Static loop schedules: which iterations a thread (or team) gets, as the
// bounds clang's loop code then runs. Plain arithmetic, shared by the device
// runtime and the host unit test that checks every schedule covers each
// iteration exactly once.
#pragma once

#include <stdint.h>

#if defined(__CUDA__)
#define LOOP_BOUNDS_FN __attribute__((device, always_inline)) inline
#else
#define LOOP_BOUNDS_FN inline
#endif

namespace devrtl {

// Schedule kinds as clang passes them (modifier bits masked off).
enum ScheduleKind : int32_t {
  kSchedStaticChunked = 33,
  kSchedStatic = 34,
  kSchedDynamicChunked = 35,
  kSchedGuidedChunked = 36,
  kSchedRuntime = 37,
  kSchedAuto = 38,
  kSchedStaticBalancedChunked = 45,
  kSchedOrderedStaticChunked = 65,
  kSchedOrderedStatic = 66,
  kSchedDistributeStaticChunked = 91,
  kSchedDistributeStatic = 92,
};
constexpr int32_t kScheduleModifierMask = (1 << 29) | (1 << 30) | static_cast<int32_t>(1u << 31);

LOOP_BOUNDS_FN int32_t scheduleWithoutModifiers(int32_t Kind) {
  return Kind & ~kScheduleModifierMask;
}
LOOP_BOUNDS_FN bool isDistributeSchedule(int32_t Kind) {
  Kind = scheduleWithoutModifiers(Kind);
  return Kind == kSchedDistributeStaticChunked || Kind == kSchedDistributeStatic;
}

// Iterations of the loop lower..upper by increment (inclusive bounds, as
// clang passes them); 0 when the range is empty.
template <typename T, typename ST>
LOOP_BOUNDS_FN uint64_t tripCount(T Lower, T Upper, ST Increment) {
  if (Increment > 0) {
    if (Upper < Lower) return 0;
    return (static_cast<uint64_t>(Upper) - static_cast<uint64_t>(Lower)) /
               static_cast<uint64_t>(Increment) +
           1;
  }
  if (Increment < 0) {
    if (Lower < Upper) return 0;
    return (static_cast<uint64_t>(Lower) - static_cast<uint64_t>(Upper)) /
               (0 - static_cast<uint64_t>(Increment)) +
           1;
  }
  return 0;
}

// The bounds a static schedule gives worker `Id` of `Workers`: Lower/Upper
// are updated in place (an empty share comes back with Lower past Upper),
// Stride is what clang adds to both to reach the worker's next chunk, Last
// says whether the worker runs the loop's last iteration.
template <typename T, typename ST>
LOOP_BOUNDS_FN void staticBounds(int32_t Kind, uint32_t Id, uint32_t Workers, T &Lower, T &Upper,
                                 ST &Stride, ST Increment, ST Chunk, int32_t &Last) {
  const uint64_t Trip = tripCount(Lower, Upper, Increment);
  const T First = Lower, End = Upper;
  auto at = [&](uint64_t Iteration) {
    return static_cast<T>(static_cast<uint64_t>(First) +
                          Iteration * static_cast<uint64_t>(Increment));
  };
  auto empty = [&] {
    // Lower one step past Upper in the loop's direction; at the type's edge,
    // Upper one step back instead.
    T Past = static_cast<T>(static_cast<uint64_t>(End) +
                            (Increment > 0 ? 1 : static_cast<uint64_t>(-1)));
    bool Wrapped = Increment > 0 ? !(Past > End) : !(Past < End);
    T Back = static_cast<T>(static_cast<uint64_t>(End) -
                            (Increment > 0 ? 1 : static_cast<uint64_t>(-1)));
    Lower = Wrapped ? End : Past;
    Upper = Wrapped ? Back : End;
    Last = 0;
  };
  Stride = static_cast<ST>(Trip * static_cast<uint64_t>(Increment));
  if (Trip == 0 || Workers == 0) {
    empty();
    return;
  }
  Kind = scheduleWithoutModifiers(Kind);
  bool Chunked = Chunk > 0 && (Kind == kSchedStaticChunked || Kind == kSchedOrderedStaticChunked ||
                               Kind == kSchedDistributeStaticChunked);
  if (Chunked) {
    // Chunks of `Chunk` iterations dealt round-robin.
    uint64_t C = static_cast<uint64_t>(Chunk);
    uint64_t FirstIteration = static_cast<uint64_t>(Id) * C;
    Stride = static_cast<ST>(static_cast<uint64_t>(Workers) * C * static_cast<uint64_t>(Increment));
    Last = ((Trip - 1) / C) % Workers == Id;
    if (FirstIteration >= Trip) {
      empty();
      return;
    }
    Lower = at(FirstIteration);
    // clang clamps a chunk's end to the loop's; clamping here too keeps the
    // arithmetic from wrapping at the type's edge.
    Upper = FirstIteration + C - 1 >= Trip ? End : at(FirstIteration + C - 1);
    return;
  }
  uint64_t Start, Count;
  if (Kind == kSchedStaticBalancedChunked && Chunk > 0) {
    // One contiguous block per worker, a multiple of the chunk long.
    uint64_t C = static_cast<uint64_t>(Chunk);
    uint64_t Span = (Trip + Workers - 1) / Workers;
    Span = (Span + C - 1) / C * C;
    Start = static_cast<uint64_t>(Id) * Span;
    Count = Start >= Trip ? 0 : (Trip - Start < Span ? Trip - Start : Span);
  } else {
    // One contiguous block per worker, the first Trip % Workers one longer.
    uint64_t Base = Trip / Workers, Extra = Trip % Workers;
    Start = static_cast<uint64_t>(Id) * Base + (Id < Extra ? Id : Extra);
    Count = Base + (Id < Extra ? 1 : 0);
  }
  if (Count == 0) {
    empty();
    return;
  }
  Lower = at(Start);
  Upper = at(Start + Count - 1);
  Last = Start + Count == Trip;
}

}  // namespace devrtl
