#include "elf_check.h"

#include <elf.h>

#include <cstdarg>
#include <cstring>
#include <string_view>

#include "omptarget/abi.h"

namespace omptarget::host {

namespace {
using Bytes = std::span<const std::byte>;

// [Offset, Offset + Length) lies inside [0, Total), without overflow.
bool inside(uint64_t Offset, uint64_t Length, uint64_t Total) {
  return Offset <= Total && Length <= Total - Offset;
}

// A T read from Image at Offset (the image may be unaligned), or nothing.
template <typename T>
std::optional<T> readAt(Bytes Image, uint64_t Offset) {
  if (!inside(Offset, sizeof(T), Image.size())) return std::nullopt;
  T Value;
  std::memcpy(&Value, Image.data() + Offset, sizeof(T));
  return Value;
}

// Why the header is not an x86_64 shared object's, or null.
const char *headerProblem(Bytes Image, Elf64_Ehdr &Header) {
  std::optional<Elf64_Ehdr> H = readAt<Elf64_Ehdr>(Image, 0);
  if (!H) return "shorter than an ELF64 header";
  Header = *H;
  if (std::memcmp(Header.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (Header.e_ident[EI_CLASS] != ELFCLASS64 || Header.e_ident[EI_DATA] != ELFDATA2LSB)
    return "not a little-endian ELF64 file";
  if (Header.e_type != ET_DYN) return "not a shared object (e_type is not ET_DYN)";
  if (Header.e_machine != EM_X86_64) return "not for x86_64 (e_machine is not EM_X86_64)";
  // dlopen reads the program headers: they must be inside the image.
  if (Header.e_phentsize != sizeof(Elf64_Phdr) || Header.e_phnum == 0 || Header.e_phnum == PN_XNUM)
    return "no program header table of Elf64_Phdr records";
  if (Header.e_phoff < sizeof(Elf64_Ehdr) ||
      !inside(Header.e_phoff, uint64_t{Header.e_phnum} * sizeof(Elf64_Phdr), Image.size()))
    return "its program header table lies outside the image";
  return nullptr;
}

[[gnu::format(printf, 1, 2)]] Error layoutError(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::string Why = formatStringV(Format, Args);
  va_end(Args);
  return Error("the image is not a loadable x86_64 shared object: " + Why);
}

// The segment that holds [Vaddr, Vaddr + Size), or null.
const LoadSegment *segmentHolding(const std::vector<LoadSegment> &Segments, uint64_t Vaddr,
                                  uint64_t Size) {
  for (const LoadSegment &S : Segments)
    if (Vaddr >= S.Vaddr && inside(Vaddr - S.Vaddr, Size, S.MemSize)) return &S;
  return nullptr;
}

Expected<std::vector<LoadSegment>> readSegments(Bytes Image, const Elf64_Ehdr &Header) {
  std::vector<LoadSegment> Segments;
  std::optional<SectionRange> Dynamic;
  for (unsigned I = 0; I < Header.e_phnum; ++I) {
    // In bounds: headerProblem checked the table.
    Elf64_Phdr P = *readAt<Elf64_Phdr>(Image, Header.e_phoff + uint64_t{I} * sizeof(Elf64_Phdr));
    if (P.p_type == PT_DYNAMIC) Dynamic = SectionRange{P.p_vaddr, P.p_memsz};
    if (P.p_type != PT_LOAD) continue;
    if (!inside(P.p_offset, P.p_filesz, Image.size()))
      return layoutError(
          "PT_LOAD segment %u holds file bytes [%llu, +%llu) but the image has %zu "
          "bytes (truncated?)",
          I, static_cast<unsigned long long>(P.p_offset),
          static_cast<unsigned long long>(P.p_filesz), Image.size());
    if (P.p_filesz > P.p_memsz || P.p_vaddr + P.p_memsz < P.p_vaddr)
      return layoutError("PT_LOAD segment %u has %llu file bytes for %llu memory bytes at 0x%llx",
                         I, static_cast<unsigned long long>(P.p_filesz),
                         static_cast<unsigned long long>(P.p_memsz),
                         static_cast<unsigned long long>(P.p_vaddr));
    Segments.push_back(LoadSegment{P.p_vaddr, P.p_memsz, (P.p_flags & PF_R) != 0});
  }
  if (Segments.empty()) return layoutError("no PT_LOAD segment");
  // The dynamic loader reads the dynamic section from the mapped segments.
  if (Dynamic && !segmentHolding(Segments, Dynamic->Vaddr, Dynamic->Size))
    return layoutError("its PT_DYNAMIC range [0x%llx, +%llu) is not inside a PT_LOAD segment",
                       static_cast<unsigned long long>(Dynamic->Vaddr),
                       static_cast<unsigned long long>(Dynamic->Size));
  return Segments;
}

// The entries section of the image's section table, if it has both.
Expected<std::optional<SectionRange>> findEntriesSection(Bytes Image, const Elf64_Ehdr &Header,
                                                         const std::vector<LoadSegment> &Segments) {
  if (Header.e_shoff == 0) return std::optional<SectionRange>{};  // no section table (stripped)
  if (Header.e_shentsize != sizeof(Elf64_Shdr))
    return layoutError("its section headers are %u bytes, not %zu", Header.e_shentsize,
                       sizeof(Elf64_Shdr));
  std::optional<Elf64_Shdr> First = readAt<Elf64_Shdr>(Image, Header.e_shoff);
  if (!First)
    return layoutError("its section table at offset %llu lies outside the image (%zu bytes)",
                       static_cast<unsigned long long>(Header.e_shoff), Image.size());
  // More than SHN_LORESERVE sections: the count and the string table index
  // are in section 0.
  uint64_t Count = Header.e_shnum != 0 ? Header.e_shnum : First->sh_size;
  uint64_t NamesIndex = Header.e_shstrndx != SHN_XINDEX ? Header.e_shstrndx : First->sh_link;
  if (Count > (Image.size() - Header.e_shoff) / sizeof(Elf64_Shdr))
    return layoutError(
        "its section table (%llu headers at offset %llu) extends past the end of the "
        "image (%zu bytes)",
        static_cast<unsigned long long>(Count), static_cast<unsigned long long>(Header.e_shoff),
        Image.size());
  if (NamesIndex == SHN_UNDEF) return std::optional<SectionRange>{};  // sections have no names
  if (NamesIndex >= Count)
    return layoutError("its section name table is section %llu of %llu",
                       static_cast<unsigned long long>(NamesIndex),
                       static_cast<unsigned long long>(Count));
  auto Section = [&](uint64_t I) {  // in bounds: Count was checked
    return *readAt<Elf64_Shdr>(Image, Header.e_shoff + I * sizeof(Elf64_Shdr));
  };
  Elf64_Shdr Names = Section(NamesIndex);
  if (Names.sh_type != SHT_STRTAB || !inside(Names.sh_offset, Names.sh_size, Image.size()))
    return layoutError(
        "its section name table (section %llu) is not a string table inside the image",
        static_cast<unsigned long long>(NamesIndex));
  const auto *NameBytes = reinterpret_cast<const char *>(Image.data() + Names.sh_offset);
  // The wanted name with its terminating NUL.
  const std::string_view Wanted(abi::kEntriesSection, std::strlen(abi::kEntriesSection) + 1);

  std::optional<SectionRange> Found;
  for (uint64_t I = 1; I < Count; ++I) {
    Elf64_Shdr S = Section(I);
    if (S.sh_name >= Names.sh_size || Names.sh_size - S.sh_name < Wanted.size() ||
        std::memcmp(NameBytes + S.sh_name, Wanted.data(), Wanted.size()) != 0)
      continue;
    if (Found) return layoutError("it has more than one %s section", abi::kEntriesSection);
    if (S.sh_type == SHT_NOBITS || !(S.sh_flags & SHF_ALLOC))
      return layoutError("its %s section (section %llu) is not loaded with the image",
                         abi::kEntriesSection, static_cast<unsigned long long>(I));
    if (S.sh_size % sizeof(__tgt_offload_entry) != 0)
      return layoutError(
          "its %s section has %llu bytes, not a multiple of the %zu-byte "
          "__tgt_offload_entry of clang 14 (built by a compiler whose entry layout "
          "this runtime does not support? rebuild with clang 14)",
          abi::kEntriesSection, static_cast<unsigned long long>(S.sh_size),
          sizeof(__tgt_offload_entry));
    const LoadSegment *Seg = segmentHolding(Segments, S.sh_addr, S.sh_size);
    if (!Seg || !Seg->Readable)
      return layoutError("its %s section [0x%llx, +%llu) is not inside a readable PT_LOAD segment",
                         abi::kEntriesSection, static_cast<unsigned long long>(S.sh_addr),
                         static_cast<unsigned long long>(S.sh_size));
    Found = SectionRange{S.sh_addr, S.sh_size};
  }
  return Found;
}
}  // namespace

bool isX86_64SharedObject(std::span<const std::byte> Image) {
  Elf64_Ehdr Header;
  return headerProblem(Image, Header) == nullptr;
}

Expected<ElfLayout> parseElfLayout(std::span<const std::byte> Image) {
  Elf64_Ehdr Header;
  if (const char *Problem = headerProblem(Image, Header))
    return layoutError("%s (%zu bytes)", Problem, Image.size());
  Expected<std::vector<LoadSegment>> Segments = readSegments(Image, Header);
  if (!Segments) return Segments.takeError();
  Expected<std::optional<SectionRange>> Entries = findEntriesSection(Image, Header, *Segments);
  if (!Entries) return Entries.takeError();
  return ElfLayout{std::move(*Segments), *Entries};
}

}  // namespace omptarget::host
