// The shared-memory state of a team and its threads, the device environment
// the plugin writes, and the OpenMP API calls that read them.
#include "state.h"

namespace devrtl {
namespace {
SHARED ThreadState Threads[kMaxThreadsPerBlock];
SHARED TeamState Team;
// One thread writes these and others read them after a barrier. A store of
// their addresses, in a function that is kept but never runs, makes sure
// LLVM never takes them for variables that nothing else can address, whose
// values it may keep in registers across the SPMD barriers (see the
// barriers in common.h).
GLOBAL void *PublishedState[2];
__attribute__((used, device, noinline)) void publishState() {
  PublishedState[0] = Threads;
  PublishedState[1] = &Team;
}
}  // namespace

DEVICE ThreadState &threadState() { return Threads[hwThreadId()]; }
DEVICE TeamState &teamState() { return Team; }

DEVICE void initThreadState() { threadState() = ThreadState{1, 0, 0}; }

DEVICE void initTeamState(int8_t Mode) {
  Team.Mode = Mode;
  Team.WorkFn = nullptr;
  Team.Args = nullptr;
  Team.RegionThreads = 0;
  Team.SharedStackTop = 0;
  Team.TeamAllocationsPublished = 0;
  Team.LastTeamFlag = 0;
}

DEVICE void teamBarrier() {
  ThreadState &S = threadState();
  if (S.Level == 0) {
    // An SPMD team's sequential part runs on every thread of the block; a
    // generic team's runs on its main thread alone.
    if (isSPMD()) blockBarrierAligned();
    return;
  }
  if (!inActiveRegion(S)) return;
  if (S.TeamSize == hwBlockSize())
    blockBarrierAligned();  // an SPMD team: generic regions leave the main warp out
  else
    partialTeamBarrier();
}

__attribute__((device, noinline)) void blockBarrier() { __nvvm_barrier_sync(0); }

__attribute__((device, noinline)) void partialTeamBarrier() {
  uint32_t N = threadState().TeamSize;
  if (N < kWarpSize)
    warpSync((1u << N) - 1);  // a team smaller than a warp is lanes 0..N-1 of warp 0
  else
    teamBarrierCounted(N);  // N is a multiple of the warp size (see parallel.cu)
}

}  // namespace devrtl

using namespace devrtl;

// Written by the plugin (cuModuleGetGlobal + copy) before the first launch.
// Weak: every translation unit with target regions links the runtime in.
extern "C" {
__attribute__((weak, used)) CONSTANT DeviceEnvironment omptarget_device_environment;
}

DEVICE const DeviceEnvironment &devrtl::deviceEnvironment() { return omptarget_device_environment; }

// --- OpenMP API: threads, teams, levels ---------------------------------------
ENTRY int omp_get_thread_num() { return static_cast<int>(threadInTeam()); }
ENTRY int omp_get_num_threads() { return static_cast<int>(teamSize()); }
ENTRY int omp_get_team_num() { return static_cast<int>(blockId()); }
ENTRY int omp_get_num_teams() { return static_cast<int>(numBlocks()); }
ENTRY int omp_get_level() { return threadState().Level; }
// Only the outermost region can be active (nested ones are serialized), and
// a thread inside nested ones keeps its level-1 region's flag.
ENTRY int omp_get_active_level() {
  ThreadState &S = threadState();
  return S.Level > 0 && (S.Flags & kActiveRegion) ? 1 : 0;
}
ENTRY int omp_in_parallel() { return omp_get_active_level() > 0; }

// The threads a parallel region started here would get: nested regions are
// serialized; a team's sequential part would get the block's threads.
ENTRY int omp_get_max_threads() {
  if (threadState().Level > 0) return 1;
  uint32_t Workers = isSPMD() ? hwBlockSize() : genericWorkerCount();
  return static_cast<int>(Workers > 0 ? Workers : 1);
}
ENTRY int omp_get_thread_limit() { return static_cast<int>(hwBlockSize()); }

// The nteams-var and teams-thread-limit-var ICVs. No teams construct can
// start inside a target region, so they describe the current launch: its
// number of teams and the threads each has. Setting them has no effect.
ENTRY int omp_get_max_teams() { return static_cast<int>(numBlocks()); }
ENTRY int omp_get_teams_thread_limit() { return omp_get_thread_limit(); }
ENTRY void omp_set_num_teams(int) {}
ENTRY void omp_set_teams_thread_limit(int) {}

