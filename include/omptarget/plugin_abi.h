// The plugin-facing C ABI (`__tgt_rtl_*`): LLVM 14's entry points plus
// extensions (async alloc/delete, data lock/unlock) and the entries of ours
// described below.
//
// `completes_synchronously` is our own extension: 1 when every operation the
// device queues has completed by the time the enqueueing call returns (the
// synchronous host device) and its queues need not be given back, so the
// core needs no per-entry events and may skip `synchronize`.
// `accept_deferred_retrieves`, also ours: the core declares that it reads host
// memory written by `data_retrieve_async` only after that queue's
// `synchronize`, so the plugin may complete such copies there (the CUDA plugin
// lands small ones through pinned buffers). LLVM 14's core never calls it.
// `queues_persist`, also ours: 1 when the device's queues live until deinit
// (handed out again after synchronize, never destroyed before) and
// `record_event` may be called on any of them from any thread, even after it
// was synchronized, with queued work progressing without a synchronize. The
// core then records an entry's event only when another construct needs it.
// `direct_device`, also ours: fills a __tgt_direct_device (below) with the
// device's hot operations as plain function pointers on a device handle, so
// that a core calling them per construct skips the entry points' device-number
// lookup and argument checks. Each pointer behaves exactly as the entry it is
// named after on that device (same results, same error lines, same traces).
// `get_device_uid`, also ours: the device's unique id (omp_get_uid_from_device),
// a NUL-terminated string the plugin owns until exit, for any device id below
// number_of_devices, initialised or not.
// `is_accessible_ptr`, also ours: 1 when the device can access the host
// memory [Ptr, Ptr + Size) directly (omp_target_is_accessible), 0 when it
// cannot or the plugin does not know; 0 for an uninitialised device.
// `interop_info`, also ours: describes the foreign runtime behind the device's
// OpenMP interop objects (__tgt_interop_info below); the handles themselves
// come from init_device_info and init_async_info, as in LLVM 14.
// `release_async_info`, also ours: gives back an __tgt_async_info that
// init_async_info returned (waits for its queue, returns the queue to the
// pool, frees the object). LLVM 14 has no way to give one back.
// `data_try_lock`, also ours: data_lock for a lock the core can do without
// (LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS locks a new mapping's host range):
// a range data_lock would refuse (it overlaps locked memory without lying
// inside it, pinning fails) is no error: OFFLOAD_SUCCESS with *LockedPtr
// null and a trace line that says why, no error line. A locked range is
// unlocked with data_unlock.
// `device_properties`, also ours: describes one device as (key, value) text
// pairs: starts the device if it is not started (no image needed, as
// print_device_info), then calls Fn(Ctx, Key, Value) once per property in
// display order and returns OFFLOAD_SUCCESS (OFFLOAD_FAIL, with an error
// line, for an invalid device, a device that does not start or a null Fn).
// Keys are stable snake_case names (`name`, `compute_capability`,
// `memory_total_bytes`, `queue_mode`, ...; docs/plugin-abi.md lists ours);
// a value is NUL-terminated text, an integer in decimal where it is a count
// or a size (`_bytes`, `_khz` keys), and both strings live only during the
// call. print_device_info prints the same properties with human labels.
// `profile_device`, also ours: from this call on, the plugin times every
// copy, kernel, allocation and release it does for DeviceId on the device's
// own clock and calls Fn(Ctx, &Op) once per operation (__tgt_device_op below)
// when its times are known: for work on a queue after that queue's
// synchronize (at issue on a device that completes its work synchronously),
// for allocations and releases when they return. Fn may be called from any
// thread, concurrently, and never after deinit; Op and its strings live only
// during the call. Work that fails, or whose queue is never synchronized, is
// not reported. Calling it again replaces Fn and Ctx. OFFLOAD_FAIL (with an
// error line) for a version the plugin does not know, a device that is not
// started or a null Fn. LLVM 14's core never calls it; a plugin without it
// has no device-side profile.
//
// `launch_kernel_async`, also ours: run_target_team_region_async for the
// kernels of clang 15 and later, whose launches say more (the implicit
// launch-environment argument, dynamic group memory, dimensions:
// __tgt_kernel_launch above). A plugin without it cannot run a kernel that
// needs any of these; the core then refuses the launch with a line.
//
// `unload_binary`, also ours: the image (the pointer load_binary was given)
// goes away from the device: its global destructors run (clang 19 images
// carry them in the image itself), then its code and globals are released
// and its kernels are no longer known. The core calls it when the program
// unregisters the binary before exit (at dlclose of a library with target
// regions); at exit, and in a plugin without it, the image stays until
// deinit. OFFLOAD_FAIL
// with an error line for an image the device has not loaded.
//
// `query_async`, LLVM 15's entry: asks without waiting whether the work
// queued on Queue has completed. When it has, the plugin does what
// `synchronize` does (finishes deferred copies, gives the queue back) and
// sets Queue->Queue to null; while it has not, Queue is left as it was.
// OFFLOAD_FAIL (with an error line) when the queued work failed: the queue is
// then given back too. The core polls it for the `nowait` constructs that
// libomp 19 re-enters until they are done; without it the core synchronizes.
//
// The X-macro lists every entry once so that the core's loader (dlsym) and the
// plugin exporter agree on names and signatures. REQ marks entries a plugin
// must export; OPT marks entries the core looks up and may find absent.
#pragma once

