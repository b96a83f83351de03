#include "offload_entries.h"

#include <cstring>

#include "omptarget/abi.h"

namespace omptarget::host {

namespace {
// The string at Ptr if it is NUL-terminated inside a readable loaded segment.
std::optional<std::string_view> loadedString(const ElfLayout &Layout, uintptr_t Base,
                                             const char *Ptr) {
  auto Addr = reinterpret_cast<uintptr_t>(Ptr);
  for (const LoadSegment &S : Layout.Segments) {
    uintptr_t Begin = Base + S.Vaddr;
    if (!S.Readable || Addr < Begin || Addr - Begin >= S.MemSize) continue;
    size_t Room = S.MemSize - (Addr - Begin);
    if (const void *Nul = std::memchr(Ptr, '\0', Room))
      return std::string_view(Ptr, static_cast<size_t>(static_cast<const char *>(Nul) - Ptr));
    return std::nullopt;
  }
  return std::nullopt;
}
}  // namespace

Expected<OffloadEntryTable> OffloadEntryTable::read(const ElfLayout &Layout, uintptr_t Base) {
  // parseElfLayout checked that the section lies in a readable segment and
  // holds whole records.
  const SectionRange &Section = *Layout.Entries;
  const auto *Records = reinterpret_cast<const std::byte *>(Base + Section.Vaddr);
  size_t Count = Section.Size / sizeof(__tgt_offload_entry);
  OffloadEntryTable Table;
  Table.Entries_.reserve(Count);
  Table.ByName_.reserve(Count);
  for (size_t I = 0; I < Count; ++I) {
    __tgt_offload_entry R;
    std::memcpy(&R, Records + I * sizeof(R), sizeof(R));
    std::optional<std::string_view> Name = loadedString(Layout, Base, R.name);
    if (!Name)
      return makeError(
          "entry %zu of the image's %s section has a name pointer (%p) outside the "
          "image (a corrupt image?)",
          I, abi::kEntriesSection, static_cast<void *>(R.name));
    if (!R.addr)
      return makeError("entry %zu ('%.*s') of the image's %s section has a null address", I,
                       static_cast<int>(Name->size()), Name->data(), abi::kEntriesSection);
    Table.Entries_.push_back(Entry{*Name, R.addr, R.size});
    auto [It, New] = Table.ByName_.try_emplace(*Name, I);
    // The same name twice is one weak definition seen from two translation
    // units (same address), or two `static` variables (different ones).
    if (!New && It->second != kAmbiguous && Table.Entries_[It->second].Addr != R.addr)
      It->second = kAmbiguous;
  }
  return Table;
}

Expected<void *> OffloadEntryTable::resolve(size_t &Cursor, const char *Name, size_t Size) const {
  const Entry *Found = nullptr;
  if (Cursor < Entries_.size() && Entries_[Cursor].Name == Name) {
    Found = &Entries_[Cursor];
  } else {
    auto It = ByName_.find(Name);
    if (It == ByName_.end()) return nullptr;
    if (It->second != kAmbiguous) {
      Found = &Entries_[It->second];
    } else {
      for (size_t I = Cursor; I < Entries_.size() && !Found; ++I)
        if (Entries_[I].Name == Name) Found = &Entries_[I];
      if (!Found)
        return makeError(
            "several entries of the image's %s section have this name, at different "
            "addresses, and none at or after record %zu, where the host's order puts it",
            abi::kEntriesSection, Cursor);
    }
  }
  Cursor = static_cast<size_t>(Found - Entries_.data()) + 1;
  if (Found->Size != Size)
    return makeError("%zu bytes on the host but %zu in the image's %s section", Size, Found->Size,
                     abi::kEntriesSection);
  return Found->Addr;
}

}  // namespace omptarget::host
