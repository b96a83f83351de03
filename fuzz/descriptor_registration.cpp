// Fuzz target: the registration of binary descriptors, what
// __tgt_register_lib / __tgt_unregister_lib do below the process-global
// Runtime: checkDescriptor (descriptor_check.h), then, for a descriptor it
// passes, ImageRegistry::registerLib, kernelName / lookupKernel / retired,
// describeImage and unregisterLib (image_registry.h) on a DeviceTable of two
// in-process plugins: "x86_64" (two devices, the host plugin's real image
// check isX86_64SharedObject) and "idle" (no device, like the CUDA plugin
// without a GPU; it takes images whose first byte is odd). The entry points
// themselves need the Runtime, which loads the plugins from disk and stops
// the process on a corrupt descriptor, so the target calls the layers
// Runtime::registerLib calls, in its order.
//
// The input builds a descriptor of real memory: a host entry table (null
// names, null addresses, duplicate addresses and names, huge sizes, any
// flags), bounds that are whole, a part, null, one null, reversed or not a
// whole number of records, 0 to 3 device images (any bytes, or an x86_64
// header; null or reversed bounds) whose entry tables are the host's or
// copies (reordered, other counts, flawed records), a negative image count
// or a null image array, and whether it is registered twice.
//
// Asserted:
//  - checkDescriptor refuses exactly the descriptors the input flawed, with
//    a message naming the descriptor;
//  - registerLib accepts the images the plugins' checks take, and reports
//    the idle plugin only when no image went to a plugin with devices;
//  - every kernel (size 0) of the host table is known by the name of its
//    last record, has no loaded image on a device, and after the last
//    unregisterLib is unknown and retired; a second unregisterLib of the
//    same descriptor changes nothing.
#include <elf.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "descriptor_check.h"
#include "device_table.h"
#include "elf_check.h"
#include "fuzz_check.h"
#include "image_registry.h"
#include "omptarget/abi.h"

using namespace omptarget;
using namespace omptarget::core;

namespace {

// The image [Start, End) when its bounds are usable (the checks
// GenericPlugin::isValidBinary makes first).
std::span<const std::byte> bytesOf(const __tgt_device_image *Image) {
  auto *Begin = static_cast<const std::byte *>(Image->ImageStart);
  auto *End = static_cast<const std::byte *>(Image->ImageEnd);
  if (!Begin || !End || End < Begin) return {};
  return {Begin, End};
}
int32_t x86IsValid(__tgt_device_image *Image) {
  std::span<const std::byte> Bytes = bytesOf(Image);
  return !Bytes.empty() && host::isX86_64SharedObject(Bytes);
}
int32_t idleIsValid(__tgt_device_image *Image) {
  std::span<const std::byte> Bytes = bytesOf(Image);
  return !Bytes.empty() && (static_cast<unsigned>(Bytes[0]) & 1);
}
int32_t twoDevices() { return 2; }
int32_t noDevice() { return 0; }

// An x86_64 shared object's header and one program header: what
// isX86_64SharedObject accepts.
std::vector<std::byte> x86Header() {
  std::vector<std::byte> Bytes(sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr));
  Elf64_Ehdr H{};
  std::memcpy(H.e_ident, ELFMAG, SELFMAG);
  H.e_ident[EI_CLASS] = ELFCLASS64;
  H.e_ident[EI_DATA] = ELFDATA2LSB;
  H.e_type = ET_DYN;
  H.e_machine = EM_X86_64;
  H.e_phoff = sizeof(Elf64_Ehdr);
  H.e_phentsize = sizeof(Elf64_Phdr);
  H.e_phnum = 1;
  std::memcpy(Bytes.data(), &H, sizeof(H));
  return Bytes;
}

// One entry table: Count records of Records from First, through bounds
// that may be flawed.
struct Table {
  std::vector<__tgt_offload_entry> Records;  // one more than used: room for a skewed end
  __tgt_offload_entry *Begin = nullptr, *End = nullptr;
  size_t First = 0, Count = 0;
  bool BoundsFlawed = false;
  bool RecordsFlawed = false;  // a record between the bounds has no name or address

  void bound(FuzzedDataProvider &In) {
    const size_t N = Records.size() - 1;
    __tgt_offload_entry *Data = Records.data();
    auto B = In.ConsumeIntegralInRange<size_t>(0, N), E = In.ConsumeIntegralInRange<size_t>(0, N);
    switch (In.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:  // a part
        if (B > E) std::swap(B, E);
        Begin = Data + B, End = Data + E, First = B, Count = E - B;
        break;
      case 1: break;  // both null: no records
      case 2:         // one null bound
        (In.ConsumeBool() ? Begin : End) = Data + B;
        BoundsFlawed = true;
        break;
      case 3:  // reversed
        if (B < E) std::swap(B, E);
        Begin = Data + B, End = Data + E, First = E, Count = 0;
        BoundsFlawed = B != E;
        break;
      case 4: {  // not a whole number of records (a larger record layout)
        if (B > E) std::swap(B, E);
        Begin = Data + B;
        End = reinterpret_cast<__tgt_offload_entry *>(reinterpret_cast<char *>(Data + E) +
                                                      In.ConsumeIntegralInRange<int>(1, 31));
        BoundsFlawed = true;
        break;
      }
      default: Begin = Data, End = Data + N, Count = N; break;  // the whole table
    }
    if (BoundsFlawed) return;
    for (size_t I = First; I < First + Count; ++I)
      RecordsFlawed |= !Records[I].name || !Records[I].addr;
  }
};

