// OpenMP device-memory API: device counts, allocation (and LLVM's
// llvm_omp_target_alloc_* / llvm_omp_target_free_*), presence, association.
// Every misuse is reported with the call, the values and what to do; none
// crashes or touches the mapping table.
#include <cinttypes>
#include <cstdlib>

#include "debug.h"
#include "export.h"
#include "map_ops.h"
#include "mapping_queries.h"
#include "profile.h"
#include "runtime.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

// The registry's device key of DeviceNum (every name of the host is one key).
int64_t allocationKey(int DeviceNum) {
  return isInitialDevice(DeviceNum) ? AllocationRegistry::kInitialDeviceKey : DeviceNum;
}

void *allocate(size_t Size, int DeviceNum, int32_t Kind, const char *Call) {
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was allocated (returning NULL)");
    return nullptr;
  }
  profile::HostSpan Span(Call, nullptr, DeviceNum);
  if (Size == 0) return nullptr;
  if (Size > static_cast<size_t>(INT64_MAX)) {
    debug::error(
        "%s: %zu bytes on device %d is more than any device holds (a negative value "
        "passed as the size?); returning NULL",
        Call, Size, DeviceNum);
    return nullptr;
  }
  Runtime &R = Runtime::get();
  if (isInitialDevice(DeviceNum)) {
    void *Ptr = std::malloc(Size);
    if (Ptr) R.allocations().add(Ptr, allocationKey(DeviceNum), static_cast<int64_t>(Size), Kind);
    return Ptr;
  }
  auto D = R.readyDevice(DeviceNum, Call);
  if (!D) {
    debug::error("%s", D.error().message().c_str());
    return nullptr;
  }
  auto Ptr = (*D)->allocate(static_cast<int64_t>(Size), nullptr, Kind);
  if (!Ptr) {
    debug::error("%s: %s", Call, Ptr.error().message().c_str());
    return nullptr;
  }
  R.allocations().add(*Ptr, DeviceNum, static_cast<int64_t>(Size), Kind);
  return *Ptr;
}

// May memory allocated as Kind be freed by a routine for FreeKind (-1: any,
// omp_target_free)? Device memory is device memory whichever routine made it.
bool freeable(int32_t Kind, int32_t FreeKind) {
  if (FreeKind < 0 || Kind == FreeKind) return true;
  auto IsDevice = [](int32_t K) { return K == abi::kAllocDevice || K == abi::kAllocDefault; };
  return IsDevice(Kind) && IsDevice(FreeKind);
}

// omp_target_free (FreeKind -1) and llvm_omp_target_free_* (the kind they free).
void freeMemory(void *Ptr, int DeviceNum, int32_t FreeKind, const char *Call) {
  // After shutdown (a static object's destructor): the runtime released all
  // device memory already, so there is nothing left to free and nothing lost.
  RuntimeUse Use;
  if (!Use) return;
  profile::HostSpan Span(Call, nullptr, DeviceNum);
  if (!Ptr) return;
  Runtime &R = Runtime::get();
  if (!isInitialDevice(DeviceNum) && !R.devices().get(DeviceNum)) {
    debug::error("%s; pointer " OMPT_PTR_FMT " not freed",
                 invalidDeviceMessage(Call, DeviceNum).c_str(), OMPT_PTR(Ptr));
    return;
  }
  const char *Allocator =
      AllocationRegistry::allocatorName(FreeKind < 0 ? abi::kAllocDefault : FreeKind);
  int64_t Key = allocationKey(DeviceNum);
  std::string Target = AllocationRegistry::ownerName(Key);
  auto Block = R.allocations().find(Ptr);
  if (Block && Block->DeviceId != Key) {
    debug::error("%s: pointer " OMPT_PTR_FMT
                 " was not allocated by %s on %s (it belongs to %s; "
                 "pass that device); ignored",
                 Call, OMPT_PTR(Ptr), Allocator, Target.c_str(),
                 AllocationRegistry::ownerName(Block->DeviceId).c_str());
    return;
  }
  // On the initial device every kind is malloc's: any free routine fits.
  if (Block && Key != AllocationRegistry::kInitialDeviceKey && !freeable(Block->Kind, FreeKind)) {
    debug::error("%s: pointer " OMPT_PTR_FMT
                 " on %s was allocated by %s, not by %s; free it with "
                 "omp_target_free or the free routine of its allocator; ignored",
                 Call, OMPT_PTR(Ptr), Target.c_str(),
                 AllocationRegistry::allocatorName(Block->Kind), Allocator);
    return;
  }
  if (!Block) {
    // An interior pointer: say which block it is in, and where that starts.
    if (auto Around = R.allocations().containing(Ptr); Around && Around->DeviceId == Key) {
      debug::error("%s: pointer " OMPT_PTR_FMT " is %td bytes into a block of %" PRId64
                   " bytes at " OMPT_PTR_FMT
                   " from %s on %s; pass the block's start to free "
                   "it; ignored",
                   Call, OMPT_PTR(Ptr),
                   static_cast<const char *>(Ptr) - static_cast<const char *>(Around->Begin),
                   Around->Size, OMPT_PTR(Around->Begin),
                   AllocationRegistry::allocatorName(Around->Kind), Target.c_str());
      return;
    }
    debug::error("%s: pointer " OMPT_PTR_FMT
                 " was not allocated by %s on %s (or was already "
                 "freed); ignored",
                 Call, OMPT_PTR(Ptr), Allocator, Target.c_str());
    return;
  }
  // A block that an association still names stays allocated: freed, the
  // association would name freed memory, which the next construct that maps
  // its host range would use (LLVM 14 frees it).
  if (!isInitialDevice(DeviceNum)) {
    auto Begin = reinterpret_cast<uintptr_t>(Ptr);
    if (auto E = associationOverlapping(*R.devices().get(DeviceNum), Begin,
                                        Begin + static_cast<uintptr_t>(Block->Size))) {
      debug::error("%s: pointer " OMPT_PTR_FMT " on %s is associated with host memory " OMPT_PTR_FMT
                   " (%" PRId64
                   " bytes) by omp_target_associate_ptr; call "
                   "omp_target_disassociate_ptr(" OMPT_PTR_FMT ", %d) first; not freed",
                   Call, OMPT_PTR(Ptr), Target.c_str(), E->HstBegin, E->Size, E->HstBegin,
                   DeviceNum);
      return;
    }
  }
  if (!R.allocations().remove(Ptr, Key)) {
    debug::error("%s: pointer " OMPT_PTR_FMT
                 " was not allocated by %s on %s (or was already "
                 "freed); ignored",
                 Call, OMPT_PTR(Ptr), Allocator, Target.c_str());
    return;
  }
  if (isInitialDevice(DeviceNum)) {
    std::free(Ptr);
    return;
  }
  // A free the plugin refused leaves the block allocated: it stays
  // registered, so that the program can free it again (it used to be
  // forgotten here, and a second free was refused as a foreign pointer).
  if (Status S = R.devices().get(DeviceNum)->freeMemory(Ptr); !S) {
    R.allocations().add(Ptr, Key, Block->Size, Block->Kind);
    debug::error("%s: %s; the block stays allocated: free it again", Call,
                 S.error().message().c_str());
  }
}

}  // namespace

