// Archer, LLVM 14's OMPT tool for ThreadSanitizer (libarcher.so), with two of
// its bugs worked around, for the offload programs run under TSan (lit.cfg.py
// loads this library through OMP_TOOL_LIBRARIES in the TSan build; it loads
// Archer and hands libomp Archer's callbacks, two of them wrapped). libomp 14
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
// Not ours, and not shipped: a test tool only.
#include <dlfcn.h>
#include <omp-tools.h>
#include <stddef.h>
#include <stdio.h>

static ompt_callback_implicit_task_t ArcherImplicitTask;
static ompt_callback_task_schedule_t ArcherTaskSchedule;
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
};
static __thread struct Begun Stack[MaxDepth];
static __thread int Depth;

static void implicitTask(ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel,
                         ompt_data_t *Task, unsigned TeamSize, unsigned ThreadNum,
                         int Flags) {
  if (Endpoint == ompt_scope_begin) {
    ArcherImplicitTask(Endpoint, Parallel, Task, TeamSize, ThreadNum, Flags);
    if (Depth < MaxDepth) {
      struct Begun B = {Task, (Flags & ompt_task_initial) != 0, {0}};
      if (Parallel) B.Parallel = *Parallel;
      Stack[Depth] = B;
    }
    ++Depth;
    return;
  }
  if (Endpoint != ompt_scope_end) return;
  // The task's begin, from the top (it is the innermost task here).
  struct Begun B = {Task, 0, {0}};
  int Found = 0;
  for (int I = (Depth < MaxDepth ? Depth : MaxDepth) - 1; I >= 0; --I)
    if (Stack[I].Task == Task) {
      B = Stack[I];
      Depth = I;
      Found = 1;
      break;
    }
  if (!Found && Depth > 0) --Depth;
  // An end flagged initial with no parallel data: give Archer the data it
  // made at the begin. libomp 14 also flags initial the end of an implicit
  // task of a thread that once ran a league (a stale flag): Archer would
  // free a parallel data it never made, so that end goes as implicit.
  if (Flags & ompt_task_initial) {
    if (!B.Initial)
      Flags = (Flags & ~ompt_task_initial) | ompt_task_implicit;
    else if (!Parallel)
      Parallel = &B.Parallel;
  }
  ArcherImplicitTask(Endpoint, Parallel, Task, TeamSize, ThreadNum, Flags);
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

static ompt_set_result_t setCallback(ompt_callbacks_t Event, ompt_callback_t Callback) {
  if (Event == ompt_callback_implicit_task) {
    ArcherImplicitTask = (ompt_callback_implicit_task_t)Callback;
    Callback = (ompt_callback_t)implicitTask;
  } else if (Event == ompt_callback_task_schedule) {
    ArcherTaskSchedule = (ompt_callback_task_schedule_t)Callback;
    Callback = (ompt_callback_t)taskSchedule;
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
