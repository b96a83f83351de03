// Library start and stop: the runtime object lives from the library's
// constructor to its destructor.
#include "runtime.h"

namespace {
__attribute__((constructor(101))) void startRuntime() { omptarget::core::Runtime::start(); }
__attribute__((destructor(101))) void stopRuntime() { omptarget::core::Runtime::stop(); }
}  // namespace
