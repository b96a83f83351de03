// Calls an outlined target region through libffi.
#pragma once

#include <cstddef>
#include <cstdint>

#include "error.h"

namespace omptarget::host {

// Calls void Entry(void *, ..., void *) with NumArgs pointer arguments,
// argument I being (char *)Args[I] + Offsets[I]; with EnvironmentFirst (a
// kernel of clang 15 or later, which takes its launch environment first:
// none on the host), a null pointer before them. Up to 16 parameters the
// call is a direct one through a function pointer of that type; beyond,
// through libffi with a cif prepared once per parameter count (up to 64) or
// per call.
Status callWithPointerArgs(void *Entry, void **Args, const ptrdiff_t *Offsets, int32_t NumArgs,
                           bool EnvironmentFirst = false);

}  // namespace omptarget::host
