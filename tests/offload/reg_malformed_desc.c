// Registration: binary descriptors that do not have clang 14's shape. The
// program's own descriptor, which clang's registration constructor passes to
// __tgt_register_lib before main, is caught by the definition of that
// function below; it registers a copy, flawed as REG_FORM says (one form per
// run), with the runtime's __tgt_register_lib (and unregisters that copy at
// exit). So the program's own target region shows what becomes of it.
//
// Two kinds of flaws, each message one line naming __tgt_register_lib, what
// is wrong and what to do:
//  - another compiler's layout: well-formed counts and bounds holding records
//    this runtime cannot read (an entry table that is not a whole number of
//    32-byte records, host or image; a record without a name or address; an
//    image listing another number of entries than the host table). The
//    descriptor is ignored with one warning, as an image no plugin accepts is
//    (err_no_plugin_for_image.c): the target region runs on the host, with
//    the right result and no device; under OMP_TARGET_OFFLOAD=mandatory the
//    region is then fatal, as with no device (err_mandatory_no_device.c).
//  - corruption: counts or bounds that no compiler emits (a negative image
//    count, a null image array, a null or reversed bound). The pointer given
//    is not a descriptor, or its memory was overwritten, so the program has
//    a bug that running on would hide: it stops with a fatal error.
// Never a segfault or a read past a table (before, the first form crashed
// in the image registry). With OMP_TARGET_OFFLOAD=disabled no descriptor is
// needed: the flaw is reported and the program runs on the host. An
// unflawed copy registers and offloads. LLVM 14 reads such tables without
// checking (it crashes or misbehaves).
// REQUIRES: omptarget-core
// RUN: %clang-offload %s -o %t
// RUN: %run env REG_FORM=valid %t 2>&1 | %fcheck --check-prefix=VALID
// RUN: %run env REG_FORM=size %t 2>&1 | %fcheck --check-prefix=SIZE
// RUN: not --crash %run env REG_FORM=size OMP_TARGET_OFFLOAD=mandatory %t 2>&1 | %fcheck --check-prefix=SIZE-MAND
// RUN: %run env REG_FORM=imagesize %t 2>&1 | %fcheck --check-prefix=IMAGESIZE
// RUN: %run env REG_FORM=noname %t 2>&1 | %fcheck --check-prefix=NONAME
// RUN: %run env REG_FORM=noaddr %t 2>&1 | %fcheck --check-prefix=NOADDR
// RUN: %run env REG_FORM=imageentries %t 2>&1 | %fcheck --check-prefix=IMAGEENTRIES
// RUN: not --crash %run env REG_FORM=imageentries OMP_TARGET_OFFLOAD=mandatory %t 2>&1 | %fcheck --check-prefix=IMAGEENTRIES-MAND
// RUN: not --crash %run env REG_FORM=reversed %t 2>&1 | %fcheck --check-prefix=REVERSED
// RUN: not --crash %run env REG_FORM=onebound %t 2>&1 | %fcheck --check-prefix=ONEBOUND
// RUN: not --crash %run env REG_FORM=negative %t 2>&1 | %fcheck --check-prefix=NEGATIVE
// RUN: not --crash %run env REG_FORM=nullimages %t 2>&1 | %fcheck --check-prefix=NULLIMAGES
// RUN: not --crash %run env REG_FORM=nullimage %t 2>&1 | %fcheck --check-prefix=NULLIMAGE
// RUN: not --crash %run env REG_FORM=imagereversed %t 2>&1 | %fcheck --check-prefix=IMAGEREVERSED
// RUN: not --crash %run env REG_FORM=imageonebound %t 2>&1 | %fcheck --check-prefix=IMAGEONEBOUND
// RUN: %run env REG_FORM=size OMP_TARGET_OFFLOAD=disabled %t 2>&1 | %fcheck --check-prefix=DISABLED
// RUN: %run env REG_FORM=negative OMP_TARGET_OFFLOAD=disabled %t 2>&1 | %fcheck --check-prefix=DISABLED-CORRUPT
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

// What a compiler with a larger entry record (an extra field) would emit.
struct LargerEntry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
  uint64_t extra;
};

enum { kMaxEntries = 64, kMaxImages = 4 };
static struct __tgt_bin_desc *Clangs;  // the program's own descriptor
static struct __tgt_bin_desc Copy;     // what the runtime is given instead
static struct __tgt_device_image Images[kMaxImages];
static struct __tgt_offload_entry Entries[kMaxEntries];
static struct LargerEntry Larger[3];

