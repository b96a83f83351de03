// Kernel start and end, generic mode's worker loop, and parallel regions.
//
// SPMD mode: every thread runs the kernel; a parallel region is a direct call
// of the outlined function on the threads of the team, then one block-wide
// barrier (the region's end).
// Generic mode: the main thread (first lane of the last warp) runs the
// sequential code; the workers (the warps before it) wait at barrier 0 for a
// region. A region is published in TeamState, released by one barrier and
// joined by the next; the same two barriers, with WorkFn null, end the kernel.
// LLVM's OpenMPOpt may build the worker loop into the kernel itself, out of
// __kmpc_kernel_parallel / __kmpc_kernel_end_parallel /
// __kmpc_barrier_simple_generic: the same protocol.
#include "state.h"

using namespace devrtl;

// noinline: LLVM's OpenMPOpt adds calls to these after clang linked the
// runtime in (see keepOptimizerTargetsAlive below), so their definitions must
// outlive inlining into the calls that exist at link time.
#define OPTIMIZER_TARGET extern "C" __attribute__((device, noinline))
OPTIMIZER_TARGET bool __kmpc_kernel_parallel(void **WorkFn);
OPTIMIZER_TARGET void __kmpc_kernel_end_parallel();
OPTIMIZER_TARGET void __kmpc_barrier_simple_spmd(IdentTy *, int32_t);
OPTIMIZER_TARGET void __kmpc_barrier_simple_generic(IdentTy *, int32_t);
ENTRY void __kmpc_begin_sharing_variables(void ***GlobalArgs, uint64_t NArgs);
ENTRY void __kmpc_end_sharing_variables();
ENTRY int32_t __kmpc_get_hardware_thread_id_in_block();
ENTRY int32_t __kmpc_get_hardware_num_threads_in_block();
ENTRY int32_t __kmpc_get_warp_size();

