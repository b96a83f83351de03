// The fake-CUDA host programs (pool_entries.cpp, sync_mode.cpp) call the
// CUDA plugin's entry points directly, without a core: PluginEntries holds a
// pointer for every entry of the plugin ABI (plugin_abi.h's list, so names
// and signatures cannot drift), loadPluginEntries dlopens the plugin and
// resolves them all (null where the plugin lacks one), and checks that the
// entries the program needs are there, printing "FAILED: ..." lines for
// FileCheck otherwise.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "omptarget/plugin_abi.h"

namespace fake_cuda {

struct PluginEntries {
#define FAKE_CUDA_ENTRY_FIELD(Name, Ret, Params) Ret(*Name) Params = nullptr;
  OMPTARGET_PLUGIN_ENTRIES(FAKE_CUDA_ENTRY_FIELD, FAKE_CUDA_ENTRY_FIELD)
#undef FAKE_CUDA_ENTRY_FIELD
};

// Loads the plugin at Path into P; Needed names entries without the
// __tgt_rtl_ prefix. False (with a FAILED line) when the plugin cannot be
// loaded or lacks a needed entry. The library stays loaded until exit.
inline bool loadPluginEntries(const char *Path, PluginEntries &P,
                              std::initializer_list<const char *> Needed) {
  void *Handle = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    std::printf("FAILED: dlopen %s: %s\n", Path, dlerror());
    return false;
  }
  bool Ok = true;
  for (const char *Name : Needed) {
    bool Known = false, Present = false;
#define FAKE_CUDA_ENTRY_RESOLVE(Entry, Ret, Params)                                             \
  if (std::strcmp(Name, #Entry) == 0) {                                                        \
    P.Entry = reinterpret_cast<Ret(*) Params>(dlsym(Handle, "__tgt_rtl_" #Entry));             \
    Known = true;                                                                              \
    Present = P.Entry != nullptr;                                                              \
  }
    OMPTARGET_PLUGIN_ENTRIES(FAKE_CUDA_ENTRY_RESOLVE, FAKE_CUDA_ENTRY_RESOLVE)
#undef FAKE_CUDA_ENTRY_RESOLVE
    if (!Known) std::printf("FAILED: %s is no entry of the plugin ABI\n", Name);
    else if (!Present) std::printf("FAILED: the plugin has no __tgt_rtl_%s\n", Name);
    Ok = Ok && Present;
  }
  return Ok;
}

}  // namespace fake_cuda
