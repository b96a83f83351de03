// Unit tests of the host plugin's reading of x86_64 images: the ELF layout
// check (elf_check.h) on a small synthetic shared object, every truncation
// of it, corrupt fields and random corruption (never a crash or a read
// outside the span: the sanitizer builds of CI check the latter), and the
// offload-entry table (offload_entries.h) on a synthetic loaded image.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "elf_check.h"
#include "offload_entries.h"
#include "omptarget/abi.h"

using namespace omptarget;
using namespace omptarget::host;

namespace {

bool mentions(const Error &E, const char *Text) {
  return E.message().find(Text) != std::string::npos;
}

// A minimal x86_64 ET_DYN image: one PT_LOAD over the whole file, an entries
// section of two records at offset/vaddr 256, a name table, three section
// headers at 384.
struct SyntheticElf {
  static constexpr size_t kEntriesAt = 256, kNamesAt = 320, kSectionsAt = 384;
  static constexpr char kNames[] = "\0.shstrtab\0omp_offloading_entries";  // with the final NUL
  std::vector<std::byte> Bytes = std::vector<std::byte>(kSectionsAt + 3 * sizeof(Elf64_Shdr));

  SyntheticElf() {
    Elf64_Ehdr H{};
    std::memcpy(H.e_ident, ELFMAG, SELFMAG);
    H.e_ident[EI_CLASS] = ELFCLASS64;
    H.e_ident[EI_DATA] = ELFDATA2LSB;
    H.e_ident[EI_VERSION] = EV_CURRENT;
    H.e_type = ET_DYN;
    H.e_machine = EM_X86_64;
    H.e_version = EV_CURRENT;
    H.e_phoff = sizeof(Elf64_Ehdr);
    H.e_shoff = kSectionsAt;
    H.e_ehsize = sizeof(Elf64_Ehdr);
    H.e_phentsize = sizeof(Elf64_Phdr);
    H.e_phnum = 1;
    H.e_shentsize = sizeof(Elf64_Shdr);
    H.e_shnum = 3;
    H.e_shstrndx = 1;
    header() = H;
    Elf64_Phdr P{};
    P.p_type = PT_LOAD;
    P.p_flags = PF_R | PF_W;
    P.p_filesz = P.p_memsz = Bytes.size();
    P.p_align = 8;
    phdr() = P;
    std::memcpy(Bytes.data() + kNamesAt, kNames, sizeof(kNames));
    Elf64_Shdr Names{};
    Names.sh_name = 1;
    Names.sh_type = SHT_STRTAB;
    Names.sh_offset = kNamesAt;
    Names.sh_size = sizeof(kNames);
    section(1) = Names;
    Elf64_Shdr Entries{};
    Entries.sh_name = 11;
    Entries.sh_type = SHT_PROGBITS;
    Entries.sh_flags = SHF_ALLOC | SHF_WRITE;
    Entries.sh_addr = Entries.sh_offset = kEntriesAt;
    Entries.sh_size = 2 * sizeof(__tgt_offload_entry);
    section(2) = Entries;
  }
  template <typename T>
  T &at(size_t Offset) {
    return *reinterpret_cast<T *>(Bytes.data() + Offset);
  }
  Elf64_Ehdr &header() { return at<Elf64_Ehdr>(0); }
  Elf64_Phdr &phdr() { return at<Elf64_Phdr>(sizeof(Elf64_Ehdr)); }
  Elf64_Shdr &section(size_t I) { return at<Elf64_Shdr>(kSectionsAt + I * sizeof(Elf64_Shdr)); }
  Expected<ElfLayout> parse(size_t Size = SIZE_MAX) const {
    return parseElfLayout(std::span<const std::byte>(Bytes.data(), std::min(Size, Bytes.size())));
  }
};

TEST(HostElfImage, FindsTheEntriesSection) {
  SyntheticElf Elf;
  EXPECT_TRUE(isX86_64SharedObject(Elf.Bytes));
  Expected<ElfLayout> L = Elf.parse();
  ASSERT_TRUE(L) << L.error().message();
  ASSERT_EQ(L->Segments.size(), 1u);
  EXPECT_TRUE(L->Segments[0].Readable);
  ASSERT_TRUE(L->Entries.has_value());
  EXPECT_EQ(L->Entries->Vaddr, SyntheticElf::kEntriesAt);
  EXPECT_EQ(L->Entries->Size, 2 * sizeof(__tgt_offload_entry));
}

TEST(HostElfImage, EveryTruncationIsAnError) {
  SyntheticElf Elf;
  for (size_t Size = 0; Size < Elf.Bytes.size(); ++Size) {
    Expected<ElfLayout> L = Elf.parse(Size);
    ASSERT_FALSE(L) << "accepted a truncation to " << Size << " bytes";
    if (Size >= sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr)) {
      EXPECT_TRUE(mentions(L.error(), "truncated")) << Size;
    }
  }
}

