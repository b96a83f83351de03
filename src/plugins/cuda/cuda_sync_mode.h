// How host threads wait for a CUDA device (cuStreamSynchronize,
// cuEventSynchronize, cuCtxSynchronize): the scheduling flags of the device's
// primary context, chosen by OMPTARGET_CUDA_SYNC_MODE.
//
//   unset     the primary context's flags are left as they are: the driver's
//             default, CU_CTX_SCHED_AUTO (spin while the process has no more
//             active contexts than logical CPUs, else yield), unless the
//             application set others. The plugin's behaviour before the
//             variable existed, and the default until measurements on the
//             GPU pick another one.
//   auto      CU_CTX_SCHED_AUTO, set explicitly
//   spin      CU_CTX_SCHED_SPIN: the waiting thread spins (lowest latency,
//             one CPU busy per waiting thread)
//   yield     CU_CTX_SCHED_YIELD: it polls, yielding its CPU to other
//             threads in between
//   blocking  CU_CTX_SCHED_BLOCKING_SYNC: it sleeps on a synchronization
//             primitive until the GPU is done (what LLVM 14's CUDA plugin
//             sets)
// Names are matched in any case. Any other value: one warning per process
// naming the variable, the value and the accepted values, then unset.
//
// applySyncMode runs at device init, before cuDevicePrimaryCtxRetain: the
// flags of a primary context can only be chosen before it is created. When it
// is inactive, cuDevicePrimaryCtxSetFlags gets its current flags with the
// scheduling bits (CU_CTX_SCHED_MASK) replaced; its other flags stay. When it
// is already active (the application's CUDA runtime or another library
// created it), its flags stay as they are: if their scheduling differs from
// the requested one, one warning line names the variable, the device and the
// flags in force, and the device is used with them. A failing driver call is
// a warning too: the mode is a tuning choice, never a reason to lose a
// device. With the variable unset nothing is called.
//
// Thread safety: syncModeFromEnvironment reads the variable once (a
// function-local static); the rest is pure or calls only the driver.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cuda_driver.h"

namespace omptarget::cuda {

enum class SyncMode : uint8_t { Unset, Auto, Spin, Yield, Blocking };

inline constexpr const char *kSyncModeVar = "OMPTARGET_CUDA_SYNC_MODE";

// auto / spin / yield / blocking in any case; nullopt for anything else (the
// empty string too).
std::optional<SyncMode> parseSyncMode(std::string_view Text);

// OMPTARGET_CUDA_SYNC_MODE, read on the first call: unset or invalid (with
// its warning) -> SyncMode::Unset.
SyncMode syncModeFromEnvironment();

// "spin", ... ("unset" for Unset).
const char *syncModeName(SyncMode Mode);

// The CU_CTX_SCHED_* value of a mode other than Unset.
unsigned schedFlags(SyncMode Mode);

// The scheduling bits of Flags as cuda.h names them, with the whole word:
// "CU_CTX_SCHED_BLOCKING_SYNC (flags 0x4)".
std::string schedFlagsText(unsigned Flags);

// Applies Mode to Device's primary context (see the file comment); DeviceId
// is the plugin's number, for the messages.
void applySyncMode(const Driver &D, CUdevice Device, int32_t DeviceId, SyncMode Mode);

}  // namespace omptarget::cuda