typedef void (*RegisterFn)(struct __tgt_bin_desc *);
static RegisterFn runtimeFn(const char *Name) {
  RegisterFn F = (RegisterFn)dlsym(RTLD_NEXT, Name);
  if (!F) {
    fprintf(stderr, "no %s after this program\n", Name);
    abort();
  }
  return F;
}

void __tgt_register_lib(struct __tgt_bin_desc *Desc) {
  const char *Form = getenv("REG_FORM");
  if (!Form) Form = "valid";
  size_t N = (size_t)(Desc->HostEntriesEnd - Desc->HostEntriesBegin);
  if (N == 0 || N > kMaxEntries || Desc->NumDeviceImages < 1 || Desc->NumDeviceImages > kMaxImages)
    abort();
  // A copy in writable memory, each image's table the copied host table
  // (clang 14 gives every image the host's).
  memcpy(Entries, Desc->HostEntriesBegin, N * sizeof *Entries);
  Copy = *Desc;
  Copy.HostEntriesBegin = Entries;
  Copy.HostEntriesEnd = Entries + N;
  Copy.DeviceImages = Images;
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I) {
    Images[I] = Desc->DeviceImages[I];
    Images[I].EntriesBegin = Entries;
    Images[I].EntriesEnd = Entries + N;
  }
  for (int I = 0; I < 3; ++I) memcpy(&Larger[I], &Entries[0], sizeof Entries[0]);
  Clangs = Desc;

  if (!strcmp(Form, "size")) {
    Copy.HostEntriesBegin = (struct __tgt_offload_entry *)Larger;
    Copy.HostEntriesEnd = (struct __tgt_offload_entry *)(Larger + 3);
  } else if (!strcmp(Form, "imagesize")) {
    Images[0].EntriesBegin = (struct __tgt_offload_entry *)Larger;
    Images[0].EntriesEnd = (struct __tgt_offload_entry *)(Larger + 3);
  } else if (!strcmp(Form, "noname")) {
    Entries[0].name = NULL;
  } else if (!strcmp(Form, "noaddr")) {
    Entries[0].addr = NULL;
  } else if (!strcmp(Form, "imageentries")) {
    Images[0].EntriesEnd = Entries + N - 1;
  } else if (!strcmp(Form, "reversed")) {
    Copy.HostEntriesBegin = Entries + N;
    Copy.HostEntriesEnd = Entries;
  } else if (!strcmp(Form, "onebound")) {
    Copy.HostEntriesBegin = NULL;
  } else if (!strcmp(Form, "negative")) {
    Copy.NumDeviceImages = -1;
  } else if (!strcmp(Form, "nullimages")) {
    Copy.DeviceImages = NULL;
  } else if (!strcmp(Form, "nullimage")) {
    Images[0].ImageStart = NULL;
  } else if (!strcmp(Form, "imagereversed")) {
    void *Start = Images[0].ImageStart;
    Images[0].ImageStart = Images[0].ImageEnd;
    Images[0].ImageEnd = Start;
  } else if (!strcmp(Form, "imageonebound")) {
    Images[0].EntriesBegin = NULL;
  } else if (strcmp(Form, "valid")) {
    fprintf(stderr, "unknown REG_FORM %s\n", Form);
    abort();
  }
  fprintf(stderr, "registering %s\n", Form);
  runtimeFn("__tgt_register_lib")(&Copy);
  fprintf(stderr, "registered %s\n", Form);
}

void __tgt_unregister_lib(struct __tgt_bin_desc *Desc) {
  runtimeFn("__tgt_unregister_lib")(Desc == Clangs ? &Copy : Desc);
}

int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  fprintf(stderr, "x=%d devices=%d\n", x, omp_get_num_devices());
  return 0;
}

// VALID: registering valid
// VALID-NEXT: registered valid
// VALID-NEXT: x=2 devices={{[1-9]}}

// SIZE: registering size
// SIZE-NEXT: Libomptarget warning: __tgt_register_lib: descriptor 0x{{[0-9a-f]+}}: host entries: the entry table [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) is 120 bytes, not a multiple of the 32-byte __tgt_offload_entry; the descriptor is ignored, so the target regions of this binary run on the host; the program was built by a compiler whose offload entry layout this runtime does not support; rebuild it with clang 14 to offload its target regions
// SIZE-NEXT: registered size
// SIZE-NEXT: x=2 devices=0

// SIZE-MAND: registering size
// SIZE-MAND-NEXT: Libomptarget warning: __tgt_register_lib: descriptor {{.*}} is 120 bytes, not a multiple of the 32-byte __tgt_offload_entry; the descriptor is ignored, so the first target region of this binary is a fatal error (OMP_TARGET_OFFLOAD=mandatory); the program was built by a compiler {{.*}}; rebuild it with clang 14 to offload its target regions
// SIZE-MAND-NEXT: registered size
// SIZE-MAND-NEXT: Libomptarget error: __tgt_target{{.*}}: OMP_TARGET_OFFLOAD=mandatory but no offload device is available
// SIZE-MAND: {{^}}reg_malformed_desc.c:{{[0-9]+}}:1: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
// SIZE-MAND-NOT: x=

