#include "llvm19_env.h"

#include <cstdlib>

#include "debug.h"

namespace omptarget::core {

namespace {
struct Unhonoured {
  const char *Name;
  const char *Instead;
};

constexpr const char *kNoJit =
    "omptarget has no JIT: device images run as clang built them (build with -O and "
    "-Xopenmp-target flags instead)";
constexpr const char *kOwnSizing =
    "the CUDA plugin sizes launches by its own rules (docs/env-vars.md); num_teams and "
    "thread_limit clauses set them per region";

constexpr Unhonoured kUnhonoured[] = {
    {"LIBOMPTARGET_PROFILE_GRANULARITY", "LIBOMPTARGET_PROFILE records every span, however short"},
    {"LIBOMPTARGET_MAP_FORCE_ATOMIC",
     "concurrent maps of the same data are always ordered: the first copy completes before "
     "another construct uses the data"},
    {"LIBOMPTARGET_JIT_OPT_LEVEL", kNoJit},
    {"LIBOMPTARGET_JIT_SKIP_OPT", kNoJit},
    {"LIBOMPTARGET_JIT_REPLACEMENT_MODULE", kNoJit},
    {"LIBOMPTARGET_JIT_REPLACEMENT_OBJECT", kNoJit},
    {"LIBOMPTARGET_JIT_PRE_OPT_IR_MODULE", kNoJit},
    {"LIBOMPTARGET_JIT_POST_OPT_IR_MODULE", kNoJit},
    {"LIBOMPTARGET_MIN_THREADS_FOR_LOW_TRIP_COUNT", kOwnSizing},
    {"LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT", kOwnSizing},
    {"LIBOMPTARGET_RECORD", "kernel record and replay are not supported yet: nothing is recorded"},
    {"LIBOMPTARGET_RR_SAVE_OUTPUT",
     "kernel record and replay are not supported yet: nothing is saved"},
    {"OMPTARGET_DUMP_OFFLOAD_ENTRIES",
     "LIBOMPTARGET_DEBUG=1 traces every entry as its image is loaded"},
};
}  // namespace

void warnUnhonouredLlvm19Variables() {
  for (const Unhonoured &U : kUnhonoured)
    if (std::getenv(U.Name))
      debug::warning("%s is LLVM 19's and is ignored here: %s", U.Name, U.Instead);
}

}  // namespace omptarget::core
