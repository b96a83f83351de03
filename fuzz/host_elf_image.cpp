// Fuzz target: the host plugin's image check and the loading of an x86_64
// device image up to, not including, running its code. The input is the
// image's bytes.
//
// Fuzzed (src/plugins/host): isX86_64SharedObject (the plugin's
// is_valid_binary) and parseElfLayout (elf_check.h: what load_binary checks
// before it loads), then OffloadEntryTable::read and resolve
// (offload_entries.h) on the image as this harness "loads" it: every PT_LOAD
// segment's file bytes copied to its p_vaddr in one zeroed buffer, and the
// name and address of each record of the entries section relocated the way
// the dynamic loader's R_X86_64_RELATIVE relocations relocate clang 14's
// (the load base added to every non-null field).
//
// Not fuzzed: MemoryLibrary::load (memfd_create, write, dlopen). dlopen runs
// the image's constructors (DT_INIT, DT_INIT_ARRAY, DT_PREINIT_ARRAY), that
// is the fuzzer's bytes as code, so the harness stops where dlopen would
// start and stands in for the loader's mapping and relocation with the copy
// above (images whose segments span more than 1 MiB are only parsed).
//
// Asserted:
//  - parseElfLayout accepts only images isX86_64SharedObject accepts (the
//    plugin never takes an image it then refuses to parse for a header
//    reason);
//  - a parsed layout has a segment, and its entries section is a whole
//    number of records inside one readable segment;
//  - reading the table never reads outside the loaded buffer (ASan), and a
//    table that reads resolves its own records in table order: each at the
//    cursor, with its address, the cursor moving one past it; a name it
//    lacks resolves to null.
#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "elf_check.h"
#include "fuzz_check.h"
#include "offload_entries.h"
#include "omptarget/abi.h"

using namespace omptarget;
using namespace omptarget::host;

namespace {

constexpr uint64_t kMaxLoadSpan = 1 << 20;

// The loaded image: segments at their p_vaddr relative to Base.
struct LoadedImage {
  std::vector<std::byte> Memory;
  uintptr_t Base = 0;  // Memory.data() - lowest p_vaddr (may wrap: an address, not a pointer)
};

// Maps the PT_LOAD segments the way the dynamic loader would (their file
// bytes, the rest zero), or nothing when they span too much memory.
std::optional<LoadedImage> load(std::span<const std::byte> Image, const ElfLayout &Layout) {
  uint64_t Low = UINT64_MAX, High = 0;
  for (const LoadSegment &S : Layout.Segments) {
    Low = std::min(Low, S.Vaddr);
    High = std::max(High, S.Vaddr + S.MemSize);  // parseElfLayout: no wrap
  }
  if (High - Low > kMaxLoadSpan) return std::nullopt;
  LoadedImage L;
  L.Memory.assign(static_cast<size_t>(High - Low), std::byte{0});
  L.Base = reinterpret_cast<uintptr_t>(L.Memory.data()) - Low;
  Elf64_Ehdr H;
  std::memcpy(&H, Image.data(), sizeof(H));
  for (unsigned I = 0; I < H.e_phnum; ++I) {
    Elf64_Phdr P;
    std::memcpy(&P, Image.data() + H.e_phoff + I * sizeof(P), sizeof(P));
    // parseElfLayout checked the file range and p_filesz <= p_memsz.
    if (P.p_type == PT_LOAD && P.p_filesz > 0)
      std::memcpy(L.Memory.data() + (P.p_vaddr - Low), Image.data() + P.p_offset, P.p_filesz);
  }
  return L;
}

// The records of the entries section as relocated in the loaded image.
std::vector<__tgt_offload_entry> relocateEntries(LoadedImage &L, const SectionRange &Entries) {
  std::vector<__tgt_offload_entry> Records(Entries.Size / sizeof(__tgt_offload_entry));
  std::byte *At = reinterpret_cast<std::byte *>(L.Base + Entries.Vaddr);
  for (size_t I = 0; I < Records.size(); ++I) {
    __tgt_offload_entry R;
    std::memcpy(&R, At + I * sizeof(R), sizeof(R));
    if (R.addr) R.addr = reinterpret_cast<void *>(L.Base + reinterpret_cast<uintptr_t>(R.addr));
    if (R.name) R.name = reinterpret_cast<char *>(L.Base + reinterpret_cast<uintptr_t>(R.name));
    std::memcpy(At + I * sizeof(R), &R, sizeof(R));
    Records[I] = R;
  }
  return Records;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A copy of exactly the input: ASan sees any read past its end.
  std::vector<std::byte> Bytes(reinterpret_cast<const std::byte *>(Data),
                               reinterpret_cast<const std::byte *>(Data) + Size);
  std::span<const std::byte> Image(Bytes.data(), Bytes.size());

  const bool Accepted = isX86_64SharedObject(Image);
  Expected<ElfLayout> Layout = parseElfLayout(Image);
  if (!Layout) {
    FUZZ_CHECK(!Layout.error().message().empty());
    return 0;
  }
  FUZZ_CHECK(Accepted);
  FUZZ_CHECK(!Layout->Segments.empty());
  if (!Layout->Entries) return 0;
  const SectionRange &Entries = *Layout->Entries;
  FUZZ_CHECK(Entries.Size % sizeof(__tgt_offload_entry) == 0);
  bool InReadableSegment = false;
  for (const LoadSegment &S : Layout->Segments)
    InReadableSegment |= S.Readable && Entries.Vaddr >= S.Vaddr &&
                         Entries.Vaddr - S.Vaddr <= S.MemSize &&
                         Entries.Size <= S.MemSize - (Entries.Vaddr - S.Vaddr);
  FUZZ_CHECK(InReadableSegment);

  std::optional<LoadedImage> Loaded = load(Image, *Layout);
  if (!Loaded) return 0;
  std::vector<__tgt_offload_entry> Records = relocateEntries(*Loaded, Entries);
  Expected<OffloadEntryTable> Table = OffloadEntryTable::read(*Layout, Loaded->Base);
  if (!Table) {
    FUZZ_CHECK(!Table.error().message().empty());
    return 0;
  }
  FUZZ_CHECK(Table->size() == Records.size());
  // The host's order: every record at the cursor.
  size_t Cursor = 0;
  for (size_t I = 0; I < Records.size(); ++I) {
    Expected<void *> Addr = Table->resolve(Cursor, Records[I].name, Records[I].size);
    FUZZ_CHECK(Addr && *Addr == Records[I].addr);
    FUZZ_CHECK(Cursor == I + 1);
  }
  // Out of order, past the end, a wrong size: any answer, no crash.
  for (size_t I = Records.size(); I-- > 0;) {
    size_t From = Records.size() - I;
    (void)Table->resolve(From, Records[I].name, Records[I].size + 1);
  }
  // A name no record has.
  static const char kAbsent[] = "\x01not-an-entry";
  bool Named = false;
  for (const __tgt_offload_entry &R : Records) Named |= std::string_view(R.name) == kAbsent;
  if (!Named) {
    size_t From = 0;
    Expected<void *> Addr = Table->resolve(From, kAbsent, 0);
    FUZZ_CHECK(Addr && *Addr == nullptr && From == 0);
  }
  return 0;
}