extern "C" {

// After shutdown there are no devices: the host is device 0.
OMPT_EXPORT int omp_get_num_devices(void) {
  RuntimeUse Use;
  return Use ? Runtime::get().devices().size() : 0;
}
OMPT_EXPORT int omp_get_initial_device(void) {
  RuntimeUse Use;
  return Use ? initialDevice() : 0;
}

OMPT_EXPORT void *omp_target_alloc(size_t Size, int DeviceNum) {
  return allocate(Size, DeviceNum, abi::kAllocDefault, "omp_target_alloc");
}
OMPT_EXPORT void *llvm_omp_target_alloc_device(size_t Size, int DeviceNum) {
  return allocate(Size, DeviceNum, abi::kAllocDevice, "llvm_omp_target_alloc_device");
}
OMPT_EXPORT void *llvm_omp_target_alloc_host(size_t Size, int DeviceNum) {
  return allocate(Size, DeviceNum, abi::kAllocHost, "llvm_omp_target_alloc_host");
}
OMPT_EXPORT void *llvm_omp_target_alloc_shared(size_t Size, int DeviceNum) {
  return allocate(Size, DeviceNum, abi::kAllocShared, "llvm_omp_target_alloc_shared");
}

OMPT_EXPORT void omp_target_free(void *Ptr, int DeviceNum) {
  freeMemory(Ptr, DeviceNum, -1, "omp_target_free");
}
OMPT_EXPORT void llvm_omp_target_free_device(void *Ptr, int DeviceNum) {
  freeMemory(Ptr, DeviceNum, abi::kAllocDevice, "llvm_omp_target_free_device");
}
OMPT_EXPORT void llvm_omp_target_free_host(void *Ptr, int DeviceNum) {
  freeMemory(Ptr, DeviceNum, abi::kAllocHost, "llvm_omp_target_free_host");
}
OMPT_EXPORT void llvm_omp_target_free_shared(void *Ptr, int DeviceNum) {
  freeMemory(Ptr, DeviceNum, abi::kAllocShared, "llvm_omp_target_free_shared");
}

OMPT_EXPORT int omp_target_is_present(const void *Ptr, int DeviceNum) {
  RuntimeUse Use;
  if (!Ptr || !Use) return 0;
  Runtime &R = Runtime::get();
  if (isInitialDevice(DeviceNum)) return 1;
  Device *D = R.devices().get(DeviceNum);
  if (!D) {
    debug::error("%s", invalidDeviceMessage("omp_target_is_present", DeviceNum).c_str());
    return 0;
  }
  bool IsHostPtr = false;
  // The byte at Ptr, not the address: an address in a struct's unmapped
  // part (before its first mapped member) is not present.
  void *Tgt = translate(*D, const_cast<void *>(Ptr), 1, &IsHostPtr);
  // Under unified shared memory a host address that is not mapped is not "present".
  if (R.unifiedSharedMemory()) return Tgt && !IsHostPtr;
  return Tgt != nullptr;
}

OMPT_EXPORT int omp_target_associate_ptr(const void *HostPtr, const void *DevicePtr, size_t Size,
                                         size_t DeviceOffset, int DeviceNum) {
  const char *Call = "omp_target_associate_ptr";
  RuntimeUse Use;
  if (!Use) {
    reportAfterShutdown(Call, "nothing was associated");
    return abi::kOffloadFail;
  }
  if (!HostPtr || !DevicePtr || Size == 0) {
    debug::error("%s: invalid arguments (host " OMPT_PTR_FMT ", device " OMPT_PTR_FMT
                 ", size %zu); both pointers must be non-null and the size positive",
                 Call, OMPT_PTR(HostPtr), OMPT_PTR(DevicePtr), Size);
    return abi::kOffloadFail;
  }
  if (isInitialDevice(DeviceNum)) {
    debug::error("%s: device %d is the host; pointers cannot be associated on the host device",
                 Call, DeviceNum);
    return abi::kOffloadFail;
  }
  // The host range must fit in the address space, and the device range in
  // the block omp_target_alloc gave (a larger association would let target
  // regions write past it).
  if (!rangeFits(HostPtr, 0, Size) || !rangeFits(DevicePtr, DeviceOffset, Size)) {
    debug::error("%s: %zu bytes at host " OMPT_PTR_FMT " (device " OMPT_PTR_FMT
                 " + %zu) do not fit in the address space (a negative value passed as a "
                 "size?); nothing was associated",
                 Call, Size, OMPT_PTR(HostPtr), OMPT_PTR(DevicePtr), DeviceOffset);
    return abi::kOffloadFail;
  }
  if (auto Why = Runtime::get().allocations().overrun(DevicePtr, DeviceOffset, Size)) {
    debug::error("%s: device side: %s; nothing was associated", Call, Why->c_str());
    return abi::kOffloadFail;
  }
  auto D = Runtime::get().readyDevice(DeviceNum, Call);
  if (!D) {
    debug::error("%s", D.error().message().c_str());
    return abi::kOffloadFail;
  }
  auto Begin = reinterpret_cast<uintptr_t>(HostPtr);
  auto Tgt = reinterpret_cast<uintptr_t>(DevicePtr) + DeviceOffset;
  if (auto E = associate(**D, Begin, Size, Tgt)) {
    debug::error("%s: host range " OMPT_PTR_FMT
                 "..+%zu on device %d overlaps an existing mapping "
                 "(host " OMPT_PTR_FMT ", %" PRId64 " bytes); disassociate or unmap it first",
                 Call, Begin, Size, DeviceNum, E->HstBegin, E->Size);
    return abi::kOffloadFail;
  }
  return abi::kOffloadSuccess;
}

OMPT_EXPORT int omp_target_disassociate_ptr(const void *HostPtr, int DeviceNum) {
  const char *Call = "omp_target_disassociate_ptr";
  RuntimeUse Use;
  if (!Use) return abi::kOffloadSuccess;  // every association ended with the runtime
  if (!HostPtr) {
    debug::error("%s: null host pointer", Call);
    return abi::kOffloadFail;
  }
  if (isInitialDevice(DeviceNum)) {
    debug::error("%s: device %d is the host; nothing can be associated there", Call, DeviceNum);
    return abi::kOffloadFail;
  }
  Device *D = Runtime::get().devices().get(DeviceNum);
  if (!D) {
    debug::error("%s", invalidDeviceMessage(Call, DeviceNum).c_str());
    return abi::kOffloadFail;
  }
  auto Begin = reinterpret_cast<uintptr_t>(HostPtr);
  switch (disassociate(*D, Begin)) {
    case Disassociation::Done: return abi::kOffloadSuccess;
    case Disassociation::NotAssociated:
      debug::error("%s: host pointer " OMPT_PTR_FMT " has no association on device %d", Call, Begin,
                   DeviceNum);
      break;
    case Disassociation::HoldReferenced:
      // LLVM 14's line, word for word (the mapping stays; the call fails).
      debug::error("Trying to disassociate a pointer with a non-zero hold reference count");
      break;
    case Disassociation::MappedByClause:
      debug::error("%s: host pointer " OMPT_PTR_FMT
                   " on device %d was mapped by a map clause, not by "
                   "omp_target_associate_ptr",
                   Call, Begin, DeviceNum);
      break;
  }
  return abi::kOffloadFail;
}

OMPT_EXPORT void *llvm_omp_get_dynamic_shared() { return nullptr; }

}  // extern "C"
