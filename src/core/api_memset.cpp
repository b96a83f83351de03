// omp_target_memset (OpenMP 5.2) and omp_target_memset_async (OpenMP 6.0):
// fill `count` bytes at `ptr` on device `device_num` with the byte `value`;
// declared in include/omptarget/omp_target_ext.h.
//
// Every argument is checked when the routine is called, before anything is
// written or a task created; a bad call reports "<routine>: ..." and returns
// NULL. A good call returns `ptr`.
//   * The initial device (any of its numbers): memset.
//   * A device: the same route on every plugin (ours and LLVM 14's), built on
//     data_submit only: one host buffer of at most kFillChunkBytes is filled
//     once and submitted to consecutive chunks of the range on one AsyncInfo,
//     then synchronized. A plugin entry that fills device memory in place
//     would save the transfer; none exists yet.
//   * Checks: the device exists; the pointer is not null; when the range
//     starts in a block of omp_target_alloc / llvm_omp_target_alloc_*, the
//     block is of that device (or, for the initial device, pinned host or
//     managed memory of any device) and holds the whole range; a device
//     pointer is not a host address mapped on that device (the caller meant
//     its omp_get_mapped_ptr). Other device addresses (use_device_ptr,
//     mapped storage) are the plugin's to accept or refuse.
// omp_target_memset_async makes the fill a task with the dependences of its
// depend objects, through omp_tasks.h exactly as omp_target_memcpy_async
// does; a failure of the deferred fill can only be reported.
#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <vector>

#include "async_info.h"
#include "debug.h"
#include "export.h"
#include "map_ops.h"
#include "omp_tasks.h"
#include "profile.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

// The largest host buffer a device fill stages through.
constexpr size_t kFillChunkBytes = size_t(1) << 20;

// Fills [Ptr, +Count) on D (null: the host) with the byte Value.
Status fillBytes(char *Ptr, Device *D, int Value, size_t Count) {
  if (Count == 0) return Status::success();
  if (!D) {
    std::memset(Ptr, Value, Count);
    return Status::success();
  }
  std::vector<unsigned char> Pattern(std::min(Count, kFillChunkBytes),
                                     static_cast<unsigned char>(Value));
  // Declared after Pattern: an early return synchronizes (in ~AsyncInfo)
  // before the buffer the queued copies read goes away.
  AsyncInfo Async(*D);
  for (size_t Done = 0; Done < Count;) {
    size_t N = std::min(Pattern.size(), Count - Done);
    if (Status S = D->submit(Ptr + Done, Pattern.data(), static_cast<int64_t>(N), *Async.raw()); !S)
      return S;
    Done += N;
  }
  return Async.synchronize();
}

// Resolves DeviceNum (D null: the host) and checks the range; false after
// reporting.
bool checkFill(const char *Call, void *Ptr, size_t Count, int DeviceNum, Device *&D) {
  Runtime &R = Runtime::get();
  D = nullptr;
  bool Host = isInitialDevice(DeviceNum);
  if (!Host) {
    auto Ready = R.readyDevice(DeviceNum, Call);
    if (!Ready) {
      debug::error("%s", Ready.error().message().c_str());
      return false;
    }
    D = *Ready;
  }
  if (Count == 0) return true;
  if (!Ptr) {
    debug::error("%s: null pointer (%zu bytes on device %d)", Call, Count, DeviceNum);
    return false;
  }
  int64_t Key = Host ? AllocationRegistry::kInitialDeviceKey : DeviceNum;
  if (auto B = R.allocations().containing(Ptr)) {
    auto Begin = reinterpret_cast<uintptr_t>(B->Begin);
    auto Offset = reinterpret_cast<uintptr_t>(Ptr) - Begin;
    // Pinned host and managed memory of a device is host memory too.
    bool HostReachable = B->Kind == abi::kAllocHost || B->Kind == abi::kAllocShared;
    if (B->DeviceId != Key && !(Host && HostReachable)) {
      debug::error("%s: pointer " OMPT_PTR_FMT
                   " is in memory that %s allocated on %s, not on "
                   "%s; pass that device",
                   Call, OMPT_PTR(Ptr), AllocationRegistry::allocatorName(B->Kind),
                   AllocationRegistry::ownerName(B->DeviceId).c_str(),
                   AllocationRegistry::ownerName(Key).c_str());
      return false;
    }
    if (Count > static_cast<uint64_t>(B->Size) - Offset) {
      debug::error("%s: %s", Call, AllocationRegistry::overrunMessage(*B, Ptr, Count).c_str());
      return false;
    }
    return true;
  }
  // A host address mapped on D is not D's memory (under unified shared
  // memory it is: the device uses the host's storage).
  if (D && !R.unifiedSharedMemory()) {
    if (void *Tgt = translate(*D, Ptr, 0)) {
      debug::error("%s: pointer " OMPT_PTR_FMT
                   " is a host address mapped on device %d (device "
                   "address " OMPT_PTR_FMT
                   "); pass the device address, "
                   "omp_get_mapped_ptr(ptr, %d)",
                   Call, OMPT_PTR(Ptr), DeviceNum, OMPT_PTR(Tgt), DeviceNum);
      return false;
    }
  }
  return true;
}

