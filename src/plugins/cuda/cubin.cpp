#include "cubin.h"

#include <elf.h>

#include <cstring>

namespace omptarget::cuda {

namespace {
constexpr uint16_t kEmCuda = 190;
constexpr unsigned char kAbiVersionV2 = 8;
}  // namespace

std::optional<CubinInfo> readCubin(std::span<const std::byte> Image) {
  Elf64_Ehdr Header;
  if (Image.size() < sizeof(Header)) return std::nullopt;
  std::memcpy(&Header, Image.data(), sizeof(Header));  // the image may be unaligned
  if (std::memcmp(Header.e_ident, ELFMAG, SELFMAG) != 0) return std::nullopt;
  if (Header.e_ident[EI_CLASS] != ELFCLASS64 || Header.e_ident[EI_DATA] != ELFDATA2LSB)
    return std::nullopt;
  if (Header.e_machine != kEmCuda) return std::nullopt;
  CubinInfo Info;
  if (Header.e_ident[EI_ABIVERSION] >= kAbiVersionV2)
    Info.Sm = (Header.e_flags >> 8) & 0xff;
  else
    Info.Sm = Header.e_flags & 0xff;
  return Info;
}

namespace {
// Object T at Offset of Image, when it fits (the image may be unaligned).
template <typename T>
std::optional<T> readAt(std::span<const std::byte> Image, uint64_t Offset) {
  if (Offset > Image.size() || Image.size() - Offset < sizeof(T)) return std::nullopt;
  T Value;
  std::memcpy(&Value, Image.data() + Offset, sizeof(T));
  return Value;
}
}  // namespace

std::vector<std::string> cubinSymbols(std::span<const std::byte> Image, std::string_view Prefix) {
  std::vector<std::string> Names;
  if (!readCubin(Image)) return Names;
  std::optional<Elf64_Ehdr> Header = readAt<Elf64_Ehdr>(Image, 0);
  if (!Header || Header->e_shentsize != sizeof(Elf64_Shdr)) return Names;
  auto Section = [&](uint64_t Index) -> std::optional<Elf64_Shdr> {
    if (Index >= Header->e_shnum) return std::nullopt;
    return readAt<Elf64_Shdr>(Image, Header->e_shoff + Index * sizeof(Elf64_Shdr));
  };
  for (uint64_t I = 0; I < Header->e_shnum; ++I) {
    std::optional<Elf64_Shdr> Symtab = Section(I);
    if (!Symtab) return Names;
    if (Symtab->sh_type != SHT_SYMTAB || Symtab->sh_entsize != sizeof(Elf64_Sym)) continue;
    if (Symtab->sh_offset > Image.size() || Image.size() - Symtab->sh_offset < Symtab->sh_size)
      return Names;
    std::optional<Elf64_Shdr> Strtab = Section(Symtab->sh_link);
    if (!Strtab || Strtab->sh_offset > Image.size() ||
        Image.size() - Strtab->sh_offset < Strtab->sh_size)
      return Names;
    const std::string_view Strings(reinterpret_cast<const char *>(Image.data()) + Strtab->sh_offset,
                                   Strtab->sh_size);
    for (uint64_t Off = 0; Off + sizeof(Elf64_Sym) <= Symtab->sh_size; Off += sizeof(Elf64_Sym)) {
      std::optional<Elf64_Sym> Sym = readAt<Elf64_Sym>(Image, Symtab->sh_offset + Off);
      if (!Sym) return Names;
      if (Sym->st_name >= Strings.size()) continue;
      std::string_view Name = Strings.substr(Sym->st_name);
      Name = Name.substr(0, Name.find('\0'));
      if (Name.starts_with(Prefix)) Names.emplace_back(Name);
    }
  }
  return Names;
}

}  // namespace omptarget::cuda
