// Driver API statistics: OMPTARGET_CUDA_API_STATS=1 makes the plugin count
// and time every CUDA driver call it makes and print, at process exit, one
// line per entry point (calls, total and mean host time) to stderr. It is how
// the runtime's own overhead per target region is taken apart on a GPU
// machine without a profiler.
//
// The plugin setup (cuda_plugin.cpp) passes installApiStatsIfRequested to
// loadDriver, which applies it to the resolved table before cuInit; the
// driver table itself knows nothing of it.
//
// Thread safety: counters are relaxed atomics; the wrapped table is written
// once, before any device exists.
#pragma once

#include "cuda_driver.h"

namespace omptarget::cuda {

// Replaces every resolved entry of Table with a counting wrapper when the
// environment asks for it; otherwise leaves the table untouched (a
// DriverDecorator).
void installApiStatsIfRequested(Driver &Table);

}  // namespace omptarget::cuda
