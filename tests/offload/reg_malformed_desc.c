// Registration: binary descriptors that do not have clang 14's shape, passed
// to __tgt_register_lib by hand (one form per run, chosen by argv[1]). Each
// must stop the program with one fatal error that names __tgt_register_lib,
// says what is wrong and what to do, never a segfault or a read past a table
// (before, the first form crashed in the image registry). With
// OMP_TARGET_OFFLOAD=disabled the descriptor is not needed: the error is
// reported and the program goes on. A well-formed descriptor registers.
// LLVM 14 reads such tables without checking (it crashes or misbehaves).
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t
// RUN: %run %t valid 2>&1 | %fcheck --check-prefix=VALID
// RUN: not --crash %run %t size 2>&1 | %fcheck --check-prefix=SIZE
// RUN: not --crash %run %t reversed 2>&1 | %fcheck --check-prefix=REVERSED
// RUN: not --crash %run %t onebound 2>&1 | %fcheck --check-prefix=ONEBOUND
// RUN: not --crash %run %t noname 2>&1 | %fcheck --check-prefix=NONAME
// RUN: not --crash %run %t noaddr 2>&1 | %fcheck --check-prefix=NOADDR
// RUN: not --crash %run %t negative 2>&1 | %fcheck --check-prefix=NEGATIVE
// RUN: not --crash %run %t nullimages 2>&1 | %fcheck --check-prefix=NULLIMAGES
// RUN: not --crash %run %t nullimage 2>&1 | %fcheck --check-prefix=NULLIMAGE
// RUN: not --crash %run %t imagereversed 2>&1 | %fcheck --check-prefix=IMAGEREVERSED
// RUN: not --crash %run %t imageentries 2>&1 | %fcheck --check-prefix=IMAGEENTRIES
// RUN: %run env OMP_TARGET_OFFLOAD=disabled %t size 2>&1 | %fcheck --check-prefix=DISABLED
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// The layouts of include/omptarget/abi.h (a C++ header), declared for C.
struct __tgt_offload_entry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};
struct __tgt_device_image {
  void *ImageStart;
  void *ImageEnd;
  struct __tgt_offload_entry *EntriesBegin;
  struct __tgt_offload_entry *EntriesEnd;
};
struct __tgt_bin_desc {
  int32_t NumDeviceImages;
  struct __tgt_device_image *DeviceImages;
  struct __tgt_offload_entry *HostEntriesBegin;
  struct __tgt_offload_entry *HostEntriesEnd;
};
void __tgt_register_lib(struct __tgt_bin_desc *Desc);
void __tgt_unregister_lib(struct __tgt_bin_desc *Desc);

// What a compiler with a larger entry record (an extra field) would emit.
struct LargerEntry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
  uint64_t extra;
};

static char RegionA, RegionB, ImageBytes[64];
static char NameA[] = "__omp_offloading_region_a", NameB[] = "__omp_offloading_region_b";

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  const char *Form = argc > 1 ? argv[1] : "valid";
  struct __tgt_offload_entry Entries[2] = {{&RegionA, NameA, 0, 0, 0}, {&RegionB, NameB, 0, 0, 0}};
  struct LargerEntry Larger[3] = {{&RegionA, NameA, 0, 0, 0, 0}, {&RegionB, NameB, 0, 0, 0, 0},
                                  {&RegionB, NameB, 0, 0, 0, 0}};
  // Not an image any plugin takes: only the descriptor's shape matters here.
  struct __tgt_device_image Image = {ImageBytes, ImageBytes + sizeof(ImageBytes), Entries, Entries + 2};
  struct __tgt_bin_desc Desc = {1, &Image, Entries, Entries + 2};

  if (!strcmp(Form, "size")) {
    Desc.HostEntriesBegin = (struct __tgt_offload_entry *)Larger;
    Desc.HostEntriesEnd = (struct __tgt_offload_entry *)(Larger + 3);
  } else if (!strcmp(Form, "reversed")) {
    Desc.HostEntriesBegin = Entries + 2;
    Desc.HostEntriesEnd = Entries;
  } else if (!strcmp(Form, "onebound")) {
    Desc.HostEntriesBegin = NULL;
  } else if (!strcmp(Form, "noname")) {
    Entries[1].name = NULL;
  } else if (!strcmp(Form, "noaddr")) {
    Entries[0].addr = NULL;
  } else if (!strcmp(Form, "negative")) {
    Desc.NumDeviceImages = -1;
  } else if (!strcmp(Form, "nullimages")) {
    Desc.DeviceImages = NULL;
  } else if (!strcmp(Form, "nullimage")) {
    Image.ImageStart = NULL;
  } else if (!strcmp(Form, "imagereversed")) {
    Image.ImageStart = ImageBytes + sizeof(ImageBytes);
    Image.ImageEnd = ImageBytes;
  } else if (!strcmp(Form, "imageentries")) {
    Image.EntriesEnd = Entries + 1;
  }
  printf("registering %s\n", Form);
  __tgt_register_lib(&Desc);
  printf("registered %s\n", Form);
  __tgt_unregister_lib(&Desc);
  return 0;
}

// VALID: registering valid
// VALID-NOT: Libomptarget error
// VALID: registered valid

// SIZE: registering size
// SIZE-NEXT: Libomptarget fatal error 1: __tgt_register_lib: descriptor 0x{{[0-9a-f]+}}: host entries: the entry table [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) is 120 bytes, not a multiple of the 32-byte __tgt_offload_entry; the program was built by a compiler whose offload entry layout this runtime does not support (or its offload descriptor is corrupt); rebuild it with clang 14
// SIZE-NOT: registered

// REVERSED: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: host entries: the entry table [{{.*}}) ends before it begins; the program was built by a compiler {{.*}}; rebuild it with clang 14
// REVERSED-NOT: registered

// ONEBOUND: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: host entries: the entry table [(nil), 0x{{[0-9a-f]+}}) has one null bound; the program was built by a compiler {{.*}}; rebuild it with clang 14
// ONEBOUND-NOT: registered

// NONAME: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: host entry 1 (address 0x{{[0-9a-f]+}}, size 0) has no name; the program was built by a compiler {{.*}}; rebuild it with clang 14
// NONAME-NOT: registered

// NOADDR: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: host entry 0 ('__omp_offloading_region_a') has a null address; the program {{.*}}
// NOADDR-NOT: registered

// NEGATIVE: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}} has a negative number of device images (-1); the program {{.*}}
// NEGATIVE-NOT: registered

// NULLIMAGES: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}} has 1 device images but a null image array; the program {{.*}}
// NULLIMAGES-NOT: registered

// NULLIMAGE: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: device image 0 has a null bound [(nil), 0x{{[0-9a-f]+}}); the program {{.*}}
// NULLIMAGE-NOT: registered

// IMAGEREVERSED: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: device image 0 ends before it begins [{{.*}}); the program {{.*}}
// IMAGEREVERSED-NOT: registered

// IMAGEENTRIES: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: device image 0 lists 1 entries but the host table has 2; the program {{.*}}
// IMAGEENTRIES-NOT: registered

// DISABLED: registering size
// DISABLED-NEXT: Libomptarget error: __tgt_register_lib: descriptor {{.*}} is 120 bytes, not a multiple of the 32-byte __tgt_offload_entry; offloading is disabled, so the descriptor is ignored; the program was built by a compiler {{.*}}; rebuild it with clang 14
// DISABLED-NEXT: registered size