TEST(HostElfImage, CorruptFieldsAreNamed) {
  {
    SyntheticElf Elf;
    Elf.header().e_machine = EM_AARCH64;
    EXPECT_FALSE(isX86_64SharedObject(Elf.Bytes));
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "not for x86_64"));
  }
  {
    SyntheticElf Elf;  // a larger entry record (40 bytes) from another compiler
    Elf.section(2).sh_size = 3 * 40;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "has 120 bytes, not a multiple of the 32-byte"));
  }
  {
    SyntheticElf Elf;
    Elf.section(2).sh_addr = 1 << 20;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "not inside a readable PT_LOAD segment"));
  }
  {
    SyntheticElf Elf;
    Elf.phdr().p_flags = PF_W;  // mapped, but not readable
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "not inside a readable PT_LOAD segment"));
  }
  {
    SyntheticElf Elf;
    Elf.section(1) = Elf.section(2);  // the entries section twice, and no name table
    Elf.header().e_shstrndx = 2;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "not a string table"));
  }
  {
    SyntheticElf Elf;
    Elf.header().e_shnum = 4;
    Elf.Bytes.resize(Elf.Bytes.size() + sizeof(Elf64_Shdr));
    Elf.phdr().p_filesz = Elf.phdr().p_memsz = Elf.Bytes.size();
    Elf.section(3) = Elf.section(2);
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "more than one omp_offloading_entries section"));
  }
  {
    SyntheticElf Elf;
    Elf.header().e_shstrndx = 9;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "section name table is section 9 of 3"));
  }
  {
    SyntheticElf Elf;
    Elf.header().e_shnum = 0xfff0;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_FALSE(L);
    EXPECT_TRUE(mentions(L.error(), "extends past the end of the image"));
  }
  {
    SyntheticElf Elf;
    Elf.phdr().p_filesz = Elf.phdr().p_memsz + 1;
    EXPECT_FALSE(Elf.parse());
    Elf.phdr().p_offset = UINT64_MAX - 4;  // offset + size wraps
    EXPECT_FALSE(Elf.parse());
  }
}

TEST(HostElfImage, ImagesWithoutTheSectionLoadWithoutEntries) {
  {
    SyntheticElf Elf;  // section table stripped
    Elf.header().e_shoff = 0;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_TRUE(L) << L.error().message();
    EXPECT_FALSE(L->Entries.has_value());
  }
  {
    SyntheticElf Elf;  // a name offset past the name table is no match
    Elf.section(2).sh_name = 1000;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_TRUE(L) << L.error().message();
    EXPECT_FALSE(L->Entries.has_value());
  }
  {
    SyntheticElf Elf;  // a name cut by the end of the name table is no match
    Elf.section(1).sh_size -= 1;
    Expected<ElfLayout> L = Elf.parse();
    ASSERT_TRUE(L) << L.error().message();
    EXPECT_FALSE(L->Entries.has_value());
  }
}

// Random byte corruption of the synthetic image and of a real shared object
// (this test program): any answer is fine, a crash or an out-of-bounds read
// is not.
TEST(HostElfImage, RandomCorruptionNeverCrashes) {
  std::mt19937 Rng(20240601);
  SyntheticElf Elf;
  for (int Round = 0; Round < 20000; ++Round) {
    std::vector<std::byte> Copy = Elf.Bytes;
    int Flips = 1 + static_cast<int>(Rng() % 8);
    for (int F = 0; F < Flips; ++F) {
      // Mostly the headers, where the offsets and counts are.
      size_t At =
          Rng() % 2 ? Rng() % 128 : SyntheticElf::kSectionsAt + Rng() % (3 * sizeof(Elf64_Shdr));
      Copy[At] = static_cast<std::byte>(Rng());
    }
    std::span<const std::byte> Span(Copy.data(), Copy.size() - Rng() % 16);
    (void)isX86_64SharedObject(Span);
    (void)parseElfLayout(Span);
  }
  std::ifstream Self("/proc/self/exe", std::ios::binary);
  std::vector<char> Raw((std::istreambuf_iterator<char>(Self)), std::istreambuf_iterator<char>());
  ASSERT_GT(Raw.size(), sizeof(Elf64_Ehdr));
  std::span<const std::byte> Real(reinterpret_cast<const std::byte *>(Raw.data()), Raw.size());
  if (isX86_64SharedObject(Real)) {  // a PIE test program is one
    Expected<ElfLayout> L = parseElfLayout(Real);
    ASSERT_TRUE(L) << L.error().message();
    EXPECT_FALSE(L->Entries.has_value());
  }
  for (size_t Size = 0; Size < Raw.size(); Size += 1 + Size / 7)
    (void)parseElfLayout(Real.first(Size));
}

