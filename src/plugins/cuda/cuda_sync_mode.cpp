#include "cuda_sync_mode.h"

#include "debug.h"
#include "env.h"

namespace omptarget::cuda {

namespace {
constexpr const char *kComponent = "TARGET cuda RTL";
}  // namespace

std::optional<SyncMode> parseSyncMode(std::string_view Text) {
  for (SyncMode M : {SyncMode::Auto, SyncMode::Spin, SyncMode::Yield, SyncMode::Blocking})
    if (env::equalsIgnoringCase(Text, syncModeName(M))) return M;
  return std::nullopt;
}

SyncMode syncModeFromEnvironment() {
  static const SyncMode Mode = [] {
    std::optional<std::string> Text = env::getString(kSyncModeVar);
    if (!Text) return SyncMode::Unset;
    if (std::optional<SyncMode> M = parseSyncMode(*Text)) return *M;
    debug::warning(
        "ignoring %s='%s': expected auto, spin, yield or blocking; using the default (the "
        "primary contexts' flags are left as they are)",
        kSyncModeVar, Text->c_str());
    return SyncMode::Unset;
  }();
  return Mode;
}

const char *syncModeName(SyncMode Mode) {
  switch (Mode) {
    case SyncMode::Unset: return "unset";
    case SyncMode::Auto: return "auto";
    case SyncMode::Spin: return "spin";
    case SyncMode::Yield: return "yield";
    case SyncMode::Blocking: return "blocking";
  }
  return "unknown";
}

unsigned schedFlags(SyncMode Mode) {
  switch (Mode) {
    case SyncMode::Spin: return CU_CTX_SCHED_SPIN;
    case SyncMode::Yield: return CU_CTX_SCHED_YIELD;
    case SyncMode::Blocking: return CU_CTX_SCHED_BLOCKING_SYNC;
    case SyncMode::Unset:
    case SyncMode::Auto: break;
  }
  return CU_CTX_SCHED_AUTO;
}

std::string schedFlagsText(unsigned Flags) {
  const char *Name = "CU_CTX_SCHED_AUTO";
  switch (Flags & CU_CTX_SCHED_MASK) {
    case CU_CTX_SCHED_AUTO: break;
    case CU_CTX_SCHED_SPIN: Name = "CU_CTX_SCHED_SPIN"; break;
    case CU_CTX_SCHED_YIELD: Name = "CU_CTX_SCHED_YIELD"; break;
    case CU_CTX_SCHED_BLOCKING_SYNC: Name = "CU_CTX_SCHED_BLOCKING_SYNC"; break;
    default: Name = "an unknown scheduling mode"; break;
  }
  return formatString("%s (flags 0x%x)", Name, Flags);
}

void applySyncMode(const Driver &D, CUdevice Device, int32_t DeviceId, SyncMode Mode) {
  if (Mode == SyncMode::Unset) return;
  const char *Name = syncModeName(Mode);
  unsigned Flags = 0;
  int Active = 0;
  if (Status S = check(D.cuDevicePrimaryCtxGetState(Device, &Flags, &Active),
                       "cuDevicePrimaryCtxGetState");
      !S) {
    debug::warning("%s=%s not applied to CUDA device %d: %s", kSyncModeVar, Name, DeviceId,
                   S.error().message().c_str());
    return;
  }
  const unsigned Wanted = schedFlags(Mode);
  if (Active) {
    // Someone else's context: changing its flags under them is not ours to do.
    if ((Flags & CU_CTX_SCHED_MASK) != Wanted)
      debug::warning(
          "%s=%s not applied to CUDA device %d: its primary context is already active "
          "(created by the application's CUDA runtime or another library) and keeps %s",
          kSyncModeVar, Name, DeviceId, schedFlagsText(Flags).c_str());
    else
      OMPT_TRACE(kComponent, "device %d: primary context already active with %s (%s=%s)", DeviceId,
                 schedFlagsText(Flags).c_str(), kSyncModeVar, Name);
    return;
  }
  const unsigned New = (Flags & ~static_cast<unsigned>(CU_CTX_SCHED_MASK)) | Wanted;
  if (Status S = check(D.cuDevicePrimaryCtxSetFlags(Device, New), "cuDevicePrimaryCtxSetFlags");
      !S) {
    debug::warning("%s=%s not applied to CUDA device %d: %s; its primary context keeps %s",
                   kSyncModeVar, Name, DeviceId, S.error().message().c_str(),
                   schedFlagsText(Flags).c_str());
    return;
  }
  OMPT_TRACE(kComponent, "device %d: primary context flags set to %s (%s=%s)", DeviceId,
             schedFlagsText(New).c_str(), kSyncModeVar, Name);
}

}  // namespace omptarget::cuda
