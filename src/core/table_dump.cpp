#include "table_dump.h"

#include <cinttypes>
#include <string>

#include "debug.h"
#include "info.h"
#include "scoped_lock.h"

namespace omptarget::core::info {

void dumpTable(const ident_t *Loc, Device &D) {
  SourceLocation L = location(Loc);
  ScopedLock Lock(D.mappings().Mutex);
  print(D.id(), "OpenMP Host-Device pointer mappings after block at %s:%d:%d:", L.File.c_str(),
        L.Line, L.Column);
  print(D.id(), "%-18s %-18s %s %s %s %s", "Host Ptr", "Target Ptr", "Size (B)", "DynRefCount",
        "HoldRefCount", "Declaration");
  D.mappings().forEach([&](const MapEntry &E) {
    std::string Name = varName(E.Name);
    SourceLocation V = declaration(E.Name);
    print(D.id(), OMPT_PTR_FMT " " OMPT_PTR_FMT " %-8" PRId64 " %-11s %-12s %s at %s:%d:%d",
          E.HstBegin, E.TgtBegin, E.size(), E.refToString(false).c_str(),
          E.refToString(true).c_str(), Name.c_str(), V.File.c_str(), V.Line, V.Column);
  });
}

}  // namespace omptarget::core::info