namespace {

using WrapperFn = void (*)(int16_t, int32_t);

// The outlined function of a region takes the global and bound thread ids and
// then one pointer-sized argument per captured variable. One call site per
// argument count, each in its own small function: at -O0 (no inlining) the
// caller's frame stays small (a 1 KiB default stack), at -O1 and up the
// count is a constant and everything folds into one direct call.
template <typename T, T... I>
struct Seq {};
template <size_t... I>
DEVICE inline void callOutlined(void *Fn, int32_t *Gtid, int32_t *Btid, void **Args,
                                Seq<size_t, I...>) {
  using FnTy = void (*)(int32_t *, int32_t *, decltype((void)I, static_cast<void *>(nullptr))...);
  reinterpret_cast<FnTy>(Fn)(Gtid, Btid, Args[I]...);
}
constexpr size_t kMaxOutlinedArgs = 64;
template <size_t... N>
INLINE void callWithCount(void *Fn, int32_t *Gtid, int32_t *Btid, void **Args, int64_t NArgs,
                          Seq<size_t, N...>) {
  bool Called =
      ((NArgs == static_cast<int64_t>(N) &&
        (callOutlined(Fn, Gtid, Btid, Args, __make_integer_seq<Seq, size_t, N>{}), true)) ||
       ...);
  if (!Called) __builtin_trap();  // clang passes at most what it captured; more is a broken caller
}
INLINE void invokeOutlined(void *Fn, int32_t Gtid, void **Args, int64_t NArgs) {
  int32_t Btid = 0;
  callWithCount(Fn, &Gtid, &Btid, Args, NArgs,
                __make_integer_seq<Seq, size_t, kMaxOutlinedArgs + 1>{});
}

// The team size for a region asking for `Requested` threads (0: no clause)
// out of `Available`. A team that is not the whole block is cut to whole
// warps, so that its barrier (bar.sync 1, N) counts whole warps; a team of
// fewer than a warp is lanes 0..N-1 of warp 0. OpenMP allows fewer threads
// than num_threads asks for.
INLINE uint32_t regionTeamSize(int32_t Requested, uint32_t Available, bool WholeBlockPossible) {
  uint32_t N = Requested > 0 && static_cast<uint32_t>(Requested) < Available
                   ? static_cast<uint32_t>(Requested)
                   : Available;
  if (WholeBlockPossible && N == Available) return N;
  if (N >= kWarpSize) N &= ~(kWarpSize - 1);
  return N == 0 ? 1 : N;
}

// The paths off SPMD mode's fast one are not forced inline: at -O0 (no
// inlining but of always_inline) their locals would all land in
// __kmpc_parallel_51's frame, and -O0 kernels live on CUDA's 1 KiB default
// stack.

// A region that runs on the encountering thread alone: if(0), or nested.
DEVICE inline void runSerialized(void *Fn, int32_t Gtid, void **Args, int64_t NArgs) {
  ThreadState &S = threadState();
  ThreadState Saved = S;
  S.Level = static_cast<uint8_t>(S.Level + 1);
  if (S.Level == 1) S.TeamSize = 1;
  invokeOutlined(Fn, Gtid, Args, NArgs);
  S = Saved;
}

DEVICE inline void runGenericRegion(void *WrapperFnPtr, uint32_t Threads, void **Args,
                                    int64_t NArgs) {
  TeamState &T = teamState();
  // The workers read the argument array: it moves from the main thread's
  // stack to TeamState.Args (shared memory, or the heap when it is long).
  void **Shared = nullptr;
  __kmpc_begin_sharing_variables(&Shared, static_cast<uint64_t>(NArgs));
  for (int64_t I = 0; I < NArgs; ++I) Shared[I] = Args[I];
  T.WorkFn = WrapperFnPtr;
  T.RegionThreads = Threads;
  blockBarrier();  // release the workers
  blockBarrier();  // wait for them
  __kmpc_end_sharing_variables();
}

INLINE void workerLoop() {
  for (;;) {
    blockBarrier();
    void *Fn = nullptr;
    bool Active = __kmpc_kernel_parallel(&Fn);
    if (!Fn) return;
    if (Active) {
      reinterpret_cast<WrapperFn>(Fn)(0, static_cast<int32_t>(hwThreadId()));
      __kmpc_kernel_end_parallel();
    }
    blockBarrier();
  }
}

}  // namespace

ENTRY int32_t __kmpc_target_init(IdentTy *, int8_t Mode, bool UseGenericStateMachine, bool) {
  bool SPMD = Mode & kModeSPMD;
  initThreadState();
  if (hwThreadId() == 0) initTeamState(SPMD ? kModeSPMD : kModeGeneric);
  blockBarrier();
  if (SPMD) return -1;
  uint32_t Tid = hwThreadId();
  if (Tid == genericMainThreadId()) return -1;
  if (UseGenericStateMachine) workerLoop();
  return static_cast<int32_t>(Tid);
}

// Every thread that ends the kernel resets its state first, in either mode.
// Nothing reads it again; the write is there for LLVM's OpenMPOpt, which
// decides whether to turn a generic kernel into an SPMD one while it assumes
// the kernel SPMD and this function's Mode argument with it. Were all of this
// function's effects behind that argument, the call would look free of side
// effects under the assumption, the kernel's liveness would rest on it, and
// OpenMPOpt would never settle that a kernel without parallel regions needs
// none, which keeps such a kernel generic (as with LLVM 14's runtime). It
// would turn the kernel SPMD instead, with every side effect of its
// sequential code guarded by thread 0 and a block barrier: a store of a
// firstprivate that clang placed in constant memory (omp_const_mem_alloc)
// then stays behind a barrier from its loads, and ptxas rejects the store.
ENTRY void __kmpc_target_deinit(IdentTy *, int8_t Mode, bool) {
  initThreadState();
  if ((Mode & kModeSPMD) || hwThreadId() != genericMainThreadId()) return;
  teamState().WorkFn = nullptr;
  blockBarrier();  // the workers see no work and leave
}

