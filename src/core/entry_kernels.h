// The constructor and destructor kernels of declare-target globals.
//
// clang 14 emits, for a declare-target global with a C++ constructor or
// destructor, a kernel without arguments that runs it on the device, and an
// offload entry for it flagged abi::kEntryCtor or abi::kEntryDtor. The image
// registry runs a binary's constructors on a device right after loading its
// image there (before any construct uses the device) and its destructors
// when the binary is unregistered (program exit, dlclose), only on devices
// where its constructors ran, as LLVM 14's core does. Nothing here depends
// on the plugin: the kernels are ordinary entries of the plugin's table.
#pragma once

#include <span>

#include "device.h"
#include "error.h"

namespace omptarget::core {

struct EntryKernel {
  void *Entry;       // the device's entry (from the plugin's table)
  const char *Name;  // the host entry's name, for messages
};

// Runs Kernels on D in order, each as a team region of one team and one
// thread with no arguments (LLVM 14's launch of them), on one queue, then
// synchronizes once. `What` ("constructor", "destructor") names them in the
// error, which names the kernel that failed.
Status runEntryKernels(Device &D, std::span<const EntryKernel> Kernels, const char *What);

}  // namespace omptarget::core