struct Input {
  std::deque<std::string> Names;  // stable addresses
  Table Host;
  std::vector<std::unique_ptr<Table>> Copies;
  std::vector<std::vector<std::byte>> ImageBytes;
  std::vector<__tgt_device_image> Images;
  __tgt_bin_desc Desc{};
  bool Flawed = false;

  char *name(FuzzedDataProvider &In) {
    if (!Names.empty() && In.ConsumeBool())
      return Names[In.ConsumeIntegralInRange<size_t>(0, Names.size() - 1)].data();
    Names.push_back(In.ConsumeRandomLengthString(12));
    return Names.back().data();
  }
  __tgt_offload_entry entry(FuzzedDataProvider &In) {
    __tgt_offload_entry E{};
    const auto Shape = In.ConsumeIntegral<uint8_t>();
    E.name = (Shape & 0x0f) == 0 ? nullptr : name(In);
    switch (Shape >> 6) {  // duplicate addresses are likely
      case 0: E.addr = nullptr; break;
      case 1: E.addr = reinterpret_cast<void *>(In.ConsumeIntegral<uintptr_t>() | 1); break;
      default:
        E.addr = reinterpret_cast<void *>(0x1000 + 16 * In.ConsumeIntegralInRange<uintptr_t>(0, 7));
    }
    switch (In.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
      case 1: E.size = 0; break;  // a kernel
      case 2: E.size = In.ConsumeIntegralInRange<size_t>(1, 64); break;
      default: E.size = In.ConsumeIntegral<size_t>(); break;  // huge ones too
    }
    E.flags = In.ConsumeBool() ? In.ConsumeIntegral<int32_t>()
                               : In.ConsumeIntegralInRange<int32_t>(0, 7);  // ctor, dtor bits
    return E;
  }

