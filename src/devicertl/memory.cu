// Memory for variables clang moves off a thread's stack (__kmpc_alloc_shared:
// variables a parallel region shares, which other threads must be able to
// reach), and the launch's dynamic shared memory.
//
// A variable of a team's sequential part belongs to the team: the threads of
// its parallel regions share it (lastprivate copies out through one). In
// generic mode the main thread alone runs that part and allocates from the
// team's stack in shared memory. In SPMD mode every thread runs it and makes
// the same calls: thread 0 allocates and publishes the pointer in a ring of
// TeamState, each other thread counts its own calls (bits of its flags) and
// takes the pointer with its number once published. No barrier: LLVM's
// OpenMPOpt, when it turns a generic kernel into an SPMD one, may leave such
// a call to thread 0 alone. (A thread 32 allocations behind thread 0 would
// read a reused slot; a team's sequential part has a handful.)
// Inside a parallel region a variable is the calling thread's: from the
// device heap. clang frees in the reverse order of allocation.
#include "state.h"

using namespace devrtl;

namespace {
constexpr uint32_t kSharedStackBytes = 2048;
constexpr uint32_t kAlignment = 16;
SHARED unsigned char SharedStack[kSharedStackBytes] __attribute__((aligned(kAlignment)));

INLINE bool inSharedStack(void *Ptr) {
  auto *P = static_cast<unsigned char *>(Ptr);
  return P >= SharedStack && P < SharedStack + kSharedStackBytes;
}
}  // namespace

namespace {
INLINE void *allocate(uint64_t Bytes, bool FromTeamStack) {
  uint64_t Rounded = (Bytes + kAlignment - 1) / kAlignment * kAlignment;
  TeamState &T = teamState();
  if (FromTeamStack && Rounded <= kSharedStackBytes - T.SharedStackTop) {
    void *Ptr = SharedStack + T.SharedStackTop;
    T.SharedStackTop += static_cast<uint32_t>(Rounded);
    return Ptr;
  }
  void *Ptr = malloc(Rounded == 0 ? kAlignment : Rounded);
  if (!Ptr) __builtin_trap();  // the device heap is exhausted
  return Ptr;
}

INLINE void release(void *Ptr) {
  if (inSharedStack(Ptr))
    teamState().SharedStackTop =
        static_cast<uint32_t>(static_cast<unsigned char *>(Ptr) - SharedStack);
  else
    free(Ptr);
}

INLINE bool inSPMDSequentialPart() { return isSPMD() && threadState().Level == 0; }
}  // namespace

ENTRY void *__kmpc_alloc_shared(uint64_t Bytes) {
  if (!inSPMDSequentialPart())
    return allocate(Bytes, !isSPMD() && hwThreadId() == genericMainThreadId());
  TeamState &T = teamState();
  ThreadState &S = threadState();
  uint32_t Mine = S.Flags >> kTeamAllocationShift;  // this thread's calls so far, mod 32
  S.Flags = static_cast<uint8_t>((S.Flags & ((1u << kTeamAllocationShift) - 1)) |
                                 (((Mine + 1) & 31) << kTeamAllocationShift));
  if (hwThreadId() == 0) {
    T.TeamAllocations[Mine] = allocate(Bytes, true);
    atomicStore(&T.TeamAllocationsPublished, T.TeamAllocationsPublished + 1);
    return T.TeamAllocations[Mine];
  }
  while (((atomicLoad(&T.TeamAllocationsPublished) - Mine) & 31) == 0)
    ;
  return T.TeamAllocations[Mine];
}

ENTRY void __kmpc_free_shared(void *Ptr, uint64_t) {
  // In an SPMD sequential part thread 0 releases the team's variable; the
  // other threads' calls name the same memory.
  if (!inSPMDSequentialPart() || hwThreadId() == 0) release(Ptr);
}

// The launch's dynamic shared memory (LIBOMPTARGET_SHARED_MEMORY_SIZE bytes).
extern "C" SHARED unsigned char DynamicSharedBuffer[];
ENTRY void *llvm_omp_get_dynamic_shared() { return DynamicSharedBuffer; }
ENTRY void *__kmpc_get_dynamic_shared() { return DynamicSharedBuffer; }