OPTIMIZER_TARGET bool __kmpc_kernel_parallel(void **WorkFn) {
  TeamState &T = teamState();
  *WorkFn = T.WorkFn;
  if (!T.WorkFn) return false;
  if (hwThreadId() >= T.RegionThreads) return false;
  enterRegion(threadState(), T.RegionThreads);
  return true;
}

OPTIMIZER_TARGET void __kmpc_kernel_end_parallel() { leaveRegion(threadState()); }

ENTRY void __kmpc_parallel_51(IdentTy *, int32_t Gtid, int32_t IfExpr, int32_t NumThreads, int32_t,
                              void *Fn, void *WrapperFnPtr, void **Args, int64_t NArgs) {
  ThreadState &S = threadState();
  // (A generic launch of one warp has no workers: the main thread runs it.)
  if (!IfExpr || S.Level > 0 || (!isSPMD() && genericWorkerCount() == 0)) {
    runSerialized(Fn, Gtid, Args, NArgs);
    return;
  }
  if (!isSPMD()) {
    uint32_t Threads = regionTeamSize(NumThreads, genericWorkerCount(), false);
    runGenericRegion(WrapperFnPtr, Threads, Args, NArgs);
    return;
  }
  uint32_t Threads = regionTeamSize(NumThreads, hwBlockSize(), true);
  uint32_t Tid = hwThreadId();
  if (Tid < Threads) {
    enterRegion(S, Threads);
    invokeOutlined(Fn, static_cast<int32_t>(Tid), Args, NArgs);
    leaveRegion(S);
  }
  blockBarrierAligned();  // the region's end
}

// The argument array a generic region's workers read (TeamState.Args); also
// entry points of their own (older clang code shares arguments this way).
ENTRY void __kmpc_begin_sharing_variables(void ***GlobalArgs, uint64_t NArgs) {
  TeamState &T = teamState();
  T.Args =
      NArgs <= kSharedArgSlots ? T.ArgSlots : static_cast<void **>(malloc(NArgs * sizeof(void *)));
  if (!T.Args) __builtin_trap();
  *GlobalArgs = T.Args;
}
ENTRY void __kmpc_end_sharing_variables() {
  TeamState &T = teamState();
  if (T.Args != T.ArgSlots) free(T.Args);
  T.Args = nullptr;
}
ENTRY void __kmpc_get_shared_variables(void ***GlobalArgs) { *GlobalArgs = teamState().Args; }

// --- barriers -------------------------------------------------------------------
ENTRY void __kmpc_barrier(IdentTy *, int32_t) {
  fenceBlock();
  teamBarrier();
}
ENTRY int32_t __kmpc_cancel_barrier(IdentTy *Loc, int32_t Gtid) {
  __kmpc_barrier(Loc, Gtid);
  return 0;
}
OPTIMIZER_TARGET void __kmpc_barrier_simple_spmd(IdentTy *, int32_t) { blockBarrierAligned(); }
OPTIMIZER_TARGET void __kmpc_barrier_simple_generic(IdentTy *, int32_t) { blockBarrier(); }

// LLVM's OpenMPOpt (-O1 and up) adds calls to these after clang has linked
// the runtime into the kernel image (a custom worker loop for generic
// kernels, guards when it turns a generic kernel into an SPMD one), and clang
// links in only what the image called before. This function, kept by `used`
// and never called, keeps them linked.
namespace devrtl {
__attribute__((used, device, noinline)) void keepOptimizerTargetsAlive() {
  void *Fn = nullptr;
  __kmpc_kernel_parallel(&Fn);
  __kmpc_kernel_end_parallel();
  __kmpc_barrier_simple_spmd(nullptr, 0);
  __kmpc_barrier_simple_generic(nullptr, 0);
  __kmpc_get_hardware_thread_id_in_block();
  __kmpc_get_hardware_num_threads_in_block();
  __kmpc_get_warp_size();
}
}  // namespace devrtl
