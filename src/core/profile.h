// The runtime's own profile: LIBOMPTARGET_PROFILE=FILE writes a Chrome Trace
// Event file (Perfetto, chrome://tracing, tools/omptarget-profile read it)
// and LIBOMPTARGET_PROFILE_SUMMARY=1 prints a table at exit. Format and
// usage: docs/usage.md, "Profiling".
//
// Contract:
//   * state() is decided once per process: recording (either variable set
//     and non-empty, LIBOMPTARGET_PROFILE_SUMMARY not 0) and NVTX ranges
//     (OMPTARGET_NVTX=1, or, with it unset, a tool loaded through
//     NVTX_INJECTION64_PATH, as `nsys profile` does; only when the core was
//     built with NVTX3's header); when both are off a HostSpan costs one
//     load and one predictable branch, nothing else.
//   * With NVTX on, every HostSpan is also an NVTX range (push at its start,
//     pop at its end, on its thread) named "<construct> <file:line:col>"
//     ("target teams prog.c:12:1"), or the call's name alone.
//   * Span names are static strings: a runtime call's name
//     ("omp_target_alloc") or a compiler entry's ("__tgt_target_teams"),
//     which the file and the summary show as its construct ("target teams").
//   * A HostSpan records one host-side span (a construct or a runtime call:
//     its name, a static string; its source location from the ident_t, read
//     only when the file is written; its device) on the calling thread, from
//     its construction to its destruction. Spans nest: an inner span (a
//     mapper's or a nested call's) is recorded as its own span.
//   * Device work: when recording, each device the core starts is asked to
//     time its work (the plugin entry profile_device; a plugin without it,
//     LLVM 14's, has no device tracks). The plugin reports every copy,
//     kernel, allocation and release with its device-side start and end on
//     the host's steady clock once they are known (after the queue's
//     synchronize); the file has one track per device queue (and one per
//     host thread for work done inline on it), and a flow arrow from the
//     innermost host span that was running on the issuing thread when the
//     work was issued to the work.
//   * The file and the summary are written once: at exit (exit(), the end of
//     main, quick_exit is not covered), or before a fatal offload error
//     aborts (the core's fatal hook). A span still open then is not in it,
//     nor is device work not yet synchronized.
//
// Threads and locks: each thread appends to its own log, guarded by the
// log's FutexMutex (uncontended but for the writer at exit, which may run
// while other threads are still offloading). The registry of logs has its
// own FutexMutex, taken by a thread once (its first span) and by the writer;
// the writer takes the registry's lock, then each log's, never the reverse.
// Device work goes to one log of its own (DeviceMutex, a FutexMutex: taken
// by the plugin's callback, on the thread that synchronizes, and by the
// writer after the other locks; nothing is taken under it).
#pragma once

#include <atomic>
#include <cstdint>

#include <string>

#include "omptarget/abi.h"
#include "omptarget/plugin_abi.h"

namespace omptarget::core::profile {

// What is on (bits of the decided state).
constexpr int kRecord = 1;  // LIBOMPTARGET_PROFILE or LIBOMPTARGET_PROFILE_SUMMARY
constexpr int kNvtx = 2;    // NVTX ranges (OMPTARGET_NVTX, or a tool injected by Nsight)

namespace detail {
// -1 undecided, -2 being decided, else the bits above.
extern std::atomic<int> State;
int decide();
uint64_t nowNs();
void record(const char *Name, const ident_t *Loc, int64_t Device, uint64_t Begin, uint64_t End);
void nvtxPush(const char *Name, const ident_t *Loc);
void nvtxPop();
}  // namespace detail

// What is on; decided on the first call. The load acquires: a thread that
// finds the state decided reads what decide() set up before its release
// store (the recording's start time, file name), then records spans. (A
// plain load on x86-64, as a relaxed one.)
[[gnu::always_inline]] inline int state() {
  int S = detail::State.load(std::memory_order_acquire);
  return S >= 0 ? S : detail::decide();
}
inline bool enabled() { return state() != 0; }

class HostSpan {
 public:
  // Name must outlive the process (a string literal). Device -1: none.
  [[gnu::always_inline]] HostSpan(const char *Name, const ident_t *Loc, int64_t Device = -1) {
    if (int S = state()) [[unlikely]] {
      Flags_ = S;
      Name_ = Name;
      Loc_ = Loc;
      Device_ = Device;
      if (S & kNvtx) detail::nvtxPush(Name, Loc);
      if (S & kRecord) Begin_ = detail::nowNs();
    }
  }
  [[gnu::always_inline]] ~HostSpan() {
    if (Flags_) [[unlikely]] {
      if (Flags_ & kRecord) detail::record(Name_, Loc_, Device_, Begin_, detail::nowNs());
      if (Flags_ & kNvtx) detail::nvtxPop();
    }
  }
  // The device once it is known (resolved from the default device).
  void setDevice(int64_t Device) { Device_ = Device; }
  HostSpan(const HostSpan &) = delete;
  HostSpan &operator=(const HostSpan &) = delete;

 private:
  int Flags_ = 0;
  const char *Name_ = nullptr;
  const ident_t *Loc_ = nullptr;
  int64_t Device_ = -1;
  uint64_t Begin_ = 0;
};

// Writes the file and prints the summary now, once (the exit and fatal
// paths call it; later calls do nothing).
void flush();

// When recording: asks the plugin (its profile_device entry, which may be
// null) to report the timed work of its device PluginDeviceId, the core's
// device Device; Label names the device's tracks ("device 0: NVIDIA H200
// (cuda)"). Called once per device, after the plugin started it.
using ProfileDeviceFn = int32_t (*)(int32_t, uint32_t, __tgt_device_op_fn, void *);
void attachDevice(int32_t Device, std::string Label, ProfileDeviceFn ProfileDevice,
                  int32_t PluginDeviceId);
inline bool recording() { return (state() & kRecord) != 0; }

}  // namespace omptarget::core::profile
