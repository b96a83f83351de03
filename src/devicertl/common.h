// The device runtime's building blocks for NVIDIA GPUs: what a thread can ask
// the hardware (its ids and the launch's shape), barriers, warp operations,
// atomics, fences and spin locks, all as clang NVPTX builtins. Compiled as
// CUDA device code without CUDA's headers (-nocudainc), so the attributes are
// spelled out.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define DEVICE __attribute__((device))
#define SHARED __attribute__((shared))
#define CONSTANT __attribute__((constant))
#define GLOBAL __attribute__((device))
#define INLINE __attribute__((device, always_inline)) inline
// An entry point that clang-generated code calls by name.
#define ENTRY extern "C" __attribute__((device))

// clang passes a location descriptor (ident_t) to most entry points; the
// runtime never reads it.
struct IdentTy;

namespace devrtl {

constexpr uint32_t kWarpSize = 32;
// CUDA's largest block: every per-thread table in shared memory has this size.
constexpr uint32_t kMaxThreadsPerBlock = 1024;

// OpenMP's execution modes, as clang 14 passes them to __kmpc_target_init.
constexpr int8_t kModeGeneric = 1;
constexpr int8_t kModeSPMD = 2;

// --- hardware ---------------------------------------------------------------
INLINE uint32_t hwThreadId() { return __nvvm_read_ptx_sreg_tid_x(); }
INLINE uint32_t hwBlockSize() { return __nvvm_read_ptx_sreg_ntid_x(); }
INLINE uint32_t blockId() { return __nvvm_read_ptx_sreg_ctaid_x(); }
INLINE uint32_t numBlocks() { return __nvvm_read_ptx_sreg_nctaid_x(); }
INLINE uint32_t laneId() { return hwThreadId() & (kWarpSize - 1); }
INLINE uint32_t warpId() { return hwThreadId() / kWarpSize; }
INLINE uint32_t activeMask() {
  uint32_t Mask;
  asm volatile("activemask.b32 %0;" : "=r"(Mask));
  return Mask;
}

// Generic mode: the plugins launch the team's threads plus one warp; the main
// thread is the first lane of the block's last warp, and the threads a
// parallel region may use are the first blockDim - warp size (LLVM's
// OpenMPOpt builds its worker loop for exactly those: with a thread count
// that is not a multiple of the warp size the two differ).
INLINE uint32_t genericMainThreadId() { return (hwBlockSize() - 1) & ~(kWarpSize - 1); }
INLINE uint32_t genericWorkerCount() {
  return hwBlockSize() > kWarpSize ? hwBlockSize() - kWarpSize : 0;
}

// --- barriers ---------------------------------------------------------------
// Barrier 0: every live thread of the block. Barrier 1: the threads of a
// parallel region's team when it is not the whole block (named, counted).
// blockBarrier is `barrier.sync 0`, which the threads may reach at different
// instructions (generic mode: the main thread and the workers);
// blockBarrierAligned is `bar.sync 0` (CUDA's __syncthreads), for SPMD code,
// where they all reach the same one.
// LLVM's alias analysis keeps a value of a variable of the kernel's own (one
// that nothing else can address) in a register across a call without
// operands (bar.sync 0, or a function without arguments), not across a
// barrier with operands: so SPMD code's barriers are bar.sync 0, and the
// counted and warp barriers of SPMD paths, and blockBarrier, which the
// generic-mode branches of SPMD kernels still contain (the mode is a run-time
// value), are out-of-line functions without arguments (blockBarrier and
// partialTeamBarrier in state.cu, syncShuffleLanes in reduction.cu), as LLVM
// 14's runtime's SPMD barrier is. clang puts a
// firstprivate allocated with omp_const_mem_alloc in constant memory and
// stores to it: unless the optimizer keeps its value in a register and drops
// the store, ptxas rejects the kernel.
__attribute__((device, noinline)) void blockBarrier();
INLINE void blockBarrierAligned() { __syncthreads(); }
INLINE void teamBarrierCounted(uint32_t Threads) { __nvvm_barrier_sync_cnt(1, Threads); }
INLINE void warpSync(uint32_t Mask) { __nvvm_bar_warp_sync(Mask); }

// --- fences and atomics -----------------------------------------------------
INLINE void fenceBlock() { __nvvm_membar_cta(); }
INLINE void fenceDevice() { __nvvm_membar_gl(); }
INLINE void sleepNanoseconds(uint32_t Ns) { asm volatile("nanosleep.u32 %0;" ::"r"(Ns)); }
INLINE uint64_t globalTimerNs() {
  uint64_t Ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Ns));
  return Ns;
}

// LLVM 14's NVPTX backend has no atomic loads and stores: they are volatile
// accesses with a device-scope fence on the ordering side. Read-modify-write
// operations are relaxed atom.* instructions between fences.
template <typename T>
INLINE T atomicLoad(T *P) {
  T V = *static_cast<volatile T *>(P);
  fenceDevice();
  return V;
}
template <typename T>
INLINE void atomicStore(T *P, T V) {
  fenceDevice();
  *static_cast<volatile T *>(P) = V;
}
template <typename T>
INLINE T atomicAdd(T *P, T V) {
  fenceDevice();
  T Old = __atomic_fetch_add(P, V, __ATOMIC_RELAXED);
  fenceDevice();
  return Old;
}
template <typename T>
INLINE bool atomicCompareExchange(T *P, T &Expected, T Desired) {
  fenceDevice();
  bool Done =
      __atomic_compare_exchange_n(P, &Expected, Desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  fenceDevice();
  return Done;
}

// Device-wide spin locks (critical sections, OpenMP locks, task reductions):
// a word that is kUnlocked or kLocked.
constexpr uint32_t kUnlocked = 0, kLocked = 1;
INLINE void spinLock(uint32_t *Word) {
  uint32_t Expected = kUnlocked;
  while (!atomicCompareExchange(Word, Expected, kLocked)) {
    Expected = kUnlocked;
    sleepNanoseconds(32);
  }
  fenceDevice();
}
INLINE void spinUnlock(uint32_t *Word) {
  fenceDevice();
  atomicStore(Word, kUnlocked);
}

}  // namespace devrtl

// Provided by the CUDA toolchain for device code.
extern "C" DEVICE void *malloc(size_t Bytes);
extern "C" DEVICE void free(void *Ptr);
extern "C" DEVICE int vprintf(const char *Format, const char *Args);
