// Recognising CUDA cubins (ELF64, e_machine 190 = EM_CUDA) and their SM,
// and reading the names of their symbols.
//
// ptxas writes the target SM into e_flags. With the ELF ABI version 8 that
// CUDA 12+ writes (EI_ABIVERSION), the SM is bits 8..15 (sm_90: e_flags
// 0x6005a04, 0x5a = 90); older cubins (ABI version 7) keep it in the low
// byte (sm_80: 0x500550 -> 0x50).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace omptarget::cuda {

struct CubinInfo {
  uint32_t Sm = 0;  // e.g. 90 for sm_90, 0 when the header does not say
  uint32_t smMajor() const { return Sm / 10; }
  uint32_t smMinor() const { return Sm % 10; }
};

// The cubin's header facts, or nullopt when Image is not an EM_CUDA ELF64.
// Safe on any input.
std::optional<CubinInfo> readCubin(std::span<const std::byte> Image);

// The names in the ELF symbol table (SHT_SYMTAB) of Image that start with
// Prefix, in table order; empty when Image has none or is malformed (every
// offset and size is checked against Image).
std::vector<std::string> cubinSymbols(std::span<const std::byte> Image, std::string_view Prefix);

// Whether a cubin for sm_<Sm> runs on a device of compute capability
// Major.Minor: same major version, and the device's minor at least the
// image's (machine code does not run across major versions: an sm_80 or
// sm_86 cubin does not run on sm_90).
inline bool smCompatible(uint32_t Sm, uint32_t Major, uint32_t Minor) {
  return Sm / 10 == Major && Sm % 10 <= Minor;
}

}  // namespace omptarget::cuda
