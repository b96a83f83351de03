#include "plugin.h"

#include <dlfcn.h>

#include <string_view>

#include "debug.h"

namespace omptarget::core {

Expected<std::unique_ptr<Plugin>> Plugin::load(const std::string &FileName) {
  void *Handle = dlopen(FileName.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) return makeError("cannot load plugin %s: %s", FileName.c_str(), dlerror());

  PluginFunctions Fns;
  std::string Missing;
#define OMPT_RESOLVE_REQ(Name, Ret, Params)                                      \
  Fns.Name = reinterpret_cast<Ret(*) Params>(dlsym(Handle, "__tgt_rtl_" #Name)); \
  if (!Fns.Name) Missing += (Missing.empty() ? "" : ", ") + std::string("__tgt_rtl_" #Name);
#define OMPT_RESOLVE_OPT(Name, Ret, Params) \
  Fns.Name = reinterpret_cast<Ret(*) Params>(dlsym(Handle, "__tgt_rtl_" #Name));
  OMPTARGET_PLUGIN_ENTRIES(OMPT_RESOLVE_REQ, OMPT_RESOLVE_OPT)
#undef OMPT_RESOLVE_REQ
#undef OMPT_RESOLVE_OPT

  if (!Missing.empty()) {
    dlclose(Handle);
    return makeError("plugin %s lacks required entry points: %s", FileName.c_str(),
                     Missing.c_str());
  }
  OMPT_TRACE("omptarget", "Loaded plugin %s (async: %s, events: %s)", FileName.c_str(),
             Fns.synchronize ? "yes" : "no", Fns.create_event ? "yes" : "no");
  return std::make_unique<Plugin>(Key(), FileName, Fns);
}

std::unique_ptr<Plugin> Plugin::fromFunctions(std::string Name, const PluginFunctions &Fns) {
  return std::make_unique<Plugin>(Key(), std::move(Name), Fns);
}

// Plugins stay loaded until the runtime is torn down at process exit;
// closing them earlier would unmap code that device images may still call.
Plugin::~Plugin() = default;

std::string Plugin::targetName() const {
  std::string Name = Name_;
  if (size_t Slash = Name.rfind('/'); Slash != std::string::npos) Name.erase(0, Slash + 1);
  constexpr std::string_view Prefix = "libomptarget.rtl.", Suffix = ".so";
  if (Name.size() > Prefix.size() + Suffix.size() && Name.starts_with(Prefix) &&
      Name.ends_with(Suffix))
    Name = Name.substr(Prefix.size(), Name.size() - Prefix.size() - Suffix.size());
  return Name;
}

}  // namespace omptarget::core
