// LLVM 19's environment variables that omptarget does not honour.
//
// A clang 19 user may carry settings for LLVM 19's runtime over. Each of
// those variables that is set gets one warning line when the runtime
// starts, naming it and what omptarget does instead, so that a setting is
// never silently ignored. The variables both runtimes share (LIBOMPTARGET_
// DEBUG, _INFO, _PROFILE, _HEAP_SIZE, _STACK_SIZE, _SHARED_MEMORY_SIZE,
// _MEMORY_MANAGER_THRESHOLD, _LOCK_MAPPED_HOST_BUFFERS, _NUM_INITIAL_STREAMS,
// _NUM_INITIAL_EVENTS, _DEVICE_RTL_DEBUG, OMP_NUM_TEAMS, OMP_TEAMS_THREAD_
// LIMIT) are read where they act; docs/env-vars.md lists them all.
#pragma once

namespace omptarget::core {

// The warning lines, once per process (called by the runtime's constructor).
void warnUnhonouredLlvm19Variables();

}  // namespace omptarget::core