#include "omptarget/abi.h"

// One kernel launch as launch_kernel_async takes it: what clang 14's
// run_target_team_region passes, and what clang 15 and later add. The core
// passes the version it was built with; a plugin that does not know it
// answers OFFLOAD_FAIL with an error line.
//   KernelArgsVersion  the program's __tgt_kernel_arguments version, 0 for
//                      clang 14's __tgt_target[_teams] entries. From 3 on
//                      (abi::kKernelArgsMinVersionWithLaunchEnv) the kernel
//                      takes the launch environment as an implicit first
//                      argument, before Args, which the plugin supplies.
//   NumTeams[3]        0: unspecified; [1] and [2] are 0 but for ompx_bare
//   ThreadLimit[3]     kernels (a grid of several dimensions).
//   DynCGroupMem       bytes of dynamic group memory (CUDA: dynamic shared
//                      memory) the kernel gets on top of its own.
//   IsTeamRegion       0: a plain `target` region (1 team, no thread limit,
//                      no trip count), as run_target_region_async.
#define OMPTARGET_KERNEL_LAUNCH_VERSION 1u
typedef struct __tgt_kernel_launch {
  uint32_t Version;
  uint32_t KernelArgsVersion;
  uint32_t NumTeams[3];
  uint32_t ThreadLimit[3];
  uint32_t DynCGroupMem;
  int32_t IsTeamRegion;
  uint64_t LoopTripCount;
} __tgt_kernel_launch;

// The table `direct_device` fills; the core passes the version it was built
// with, and a plugin that does not know that version answers OFFLOAD_FAIL
// (the core then uses the entry points). Each function takes `Device` as its
// first argument and otherwise the arguments of the entry it names, without
// the device number. `launch_async` is launch_kernel_async. `data_alloc` and
// `data_delete` take the construct's queue, or null: with a queue they are
// data_alloc_async and data_delete_async (the allocation and the release
// ordered on that queue), without one the synchronous entries. (Version 2
// had `run_region_async`, run_target_[team_]region_async's arguments, where
// version 3 has `launch_async`.)
#define OMPTARGET_DIRECT_DEVICE_VERSION 3u
typedef struct __tgt_direct_device {
  void *Device;
  void *(*data_alloc)(void *Device, int64_t Size, void *HostPtr, int32_t Kind,
                      __tgt_async_info *Queue);
  int32_t (*data_delete)(void *Device, void *TgtPtr, __tgt_async_info *Queue);
  int32_t (*data_submit_async)(void *Device, void *TgtPtr, void *HstPtr, int64_t Size,
                               __tgt_async_info *Queue);
  int32_t (*data_retrieve_async)(void *Device, void *HstPtr, void *TgtPtr, int64_t Size,
                                 __tgt_async_info *Queue);
  int32_t (*launch_async)(void *Device, void *Entry, void **Args, ptrdiff_t *Offsets,
                          int32_t NumArgs, const __tgt_kernel_launch *Launch,
                          __tgt_async_info *Queue);
} __tgt_direct_device;

