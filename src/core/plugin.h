// A loaded plugin: its library handle and its `__tgt_rtl_*` function table.
//
// Plugins are normally dlopen'ed by file name; tests build one from a table
// of in-process functions (the fake plugin). Immutable after loading, so it
// is shared between threads without locks.
#pragma once

#include <memory>
#include <string>

#include "error.h"
#include "omptarget/plugin_abi.h"

namespace omptarget::core {

struct PluginFunctions {
#define OMPT_DECLARE_FN(Name, Ret, Params) Ret(*Name) Params = nullptr;
  OMPTARGET_PLUGIN_ENTRIES(OMPT_DECLARE_FN, OMPT_DECLARE_FN)
#undef OMPT_DECLARE_FN
};

class Plugin {
 public:
  // dlopen `FileName` (a path or a bare name searched by the dynamic loader)
  // and resolve its entries. Fails when the library is missing or lacks a
  // required entry.
  static Expected<std::unique_ptr<Plugin>> load(const std::string &FileName);
  // A plugin whose entries are given directly (in-process tests).
  static std::unique_ptr<Plugin> fromFunctions(std::string Name, const PluginFunctions &Fns);

  // Only load() and fromFunctions() can make the key.
  class Key {
    friend class Plugin;
    Key() = default;
  };
  Plugin(Key, std::string Name, const PluginFunctions &Fns) : Name_(std::move(Name)), Fns_(Fns) {}
  ~Plugin();
  Plugin(const Plugin &) = delete;
  Plugin &operator=(const Plugin &) = delete;

  const std::string &name() const { return Name_; }
  // The target name in the file name: "libomptarget.rtl.x86_64.so" (perhaps
  // with a directory) -> "x86_64"; a name of another form, without its
  // directory.
  std::string targetName() const;
  const PluginFunctions &fn() const { return Fns_; }
  bool hasAsync() const { return Fns_.synchronize != nullptr; }
  bool hasEvents() const {
    return Fns_.create_event && Fns_.record_event && Fns_.wait_event && Fns_.destroy_event;
  }

 private:
  std::string Name_;
  PluginFunctions Fns_;
};

}  // namespace omptarget::core
