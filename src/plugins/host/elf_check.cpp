#include "elf_check.h"

#include <elf.h>

#include <cstring>

namespace omptarget::host {

bool isX86_64SharedObject(std::span<const std::byte> Image) {
  Elf64_Ehdr Header;
  if (Image.size() < sizeof(Header)) return false;
  std::memcpy(&Header, Image.data(), sizeof(Header));  // the image may be unaligned
  if (std::memcmp(Header.e_ident, ELFMAG, SELFMAG) != 0) return false;
  if (Header.e_ident[EI_CLASS] != ELFCLASS64 || Header.e_ident[EI_DATA] != ELFDATA2LSB)
    return false;
  if (Header.e_type != ET_DYN || Header.e_machine != EM_X86_64) return false;
  // dlopen reads the program headers: they must be inside the image.
  if (Header.e_phentsize != sizeof(Elf64_Phdr) || Header.e_phnum == 0) return false;
  uint64_t PhEnd = Header.e_phoff + uint64_t{Header.e_phnum} * Header.e_phentsize;
  return Header.e_phoff >= sizeof(Header) && PhEnd >= Header.e_phoff && PhEnd <= Image.size();
}

}  // namespace omptarget::host
