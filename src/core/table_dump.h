// The LIBOMPTARGET_INFO mapping-table dump (OMP_INFOTYPE_DUMP_TABLE, and the
// fatal-failure report): every entry of a device's mapping table with its
// host and device addresses, size, reference counts and the declaration
// its map name records, in LLVM 14's format, under the table's lock.
#pragma once

#include "device.h"
#include "omptarget/abi.h"

namespace omptarget::core::info {

// "OpenMP Host-Device pointer mappings after block at <Loc>:", then a line
// per entry of D's table.
void dumpTable(const ident_t *Loc, Device &D);

}  // namespace omptarget::core::info
