// ABI shared by the compiler, the core library and the plugins.
//
// These layouts and constants are fixed by clang 14's and clang 19's code
// generation and by LLVM 14's plugin interface; they must never change. Everything else in the
// project is free to evolve behind them.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

// One entry of the offload table: a kernel (Size == 0) or a global (Size > 0).
// clang 14 puts these records (32 bytes each) in a section named
// `omp_offloading_entries`, of the host program and of x86_64 device images.
struct __tgt_offload_entry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};

// One device image embedded in the host binary.
struct __tgt_device_image {
  void *ImageStart;
  void *ImageEnd;
  __tgt_offload_entry *EntriesBegin;
  __tgt_offload_entry *EntriesEnd;
};

// Everything a translation unit set (executable or shared library) registers.
struct __tgt_bin_desc {
  int32_t NumDeviceImages;
  __tgt_device_image *DeviceImages;
  __tgt_offload_entry *HostEntriesBegin;
  __tgt_offload_entry *HostEntriesEnd;
};

// A plugin's answer to load_binary: the device-side addresses of the entries.
struct __tgt_target_table {
  __tgt_offload_entry *EntriesBegin;
  __tgt_offload_entry *EntriesEnd;
};

// The opaque queue handle passed to every asynchronous plugin call.
struct __tgt_async_info {
  void *Queue = nullptr;
};

// Filled by the optional init_device_info entry (interop).
struct __tgt_device_info {
  void *Context = nullptr;
  void *Device = nullptr;
};

// Descriptor of one dimension of a non-contiguous `target update`.
struct __tgt_target_non_contig {
  uint64_t Offset;
  uint64_t Count;
  uint64_t Stride;
};

// clang's source-location record; psource is ";file;function;line;column;;".
struct ident_t {
  int32_t reserved_1;
  int32_t flags;
  int32_t reserved_2;
  int32_t reserved_3;
  const char *psource;
};

typedef void *map_var_info_t;

// The argument of __tgt_target_kernel (clang 15 and later; LLVM calls it
// KernelArgsTy). Version 1 ends after Flags; version 2 adds the launch
// dimensions and the dynamic group memory; version 3 (clang 18 and 19) has
// version 2's layout, and its kernels take the launch environment as an
// implicit first argument (kKernelArgsMinVersionWithLaunchEnv).
struct __tgt_kernel_arguments {
  uint32_t Version;
  uint32_t NumArgs;
  void **ArgBasePtrs;
  void **ArgPtrs;
  int64_t *ArgSizes;
  int64_t *ArgTypes;
  void **ArgNames;
  void **ArgMappers;
  uint64_t Tripcount;
  uint64_t Flags;  // bit 0 (kKernelArgsNoWait): the region has `nowait`
  // Version 2 and later.
  uint32_t NumTeams[3];     // 0: unspecified; [1] and [2] only for ompx_bare kernels
  uint32_t ThreadLimit[3];  // the same
  uint32_t DynCGroupMem;    // bytes of dynamic group memory (ompx_dyn_cgroup_mem)
};
}

