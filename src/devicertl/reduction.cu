// Reductions in the shape clang 14 generates: clang passes per-construct
// functions that reduce one lane's list with another lane's (through a warp
// shuffle), move warp results through shared memory, and copy or reduce a
// list into or out of a global buffer; the runtime decides who calls them.
#include "state.h"

using namespace devrtl;

namespace {

using ShuffleReduceFn = void (*)(void *Data, int16_t LaneId, int16_t Offset, int16_t AlgoVersion);
using InterWarpCopyFn = void (*)(void *Data, int32_t NumWarps);
using BufferFn = void (*)(void *Buffer, int32_t Index, void *Data);

// The lanes taking part in the current warp reduction, per warp: clang's
// shuffle functions call __kmpc_shuffle_* without a mask.
SHARED uint32_t ShuffleMask[kMaxThreadsPerBlock / kWarpSize];

INLINE uint32_t lowLanes(uint32_t N) { return N >= kWarpSize ? 0xffffffffu : (1u << N) - 1; }

// Out of line and without arguments (see the barriers in common.h).
__attribute__((device, noinline)) void syncShuffleLanes() { warpSync(ShuffleMask[warpId()]); }

// Reduces the lists of lanes 0..Live-1 of the calling warp into lane 0.
INLINE void warpReduce(void *Data, ShuffleReduceFn Shuffle, uint32_t Live) {
  ShuffleMask[warpId()] = lowLanes(Live);
  syncShuffleLanes();
  int16_t Lane = static_cast<int16_t>(laneId());
  if (Live == kWarpSize) {
    for (uint32_t Offset = kWarpSize / 2; Offset > 0; Offset /= 2)
      Shuffle(Data, Lane, static_cast<int16_t>(Offset), 0);
    return;
  }
  // A partial warp (algorithm 1): lanes below Offset combine with
  // lane + Offset, the lanes from Offset on take lane + Offset's list, so an
  // odd count's last list moves down into the next round.
  for (uint32_t Size = Live; Size > 1; Size = (Size + 1) / 2)
    Shuffle(Data, Lane, static_cast<int16_t>(Size / 2), 1);
}

// Reduces the lists of threads 0..Live-1 into thread 0's. Every thread of the
// current team calls it (the inter-warp copy synchronizes the team).
INLINE void reduceAcrossTeam(void *Data, ShuffleReduceFn Shuffle, InterWarpCopyFn Copy,
                             uint32_t Live, uint32_t Thread) {
  uint32_t Warp = Thread / kWarpSize;
  uint32_t First = Warp * kWarpSize;
  if (First < Live) warpReduce(Data, Shuffle, Live - First < kWarpSize ? Live - First : kWarpSize);
  uint32_t Warps = (Live + kWarpSize - 1) / kWarpSize;
  if (Warps == 1) return;
  Copy(Data, static_cast<int32_t>(Warps));  // warp results into warp 0's lanes
  if (Warp == 0 && Thread < Warps) warpReduce(Data, Shuffle, Warps);
}

// Teams reduction state, kept across launches of a kernel and reset by the
// team that finishes each reduction. Team t deposits into slot t % R in round
// t / R, after the team of the round before has deposited there; the team
// that deposits last combines the slots.
constexpr uint32_t kMaxTeamsRecords = 1024;
GLOBAL uint32_t SlotRound[kMaxTeamsRecords];
GLOBAL uint32_t TeamsDeposited;

}  // namespace

ENTRY int32_t __kmpc_shuffle_int32(int32_t Value, int16_t Delta, int16_t Width) {
  uint32_t Mask = ShuffleMask[warpId()];
  uint32_t Clamp = ((kWarpSize - static_cast<uint32_t>(Width)) << 8) | (kWarpSize - 1);
  return __nvvm_shfl_sync_down_i32(Mask, Value, static_cast<uint32_t>(Delta), Clamp);
}

ENTRY int64_t __kmpc_shuffle_int64(int64_t Value, int16_t Delta, int16_t Width) {
  auto Bits = static_cast<uint64_t>(Value);
  auto Low = static_cast<uint32_t>(__kmpc_shuffle_int32(static_cast<int32_t>(Bits), Delta, Width));
  auto High =
      static_cast<uint32_t>(__kmpc_shuffle_int32(static_cast<int32_t>(Bits >> 32), Delta, Width));
  return static_cast<int64_t>((static_cast<uint64_t>(High) << 32) | Low);
}

// Called by every thread of a parallel region; returns 1 in the thread that
// holds the result (the team's thread 0), which then combines it into the
// shared variable.
ENTRY int32_t __kmpc_nvptx_parallel_reduce_nowait_v2(IdentTy *, int32_t, int32_t, int64_t,
                                                     void *Data, ShuffleReduceFn Shuffle,
                                                     InterWarpCopyFn Copy) {
  uint32_t Threads = teamSize();
  if (Threads == 1) return 1;
  uint32_t Thread = threadInTeam();
  reduceAcrossTeam(Data, Shuffle, Copy, Threads, Thread);
  return Thread == 0 ? 1 : 0;
}

// Called with the team's value in the list of its initial thread (SPMD: every
// thread calls, thread 0 holds it; generic: the main thread calls). Returns 1
// in one thread of the last team to deposit, with the combined value.
ENTRY int32_t __kmpc_nvptx_teams_reduce_nowait_v2(IdentTy *, int32_t, void *Buffer, int32_t Records,
                                                  void *Data, ShuffleReduceFn, InterWarpCopyFn,
                                                  BufferFn LocalToGlobalCopy,
                                                  BufferFn LocalToGlobalReduce,
                                                  BufferFn GlobalToLocalCopy,
                                                  BufferFn GlobalToLocalReduce) {
  if (isSPMD() && hwThreadId() != 0) return 0;
  uint32_t Slots = Records > 0 && static_cast<uint32_t>(Records) < kMaxTeamsRecords
                       ? static_cast<uint32_t>(Records)
                       : kMaxTeamsRecords;
  uint32_t Team = blockId(), Teams = numBlocks();
  uint32_t Slot = Team % Slots, Round = Team / Slots;
  while (atomicLoad(&SlotRound[Slot]) != Round)
    ;
  if (Round == 0)
    LocalToGlobalCopy(Buffer, static_cast<int32_t>(Slot), Data);
  else
    LocalToGlobalReduce(Buffer, static_cast<int32_t>(Slot), Data);
  fenceDevice();
  atomicStore(&SlotRound[Slot], Round + 1);
  if (atomicAdd(&TeamsDeposited, 1u) + 1 != Teams) return 0;
  // Every team has deposited: combine the slots, then reset for the next launch.
  fenceDevice();
  uint32_t Used = Teams < Slots ? Teams : Slots;
  GlobalToLocalCopy(Buffer, 0, Data);
  for (uint32_t I = 1; I < Used; ++I) GlobalToLocalReduce(Buffer, static_cast<int32_t>(I), Data);
  for (uint32_t I = 0; I < Used; ++I) SlotRound[I] = 0;
  atomicStore(&TeamsDeposited, 0u);
  return 1;
}

ENTRY void __kmpc_nvptx_end_reduce(int32_t) {}
ENTRY void __kmpc_nvptx_end_reduce_nowait(int32_t) {}
