// The entry points LLVM 19's libomptarget.so.19.1 exports beyond LLVM 14's,
// with LLVM 19's semantics (__tgt_target_kernel and its nowait form are with
// the other region entries, in api_target.cpp). Those of the tool interfaces
// that omptarget does not offer yet (kernel record and replay, OMPT) exist so
// that no program or tool fails on a missing symbol: called, they say so in
// one line and do nothing.
#include <cinttypes>

#include "debug.h"
#include "export.h"
#include "runtime.h"
#include "table_dump.h"

using namespace omptarget;
using namespace omptarget::core;

extern "C" {

OMPT_EXPORT int omp_get_initial_device(void);

// The host is the initial device (the device number a target region's
// host version reports is the device's own, in the device runtime).
OMPT_EXPORT int omp_get_device_num(void) { return omp_get_initial_device(); }

// On the host, a kernel's dynamic group memory does not exist: null, as
// LLVM 19 answers outside a kernel.
OMPT_EXPORT void *llvm_omp_target_dynamic_shared_alloc(void) { return nullptr; }

// Every started device's mapping table, as LIBOMPTARGET_INFO's table dump
// prints it, under the location "libomptarget" as LLVM 19 names it.
OMPT_EXPORT void ompx_dump_mapping_tables(void) {
  RuntimeUse Use;
  if (!Use) return;
  static const ident_t Loc = {0, 0, 0, 0, ";libomptarget;libomptarget;0;0;;"};
  DeviceTable &Devices = Runtime::get().devices();
  for (int32_t Id = 0; Id < Devices.size(); ++Id)
    if (Device *D = Devices.get(Id); D && D->isReady()) info::dumpTable(&Loc, *D);
}

// LLVM 19 counts these (its runtime starts at the first and stops at the
// last); ours starts with the library and stops at exit, so a balanced pair
// changes nothing. The first one starts the plugins, as LLVM 19's does.
OMPT_EXPORT void __tgt_rtl_init(void) {
  if (RuntimeUse Use; Use) Runtime::get().activateAllPlugins();
}
OMPT_EXPORT void __tgt_rtl_deinit(void) {
  OMPT_TRACE("omptarget", "__tgt_rtl_deinit: the runtime stops at exit; nothing to do now");
}

// libomp 19 re-enters a target task through this with the handle that the
// offload runtime stored in the task. Ours never stores one (its regions are
// complete when their task body returns), so a call is a program's own
// mistake: said, and the handle cleared so that the task completes.
// libomp 19 calls it, instead of the task's routine, for a target task whose
// slot holds a deferred construct's handle, until the slot is emptied
// (deferred_constructs.h).
OMPT_EXPORT void __tgt_target_nowait_query(void **AsyncHandle) {
  if (!AsyncHandle || !*AsyncHandle) {
    debug::error("__tgt_target_nowait_query: %s; is this a target nowait region's task?",
                 AsyncHandle ? "empty handle" : "null handle pointer");
    return;
  }
  RuntimeUse Use;
  if (!Use) {
    // The runtime completed every deferred construct when exit() tore it down.
    *AsyncHandle = nullptr;
    return;
  }
  Runtime::get().deferred().query(AsyncHandle);
}

// Kernel record and replay (LIBOMPTARGET_RECORD, llvm-omp-kernel-replay):
// not offered yet.
OMPT_EXPORT int __tgt_activate_record_replay(int64_t DeviceId, uint64_t MemorySize, void *,
                                             bool IsRecord, bool, uint64_t &) {
  debug::error(
      "__tgt_activate_record_replay: kernel %s is not supported by omptarget (device "
      "%" PRId64 ", %" PRIu64 " bytes); nothing was %s",
      IsRecord ? "recording" : "replay", DeviceId, MemorySize, IsRecord ? "recorded" : "replayed");
  return abi::kOffloadFail;
}
OMPT_EXPORT int __tgt_target_kernel_replay(ident_t *, int64_t DeviceId, void *HostPtr, void *,
                                           int64_t, void **, ptrdiff_t *, int32_t, int32_t, int32_t,
                                           uint64_t) {
  debug::error(
      "__tgt_target_kernel_replay: kernel replay is not supported by omptarget (device "
      "%" PRId64 ", region %p); nothing ran",
      DeviceId, HostPtr);
  return abi::kOffloadFail;
}

// libomp 19 and OMPT tools connect an offload runtime through this. Ours
// does not dispatch OMPT's target callbacks yet: the tool gets none.
OMPT_EXPORT void ompt_libomptarget_connect(void *) {
  OMPT_TRACE("omptarget",
             "ompt_libomptarget_connect: omptarget does not dispatch OMPT target callbacks yet");
}

}  // extern "C"
