// Worksharing loops: static schedules (for and distribute) computed per
// thread with no shared state; dynamic, guided and runtime schedules handed
// out from a team-shared counter.
#include "loop_bounds.h"
#include "state.h"

using namespace devrtl;

namespace {

// A distribute loop without dist_schedule has an implementation-defined
// schedule. clang 14 asks for chunks of one iteration per thread, which in
// SPMD mode costs a parallel region (and its barrier) per chunk and leaves
// each thread one iteration between barriers. When the chunk comes from
// clang's block-size query (not from a clause) the runtime deals instead one
// contiguous block per team, a whole number of such chunks long: one region
// per team, and each thread runs its iterations in one loop.
INLINE bool isImplicitDistributeChunk(int32_t Kind, int64_t Chunk) {
  ThreadState &S = threadState();
  if (!(S.Flags & kAskedBlockSize)) return false;
  S.Flags = static_cast<uint8_t>(S.Flags & ~kAskedBlockSize);
  return scheduleWithoutModifiers(Kind) == kSchedDistributeStaticChunked && Chunk == hwBlockSize();
}

template <typename T, typename ST>
INLINE void staticInit(int32_t Kind, int32_t *LastIter, T *Lower, T *Upper, ST *Stride,
                       ST Increment, ST Chunk) {
  // distribute schedules deal to the league's teams, the others to the
  // current team's threads.
  bool Distribute = isDistributeSchedule(Kind);
  if (Distribute && isImplicitDistributeChunk(Kind, static_cast<int64_t>(Chunk)))
    Kind = kSchedStaticBalancedChunked;
  uint32_t Id = Distribute ? blockId() : threadInTeam();
  uint32_t Workers = Distribute ? numBlocks() : teamSize();
  int32_t Last = 0;
  staticBounds(Kind, Id, Workers, *Lower, *Upper, *Stride, Increment, Chunk, Last);
  if (LastIter) *LastIter = Last;
}

// A team of one (a team's sequential part, a serialized region) runs a
// dynamically scheduled loop alone, in one piece. Several such loops can run
// at once in a block (an SPMD team's sequential part runs on every thread;
// each thread of a region can serialize a nested one), so each thread keeps
// its own: a heap record of the bounds in a per-thread slot, held until the
// piece is handed out (an empty slot: nothing left), referenced only by
// kernels that have dynamically scheduled loops.
struct SoloLoop {
  int64_t Lower, Upper;
};
SHARED SoloLoop *SoloLoops[kMaxThreadsPerBlock];

template <typename T, typename ST>
INLINE void dispatchInit(int32_t Kind, T Lower, T Upper, ST Increment, ST Chunk) {
  uint32_t Threads = teamSize();
  if (Threads == 1) {
    SoloLoop *Loop = nullptr;
    if (tripCount(Lower, Upper, Increment) > 0) {
      Loop = static_cast<SoloLoop *>(malloc(sizeof(SoloLoop)));
      if (!Loop) __builtin_trap();
      Loop->Lower = static_cast<int64_t>(Lower);
      Loop->Upper = static_cast<int64_t>(Upper);
    }
    SoloLoops[hwThreadId()] = Loop;
    return;
  }
  teamBarrier();  // every thread has left the team's previous loop
  if (threadInTeam() == 0) {
    uint64_t Trip = tripCount(Lower, Upper, Increment);
    Kind = scheduleWithoutModifiers(Kind);
    uint64_t C = Chunk > 0 ? static_cast<uint64_t>(Chunk) : 1;
    // Static kinds (ordered, runtime, auto: the device's run-sched-var is
    // static) come here too: one chunk per thread, handed out on request.
    if (Kind != kSchedDynamicChunked && Kind != kSchedGuidedChunked && Chunk <= 0)
      C = (Trip + Threads - 1) / Threads;
    DispatchState &D = teamState().Dispatch;
    D.Next = 0;
    D.TripCount = Trip;
    D.Chunk = C == 0 ? 1 : C;
    D.Lower = static_cast<int64_t>(Lower);
    D.Increment = static_cast<int64_t>(Increment);
    D.Kind = Kind;
  }
  teamBarrier();  // the loop is published
}

template <typename T, typename ST>
INLINE int32_t dispatchNext(int32_t *LastIter, T *Lower, T *Upper, ST *Stride) {
  uint32_t Threads = teamSize();
  if (Threads == 1) {
    SoloLoop *Loop = SoloLoops[hwThreadId()];
    if (!Loop) return 0;
    *Lower = static_cast<T>(Loop->Lower);
    *Upper = static_cast<T>(Loop->Upper);
    free(Loop);
    SoloLoops[hwThreadId()] = nullptr;
    if (LastIter) *LastIter = 1;
    *Stride = 1;
    return 1;
  }
  DispatchState &D = teamState().Dispatch;
  uint64_t Start, Count;
  if (D.Kind == kSchedGuidedChunked) {
    // Chunks proportional to what is left, never below the chunk size.
    uint64_t Seen = atomicLoad(&D.Next);
    do {
      if (Seen >= D.TripCount) return 0;
      uint64_t Left = D.TripCount - Seen;
      Count = Left / (2 * static_cast<uint64_t>(Threads));
      if (Count < D.Chunk) Count = D.Chunk;
      if (Count > Left) Count = Left;
    } while (!atomicCompareExchange(&D.Next, Seen, Seen + Count));
    Start = Seen;
  } else {
    Start = atomicAdd(&D.Next, D.Chunk);
    if (Start >= D.TripCount) return 0;
    Count = D.TripCount - Start < D.Chunk ? D.TripCount - Start : D.Chunk;
  }
  uint64_t Step = static_cast<uint64_t>(D.Increment);
  *Lower = static_cast<T>(static_cast<uint64_t>(D.Lower) + Start * Step);
  *Upper = static_cast<T>(static_cast<uint64_t>(D.Lower) + (Start + Count - 1) * Step);
  *Stride = 1;
  if (LastIter) *LastIter = Start + Count == D.TripCount;
  return 1;
}

}  // namespace

