// Registered binaries (__tgt_register_lib descriptors), the device image each
// device uses from them, and the map from host entry (region id) to kernel.
// A binary's declare-target constructors run on a device right after its
// image is loaded there, its destructors when it is unregistered
// (entry_kernels.h).
//
// Thread safety: `Mutex_` (a FutexMutex) guards everything here: the
// binaries and everything in them (the analysis checks Binaries_, Kernels_
// and NextSerial_; a Binary's fields are reached only through Binaries_ or
// Kernels_), taken for lookups, registration and image loading alike.
// Constructor and destructor kernels run with it released (constructors
// still under the device's init mutex, so no construct uses the device
// before they are done). `generation()` (an atomic, read without the lock)
// changes whenever images are added so that devices know to load them.
// Lock order: the device's InitMutex_, then Mutex_, then a device's mapping
// table Mutex (image loading maps the declare-target globals).
//
// Lookups take Mutex_ exclusively too (no reader/writer lock): a launch
// finds its kernel through kernelFor's per-thread memo without any lock, and
// only a memo miss (a region other than the thread's last) takes Mutex_, for
// one hash lookup, so nothing measured asks for a second kind of lock here.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "device_table.h"
#include "entry_kernels.h"
#include "error.h"
#include "futex_mutex.h"
#include "omptarget/abi.h"
#include "thread_annotations.h"

namespace omptarget::core {

class ImageRegistry {
 public:
  explicit ImageRegistry(DeviceTable &Devices) : Devices_(Devices) {}

  // Offers each image to the plugins in order; the first that accepts it
  // serves it on all its devices. Returns the number of images accepted.
  // Desc must have passed checkDescriptor (descriptor_check.h).
  int registerLib(__tgt_bin_desc *Desc, int64_t RequiresFlags);
  // The same; IdlePlugins gets the plugins that accepted images but have no
  // device (e.g. the CUDA plugin on a machine without GPUs), comma-separated,
  // when no image of the binary went to a plugin with devices.
  int registerLib(__tgt_bin_desc *Desc, int64_t RequiresFlags, std::string &IdlePlugins);
  // A device image a device has loaded.
  struct LoadedImage {
    Device *Dev;
    __tgt_device_image *Image;
  };
  // Drops the descriptor: its destructor kernels run on every device where
  // its constructors ran, then its kernels become unknown (a construct that
  // looks one up from now on runs its host version) and its globals are
  // unmapped from every device that loaded it. Returns the images those
  // devices still hold, for unloadImages once no construct that found a
  // kernel earlier can still be running one.
  std::vector<LoadedImage> unregisterLib(__tgt_bin_desc *Desc);
  // unload_binary of each image, where its device's plugin has the entry
  // (the image's code and globals go, and clang 19 images' own global
  // destructors run); a failure is a line (the image stays loaded).
  static void unloadImages(const std::vector<LoadedImage> &Loaded);

  // Loads every image registered for `D` that it has not loaded yet, maps
  // their globals and runs their constructor kernels. Requires
  // D.initMutex(). A constructor that failed fails every later call for D.
  Status loadPendingImages(Device &D) REQUIRES(D.initMutex());
  uint64_t generation() const { return Generation_.load(std::memory_order_acquire); }

  // The device-side entry of the kernel whose host region id is `HostPtr`.
  Expected<void *> kernelFor(void *HostPtr, const Device &D);
  // kernelFor without the per-thread memo.
  Expected<void *> lookupKernel(void *HostPtr, const Device &D);
  // Name of the host entry `HostPtr`, or null.
  const char *kernelName(void *HostPtr);
  // Whether `HostPtr` was a kernel of a binary that has been unregistered
  // (and not registered again): the program is exiting, or closed the library.
  bool retired(void *HostPtr);

 private:
  enum class CtorState : uint8_t { Pending, Done, Failed };
  struct Binary {
    __tgt_bin_desc *Desc;
    uint64_t Serial;                             // identifies it while Mutex_ is released
    std::vector<__tgt_device_image *> ImageFor;  // by device id
    std::vector<__tgt_target_table *> TableFor;  // by device id, once loaded
    std::vector<CtorState> CtorsOn;              // by device id, valid once loaded
    std::vector<size_t> Ctors;                   // host entries flagged kEntryCtor, in table order
    std::vector<size_t> Dtors;  // flagged kEntryDtor, in reverse table order (their run order)

    // The kernels of host entries Indices (Ctors or Dtors) in device Id's
    // loaded table, in that order.
    std::vector<EntryKernel> kernelsOn(size_t Id, const std::vector<size_t> &Indices) const;
  };
  struct KernelRef {
    Binary *Bin;
    size_t Index;
  };

  // load_binary of Bin's image for D, and D's mappings of its globals.
  Status loadImage(Device &D, Binary &Bin) REQUIRES(Mutex_);

  DeviceTable &Devices_;
  FutexMutex Mutex_;
  std::vector<std::unique_ptr<Binary>> Binaries_ GUARDED_BY(Mutex_);
  uint64_t NextSerial_ GUARDED_BY(Mutex_) = 1;
  std::unordered_map<void *, KernelRef> Kernels_ GUARDED_BY(Mutex_);
  std::unordered_set<void *> Retired_ GUARDED_BY(Mutex_);  // see retired()
  std::atomic<uint64_t> Generation_{1};
};

// "ELF CUDA (e_machine 190)": what an image is, for messages about images
// no plugin took.
std::string describeImage(const __tgt_device_image &Image);

}  // namespace omptarget::core
