// Whether exit() has begun, for code that may run while the process exits
// (a nowait region's helper thread, a plugin reporting a driver error) and
// must then not treat teardown failures as the user's errors.
//
// arm() registers an atexit handler that sets the mark. atexit handlers run
// last-registered first, and a driver may register its own exit-time
// teardown when it starts (the CUDA driver at cuInit or a context's
// creation, after which it refuses to start a device), so callers arm the
// mark again after each step that may start a driver: the mark is then set
// before that teardown runs, and before any library destructor. Each copy of
// the support library (the core, each plugin) has its own mark.
//
// Thread safety: the mark is an atomic flag; arm() may be called from any
// thread (std::atexit is thread-safe).
#pragma once

namespace omptarget::exit_mark {

// Registers (again) the handler that sets the mark at exit().
void arm();
// True once exit() has run an armed handler.
bool begun();

}  // namespace omptarget::exit_mark
