// printf and assert from target regions, and the wall clock.
#include "state.h"

using namespace devrtl;

// clang 14 turns printf in a target region into this call, with the
// arguments packed as CUDA's vprintf reads them.
ENTRY int32_t __llvm_omp_vprintf(const char *Format, void *Args, uint32_t) {
  return vprintf(Format, static_cast<const char *>(Args));
}

ENTRY void __assert_fail(const char *Expression, const char *File, uint32_t Line,
                         const char *Function) {
  struct {
    const char *File;
    uint64_t Line;
    const char *Function;
    const char *Expression;
  } Args{File, Line, Function, Expression};
  vprintf("%s:%lu: %s: Device assertion `%s' failed.\n", reinterpret_cast<const char *>(&Args));
  __builtin_trap();
}

// %globaltimer counts nanoseconds.
ENTRY double omp_get_wtime() { return static_cast<double>(globalTimerNs()) * 1e-9; }
ENTRY double omp_get_wtick() { return 1e-9; }
