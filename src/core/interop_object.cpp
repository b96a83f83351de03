#include "interop_object.h"

#include <cstring>

#include "debug.h"
#include "device.h"
#include "scoped_lock.h"

namespace omptarget::core {

using abi::kOffloadSuccess;

namespace {
// What a plugin without interop_info (LLVM 14's) is taken to be. LLVM 14's
// CUDA plugin gives the primary context, the CUdevice ordinal in the device
// pointer and a CUstream in the queue, as ours does.
__tgt_interop_info guessInfo(const std::string &PluginFile) {
  __tgt_interop_info Info{};
  std::string Base = PluginFile.substr(PluginFile.find_last_of('/') + 1);
  if (Base.find("rtl.cuda") != std::string::npos) {
    Info.FrId = 1;  // omp_ifr_cuda
    Info.FrName = "cuda";
    Info.Vendor = 11;  // nvidia, in the OpenMP Additional Definitions
    Info.VendorName = "nvidia";
    Info.DeviceType = "CUdevice (int): the CUDA device ordinal";
    Info.DeviceIsInt = 1;
    Info.ContextType = "CUcontext";
    Info.TargetSyncType = "CUstream (cudaStream_t)";
  }
  return Info;
}

InteropProperty value(PropertyType Type, bool Has, const char *Desc) {
  InteropProperty P;
  P.Type = Type;
  P.HasValue = Has;
  P.TypeDesc = Has ? Desc : nullptr;
  return P;
}
}  // namespace

Expected<std::unique_ptr<InteropObject>> InteropObject::create(Device &Dev, int32_t DeviceNum,
                                                               bool TargetSync) {
  auto Obj = std::make_unique<InteropObject>(Dev, DeviceNum);
  const PluginFunctions &F = Dev.plugin().fn();
  const int32_t Local = Dev.pluginDeviceId();
  __tgt_device_info Handles{};
  bool HaveHandles = false;
  if (F.init_device_info) {
    const char *Why = nullptr;
    HaveHandles = F.init_device_info(Local, &Handles, &Why) == kOffloadSuccess;
    if (!HaveHandles)
      OMPT_TRACE("omptarget",
                 "interop init: device %d: init_device_info failed (%s); the object "
                 "has no device or context handle",
                 DeviceNum, Why ? Why : "no reason given");
  }
  if (TargetSync && F.init_async_info) {
    __tgt_async_info *AI = nullptr;
    if (F.init_async_info(Local, &AI) != kOffloadSuccess || !AI)
      return makeError(
          "interop init: device %d: the plugin %s could not create a queue for the "
          "targetsync object (init_async_info failed)",
          DeviceNum, Dev.plugin().name().c_str());
    Obj->Sync_ = AI;
  } else if (TargetSync) {
    OMPT_TRACE("omptarget",
               "interop init: device %d: the plugin has no init_async_info; the "
               "targetsync object has no queue",
               DeviceNum);
  }
  __tgt_interop_info Info{};
  bool Described = F.interop_info &&
                   F.interop_info(Local, OMPTARGET_INTEROP_INFO_VERSION, &Info) == kOffloadSuccess;
  if (!Described) Info = guessInfo(Dev.plugin().name());
  if (!HaveHandles) Handles = {};
  Obj->describe(Info, Described, Handles, HaveHandles);
  return Obj;
}

void InteropObject::describe(const __tgt_interop_info &Info, bool Described,
                             const __tgt_device_info &Handles, bool HaveHandles) {
  using interop::kFirstProperty;
  auto Set = [this](int Id, InteropProperty P) { Props_[static_cast<size_t>(-Id - 1)] = P; };
  InteropProperty P = value(PropertyType::Int, Info.FrId != 0, "omp_interop_fr_t (intptr_t)");
  P.Int = Info.FrId;
  Set(-1, P);
  P = value(PropertyType::Str, Info.FrName != nullptr, "const char *: the foreign runtime's name");
  P.Str = Info.FrName;
  Set(-2, P);
  P = value(PropertyType::Int, Info.Vendor != 0,
            "int: the vendor's number in the OpenMP Additional Definitions");
  P.Int = Info.Vendor;
  Set(-3, P);
  P = value(PropertyType::Str, Info.VendorName != nullptr, "const char *: the vendor's name");
  P.Str = Info.VendorName;
  Set(-4, P);
  P = value(PropertyType::Int, true, "int: the OpenMP device number");
  P.Int = DeviceNum_;
  Set(-5, P);
  Set(-6, value(PropertyType::Ptr, false, nullptr));  // no plugin has a platform handle
  // Device and context: what the plugin's description says, or, for a
  // plugin that gave none and that the core does not know, untyped pointers
  // when init_device_info gave non-null ones.
  auto Has = [&](const char *Type, void *Handle) {
    return HaveHandles && (Type != nullptr || (!Described && Handle != nullptr));
  };
  if (Info.DeviceIsInt) {
    P = value(PropertyType::Int, Has(Info.DeviceType, nullptr), Info.DeviceType);
    P.Int = reinterpret_cast<intptr_t>(Handles.Device);
  } else {
    P = value(PropertyType::Ptr, Has(Info.DeviceType, Handles.Device),
              Info.DeviceType ? Info.DeviceType : "void *");
    P.Ptr = Handles.Device;
  }
  Set(-7, P);
  P = value(PropertyType::Ptr, Has(Info.ContextType, Handles.Context),
            Info.ContextType ? Info.ContextType : "void *");
  P.Ptr = Handles.Context;
  Set(-8, P);
  P = value(PropertyType::Ptr, Sync_ != nullptr,
            Info.TargetSyncType ? Info.TargetSyncType : "void *");
  P.Ptr = Sync_ ? Sync_->Queue : nullptr;
  Set(kFirstProperty, P);
}

InteropObject::~InteropObject() = default;

Status InteropObject::waitForQueue() {
  if (!Sync_) return Status::success();
  const PluginFunctions &F = Dev_.plugin().fn();
  const int32_t Local = Dev_.pluginDeviceId();
  if (!F.create_event || !F.record_event || !F.sync_event) {
    // A plugin with a queue but no events: nothing can wait for the queue
    // without giving it back.
    OMPT_TRACE("omptarget",
               "interop use: device %d: the plugin has no events; not waiting for "
               "the targetsync queue",
               DeviceNum_);
    return Status::success();
  }
  ScopedLock Lock(EventMutex_);
  if (!UseEvent_ && F.create_event(Local, &UseEvent_) != kOffloadSuccess) {
    UseEvent_ = nullptr;
    return makeError(
        "interop use: device %d: cannot create an event to wait for the targetsync "
        "queue %p",
        DeviceNum_, Sync_->Queue);
  }
  if (F.record_event(Local, UseEvent_, Sync_) != kOffloadSuccess)
    return makeError(
        "interop use: device %d: recording an event on the targetsync queue %p "
        "failed",
        DeviceNum_, Sync_->Queue);
  if (F.sync_event(Local, UseEvent_) != kOffloadSuccess)
    return makeError(
        "interop use: device %d: waiting for the targetsync queue %p failed (work "
        "queued on it failed?)",
        DeviceNum_, Sync_->Queue);
  return Status::success();
}

Status InteropObject::releaseQueue() {
  if (!Sync_) return Status::success();
  const PluginFunctions &F = Dev_.plugin().fn();
  const int32_t Local = Dev_.pluginDeviceId();
  {
    ScopedLock Lock(EventMutex_);
    if (UseEvent_ && F.destroy_event) (void)F.destroy_event(Local, UseEvent_);
    UseEvent_ = nullptr;
  }
  __tgt_async_info *AI = Sync_;
  void *Queue = AI->Queue;
  Sync_ = nullptr;
  int32_t Rc = kOffloadSuccess;
  if (F.release_async_info)
    Rc = F.release_async_info(Local, AI);  // waits, gives the queue back, frees AI
  else if (F.synchronize && AI->Queue)
    Rc = F.synchronize(Local, AI);  // waits and gives the queue back; AI stays the plugin's
  if (Rc != kOffloadSuccess)
    return makeError(
        "interop destroy: device %d: waiting for the targetsync queue %p failed "
        "(work queued on it failed?)",
        DeviceNum_, Queue);
  return Status::success();
}

InteropRegistry::~InteropRegistry() = default;

void *InteropRegistry::add(std::unique_ptr<InteropObject> Obj) {
  void *Handle = Obj.get();
  ScopedLock Lock(Mutex_);
  Live_.emplace(Handle, std::shared_ptr<InteropObject>(std::move(Obj)));
  return Handle;
}

std::shared_ptr<InteropObject> InteropRegistry::find(const void *Handle) const {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(Handle);
  return It == Live_.end() ? nullptr : It->second;
}

std::shared_ptr<InteropObject> InteropRegistry::remove(const void *Handle) {
  ScopedLock Lock(Mutex_);
  auto It = Live_.find(Handle);
  if (It == Live_.end()) return nullptr;
  std::shared_ptr<InteropObject> Obj = std::move(It->second);
  Live_.erase(It);
  return Obj;
}

}  // namespace omptarget::core
