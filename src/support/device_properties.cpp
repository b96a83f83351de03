#include "device_properties.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace omptarget::props {

namespace {

struct Label {
  std::string_view Key;
  std::string_view Text;
};

// Every key our core and plugins report, grouped by who reports it
// (docs/plugin-abi.md, "device_properties", has what each one means).
constexpr Label kLabels[] = {
    // The core's (omptarget_get_device_properties).
    {"device_num", "Device number"},
    {"plugin", "Plugin"},
    {"plugin_device_id", "Plugin device id"},
    {"uid", "Unique id"},
    {"peers", "Direct copies to devices"},
    {"mapped_entries", "Mapped entries"},
    // The devices' own (describeImpl).
    {"name", "Name"},
    {"device_type", "Device type"},
    {"queue_mode", "Queue mode"},
    {"queue_delay_us", "Queue delay"},
    {"cpus", "CPUs online"},
    {"compute_capability", "Compute capability"},
    {"multiprocessors", "Multiprocessors"},
    {"clock_khz", "Clock rate"},
    {"memory_clock_khz", "Memory clock rate"},
    {"memory_total_bytes", "Memory total"},
    {"memory_free_bytes", "Memory free"},
    {"max_threads_per_block", "Max threads per block"},
    {"max_teams", "Max teams (grid x)"},
    {"warp_size", "Warp size"},
    {"driver_version", "Driver version"},
    {"dynamic_shared_memory_bytes", "Dynamic shared memory"},
    {"live_allocations", "Live allocations"},
    {"device_blocks", "Device blocks"},
    {"device_block_bytes", "Device blocks' memory"},
    {"pending_releases", "Released on queues, pending"},
    {"memory_pools_supported", "Memory pools supported"},
    {"memory_pool", "Memory pool"},
    {"memory_pool_held_bytes", "Memory pool holds"},
    // Every device of plugin-common (GenericDevice::describe).
    {"loaded_images", "Loaded images"},
    {"queues_created", "Queues created"},
    {"events_created", "Events created"},
    {"memory_manager_threshold_bytes", "Memory manager threshold"},
    {"cached_blocks", "Cached blocks"},
    {"cached_bytes", "Cached bytes"},
    {"pinned_ranges", "Pinned host ranges"},
    {"pinned_bytes", "Pinned host memory"},
};

constexpr size_t kValueColumn = 35;  // "    " + label + ':' padded to here

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() && S.substr(S.size() - Suffix.size()) == Suffix;
}

}  // namespace

std::string binarySize(uint64_t Bytes) {
  static constexpr const char *kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (Bytes < 1024) return {};
  double V = static_cast<double>(Bytes) / 1024;
  size_t Unit = 0;
  while (V >= 1024 && Unit + 1 < std::size(kUnits)) {
    V /= 1024;
    ++Unit;
  }
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f %s", V, kUnits[Unit]);
  return Buf;
}

std::string propertyLabel(std::string_view Key) {
  for (const Label &L : kLabels)
    if (L.Key == Key) return std::string(L.Text);
  std::string Text(Key);
  for (char &C : Text)
    if (C == '_') C = ' ';
  if (!Text.empty()) Text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(Text[0])));
  return Text;
}

bool isDecimalInteger(std::string_view Value) {
  std::string_view Digits = Value.starts_with('-') ? Value.substr(1) : Value;
  if (Digits.empty() || Digits.size() > 20) return false;
  if (Digits.size() > 1 && Digits[0] == '0') return false;
  if (Value.starts_with('-') && Digits == "0") return false;
  for (char C : Digits)
    if (C < '0' || C > '9') return false;
  return true;
}

std::string propertyDisplayValue(std::string_view Key, std::string_view Value) {
  std::string Shown(Value);
  if (Key == "peers") {
    if (Value.empty()) return "none";
    std::string List;
    for (char C : Value) List += C == ',' ? std::string(", ") : std::string(1, C);
    return List;
  }
  if (!isDecimalInteger(Value) || Value.starts_with('-')) return Shown;
  uint64_t N = std::strtoull(Shown.c_str(), nullptr, 10);
  if (endsWith(Key, "_bytes")) {
    std::string Size = binarySize(N);
    return Size.empty() ? Shown + " bytes" : Shown + " bytes (" + Size + ")";
  }
  if (endsWith(Key, "_khz")) {
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), " kHz (%" PRIu64 " MHz)", N / 1000);
    return Shown + Buf;
  }
  if (endsWith(Key, "_us")) return Shown + " us";
  return Shown;
}

std::string propertyLine(std::string_view Key, std::string_view Value) {
  std::string Line = "    " + propertyLabel(Key) + ":";
  Line.resize(std::max(Line.size() + 1, kValueColumn), ' ');
  return Line + propertyDisplayValue(Key, Value);
}

}  // namespace omptarget::props