struct FillArgs {
  const char *Call;
  char *Ptr;
  Device *D;  // null: the host
  int DeviceNum;
  int Value;
  size_t Count;
};

void runFillTask(void *Payload, bool Deferred) {
  auto &A = *static_cast<FillArgs *>(Payload);
  RuntimeUse Use;
  if (!Use) {
    debug::error(
        "%s: the runtime was shut down before the asynchronous fill of %zu bytes at " OMPT_PTR_FMT
        " on device %d ran; nothing was written",
        A.Call, A.Count, OMPT_PTR(A.Ptr), A.DeviceNum);
    return;
  }
  if (Status S = fillBytes(A.Ptr, A.D, A.Value, A.Count); !S)
    debug::error("%s: %sfill of %zu bytes at " OMPT_PTR_FMT " on device %d failed: %s", A.Call,
                 Deferred ? "asynchronous " : "", A.Count, OMPT_PTR(A.Ptr), A.DeviceNum,
                 S.error().message().c_str());
}

}  // namespace

extern "C" {

OMPT_EXPORT void *omp_target_memset(void *Ptr, int Value, size_t Count, int DeviceNum) {
  const char *Call = "omp_target_memset";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was written (returning NULL)");
    return nullptr;
  }
  profile::HostSpan Span(Call, nullptr, DeviceNum);
  Device *D = nullptr;
  if (!checkFill(Call, Ptr, Count, DeviceNum, D)) return nullptr;
  if (Status S = fillBytes(static_cast<char *>(Ptr), D, Value, Count); !S) {
    debug::error("%s: filling %zu bytes at " OMPT_PTR_FMT " on device %d failed: %s", Call, Count,
                 OMPT_PTR(Ptr), DeviceNum, S.error().message().c_str());
    return nullptr;
  }
  return Ptr;
}

OMPT_EXPORT void *omp_target_memset_async(void *Ptr, int Value, size_t Count, int DeviceNum,
                                          int DepobjCount, tasks::OmpDepend *DepobjList) {
  const char *Call = "omp_target_memset_async";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was written (returning NULL)");
    return nullptr;
  }
  profile::HostSpan Span(Call, nullptr, DeviceNum);
  Device *D = nullptr;
  if (!checkFill(Call, Ptr, Count, DeviceNum, D)) return nullptr;
  std::vector<tasks::KmpDependInfo> Deps;
  if (!tasks::collectDepobjs(Call, DepobjCount, DepobjList, Deps)) return nullptr;
  // A 0-byte fill still becomes a task: it orders its dependences.
  auto Task = tasks::DeferredTask::create(Call, sizeof(FillArgs), runFillTask);
  if (!Task) {
    debug::error("%s", Task.error().message().c_str());
    return nullptr;
  }
  *static_cast<FillArgs *>(Task->payload()) =
      FillArgs{Call, static_cast<char *>(Ptr), D, DeviceNum, Value, Count};
  Task->submit(Deps);
  return Ptr;
}

}  // extern "C"
