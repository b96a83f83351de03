// The offload entries of a loaded x86_64 image, read from the image's own
// `omp_offloading_entries` section (abi::kEntriesSection).
//
// clang 14 puts one __tgt_offload_entry per kernel and declare-target global
// into that section of the device image, in the same order as the host
// program's entries. Once the dynamic loader has relocated the image, each
// record's `addr` is the image's own kernel or variable, whatever its
// linkage: this finds entries that dlsym cannot (the internal `_ctor` /
// `_dtor` kernels, `static` globals). The table is read once per load;
// resolving the host's entries in order costs a name comparison each, or a
// hash lookup where the orders differ.
//
// The section can lack host entries: clang 14 leaves the references of
// `declare target link` globals (`<var>_decl_tgt_ref_ptr`) out of the x86_64
// image's section (they are dynamic symbols of the image). resolve() says so
// (a null address) and the caller looks them up by dynamic symbol.
//
// Every record is checked before it is used: a name must point to a
// NUL-terminated string inside a readable segment of the image.
// Immutable after read(); any number of threads may resolve concurrently
// (each with its own cursor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "elf_check.h"
#include "error.h"

namespace omptarget::host {

class OffloadEntryTable {
 public:
  // Reads Layout.Entries (which must be set) of the image loaded at Base.
  static Expected<OffloadEntryTable> read(const ElfLayout &Layout, uintptr_t Base);

  size_t size() const { return Entries_.size(); }

  // The image's address of the host entry named `Name`, of `Size` bytes (0:
  // a kernel), or null when no record has that name. Host entries are
  // resolved in table order with one Cursor (0 before the first): the record
  // at Cursor is tried first; a name several records share (the `static`
  // variables of two translation units) resolves to the first of them at or
  // after Cursor. Cursor ends past the record found.
  Expected<void *> resolve(size_t &Cursor, const char *Name, size_t Size) const;

 private:
  struct Entry {
    std::string_view Name;
    void *Addr;
    size_t Size;
  };
  static constexpr size_t kAmbiguous = SIZE_MAX;

  std::vector<Entry> Entries_;
  std::unordered_map<std::string_view, size_t> ByName_;  // index, or kAmbiguous
};

}  // namespace omptarget::host