namespace omptarget::abi {

// __tgt_kernel_arguments::Version: the versions we read, and where fields
// and the implicit launch-environment argument begin.
constexpr uint32_t kKernelArgsFirstVersion = 1;
constexpr uint32_t kKernelArgsLastVersion = 3;
constexpr uint32_t kKernelArgsMinVersionWithDims = 2;
constexpr uint32_t kKernelArgsMinVersionWithLaunchEnv = 3;
constexpr uint64_t kKernelArgsNoWait = 0x1;
static_assert(sizeof(__tgt_kernel_arguments) == 104, "clang 19's layout");

constexpr int32_t kOffloadSuccess = 0;
constexpr int32_t kOffloadFail = ~0;

constexpr int64_t kDeviceDefault = -1;
constexpr int64_t kHostDeviceLegacy = -10;
// OpenMP 5.2's omp_initial_device and omp_invalid_device (the values of
// LLVM's later omp.h). omp_initial_device is kDeviceDefault's value: in the
// __tgt_* entries -1 means "no device clause", so it names the host only in
// the API routines (and when it is the default device).
constexpr int64_t kOmpInitialDevice = -1;
constexpr int64_t kOmpInvalidDevice = -2;

// Map-type bits (OMPConstants.h, OpenMPOffloadMappingFlags).
enum MapType : int64_t {
  kMapTo = 0x01,
  kMapFrom = 0x02,
  kMapAlways = 0x04,
  kMapDelete = 0x08,
  kMapPtrAndObj = 0x10,
  kMapTargetParam = 0x20,
  kMapReturnParam = 0x40,
  kMapPrivate = 0x80,
  kMapLiteral = 0x100,
  kMapImplicit = 0x200,
  kMapClose = 0x400,
  kMapPresent = 0x1000,
  kMapOmpxHold = 0x2000,
  kMapNonContig = 0x100000000000,
};
constexpr uint64_t kMapMemberOfMask = 0xffff000000000000ULL;

// Index of the parent argument of a MEMBER_OF entry, or -1.
constexpr int64_t parentIndex(int64_t Type) {
  return static_cast<int64_t>(((static_cast<uint64_t>(Type) & kMapMemberOfMask) >> 48)) - 1;
}

// __tgt_offload_entry::flags, as clang 14 and clang 19 emit them.
enum EntryFlags : int32_t {
  kEntryLink = 0x01,  // a `declare target link` global (its entry is the device's pointer)
  kEntryCtor = 0x02,  // a kernel that runs the constructors of declare-target globals
  kEntryDtor = 0x04,  // a kernel that runs their destructors
  // clang 19: a `declare target indirect` function (size: a pointer; the
  // device global `name` holds the device function's address).
  kEntryIndirect = 0x08,
  // clang 19: not a kernel or a global but the translation unit's `#pragma
  // omp requires` flags (RequiresFlags) in `reserved` (LLVM 19 calls it
  // `data`), with a null addr and an empty name. clang 19 passes the flags
  // only here, not through __tgt_register_requires.
  kEntryRequires = 0x10,
};
// Name of the section that holds an image's (or the host's) entries.
constexpr const char *kEntriesSection = "omp_offloading_entries";

// __tgt_register_requires flags.
enum RequiresFlags : int64_t {
  kReqUndefined = 0x000,
  kReqNone = 0x001,
  kReqReverseOffload = 0x002,
  kReqUnifiedAddress = 0x004,
  kReqUnifiedSharedMemory = 0x008,
  kReqDynamicAllocators = 0x010,
};

// Kinds of data_alloc (LLVM 14's TargetAllocTy).
enum TargetAllocKind : int32_t {
  kAllocDevice = 0,
  kAllocHost = 1,
  kAllocShared = 2,
  kAllocDefault = 3,
};

// LLVM 14's name of an allocation kind, for messages ("TARGET_ALLOC_DEFAULT":
// omp_target_alloc and the map clauses; the others are the memory of
// llvm_omp_target_alloc_device, _host and _shared).
constexpr const char *allocKindName(int32_t Kind) {
  switch (Kind) {
    case kAllocDevice: return "TARGET_ALLOC_DEVICE";
    case kAllocHost: return "TARGET_ALLOC_HOST";
    case kAllocShared: return "TARGET_ALLOC_SHARED";
    case kAllocDefault: return "TARGET_ALLOC_DEFAULT";
  }
  return "an unknown allocation kind";
}

// LIBOMPTARGET_INFO bits.
enum InfoKind : uint32_t {
  kInfoKernelArgs = 0x0001,
  kInfoMappingExists = 0x0002,
  kInfoDumpTable = 0x0004,
  kInfoMappingChanged = 0x0008,
  kInfoPluginKernel = 0x0010,
  kInfoDataTransfer = 0x0020,
  // A list item without a device counterpart (use_device_ptr/addr of
  // unmapped data), LLVM's OMP_INFOTYPE_EMPTY_MAPPING.
  kInfoEmptyMapping = 0x0040,
};

}  // namespace omptarget::abi