#define DEVRTL_STATIC_INIT(Name, T, ST)                                                    \
  ENTRY void Name(IdentTy *, int32_t, int32_t Kind, int32_t *LastIter, T *Lower, T *Upper, \
                  ST *Stride, ST Increment, ST Chunk) {                                    \
    staticInit<T, ST>(Kind, LastIter, Lower, Upper, Stride, Increment, Chunk);             \
  }
DEVRTL_STATIC_INIT(__kmpc_for_static_init_4, int32_t, int32_t)
DEVRTL_STATIC_INIT(__kmpc_for_static_init_4u, uint32_t, int32_t)
DEVRTL_STATIC_INIT(__kmpc_for_static_init_8, int64_t, int64_t)
DEVRTL_STATIC_INIT(__kmpc_for_static_init_8u, uint64_t, int64_t)
DEVRTL_STATIC_INIT(__kmpc_distribute_static_init_4, int32_t, int32_t)
DEVRTL_STATIC_INIT(__kmpc_distribute_static_init_4u, uint32_t, int32_t)
DEVRTL_STATIC_INIT(__kmpc_distribute_static_init_8, int64_t, int64_t)
DEVRTL_STATIC_INIT(__kmpc_distribute_static_init_8u, uint64_t, int64_t)
#undef DEVRTL_STATIC_INIT

ENTRY void __kmpc_for_static_fini(IdentTy *, int32_t) {}
ENTRY void __kmpc_distribute_static_fini(IdentTy *, int32_t) {}

#define DEVRTL_DISPATCH(Suffix, T, ST)                                                         \
  ENTRY void __kmpc_dispatch_init_##Suffix(IdentTy *, int32_t, int32_t Kind, T Lower, T Upper, \
                                           ST Increment, ST Chunk) {                           \
    dispatchInit<T, ST>(Kind, Lower, Upper, Increment, Chunk);                                 \
  }                                                                                            \
  ENTRY int32_t __kmpc_dispatch_next_##Suffix(IdentTy *, int32_t, int32_t *LastIter, T *Lower, \
                                              T *Upper, ST *Stride) {                          \
    return dispatchNext<T, ST>(LastIter, Lower, Upper, Stride);                                \
  }                                                                                            \
  ENTRY void __kmpc_dispatch_fini_##Suffix(IdentTy *, int32_t) {}
DEVRTL_DISPATCH(4, int32_t, int32_t)
DEVRTL_DISPATCH(4u, uint32_t, int32_t)
DEVRTL_DISPATCH(8, int64_t, int64_t)
DEVRTL_DISPATCH(8u, uint64_t, int64_t)
#undef DEVRTL_DISPATCH
