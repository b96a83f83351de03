#include "outcome.h"

#include <cstdio>

#include "debug.h"
#include "info.h"
#include "runtime.h"
#include "table_dump.h"

namespace omptarget::core {

void handleOutcome(const ident_t *Loc, const Status &Result, const char *Call) {
  Runtime &R = Runtime::get();
  switch (R.policy()) {
    case OffloadPolicy::Disabled:
      if (Result) debug::fatal(1, "expected no offloading while offloading is disabled");
      return;
    case OffloadPolicy::Default:
      debug::fatal(1, "default offloading policy must be switched to mandatory or disabled");
    case OffloadPolicy::Mandatory:
      if (Result) return;
      // Messages that already name the call are printed as they are.
      if (Result.error().message().rfind(Call, 0) == 0)
        debug::error("%s", Result.error().message().c_str());
      else
        debug::error("%s: %s", Call, Result.error().message().c_str());
      if (info::enabled(abi::kInfoDumpTable)) {
        for (int32_t Id = 0; Id < R.devices().size(); ++Id)
          if (Device *D = R.devices().get(Id)) info::dumpTable(Loc, *D);
      } else {
        debug::error("Consult https://openmp.llvm.org/design/Runtimes.html for debugging options.");
      }
      info::SourceLocation L = info::location(Loc);
      if (L.Known)
        std::fprintf(stderr, "%s:%d:%d: ", L.File.c_str(), L.Line, L.Column);
      else
        debug::error(
            "Source location information not present. Compile with -g or -gline-tables-only.");
      debug::fatal(1, "failure of target construct while offloading is mandatory");
  }
}

}  // namespace omptarget::core
