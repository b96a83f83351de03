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

}  // namespace omptarget::cuda