// A "loaded image" in a buffer: records at 0, names from 128, one readable
// segment over all of it.
struct LoadedImage {
  alignas(8) std::byte Memory[256] = {};
  ElfLayout Layout{{LoadSegment{0, sizeof(Memory), true}}, SectionRange{0, 0}};
  size_t NextName = 128;
  int Targets[4] = {};

  char *name(const char *Text) {
    char *At = reinterpret_cast<char *>(Memory + NextName);
    std::strcpy(At, Text);
    NextName += std::strlen(Text) + 1;
    return At;
  }
  void add(void *Addr, char *Name, size_t Size) {
    __tgt_offload_entry R{Addr, Name, Size, 0, 0};
    std::memcpy(Memory + Layout.Entries->Size, &R, sizeof(R));
    Layout.Entries->Size += sizeof(R);
  }
  Expected<OffloadEntryTable> read() {
    return OffloadEntryTable::read(Layout, reinterpret_cast<uintptr_t>(Memory));
  }
};

TEST(HostOffloadEntries, ResolvesInOrderThenByName) {
  LoadedImage Img;
  Img.add(&Img.Targets[0], Img.name("kernel"), 0);
  Img.add(&Img.Targets[1], Img.name("_ZL5Table"), 16);  // a static of one unit
  Img.add(&Img.Targets[2], Img.name("_ZL5Table"), 16);  // a static of another, same name
  Img.add(&Img.Targets[3], Img.name("global"), 4);
  Expected<OffloadEntryTable> T = Img.read();
  ASSERT_TRUE(T) << T.error().message();
  EXPECT_EQ(T->size(), 4u);
  // The host's order: each name at the cursor.
  size_t Cursor = 0;
  EXPECT_EQ(*T->resolve(Cursor, "kernel", 0), &Img.Targets[0]);
  EXPECT_EQ(*T->resolve(Cursor, "_ZL5Table", 16), &Img.Targets[1]);
  EXPECT_EQ(*T->resolve(Cursor, "_ZL5Table", 16), &Img.Targets[2]);
  EXPECT_EQ(*T->resolve(Cursor, "global", 4), &Img.Targets[3]);
  EXPECT_EQ(Cursor, 4u);
  // Host entries the section lacks (link references) answer null and leave
  // the order intact; the shared name still pairs in order after them.
  Cursor = 0;
  EXPECT_EQ(*T->resolve(Cursor, "lk_decl_tgt_ref_ptr", 8), nullptr);
  EXPECT_EQ(*T->resolve(Cursor, "kernel", 0), &Img.Targets[0]);
  EXPECT_EQ(*T->resolve(Cursor, "lscale_decl_tgt_ref_ptr", 8), nullptr);
  EXPECT_EQ(*T->resolve(Cursor, "_ZL5Table", 16), &Img.Targets[1]);
  EXPECT_EQ(*T->resolve(Cursor, "_ZL5Table", 16), &Img.Targets[2]);
  // Another order: unique names resolve anywhere.
  Cursor = 0;
  EXPECT_EQ(*T->resolve(Cursor, "global", 4), &Img.Targets[3]);
  EXPECT_EQ(*T->resolve(Cursor, "kernel", 0), &Img.Targets[0]);
  Cursor = 3;
  Expected<void *> Ambiguous = T->resolve(Cursor, "_ZL5Table", 16);
  ASSERT_FALSE(Ambiguous);
  EXPECT_TRUE(mentions(Ambiguous.error(), "several entries")) << Ambiguous.error().message();
  Cursor = 0;
  Expected<void *> Size = T->resolve(Cursor, "global", 8);
  ASSERT_FALSE(Size);
  EXPECT_TRUE(mentions(Size.error(), "8 bytes on the host but 4 in the image"));
}

TEST(HostOffloadEntries, CorruptRecordsAreRefused) {
  {
    LoadedImage Img;
    static char Outside[] = "outside";
    Img.add(&Img.Targets[0], Outside, 0);
    Expected<OffloadEntryTable> T = Img.read();
    ASSERT_FALSE(T);
    EXPECT_TRUE(
        mentions(T.error(),
                 "entry 0 of the image's omp_offloading_entries section has a name pointer"));
  }
  {
    LoadedImage Img;
    Img.add(nullptr, Img.name("kernel"), 0);
    Expected<OffloadEntryTable> T = Img.read();
    ASSERT_FALSE(T);
    EXPECT_TRUE(
        mentions(T.error(),
                 "('kernel') of the image's omp_offloading_entries section has a null address"));
  }
  {
    LoadedImage Img;  // a name that runs to the end of the segment without a NUL
    char *Name = reinterpret_cast<char *>(Img.Memory + sizeof(Img.Memory) - 4);
    std::memset(Name, 'x', 4);
    Img.add(&Img.Targets[0], Name, 0);
    EXPECT_FALSE(Img.read());
  }
}

}  // namespace
