// The plugin singleton behind the exported entries.
//
// The exporter sources are compiled into each plugin (an OBJECT library), not
// archived, so that the exports always survive linking.
#include "exporter.h"

#include "no_destroy.h"

namespace omptarget::plugin::exporter {

namespace {

#define OMPT_ENTRY_ADDRESS(Name, Ret, Params) reinterpret_cast<void *>(&__tgt_rtl_##Name),
[[maybe_unused]] __attribute__((used)) void *const kAllEntries[] = {
    OMPTARGET_PLUGIN_ENTRIES(OMPT_ENTRY_ADDRESS, OMPT_ENTRY_ADDRESS)};
#undef OMPT_ENTRY_ADDRESS

struct PluginHolder {
  std::unique_ptr<GenericPlugin> Plugin = createPlugin();
  PluginHolder() {
    if (Status S = Plugin->initialize(); !S) Plugin->reportError(S.error());
  }
};

}  // namespace

// Never destroyed: the core may still call in from its own exit-time
// destructors, which run after ours.
GenericPlugin &thePlugin() {
  static NoDestroy<PluginHolder> Holder;
  return *Holder.get().Plugin;
}

}  // namespace omptarget::plugin::exporter