  void build(FuzzedDataProvider &In) {
    Host.Records.resize(In.ConsumeIntegralInRange<size_t>(0, 24) + 1);
    for (size_t I = 0; I + 1 < Host.Records.size(); ++I) Host.Records[I] = entry(In);
    Host.bound(In);
    Flawed |= Host.BoundsFlawed || Host.RecordsFlawed;
    Desc.HostEntriesBegin = Host.Begin;
    Desc.HostEntriesEnd = Host.End;

    const auto NumImages = In.ConsumeIntegralInRange<int32_t>(0, 3);
    ImageBytes.resize(static_cast<size_t>(NumImages));
    Images.resize(static_cast<size_t>(NumImages) + 1);  // never empty: a non-null array
    for (int32_t I = 0; I < NumImages; ++I) {
      std::vector<std::byte> &Bytes = ImageBytes[static_cast<size_t>(I)];
      if (In.ConsumeBool()) Bytes = x86Header();
      std::string More = In.ConsumeRandomLengthString(64);
      for (char C : More) Bytes.push_back(static_cast<std::byte>(C));
      if (!Bytes.empty() && In.ConsumeBool())
        Bytes[In.ConsumeIntegralInRange<size_t>(0, Bytes.size() - 1)] = static_cast<std::byte>(In.ConsumeIntegral<uint8_t>());
      const size_t Size = Bytes.size();
      Bytes.push_back(std::byte{0});  // data() is never null
      __tgt_device_image &Image = Images[static_cast<size_t>(I)];
      Image.ImageStart = Bytes.data();
      Image.ImageEnd = Bytes.data() + Size;
      switch (In.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: Image.ImageStart = nullptr, Flawed = true; break;
        case 1: Image.ImageEnd = nullptr, Flawed = true; break;
        case 2: std::swap(Image.ImageStart, Image.ImageEnd), Flawed |= Size > 0; break;
        default: break;
      }
      if (In.ConsumeBool()) {  // clang 14: the host's table
        Image.EntriesBegin = Host.Begin;
        Image.EntriesEnd = Host.End;
        continue;
      }
      // A copy: the host's records, reordered, or others, maybe more or fewer.
      auto Copy = std::make_unique<Table>();
      const size_t HostCount = Host.BoundsFlawed || Host.RecordsFlawed ? 0 : Host.Count;
      const size_t N = In.ConsumeBool() ? HostCount : In.ConsumeIntegralInRange<size_t>(0, 24);
      Copy->Records.resize(N + 1);
      for (size_t R = 0; R < N; ++R)
        Copy->Records[R] = HostCount > 0 && In.ConsumeBool()
                               ? Host.Records[Host.First + In.ConsumeIntegralInRange<size_t>(
                                                               0, HostCount - 1)]
                               : entry(In);
      Copy->bound(In);
      // The bounds are always checked, the count against the host's, and
      // the records only when the table is not the host's (both null).
      Flawed |= Copy->BoundsFlawed;
      Flawed |= !Copy->BoundsFlawed && !Host.BoundsFlawed && Copy->Count != Host.Count;
      Flawed |= Copy->RecordsFlawed && Copy->Begin != Host.Begin;
      Image.EntriesBegin = Copy->Begin;
      Image.EntriesEnd = Copy->End;
      Copies.push_back(std::move(Copy));
    }
    Desc.NumDeviceImages = NumImages;
    Desc.DeviceImages = Images.data();
    switch (In.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        Desc.NumDeviceImages = In.ConsumeIntegralInRange<int32_t>(INT32_MIN, -1);
        Flawed = true;
        break;
      case 1:
        Desc.DeviceImages = nullptr;
        Flawed |= NumImages > 0;
        break;
      default: break;
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  Input Built;
  Built.build(In);
  const bool Twice = In.ConsumeBool();
  const auto RequiresFlags = In.ConsumeIntegral<int64_t>();
  __tgt_bin_desc &Desc = Built.Desc;

  Status Checked = checkDescriptor(Desc);
  if (!Checked != Built.Flawed)
    std::fprintf(stderr, "checkDescriptor: %s; the input %s flawed\n",
                 Checked ? "success" : Checked.error().message().c_str(),
                 Built.Flawed ? "is" : "is not");
  FUZZ_CHECK(!Checked == Built.Flawed);
  if (!Checked) {
    FUZZ_CHECK(Checked.error().message().starts_with("descriptor "));
    return 0;
  }

  DeviceTable Devices;
  PluginFunctions X86, Idle;
  X86.is_valid_binary = x86IsValid;
  X86.number_of_devices = twoDevices;
  Idle.is_valid_binary = idleIsValid;
  Idle.number_of_devices = noDevice;
  Devices.addPlugin(Plugin::fromFunctions("x86_64", X86));
  Devices.addPlugin(Plugin::fromFunctions("idle", Idle));
  ImageRegistry Images(Devices);

  int ExpectAccepted = 0;
  bool ToX86 = false, ToIdle = false;
  for (int32_t I = 0; I < Desc.NumDeviceImages; ++I) {
    __tgt_device_image *Image = &Desc.DeviceImages[I];
    const bool X = x86IsValid(Image), Y = !X && idleIsValid(Image);
    ExpectAccepted += X || Y;
    ToX86 |= X;
    ToIdle |= Y;
    FUZZ_CHECK(!describeImage(*Image).empty());
  }
  for (int Round = 0; Round < (Twice ? 2 : 1); ++Round) {
    std::string IdlePlugins;
    FUZZ_CHECK(Images.registerLib(&Desc, RequiresFlags, IdlePlugins) == ExpectAccepted);
    FUZZ_CHECK(IdlePlugins == (!ToX86 && ToIdle ? "idle" : ""));
  }
  FUZZ_CHECK(Devices.size() == (ToX86 ? 2 : 0));

  // The kernels: known by the name of their last record, loaded nowhere.
  const size_t HostCount = static_cast<size_t>(Desc.HostEntriesEnd - Desc.HostEntriesBegin);
  auto LastKernelName = [&](void *Addr) -> const char * {
    const char *Name = nullptr;
    for (size_t I = 0; I < HostCount; ++I)
      if (Desc.HostEntriesBegin[I].size == 0 && Desc.HostEntriesBegin[I].addr == Addr)
        Name = Desc.HostEntriesBegin[I].name;
    return Name;
  };
  for (size_t I = 0; I < HostCount; ++I) {
    void *Addr = Desc.HostEntriesBegin[I].addr;
    FUZZ_CHECK(Images.kernelName(Addr) == LastKernelName(Addr));
    FUZZ_CHECK(!Images.retired(Addr));
    if (Desc.HostEntriesBegin[I].size == 0 && Devices.size() > 0)
      FUZZ_CHECK(!Images.lookupKernel(Addr, *Devices.get(1)));
  }

  for (int Round = 0; Round < (Twice ? 2 : 1); ++Round) Images.unregisterLib(&Desc);
  Images.unregisterLib(&Desc);  // no longer registered: nothing happens
  for (size_t I = 0; I < HostCount; ++I) {
    void *Addr = Desc.HostEntriesBegin[I].addr;
    FUZZ_CHECK(Images.kernelName(Addr) == nullptr);
    FUZZ_CHECK(Images.retired(Addr) == (LastKernelName(Addr) != nullptr));
  }
  return 0;
}
