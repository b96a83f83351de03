// Archer, LLVM 14's OMPT tool for ThreadSanitizer (libarcher.so), with three
// of its bugs worked around, for the offload programs run under TSan (lit.cfg.py
// loads this library through OMP_TOOL_LIBRARIES in the TSan build; it loads
// Archer and hands libomp Archer's callbacks, five of them wrapped). libomp 14
// is not instrumented: without Archer its barriers, tasks, dependences and
// locks are invisible to TSan and every program with a parallel region would
// report races. Archer 14 crashes on two events that libomp 14 sends:
//
//  - the end of an initial task (a host `teams` league's, every host target
//    teams region's) with a null parallel_data, which Archer 14 reads to
//    free the league's data: the wrapper passes the data Archer set at the
//    task's begin (later Archers read it from the task instead), and an
//    end that libomp wrongly flags initial goes as implicit;
//  - ompt_taskwait_complete (the end of `taskwait depend` and of an
//    undeferred target construct's wait for its dependences,
//    __kmpc_omp_wait_deps) with a null next task, which Archer 14 reads: the
//    wrapper reports it as what it is, an included task that ran and
//    completed on the encountering task (a switch to it, which acquires its
//    dependences, then its completion), which Archer 14 handles.
//
// With a tool, libomp 14 leaves a stale task data in a worker thread's
// per-thread slot after the worker's implicit task ends, which its
// __kmpc_omp_wait_deps asserts is empty: the wrapper clears it.
//
// Archer 14 also leaves a host `teams` league unordered with the code around
// it: it gives each team's initial task parallel data of its own, written
// over the league's (which libomp copies into the league's team from what
// the league's begin got, and passes to every team's begin and to the
// league's end), so neither the fork (the encountering thread's work before
// the construct, then the teams') nor the join (the teams' work, then the
// encountering thread's after it) is a happens-before edge, and device
// memory that the memory manager hands from one host region to the next
// "races" (launch_teams_from_parallel.c, launch_combined_constructs.c). The
// shim gives Archer a copy to write to at a team's begin, keeping the
// league's parallel data whole, and adds both edges: released on what
// Archer made at the league's begin and acquired at each team's begin;
// released on the league's team data when a team arrives at a barrier in its
// initial task (the league's join) and acquired at the league's end.
//
// Not ours, and not shipped: a test tool only.
#define _GNU_SOURCE  // RTLD_DEFAULT
#include <dlfcn.h>
#include <omp-tools.h>
#include <stddef.h>
#include <stdio.h>

static ompt_callback_implicit_task_t ArcherImplicitTask;
static ompt_callback_task_schedule_t ArcherTaskSchedule;
static ompt_callback_parallel_begin_t ArcherParallelBegin;
static ompt_callback_parallel_end_t ArcherParallelEnd;
static ompt_callback_sync_region_t ArcherSyncRegion;
// TSan's annotations (the program's TSan runtime exports them, as Archer
// finds them too); no-ops when absent.
typedef void (*annotate_t)(const char *, int, const volatile void *);
static annotate_t HappensBefore, HappensAfter;
static void release(const void *Key) {
  if (HappensBefore) HappensBefore(__FILE__, __LINE__, Key);
}
static void acquire(const void *Key) {
  if (HappensAfter) HappensAfter(__FILE__, __LINE__, Key);
}
static ompt_set_callback_t RealSetCallback;
static ompt_function_lookup_t RealLookup;
static ompt_get_task_info_t GetTaskInfo;
static ompt_start_tool_result_t *Archer;

// The implicit and initial tasks begun on this thread and not yet ended
// (they nest: a parallel region in a teams league in the thread's own
// initial task), each with whether it began as an initial task and the
// parallel data Archer set for it then.
enum { MaxDepth = 64 };
struct Begun {
  ompt_data_t *Task;
  int Initial;
  ompt_data_t Parallel;
  // An initial task's parallel data (the league's, for a team of a league);
  // NULL for an implicit task.
  const ompt_data_t *League;
};
static __thread struct Begun Stack[MaxDepth];
static __thread int Depth;