ENTRY int omp_get_ancestor_thread_num(int Level) {
  ThreadState &S = threadState();
  if (Level < 0 || Level > S.Level) return -1;
  if (Level == 1 && (S.Flags & kActiveRegion)) return static_cast<int>(hwThreadId());
  return 0;
}
ENTRY int omp_get_team_size(int Level) {
  ThreadState &S = threadState();
  if (Level < 0 || Level > S.Level) return -1;
  if (Level == 1 && (S.Flags & kActiveRegion)) return S.TeamSize;
  return 1;
}

// --- OpenMP API: the device and its fixed answers -------------------------------
ENTRY int omp_get_num_devices() { return static_cast<int>(deviceEnvironment().NumDevices); }
ENTRY int omp_get_device_num() { return static_cast<int>(deviceEnvironment().DeviceNum); }
ENTRY int omp_get_initial_device() { return static_cast<int>(deviceEnvironment().NumDevices); }
ENTRY int omp_get_default_device() { return static_cast<int>(deviceEnvironment().DeviceNum); }
ENTRY int omp_is_initial_device() { return 0; }
ENTRY int omp_get_num_procs() { return static_cast<int>(hwBlockSize() * numBlocks()); }
ENTRY int omp_get_dynamic() { return 0; }
ENTRY void omp_set_dynamic(int) {}
ENTRY int omp_get_nested() { return 0; }
ENTRY void omp_set_nested(int) {}
ENTRY int omp_get_max_active_levels() { return 1; }
ENTRY void omp_set_max_active_levels(int) {}
ENTRY void omp_set_num_threads(int) {}
ENTRY int omp_in_final() { return 0; }
ENTRY int omp_get_proc_bind() { return 0; }
ENTRY int omp_get_num_places() { return 0; }
ENTRY int omp_get_place_num_procs(int) { return 0; }
ENTRY int omp_get_place_num() { return -1; }
ENTRY int omp_get_partition_num_places() { return 0; }
ENTRY void omp_get_partition_place_nums(int *) {}
ENTRY int omp_get_cancellation() { return 0; }
ENTRY int omp_get_max_task_priority() { return 0; }
ENTRY void omp_get_schedule(int *Kind, int *Chunk) {
  *Kind = 1;  // omp_sched_static
  *Chunk = 0;
}
ENTRY void omp_set_schedule(int, int) {}

// --- runtime queries clang and LLVM's OpenMPOpt emit ------------------------------
ENTRY int32_t __kmpc_global_thread_num(IdentTy *) { return omp_get_thread_num(); }
ENTRY int8_t __kmpc_is_spmd_exec_mode() { return isSPMD() ? 1 : 0; }
ENTRY uint16_t __kmpc_parallel_level(IdentTy *, int32_t) { return threadState().Level; }
ENTRY int32_t __kmpc_get_hardware_thread_id_in_block() {
  return static_cast<int32_t>(hwThreadId());
}
// In an SPMD team's sequential part clang asks this for one thing: the chunk
// of a distribute loop that has no dist_schedule clause (one iteration per
// thread). The flag lets __kmpc_distribute_static_init tell that chunk from
// one a dist_schedule clause asked for (workshare.cu).
ENTRY int32_t __kmpc_get_hardware_num_threads_in_block() {
  ThreadState &S = threadState();
  if (S.Level == 0 && isSPMD()) S.Flags |= kAskedBlockSize;
  return static_cast<int32_t>(hwBlockSize());
}
ENTRY int32_t __kmpc_get_hardware_num_blocks() { return static_cast<int32_t>(numBlocks()); }
ENTRY int32_t __kmpc_get_warp_size() { return static_cast<int32_t>(kWarpSize); }

// Hints the device has no use for.
ENTRY void __kmpc_push_num_teams(IdentTy *, int32_t, int32_t, int32_t) {}
ENTRY void __kmpc_push_proc_bind(IdentTy *, int32_t, int32_t) {}
ENTRY void omp_get_place_proc_ids(int, int *) {}
ENTRY void omp_set_default_device(int) {}
