// A kernel's arguments with the implicit launch-environment argument of
// clang 15 and later (KernelArgs version 3 on) put first: the lists a
// launch of such a kernel passes, built without the heap for the usual
// handful of arguments (an empty clang 19 region on the host device cost
// about 300 instructions more than clang 14's in malloc and free when
// these were std::vectors: bench/count_region_instructions.sh).
#pragma once

#include <cstddef>
#include <cstdint>

#include "small_array.h"

namespace omptarget::plugin {

class ArgsWithEnvironment {
 public:
  // Env is set later with setEnvironment (a device makes it on the
  // launch's queue).
  ArgsWithEnvironment(void **Args, const ptrdiff_t *Offsets, int32_t NumArgs)
      : Args_(static_cast<size_t>(NumArgs) + 1), Offsets_(static_cast<size_t>(NumArgs) + 1) {
    const auto N = static_cast<size_t>(NumArgs);
    Args_.push_back(nullptr);
    Offsets_.push_back(0);
    Args_.append(Args, N);
    Offsets_.append(Offsets, N);
  }
  void setEnvironment(void *Env) { Args_[0] = Env; }
  void **args() { return Args_.data(); }
  ptrdiff_t *offsets() { return Offsets_.data(); }
  int32_t numArgs() const { return static_cast<int32_t>(Args_.size()); }

 private:
  SmallArray<void *, 16> Args_;
  SmallArray<ptrdiff_t, 16> Offsets_;
};

}  // namespace omptarget::plugin