// What interop_info fills (zeroed by the caller): the constant properties of
// the device's interop objects and the C types of its handles. A null name or
// device/context type means the property has no value on this device
// (omp_irc_no_value); whether an object has a targetsync is init_async_info's
// business (a null TargetSyncType reads "void *"). The core passes the
// version it was built with; a plugin that does not know it answers
// OFFLOAD_FAIL.
//   FrId, FrName       omp_ipr_fr_id / fr_name (omp_interop_fr_t; 0: none)
//   Vendor, VendorName omp_ipr_vendor / vendor_name (the OpenMP Additional
//                      Definitions' vendor number; 0: none)
//   DeviceType         type of init_device_info's Device (omp_ipr_device);
//                      DeviceIsInt: it is an integer (a CUdevice) carried in
//                      the pointer, read with omp_get_interop_int
//   ContextType        type of init_device_info's Context (omp_ipr_device_context)
//   TargetSyncType     type of init_async_info's Queue (omp_ipr_targetsync)
#define OMPTARGET_INTEROP_INFO_VERSION 1u
typedef struct __tgt_interop_info {
  int32_t FrId;
  int32_t Vendor;
  const char *FrName;
  const char *VendorName;
  const char *DeviceType;
  const char *ContextType;
  const char *TargetSyncType;
  int32_t DeviceIsInt;
} __tgt_interop_info;

// One timed device operation (profile_device). Times are nanoseconds of the
// host's CLOCK_MONOTONIC (std::chrono::steady_clock on Linux): Begin and End
// are when the device started and finished the operation, translated from
// the device's clock; IssueNs is when the plugin was asked for it, on the
// thread IssueThread (its Linux thread id, gettid()).
#define OMPTARGET_DEVICE_OP_VERSION 1u
enum __tgt_device_op_kind {
  __tgt_op_copy_to_device = 1,    // data_submit: Bytes, Route
  __tgt_op_copy_from_device = 2,  // data_retrieve: Bytes, Route
  __tgt_op_copy_device = 3,       // data_exchange (this device is the source): Bytes
  __tgt_op_kernel = 4,            // a launch: Name, Teams, Threads
  __tgt_op_alloc = 5,             // memory the device allocated (not a cached block): Bytes
  __tgt_op_free = 6,              // memory given back to the device: Bytes (0 when unknown)
};
enum __tgt_device_op_route {
  __tgt_route_pageable = 0,  // host memory the driver copies from or to as it is
  __tgt_route_pinned = 1,    // locked host memory: direct DMA
  __tgt_route_staged = 2,    // through the plugin's own pinned buffers
  __tgt_route_device = 3,    // device to device
};
enum __tgt_device_op_queue {
  __tgt_queue_pooled = 0,  // Queue is a queue of the device's pool
  __tgt_queue_inline = 1,  // done on the issuing thread (synchronous device, allocations)
};
typedef struct __tgt_device_op {
  int32_t Kind;       // __tgt_device_op_kind
  int32_t Route;      // __tgt_device_op_route (copies)
  int32_t QueueKind;  // __tgt_device_op_queue
  int32_t Teams, Threads;
  uint64_t Queue;  // the queue's identity for __tgt_queue_pooled (stable while the device lives)
  uint64_t Begin, End, IssueNs;
  uint64_t IssueThread;
  int64_t Bytes;
  const char *Name;  // the kernel's name; null for other kinds
} __tgt_device_op;
typedef void (*__tgt_device_op_fn)(void *Ctx, const __tgt_device_op *Op);

// What device_properties calls once per property.
typedef void (*__tgt_device_property_fn)(void *Ctx, const char *Key, const char *Value);