// IMAGESIZE: Libomptarget warning: __tgt_register_lib: descriptor {{.*}}: device image 0: the entry table [{{.*}}) is 120 bytes, not a multiple of the 32-byte __tgt_offload_entry; the descriptor is ignored, so the target regions of this binary run on the host; {{.*}}; rebuild it with clang 14 to offload its target regions
// IMAGESIZE-NEXT: registered imagesize
// IMAGESIZE-NEXT: x=2 devices=0

// NONAME: Libomptarget warning: __tgt_register_lib: descriptor {{.*}}: host entry 0 (address 0x{{[0-9a-f]+}}, size 0) has no name; the descriptor is ignored, so the target regions of this binary run on the host; {{.*}}
// NONAME-NEXT: registered noname
// NONAME-NEXT: x=2 devices=0

// NOADDR: Libomptarget warning: __tgt_register_lib: descriptor {{.*}}: host entry 0 ('__omp_offloading_{{.*}}') has a null address; the descriptor is ignored, so the target regions of this binary run on the host; {{.*}}
// NOADDR-NEXT: registered noaddr
// NOADDR-NEXT: x=2 devices=0

// IMAGEENTRIES: Libomptarget warning: __tgt_register_lib: descriptor {{.*}}: device image 0 lists {{[0-9]+}} entries but the host table has {{[0-9]+}}; the descriptor is ignored, so the target regions of this binary run on the host; {{.*}}
// IMAGEENTRIES-NEXT: registered imageentries
// IMAGEENTRIES-NEXT: x=2 devices=0

// IMAGEENTRIES-MAND: Libomptarget warning: __tgt_register_lib: descriptor {{.*}} lists {{.*}}; the descriptor is ignored, so the first target region of this binary is a fatal error (OMP_TARGET_OFFLOAD=mandatory); {{.*}}
// IMAGEENTRIES-MAND: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
// IMAGEENTRIES-MAND-NOT: x=

// REVERSED: registering reversed
// REVERSED-NEXT: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: host entries: the entry table [{{.*}}) ends before it begins; no compiler emits such counts or bounds: the pointer given to __tgt_register_lib is not an offload descriptor, or its memory was overwritten; rebuild the program with clang 14
// REVERSED-NOT: registered

// ONEBOUND: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: host entries: the entry table [(nil), 0x{{[0-9a-f]+}}) has one null bound; no compiler emits such counts or bounds{{.*}}
// ONEBOUND-NOT: registered

// NEGATIVE: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}} has a negative number of device images (-1); no compiler emits such counts or bounds{{.*}}
// NEGATIVE-NOT: registered

// NULLIMAGES: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}} has 1 device images but a null image array; no compiler emits such counts or bounds{{.*}}
// NULLIMAGES-NOT: registered

// NULLIMAGE: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: device image 0 has a null bound [(nil), 0x{{[0-9a-f]+}}); no compiler emits such counts or bounds{{.*}}
// NULLIMAGE-NOT: registered

// IMAGEREVERSED: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: device image 0 ends before it begins [{{.*}}); no compiler emits such counts or bounds{{.*}}
// IMAGEREVERSED-NOT: registered

// IMAGEONEBOUND: Libomptarget fatal error 1: __tgt_register_lib: descriptor {{.*}}: device image 0: the entry table [(nil), 0x{{[0-9a-f]+}}) has one null bound; no compiler emits such counts or bounds{{.*}}
// IMAGEONEBOUND-NOT: registered

// DISABLED: registering size
// DISABLED-NEXT: Libomptarget error: __tgt_register_lib: descriptor {{.*}} is 120 bytes, not a multiple of the 32-byte __tgt_offload_entry; offloading is disabled, so the descriptor is ignored; the program was built by a compiler {{.*}}; rebuild it with clang 14 to offload its target regions
// DISABLED-NEXT: registered size
// DISABLED-NEXT: x=2 devices=0

// DISABLED-CORRUPT: Libomptarget error: __tgt_register_lib: descriptor {{.*}} has a negative number of device images (-1); offloading is disabled, so the descriptor is ignored; no compiler emits such counts or bounds{{.*}}
// DISABLED-CORRUPT-NEXT: registered negative
// DISABLED-CORRUPT-NEXT: x=2 devices=0
