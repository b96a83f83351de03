// Unit tests of cubinSymbols (the CUDA plugin's reading of a cubin's symbol
// names, which finds clang 19's global constructor and destructor lists): a
// small EM_CUDA ELF64 built here, and the same bytes damaged in the ways a
// corrupt image would be.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cubin.h"
#include "cuda_module.h"

using omptarget::cuda::cubinSymbols;

namespace {

// Header, then the string table, the symbol table and three section
// headers (null, .strtab, .symtab).
struct FakeCubin {
  std::vector<std::byte> Bytes;
  size_t SymtabHeader = 0;  // offset of .symtab's section header

  explicit FakeCubin(const std::vector<std::string> &Names) {
    std::string Strings(1, '\0');
    std::vector<Elf64_Sym> Syms(1);  // symbol 0 is the null symbol
    for (const std::string &N : Names) {
      Elf64_Sym S{};
      S.st_name = static_cast<Elf64_Word>(Strings.size());
      S.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
      S.st_size = 8;
      Syms.push_back(S);
      Strings += N;
      Strings += '\0';
    }
    const size_t StrOff = sizeof(Elf64_Ehdr);
    const size_t SymOff = StrOff + Strings.size();
    const size_t ShOff = SymOff + Syms.size() * sizeof(Elf64_Sym);
    Elf64_Ehdr H{};
    std::memcpy(H.e_ident, ELFMAG, SELFMAG);
    H.e_ident[EI_CLASS] = ELFCLASS64;
    H.e_ident[EI_DATA] = ELFDATA2LSB;
    H.e_ident[EI_ABIVERSION] = 8;
    H.e_machine = 190;
    H.e_flags = 0x5a00;
    H.e_shoff = ShOff;
    H.e_shentsize = sizeof(Elf64_Shdr);
    H.e_shnum = 3;
    Elf64_Shdr Sh[3]{};
    Sh[1].sh_type = SHT_STRTAB;
    Sh[1].sh_offset = StrOff;
    Sh[1].sh_size = Strings.size();
    Sh[2].sh_type = SHT_SYMTAB;
    Sh[2].sh_offset = SymOff;
    Sh[2].sh_size = Syms.size() * sizeof(Elf64_Sym);
    Sh[2].sh_entsize = sizeof(Elf64_Sym);
    Sh[2].sh_link = 1;
    SymtabHeader = ShOff + 2 * sizeof(Elf64_Shdr);
    append(&H, sizeof(H));
    append(Strings.data(), Strings.size());
    append(Syms.data(), Syms.size() * sizeof(Elf64_Sym));
    append(Sh, sizeof(Sh));
  }
  void append(const void *P, size_t N) {
    auto *B = static_cast<const std::byte *>(P);
    Bytes.insert(Bytes.end(), B, B + N);
  }
  Elf64_Shdr symtab() const {
    Elf64_Shdr S;
    std::memcpy(&S, Bytes.data() + SymtabHeader, sizeof(S));
    return S;
  }
  void setSymtab(const Elf64_Shdr &S) { std::memcpy(Bytes.data() + SymtabHeader, &S, sizeof(S)); }
};

const std::vector<std::string> kNames = {"__init_array_object__GLOBAL__sub_I_a_cpp_1f_65535",
                                         "nvptx$device$init",
                                         "__fini_array_object___dtor_Obj_1f_101",
                                         "__init_array_start",
                                         "__init_array_object__GLOBAL__sub_I_b_cpp_2e_101"};

TEST(CubinSymbols, NamesWithThePrefixInTableOrder) {
  FakeCubin C(kNames);
  EXPECT_EQ(cubinSymbols(C.Bytes, "__init_array_object_"),
            (std::vector<std::string>{"__init_array_object__GLOBAL__sub_I_a_cpp_1f_65535",
                                      "__init_array_object__GLOBAL__sub_I_b_cpp_2e_101"}));
  EXPECT_EQ(cubinSymbols(C.Bytes, "__fini_array_object_"),
            (std::vector<std::string>{"__fini_array_object___dtor_Obj_1f_101"}));
  EXPECT_TRUE(cubinSymbols(C.Bytes, "no_such_prefix").empty());
}

TEST(CubinSymbols, NotACubinHasNone) {
  FakeCubin C(kNames);
  C.Bytes[18] = std::byte{62};  // e_machine: x86_64
  C.Bytes[19] = std::byte{0};
  EXPECT_TRUE(cubinSymbols(C.Bytes, "__init").empty());
}

TEST(CubinSymbols, EveryTruncationIsSafe) {
  FakeCubin C(kNames);
  const std::vector<std::string> Whole = cubinSymbols(C.Bytes, "");
  ASSERT_EQ(Whole.size(), kNames.size() + 1);  // with the null symbol's ""
  for (size_t N = 0; N < C.Bytes.size(); ++N) {
    std::vector<std::byte> Cut(C.Bytes.begin(), C.Bytes.begin() + static_cast<ptrdiff_t>(N));
    EXPECT_LT(cubinSymbols(Cut, "").size(), Whole.size()) << "truncated to " << N << " bytes";
  }
}

TEST(CubinSymbols, SectionsPointingOutsideTheImageAreRefused) {
  FakeCubin C(kNames);
  Elf64_Shdr S = C.symtab();
  S.sh_size = ~0ull - 7;  // a table past the end (and no endless walk)
  C.setSymtab(S);
  EXPECT_TRUE(cubinSymbols(C.Bytes, "").empty());
  S = FakeCubin(kNames).symtab();
  S.sh_link = 99;  // no such string table
  C.setSymtab(S);
  EXPECT_TRUE(cubinSymbols(C.Bytes, "").empty());
  S = FakeCubin(kNames).symtab();
  S.sh_offset = ~0ull - 16;
  C.setSymtab(S);
  EXPECT_TRUE(cubinSymbols(C.Bytes, "").empty());
}

TEST(GlobalListObjects, AscendingPriorityTableOrderAmongEquals) {
  FakeCubin C({"__init_array_object_f_1f_65535", "__init_array_object_g_2e_101",
               "__init_array_object_h_3d_no_priority", "__init_array_object_i_4c_101",
               "__fini_array_object_d_5b_200", "__fini_array_object_e_6a_100"});
  EXPECT_EQ(omptarget::cuda::globalListObjects(C.Bytes, /*Init=*/true),
            (std::vector<std::string>{"__init_array_object_g_2e_101",
                                      "__init_array_object_i_4c_101",
                                      "__init_array_object_f_1f_65535",
                                      "__init_array_object_h_3d_no_priority"}));
  EXPECT_EQ(omptarget::cuda::globalListObjects(C.Bytes, /*Init=*/false),
            (std::vector<std::string>{"__fini_array_object_e_6a_100",
                                      "__fini_array_object_d_5b_200"}));
}

}  // namespace
