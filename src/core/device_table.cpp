#include "device_table.h"

#include <sys/stat.h>

#include "debug.h"
#include "own_directory.h"
#include "scoped_lock.h"

namespace omptarget::core {

const std::vector<std::string> &DeviceTable::pluginNames() {
  static const std::vector<std::string> Names = {
      "libomptarget.rtl.x86_64.so",
      "libomptarget.rtl.cuda.so",
      // Last: remote devices (other MPI ranks) come after the local ones.
      "libomptarget.rtl.mpi.so",
  };
  return Names;
}

namespace {
bool fileExists(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0;
}
}  // namespace

namespace {
// The plugin Name: beside the core first (the core's own directory wins
// over any other copy on the search path), then wherever the dynamic
// loader finds it. A plugin that exists but cannot be loaded deserves a
// message; one that is simply not installed does not.
std::unique_ptr<Plugin> loadPlugin(const std::string &Name) {
  const std::string Dir = directoryOf(reinterpret_cast<const void *>(&fileExists));
  std::string Beside = Dir + Name;
  bool ExistsBeside = !Dir.empty() && fileExists(Beside);
  auto Loaded = Plugin::load(ExistsBeside ? Beside : Name);
  if (Loaded) return std::move(*Loaded);
  if (ExistsBeside)
    debug::warning("%s; its devices are unavailable", Loaded.error().message().c_str());
  else
    OMPT_TRACE("omptarget", "%s", Loaded.error().message().c_str());
  return nullptr;
}
}  // namespace

void DeviceTable::loadPlugins() {
  if (Loaded_.load(std::memory_order_acquire)) return;
  ScopedLock Lock(Mutex_);
  if (Loaded_.load(std::memory_order_relaxed)) return;
  for (const std::string &Name : pluginNames())
    if (std::unique_ptr<Plugin> P = loadPlugin(Name)) Plugins_.push_back(std::move(P));
  OMPT_TRACE("omptarget", "%zu plugin(s) loaded", Plugins_.size());
  Loaded_.store(true, std::memory_order_release);
}

void DeviceTable::startPlugin(const std::string &FileName) {
  ScopedLock Lock(Mutex_);
  if (StartTried_) return;
  StartTried_ = true;
  std::unique_ptr<Plugin> P = loadPlugin(FileName);
  if (!P) return;
  const int32_t N = P->fn().number_of_devices();
  OMPT_TRACE("omptarget", "%s started: %d device(s), not added yet", FileName.c_str(),
             static_cast<int>(N));
  Started_.push_back(std::move(P));
}

void DeviceTable::addPlugin(std::unique_ptr<Plugin> P) {
  ScopedLock Lock(Mutex_);
  Loaded_.store(true, std::memory_order_release);
  Plugins_.push_back(std::move(P));
}

std::vector<Plugin *> DeviceTable::plugins() {
  ScopedLock Lock(Mutex_);
  std::vector<Plugin *> Result;
  for (auto &P : Plugins_) Result.push_back(P.get());
  return Result;
}

std::pair<int32_t, int32_t> DeviceTable::activate(Plugin &P, int64_t RequiresFlags) {
  ScopedLock Lock(Mutex_);
  for (const ActivePlugin &A : Active_)
    if (A.P == &P) return {A.First, A.Count};
  if (P.fn().init_requires) P.fn().init_requires(RequiresFlags);
  int32_t Count = P.fn().number_of_devices();
  int32_t First = Count_.load();
  if (Count < 0) Count = 0;
  if (static_cast<size_t>(First) + static_cast<size_t>(Count) > kMaxDevices) {
    debug::warning("plugin %s reports %d devices; only %zu devices are supported in all",
                   P.name().c_str(), Count, kMaxDevices);
    Count = static_cast<int32_t>(kMaxDevices) - First;
  }
  for (int32_t I = 0; I < Count; ++I) {
    Owned_.push_back(std::make_unique<Device>(First + I, P, I));
    Slots_[static_cast<size_t>(First + I)].store(Owned_.back().get(), std::memory_order_release);
  }
  Active_.push_back({&P, First, Count});
  Count_.store(First + Count, std::memory_order_release);
  OMPT_TRACE("omptarget", "Plugin %s provides devices %d..%d", P.name().c_str(), First,
             First + Count - 1);
  return {First, Count};
}

std::vector<int32_t> DeviceTable::devicesOf(const Plugin &P) {
  ScopedLock Lock(Mutex_);
  std::vector<int32_t> Ids;
  for (const ActivePlugin &A : Active_)
    if (A.P == &P)
      for (int32_t I = 0; I < A.Count; ++I) Ids.push_back(A.First + I);
  return Ids;
}

}  // namespace omptarget::core
