// Who a thread is in OpenMP's terms: the block-wide (team) state and each
// thread's own nesting state, both in shared memory.
//
// Design: everything that changes when a thread enters or leaves a parallel
// region lives in that thread's own ThreadState, written only by that thread.
// So entering a region in SPMD mode needs no barrier to publish anything; the
// only block-wide barrier of a region is the one at its end, which OpenMP
// requires. TeamState is written by one thread (the team's initial thread) and
// read by the others only after a barrier that follows the write.
#pragma once

#include "common.h"

namespace devrtl {

struct ThreadState {
  uint16_t TeamSize;  // threads of the parallel region at level 1 (1 outside one)
  uint8_t Level;      // parallel regions around the thread (0: a team's sequential part)
  uint8_t Flags;      // kActiveRegion | kHoldsTaskReductionLock | kAskedBlockSize, and
                      // the team allocations taken (memory.cu) in the top bits
};
constexpr uint8_t kActiveRegion = 1;  // Level 1 is an active region (more than one thread)
constexpr uint8_t kHoldsTaskReductionLock =
    2;  // a running task holds the task-reduction lock (tasks.cu)
constexpr uint8_t kAskedBlockSize =
    4;  // SPMD sequential part: clang asked the block size (state.cu)
constexpr uint8_t kTeamAllocationShift = 3;  // bits 3..7: team allocations taken, mod 32

// A dynamically scheduled loop shared by a team, in iteration numbers
// [0, TripCount), handed out by an atomic counter.
struct DispatchState {
  uint64_t Next;
  uint64_t TripCount;
  uint64_t Chunk;
  int64_t Lower;
  int64_t Increment;
  int32_t Kind;
};

constexpr uint32_t kSharedArgSlots = 32;

struct TeamState {
  int8_t Mode;  // kModeGeneric or kModeSPMD
  // Generic mode: the region the workers run next (null: the kernel ends),
  // its arguments and its thread count.
  void *WorkFn;
  void **Args;
  uint32_t RegionThreads;
  void *ArgSlots[kSharedArgSlots];
  DispatchState Dispatch;
  uint32_t SharedStackTop;  // bytes used of the team's shared stack (memory.cu)
  // SPMD: allocations of the team's sequential part, published by thread 0
  // (memory.cu): a ring of the last 32 and how many were published.
  void *TeamAllocations[32];
  uint32_t TeamAllocationsPublished;
  uint32_t LastTeamFlag;  // teams reduction: this team finishes the reduction
};

// The calling thread's state and the block's.
DEVICE ThreadState &threadState();
DEVICE TeamState &teamState();
// Called by every thread of the block at kernel start (before a barrier).
DEVICE void initThreadState();
DEVICE void initTeamState(int8_t Mode);

// The team's mode as __kmpc_target_init recorded it. (Not through
// __kmpc_is_spmd_exec_mode, which LLVM's OpenMPOpt folds to a constant: in
// kernels it turns from generic into SPMD that constant disagrees with the
// runtime paths the kernel still takes, and such kernels hang on an H200.)
INLINE bool isSPMD() { return teamState().Mode == kModeSPMD; }
INLINE bool inActiveRegion(const ThreadState &S) {
  return S.Level == 1 && (S.Flags & kActiveRegion);
}

// The current team of threads, for worksharing and barriers: its size and the
// calling thread's number in it (1 and 0 outside an active region).
INLINE uint32_t teamSize() {
  ThreadState &S = threadState();
  return inActiveRegion(S) ? S.TeamSize : 1;
}
INLINE uint32_t threadInTeam() { return inActiveRegion(threadState()) ? hwThreadId() : 0; }

// Entering and leaving a level-1 region change the region's fields only:
// the other flags belong to the thread's sequential part (a block-size
// question not followed by its distribute loop is dropped here, so it cannot
// reach a later loop).
INLINE void enterRegion(ThreadState &S, uint32_t TeamSize) {
  S.TeamSize = static_cast<uint16_t>(TeamSize);
  S.Level = 1;
  S.Flags = static_cast<uint8_t>((S.Flags & ~(kActiveRegion | kAskedBlockSize)) |
                                 (TeamSize > 1 ? kActiveRegion : 0));
}
INLINE void leaveRegion(ThreadState &S) {
  S.TeamSize = 1;
  S.Level = 0;
  S.Flags = static_cast<uint8_t>(S.Flags & ~kActiveRegion);
}

// Synchronizes the current team (the whole block in an SPMD team's
// sequential part; nothing for a team of one).
DEVICE void teamBarrier();
// A team smaller than the block: out of line and without arguments (see
// the barriers in common.h).
__attribute__((device, noinline)) void partialTeamBarrier();

// The layout the plugins write before the first launch (LLVM 14's).
struct DeviceEnvironment {
  uint32_t DebugKind;
  uint32_t NumDevices;
  uint32_t DeviceNum;
  uint32_t DynamicMemSize;
};
DEVICE const DeviceEnvironment &deviceEnvironment();

}  // namespace devrtl

// The OpenMP API call the runtime itself uses (defined in state.cu).
ENTRY int omp_get_thread_num();
