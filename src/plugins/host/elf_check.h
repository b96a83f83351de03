// Reading the x86_64 ELF shared objects the host plugin runs, from untrusted
// bytes: every offset, size and count is checked against the image before it
// is used, so any input (short, truncated, garbage) gets an answer or an
// error message, never a read outside the span. No allocation beyond the
// returned layout; no global state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "error.h"

namespace omptarget::host {

// True for a little-endian ELF64 ET_DYN image for EM_X86_64 whose program
// header table lies inside the image: what the image check accepts.
bool isX86_64SharedObject(std::span<const std::byte> Image);

// One PT_LOAD segment: where it lies in memory, relative to the load base.
struct LoadSegment {
  uint64_t Vaddr;
  uint64_t MemSize;
  bool Readable;  // PF_R
};

// Address range of a section in memory, relative to the load base.
struct SectionRange {
  uint64_t Vaddr;
  uint64_t Size;
};

// What loading an image and reading its offload entries rely on.
struct ElfLayout {
  std::vector<LoadSegment> Segments;
  // The `omp_offloading_entries` section (abi::kEntriesSection), when the
  // image has a section table and the section in it; its size is a multiple
  // of sizeof(__tgt_offload_entry) and it lies inside a readable segment.
  std::optional<SectionRange> Entries;
};

// Checks what dlopen and the entry reader need: an x86_64 shared object
// whose program headers and PT_LOAD file ranges lie inside the image, and a
// well-formed section table (when there is one: a stripped table is allowed,
// the image then has no Entries). The error says what is wrong, with
// offsets.
Expected<ElfLayout> parseElfLayout(std::span<const std::byte> Image);

}  // namespace omptarget::host