#define OMPTARGET_PLUGIN_ENTRIES(REQ, OPT)                                                        \
  REQ(is_valid_binary, int32_t, (__tgt_device_image * Image))                                     \
  REQ(number_of_devices, int32_t, ())                                                             \
  REQ(init_device, int32_t, (int32_t DeviceId))                                                   \
  REQ(load_binary, __tgt_target_table *, (int32_t DeviceId, __tgt_device_image * Image))          \
  REQ(data_alloc, void *, (int32_t DeviceId, int64_t Size, void *HostPtr, int32_t Kind))          \
  REQ(data_submit, int32_t, (int32_t DeviceId, void *TgtPtr, void *HstPtr, int64_t Size))         \
  REQ(data_retrieve, int32_t, (int32_t DeviceId, void *HstPtr, void *TgtPtr, int64_t Size))       \
  REQ(data_delete, int32_t, (int32_t DeviceId, void *TgtPtr))                                     \
  REQ(run_target_region, int32_t,                                                                 \
      (int32_t DeviceId, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs))          \
  REQ(run_target_team_region, int32_t,                                                            \
      (int32_t DeviceId, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,           \
       int32_t NumTeams, int32_t ThreadLimit, uint64_t LoopTripCount))                            \
  OPT(init_requires, int64_t, (int64_t RequiresFlags))                                            \
  OPT(is_data_exchangable, int32_t, (int32_t SrcDeviceId, int32_t DstDeviceId))                   \
  OPT(data_submit_async, int32_t,                                                                 \
      (int32_t DeviceId, void *TgtPtr, void *HstPtr, int64_t Size, __tgt_async_info *Queue))      \
  OPT(data_retrieve_async, int32_t,                                                               \
      (int32_t DeviceId, void *HstPtr, void *TgtPtr, int64_t Size, __tgt_async_info *Queue))      \
  OPT(data_exchange, int32_t,                                                                     \
      (int32_t SrcDeviceId, void *SrcPtr, int32_t DstDeviceId, void *DstPtr, int64_t Size))       \
  OPT(data_exchange_async, int32_t,                                                               \
      (int32_t SrcDeviceId, void *SrcPtr, int32_t DstDeviceId, void *DstPtr, int64_t Size,        \
       __tgt_async_info *Queue))                                                                  \
  OPT(run_target_region_async, int32_t,                                                           \
      (int32_t DeviceId, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,           \
       __tgt_async_info *Queue))                                                                  \
  OPT(run_target_team_region_async, int32_t,                                                      \
      (int32_t DeviceId, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,           \
       int32_t NumTeams, int32_t ThreadLimit, uint64_t LoopTripCount, __tgt_async_info *Queue))   \
  OPT(synchronize, int32_t, (int32_t DeviceId, __tgt_async_info * Queue))                         \
  OPT(create_event, int32_t, (int32_t DeviceId, void **Event))                                    \
  OPT(record_event, int32_t, (int32_t DeviceId, void *Event, __tgt_async_info *Queue))            \
  OPT(wait_event, int32_t, (int32_t DeviceId, void *Event, __tgt_async_info *Queue))              \
  OPT(sync_event, int32_t, (int32_t DeviceId, void *Event))                                       \
  OPT(destroy_event, int32_t, (int32_t DeviceId, void *Event))                                    \
  OPT(init_async_info, int32_t, (int32_t DeviceId, __tgt_async_info * *Queue))                    \
  OPT(init_device_info, int32_t,                                                                  \
      (int32_t DeviceId, __tgt_device_info * Info, const char **ErrStr))                          \
  OPT(set_info_flag, void, (uint32_t Flags))                                                      \
  OPT(print_device_info, void, (int32_t DeviceId))                                                \
  OPT(data_alloc_async, int32_t,                                                                  \
      (int32_t DeviceId, int64_t Size, void *HostPtr, int32_t Kind, void **TgtPtr,                \
       __tgt_async_info *Queue))                                                                  \
  OPT(data_delete_async, int32_t, (int32_t DeviceId, void *TgtPtr, __tgt_async_info *Queue))      \
  OPT(data_lock, int32_t, (int32_t DeviceId, void *HstPtr, int64_t Size, void **LockedPtr))       \
  OPT(data_unlock, int32_t, (int32_t DeviceId, void *HstPtr))                                     \
  OPT(completes_synchronously, int32_t, (int32_t DeviceId))                                       \
  OPT(accept_deferred_retrieves, int32_t, (int32_t DeviceId))                                     \
  OPT(queues_persist, int32_t, (int32_t DeviceId))                                                \
  OPT(direct_device, int32_t, (int32_t DeviceId, uint32_t Version, __tgt_direct_device * Direct)) \
  OPT(get_device_uid, int32_t, (int32_t DeviceId, const char **Uid))                              \
  OPT(is_accessible_ptr, int32_t, (int32_t DeviceId, const void *Ptr, int64_t Size))              \
  OPT(interop_info, int32_t, (int32_t DeviceId, uint32_t Version, __tgt_interop_info * Info))     \
  OPT(release_async_info, int32_t, (int32_t DeviceId, __tgt_async_info * Queue))                  \
  OPT(data_try_lock, int32_t, (int32_t DeviceId, void *HstPtr, int64_t Size, void **LockedPtr))   \
  OPT(device_properties, int32_t, (int32_t DeviceId, __tgt_device_property_fn Fn, void *Ctx))     \
  OPT(profile_device, int32_t,                                                                    \
      (int32_t DeviceId, uint32_t Version, __tgt_device_op_fn Fn, void *Ctx))                     \
  OPT(launch_kernel_async, int32_t,                                                               \
      (int32_t DeviceId, void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,           \
       const __tgt_kernel_launch *Launch, __tgt_async_info *Queue))                               \
  OPT(unload_binary, int32_t, (int32_t DeviceId, __tgt_device_image * Image))                     \
  OPT(query_async, int32_t, (int32_t DeviceId, __tgt_async_info * Queue))
