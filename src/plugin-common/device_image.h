// One device image loaded on one device, and the entry table handed back to
// the core by load_binary.
#pragma once

#include <string>
#include <vector>

#include "omptarget/abi.h"
#include "omptarget/plugin_abi.h"

namespace omptarget::plugin {

// Plugins derive from DeviceImage to keep their handle (a dlopen handle, a
// CUmodule ...); the subclass destructor releases it. The base owns the
// translated entry table, which must stay valid while the image is loaded.
class DeviceImage {
 public:
  explicit DeviceImage(const __tgt_device_image &Source) : Source_(Source) {}
  virtual ~DeviceImage() = default;
  DeviceImage(const DeviceImage &) = delete;
  DeviceImage &operator=(const DeviceImage &) = delete;

  const __tgt_device_image &source() const { return Source_; }

  // Entries with device addresses (same order and names as the host entries).
  std::vector<__tgt_offload_entry> &entries() { return Entries_; }
  __tgt_target_table *table() {
    Table_.EntriesBegin = Entries_.data();
    Table_.EntriesEnd = Entries_.data() + Entries_.size();
    return &Table_;
  }

 private:
  const __tgt_device_image &Source_;
  std::vector<__tgt_offload_entry> Entries_;
  __tgt_target_table Table_{nullptr, nullptr};
};

// Everything one kernel launch needs, as the core passed it.
struct KernelLaunch {
  void *Entry;
  void **Args;
  ptrdiff_t *Offsets;
  int32_t NumArgs;
  int32_t NumTeams;     // 0 or 1 for run_target_region
  int32_t ThreadLimit;  // 0 when unspecified
  uint64_t LoopTripCount;
  bool IsTeamRegion;
  const char *Name;  // kernel name from the image, never null
  // What clang 15 and later add (__tgt_kernel_launch; 0 for clang 14's
  // entries). From KernelArgsVersion 3 on, Args[0] is the implicit
  // launch-environment argument (launchUnchecked puts it there).
  uint32_t KernelArgsVersion = 0;
  uint32_t DynCGroupMem = 0;                            // bytes of dynamic group memory
  uint32_t TeamsYZ[2] = {0, 0}, ThreadsYZ[2] = {0, 0};  // ompx_bare grids only
  // What the device ran it with, where its launchImpl says so (the CUDA
  // plugin: blocks and threads), for the profile, which reads them after
  // the launch; 0: as asked (NumTeams, ThreadLimit).
  mutable int32_t RanTeams = 0, RanThreads = 0;
};

// A KernelLaunch of launch_kernel_async's description In (checked by the
// caller), for the kernel Name.
KernelLaunch kernelLaunch(void *Entry, void **Args, ptrdiff_t *Offsets, int32_t NumArgs,
                          const __tgt_kernel_launch &In, const char *Name);

}  // namespace omptarget::plugin
