// clang 19's requires records: a translation unit's `#pragma omp requires`
// flags travel as an entry of its offload table (abi::kEntryRequires: null
// address, empty name, the flags in `reserved`) instead of a call to
// __tgt_register_requires. The runtime registers those flags and then works
// on a copy of the descriptor without the records, so that everything after
// registration (the image registry, every plugin's load_binary, LLVM 14's
// included) sees only kernels and globals, paired by position as before.
//
// Thread safety: Mutex_ guards Copies_ (registration and unregistration of
// binaries, never on a construct's path).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "futex_mutex.h"
#include "omptarget/abi.h"
#include "thread_annotations.h"

namespace omptarget::core {

class RequiresRecords {
 public:
  // For a descriptor that passed checkDescriptor: when its host table holds
  // requires records, ORs their flags into Flags and returns the copy to
  // register in its place (owned here until forget); otherwise Desc.
  __tgt_bin_desc *strip(__tgt_bin_desc *Desc, int64_t &Flags, bool &HasRecords);
  // What strip returned for Desc (Desc itself when it made no copy), and
  // the copy is dropped after the caller is done with it.
  __tgt_bin_desc *registered(__tgt_bin_desc *Desc);
  void forget(__tgt_bin_desc *Desc);

 private:
  struct Copy {
    __tgt_bin_desc Desc{};
    std::vector<__tgt_offload_entry> HostEntries;
    std::vector<__tgt_device_image> Images;
    std::vector<std::vector<__tgt_offload_entry>> ImageEntries;  // images with a table of their own
  };
  FutexMutex Mutex_;
  std::map<__tgt_bin_desc *, std::unique_ptr<Copy>> Copies_ GUARDED_BY(Mutex_);
};

}  // namespace omptarget::core