// The innermost entry of this thread's stack for Task, or -1.
static int findBegun(const ompt_data_t *Task) {
  for (int I = (Depth < MaxDepth ? Depth : MaxDepth) - 1; I >= 0; --I)
    if (Stack[I].Task == Task) return I;
  return -1;
}

static void implicitTask(ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel,
                         ompt_data_t *Task, unsigned TeamSize, unsigned ThreadNum,
                         int Flags) {
  if (Endpoint == ompt_scope_begin) {
    const int Initial = (Flags & ompt_task_initial) != 0;
    struct Begun B = {Task, Initial, {0}, Initial ? Parallel : NULL};
    if (Parallel) B.Parallel = *Parallel;
    if (Initial) {
      // A team's start: after the league's begin (its parallel data holds
      // what Archer made at the league's begin). Archer makes parallel data
      // of its own for the task: it gets a copy to write to, so the
      // league's stays for the other teams and the league's end.
      if (Parallel && Parallel->ptr) acquire(Parallel->ptr);
      ArcherImplicitTask(Endpoint, Parallel ? &B.Parallel : NULL, Task, TeamSize, ThreadNum,
                         Flags);
    } else {
      ArcherImplicitTask(Endpoint, Parallel, Task, TeamSize, ThreadNum, Flags);
    }
    if (Depth < MaxDepth) Stack[Depth] = B;
    ++Depth;
    return;
  }
  if (Endpoint != ompt_scope_end) return;
  // The task's begin, from the top (it is the innermost task here).
  struct Begun B = {Task, 0, {0}, NULL};
  const int At = findBegun(Task);
  if (At >= 0) {
    B = Stack[At];
    Depth = At;
  } else if (Depth > 0) {
    --Depth;
  }
  // An end flagged initial: give Archer the copy it wrote at the begin
  // (libomp passes no parallel data, or the league's, which Archer did not
  // write). libomp 14 also flags initial the end of an implicit task of a
  // thread that once ran a league (a stale flag): Archer would free a
  // parallel data it never made, so that end goes as implicit.
  if (Flags & ompt_task_initial) {
    if (!B.Initial)
      Flags = (Flags & ~ompt_task_initial) | ompt_task_implicit;
    else
      Parallel = &B.Parallel;
  }
  ArcherImplicitTask(Endpoint, Parallel, Task, TeamSize, ThreadNum, Flags);
  // Archer has freed its data. A worker's end comes with libomp's per-thread
  // copy of the task's data (made at the join barrier), which libomp never
  // clears: left pointing to the freed data, it makes the thread's next
  // `taskwait depend` / undeferred construct with dependences
  // (__kmpc_omp_wait_deps, which keeps its task there and asserts that the
  // slot is empty) abort with "Assertion failure at kmp_taskdeps.cpp(763)"
  // (nowait_dep_exit_data.c, when a worker runs the `single`).
  if (Task) Task->value = 0;
}

static void taskSchedule(ompt_data_t *Prior, ompt_task_status_t Status,
                         ompt_data_t *Next) {
  if (Status != ompt_taskwait_complete || Next) {
    ArcherTaskSchedule(Prior, Status, Next);
    return;
  }
  ompt_data_t *Current = NULL;
  if (!GetTaskInfo || !GetTaskInfo(0, NULL, &Current, NULL, NULL, NULL) || !Current) {
    fprintf(stderr, "archer_shim: no current task at ompt_taskwait_complete\n");
    return;
  }
  ArcherTaskSchedule(Current, ompt_task_switch, Prior);
  ArcherTaskSchedule(Prior, ompt_task_complete, Current);
  // Archer has freed its data; libomp asserts that the tool cleared it.
  Prior->ptr = NULL;
}

static void parallelBegin(ompt_data_t *Task, const ompt_frame_t *Frame, ompt_data_t *Parallel,
                          unsigned Requested, int Flags, const void *Code) {
  ArcherParallelBegin(Task, Frame, Parallel, Requested, Flags, Code);
  // (libomp copies this parallel data into the league's team: each team's
  // begin sees what Archer set here.)
  if ((Flags & ompt_parallel_league) && Parallel->ptr) release(Parallel->ptr);
}

