// Fuzz target: the CUDA plugin's cubin check, readCubin (cubin.h), which is
// the plugin's is_valid_binary and the first step of its load_binary, and
// its symbol reader cubinSymbols (the loader's search for clang 19's global
// constructor lists). The input is the image's bytes; the driver is not
// involved (loading a module is cuModuleLoadDataEx's job, not the plugin's).
//
// Asserted:
//  - an answer for any input, reading nothing outside it (ASan), at any
//    alignment (the image is also read one byte off an aligned address);
//  - a cubin only for an image of at least an ELF64 header, little-endian
//    ELF64 with e_machine EM_CUDA (190);
//  - its SM is bits 8..15 of e_flags for ELF ABI version 8 and later, the
//    low byte before, and smMajor/smMinor split it in tens and units;
//  - the answer depends on the header only: the first 64 bytes alone give
//    the same one;
//  - cubinSymbols answers for any input, reading nothing outside it, the
//    same at an odd address; none for what is not a cubin; every name it
//    gives starts with the prefix asked for and has no NUL.
#include <elf.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cubin.h"
#include "fuzz_check.h"

using omptarget::cuda::CubinInfo;
using omptarget::cuda::cubinSymbols;
using omptarget::cuda::readCubin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<std::byte> Bytes(reinterpret_cast<const std::byte *>(Data),
                               reinterpret_cast<const std::byte *>(Data) + Size);
  std::optional<CubinInfo> Info = readCubin(std::span<const std::byte>(Bytes.data(), Size));

  // The same bytes at an odd address.
  std::vector<std::byte> Shifted(Size + 1);
  if (Size) std::memcpy(Shifted.data() + 1, Data, Size);
  std::optional<CubinInfo> ShiftedInfo =
      readCubin(std::span<const std::byte>(Shifted.data() + 1, Size));
  FUZZ_CHECK(Info.has_value() == ShiftedInfo.has_value());
  if (Info) FUZZ_CHECK(Info->Sm == ShiftedInfo->Sm);

  const std::vector<std::string> All =
      cubinSymbols(std::span<const std::byte>(Bytes.data(), Size), "");
  FUZZ_CHECK(All == cubinSymbols(std::span<const std::byte>(Shifted.data() + 1, Size), ""));
  if (!Info) FUZZ_CHECK(All.empty());
  for (const std::string &Name : All) FUZZ_CHECK(Name.find('\0') == std::string::npos);
  for (const std::string &Name :
       cubinSymbols(std::span<const std::byte>(Bytes.data(), Size), "__init"))
    FUZZ_CHECK(Name.rfind("__init", 0) == 0);

  Elf64_Ehdr H;
  if (Size < sizeof(H)) {
    FUZZ_CHECK(!Info);
    return 0;
  }
  std::memcpy(&H, Data, sizeof(H));
  const bool IsCubin = std::memcmp(H.e_ident, ELFMAG, SELFMAG) == 0 &&
                       H.e_ident[EI_CLASS] == ELFCLASS64 && H.e_ident[EI_DATA] == ELFDATA2LSB &&
                       H.e_machine == 190;
  FUZZ_CHECK(Info.has_value() == IsCubin);
  std::optional<CubinInfo> HeaderOnly =
      readCubin(std::span<const std::byte>(Bytes.data(), sizeof(Elf64_Ehdr)));
  FUZZ_CHECK(HeaderOnly.has_value() == IsCubin);
  if (!Info) return 0;
  FUZZ_CHECK(HeaderOnly->Sm == Info->Sm);
  const uint32_t Sm = H.e_ident[EI_ABIVERSION] >= 8 ? (H.e_flags >> 8) & 0xff : H.e_flags & 0xff;
  FUZZ_CHECK(Info->Sm == Sm);
  FUZZ_CHECK(Info->smMajor() * 10 + Info->smMinor() == Sm && Info->smMinor() < 10);
  return 0;
}
