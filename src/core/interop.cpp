// The interop construct (OpenMP 5.1 §2.15.1): __tgt_interop_init / use /
// destroy, one call per construct. clang 14 passes (source location, global
// thread id, address of the interop variable, [init only] the interop type as
// an i64: 1 target, 2 targetsync, the device clause's value or -1, the number
// of dependences and libomp's dependence list, nowait).
//
// Every call first waits for the construct's dependences (its task is empty
// and included: its predecessors complete before it does) through libomp's
// __kmpc_omp_wait_deps, then:
//   init     creates an object on the device (-1: the default device) and
//            stores it in the variable; the initial device, an
//            offload-disabled run or a failure store omp_interop_none;
//   use      waits on the host for the work queued so far on the object's
//            targetsync queue (foreign tasks created before the construct
//            complete before it);
//   destroy  waits likewise, gives the queue back, frees the object and
//            stores omp_interop_none.
// `nowait` is accepted and ignored: each construct has completed when the
// call returns, which orders at least what the deferred task would.
// Known clang 14 gaps, not ours to fix: only the first depend clause of a
// construct reaches the runtime (`depend(in: a, b)` passes both), and
// `init(target, targetsync: obj)` passes type 1 (target), so that object has
// no targetsync queue.
#include <cinttypes>
#include <cstdint>

#include "debug.h"
#include "device.h"
#include "export.h"
#include "interop_object.h"
#include "omptarget/abi.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

// libomp's dependence wait (weak: the core also runs without libomp).
extern "C" void __kmpc_omp_wait_deps(ident_t *Loc, int32_t Gtid, int32_t NDeps, void *DepList,
                                     int32_t NDepsNoAlias, void *NoAliasDepList)
    __attribute__((weak));

namespace {

constexpr int64_t kTypeTargetSync = 2;

void waitForDependences(const char *Call, ident_t *Loc, int32_t Gtid, int32_t NDeps,
                        void *DepList) {
  if (NDeps <= 0 || !DepList) return;
  if (!__kmpc_omp_wait_deps) {
    debug::warning(
        "%s: libomp's __kmpc_omp_wait_deps is not loaded; the construct's %d "
        "dependence(s) are not waited for",
        Call, NDeps);
    return;
  }
  __kmpc_omp_wait_deps(Loc, Gtid, NDeps, DepList, 0, nullptr);
}

// The object behind the variable of a use/destroy construct, or null (with
// an error line for a handle that is not a live object).
std::shared_ptr<InteropObject> objectOf(const char *Call, void **InteropPtr, int32_t DeviceId,
                                        bool Remove) {
  if (!InteropPtr || !*InteropPtr) {
    OMPT_TRACE("omptarget", "%s: the interop variable is omp_interop_none; nothing to do", Call);
    return nullptr;
  }
  InteropRegistry &Reg = Runtime::get().interops();
  std::shared_ptr<InteropObject> Obj = Remove ? Reg.remove(*InteropPtr) : Reg.find(*InteropPtr);
  if (!Obj) {
    debug::error("%s: " OMPT_PTR_FMT
                 " is not an interop object of this runtime (never "
                 "initialized by `interop init`, or destroyed already); ignored",
                 Call, OMPT_PTR(*InteropPtr));
    return nullptr;
  }
  if (DeviceId >= 0 && DeviceId != Obj->deviceNum())
    debug::warning(
        "%s: the device clause names device %d but the object belongs to device %d; "
        "using device %d",
        Call, DeviceId, Obj->deviceNum(), Obj->deviceNum());
  return Obj;
}

}  // namespace

extern "C" {

OMPT_EXPORT void __tgt_interop_init(ident_t *Loc, int32_t Gtid, void **InteropPtr, int64_t Type,
                                    int32_t DeviceId, int32_t NDeps, void *DepList,
                                    int32_t /*NoWait*/) {
  waitForDependences("interop init", Loc, Gtid, NDeps, DepList);
  if (!InteropPtr) return;
  *InteropPtr = nullptr;
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown("interop init", "the interop object is omp_interop_none");
    return;
  }
  Runtime &R = Runtime::get();
  int64_t Id = DeviceId == abi::kDeviceDefault ? defaultDevice() : DeviceId;
  if (R.offloadDisabled() || isInitialDevice(Id)) {
    OMPT_TRACE("omptarget",
               "interop init: device %" PRId64
               " is the host (no foreign runtime); "
               "the object is omp_interop_none",
               Id);
    return;
  }
  Expected<Device *> D = R.readyDevice(Id, "interop init");
  if (!D) {
    debug::error("%s; the interop object is omp_interop_none", D.error().message().c_str());
    return;
  }
  bool TargetSync = Type == kTypeTargetSync;
  Expected<std::unique_ptr<InteropObject>> Obj =
      InteropObject::create(**D, static_cast<int32_t>(Id), TargetSync);
  if (!Obj) {
    debug::error("%s; the interop object is omp_interop_none", Obj.error().message().c_str());
    return;
  }
  *InteropPtr = R.interops().add(std::move(*Obj));
  OMPT_TRACE("omptarget", "interop init: device %" PRId64 ": %s object " OMPT_PTR_FMT, Id,
             TargetSync ? "targetsync" : "target", OMPT_PTR(*InteropPtr));
}

OMPT_EXPORT void __tgt_interop_use(ident_t *Loc, int32_t Gtid, void **InteropPtr, int32_t DeviceId,
                                   int32_t NDeps, void *DepList, int32_t /*NoWait*/) {
  waitForDependences("interop use", Loc, Gtid, NDeps, DepList);
  RuntimeUse Use;  // after shutdown every object is gone: nothing to use
  if (!Use) return;
  std::shared_ptr<InteropObject> Obj = objectOf("interop use", InteropPtr, DeviceId, false);
  if (!Obj) return;
  if (Status S = Obj->waitForQueue(); !S) debug::error("%s", S.error().message().c_str());
}

OMPT_EXPORT void __tgt_interop_destroy(ident_t *Loc, int32_t Gtid, void **InteropPtr,
                                       int32_t DeviceId, int32_t NDeps, void *DepList,
                                       int32_t /*NoWait*/) {
  waitForDependences("interop destroy", Loc, Gtid, NDeps, DepList);
  RuntimeUse Use;  // after shutdown every object is destroyed already
  if (!Use) {
    if (InteropPtr) *InteropPtr = nullptr;
    return;
  }
  std::shared_ptr<InteropObject> Obj = objectOf("interop destroy", InteropPtr, DeviceId, true);
  if (InteropPtr) *InteropPtr = nullptr;
  if (!Obj) return;
  if (Status S = Obj->releaseQueue(); !S) debug::error("%s", S.error().message().c_str());
}

}  // extern "C"