static void parallelEnd(ompt_data_t *Parallel, ompt_data_t *Task, int Flags, const void *Code) {
  // Every team has arrived at the league's join barrier.
  if (Flags & ompt_parallel_league) acquire(Parallel);
  ArcherParallelEnd(Parallel, Task, Flags, Code);
}

static void syncRegion(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
                       ompt_data_t *Parallel, ompt_data_t *Task, const void *Code) {
  // A team arriving at a barrier in its initial task (the league's join):
  // its work so far happens before the league's end.
  if (Kind != ompt_sync_region_taskwait && Kind != ompt_sync_region_taskgroup &&
      Kind != ompt_sync_region_reduction && Endpoint != ompt_scope_end) {
    const int At = findBegun(Task);
    if (At >= 0 && Stack[At].League) release(Stack[At].League);
  }
  ArcherSyncRegion(Kind, Endpoint, Parallel, Task, Code);
}

static ompt_set_result_t setCallback(ompt_callbacks_t Event, ompt_callback_t Callback) {
  if (Event == ompt_callback_implicit_task) {
    ArcherImplicitTask = (ompt_callback_implicit_task_t)Callback;
    Callback = (ompt_callback_t)implicitTask;
  } else if (Event == ompt_callback_task_schedule) {
    ArcherTaskSchedule = (ompt_callback_task_schedule_t)Callback;
    Callback = (ompt_callback_t)taskSchedule;
  } else if (Event == ompt_callback_parallel_begin) {
    ArcherParallelBegin = (ompt_callback_parallel_begin_t)Callback;
    Callback = (ompt_callback_t)parallelBegin;
  } else if (Event == ompt_callback_parallel_end) {
    ArcherParallelEnd = (ompt_callback_parallel_end_t)Callback;
    Callback = (ompt_callback_t)parallelEnd;
  } else if (Event == ompt_callback_sync_region) {
    ArcherSyncRegion = (ompt_callback_sync_region_t)Callback;
    Callback = (ompt_callback_t)syncRegion;
  }
  return RealSetCallback(Event, Callback);
}

static ompt_interface_fn_t lookup(const char *Name) {
  if (Name && __builtin_strcmp(Name, "ompt_set_callback") == 0)
    return (ompt_interface_fn_t)setCallback;
  return RealLookup(Name);
}

static int initialize(ompt_function_lookup_t Lookup, int InitialDevice,
                      ompt_data_t *ToolData) {
  RealLookup = Lookup;
  RealSetCallback = (ompt_set_callback_t)Lookup("ompt_set_callback");
  GetTaskInfo = (ompt_get_task_info_t)Lookup("ompt_get_task_info");
  HappensBefore = (annotate_t)dlsym(RTLD_DEFAULT, "AnnotateHappensBefore");
  HappensAfter = (annotate_t)dlsym(RTLD_DEFAULT, "AnnotateHappensAfter");
  return Archer->initialize(lookup, InitialDevice, ToolData);
}

static void finalize(ompt_data_t *ToolData) { Archer->finalize(ToolData); }

ompt_start_tool_result_t *ompt_start_tool(unsigned OmpVersion, const char *RuntimeVersion) {
  static ompt_start_tool_result_t Result = {initialize, finalize, {0}};
  void *Lib = dlopen(ARCHER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    fprintf(stderr, "archer_shim: %s\n", dlerror());
    return NULL;
  }
  ompt_start_tool_result_t *(*Start)(unsigned, const char *) =
      (ompt_start_tool_result_t * (*)(unsigned, const char *)) dlsym(Lib, "ompt_start_tool");
  Archer = Start ? Start(OmpVersion, RuntimeVersion) : NULL;
  if (!Archer)
    return NULL;
  Result.tool_data = Archer->tool_data;
  return &Result;
}
