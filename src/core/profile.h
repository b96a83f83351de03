// The runtime's own profile: LIBOMPTARGET_PROFILE=FILE writes a Chrome Trace
// Event file (Perfetto, chrome://tracing, tools/omptarget-profile read it)
// and LIBOMPTARGET_PROFILE_SUMMARY=1 prints a table at exit. Format and
// usage: docs/usage.md, "Profiling".
//
// Contract:
//   * enabled() is decided once per process (either variable set and
//     non-empty, LIBOMPTARGET_PROFILE_SUMMARY not 0); when it is false a
//     HostSpan costs one load and one predictable branch, nothing else.
//   * Span names are static strings: a runtime call's name
//     ("omp_target_alloc") or a compiler entry's ("__tgt_target_teams"),
//     which the file and the summary show as its construct ("target teams").
//   * A HostSpan records one host-side span (a construct or a runtime call:
//     its name, a static string; its source location from the ident_t, read
//     only when the file is written; its device) on the calling thread, from
//     its construction to its destruction. Spans nest: an inner span (a
//     mapper's or a nested call's) is recorded as its own span.
//   * The file and the summary are written once: at exit (exit(), the end of
//     main, quick_exit is not covered), or before a fatal offload error
//     aborts (the core's fatal hook). A span still open then is not in it.
//
// Threads and locks: each thread appends to its own log, guarded by the
// log's FutexMutex (uncontended but for the writer at exit, which may run
// while other threads are still offloading). The registry of logs has its
// own FutexMutex, taken by a thread once (its first span) and by the writer;
// the writer takes the registry's lock, then each log's, never the reverse.
#pragma once

#include <atomic>
#include <cstdint>

#include "omptarget/abi.h"

namespace omptarget::core::profile {

namespace detail {
// -1 undecided, -2 being decided, 0 off, 1 on.
extern std::atomic<int> State;
bool decide();
uint64_t nowNs();
void record(const char *Name, const ident_t *Loc, int64_t Device, uint64_t Begin, uint64_t End);
}  // namespace detail

// Is any profile output requested? Decided on the first call.
[[gnu::always_inline]] inline bool enabled() {
  int S = detail::State.load(std::memory_order_relaxed);
  return S >= 0 ? S != 0 : detail::decide();
}

class HostSpan {
 public:
  // Name must outlive the process (a string literal). Device -1: none.
  [[gnu::always_inline]] HostSpan(const char *Name, const ident_t *Loc, int64_t Device = -1) {
    if (enabled()) [[unlikely]] {
      Name_ = Name;
      Loc_ = Loc;
      Device_ = Device;
      Begin_ = detail::nowNs();
    }
  }
  [[gnu::always_inline]] ~HostSpan() {
    if (Name_) [[unlikely]]
      detail::record(Name_, Loc_, Device_, Begin_, detail::nowNs());
  }
  // The device once it is known (resolved from the default device).
  void setDevice(int64_t Device) { Device_ = Device; }
  HostSpan(const HostSpan &) = delete;
  HostSpan &operator=(const HostSpan &) = delete;

 private:
  const char *Name_ = nullptr;
  const ident_t *Loc_ = nullptr;
  int64_t Device_ = -1;
  uint64_t Begin_ = 0;
};

// Writes the file and prints the summary now, once (the exit and fatal
// paths call it; later calls do nothing).
void flush();

}  // namespace omptarget::core::profile
