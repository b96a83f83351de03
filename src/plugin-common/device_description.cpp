// GenericDevice::describe and printInfo: the one route of a device's
// properties. describe writes them to a sink (device_properties hands them
// to the core); printInfo prints the same list with the labels of
// support/device_properties.h (print_device_info). Both may run while the
// device is used: every value read here locks itself or is a snapshot.
#include <cstdio>

#include "device_properties.h"
#include "generic_device.h"

namespace omptarget::plugin {

namespace {
// Prints each property as it comes (print_device_info).
class PrintingSink final : public PropertySink {
 public:
  using PropertySink::add;
  void add(const char *Key, const std::string &Value) override {
    std::printf("%s\n", props::propertyLine(Key, Value).c_str());
  }
};
}  // namespace

void GenericDevice::describe(PropertySink &Sink) {
  describeImpl(Sink);
  Sink.add("loaded_images", numImages());
  Sink.add("queues_created", QueuePool_.numCreated());
  Sink.add("events_created", EventPool_.numCreated());
  Sink.add("memory_manager_threshold_bytes", MemoryManager_.threshold());
  Sink.add("cached_blocks", MemoryManager_.numCached());
  Sink.add("cached_bytes", MemoryManager_.cachedBytes());
  size_t PinnedBytes = 0;
  std::vector<PinnedMap::EntryInfo> Pinned = Pinned_.snapshot();
  for (const PinnedMap::EntryInfo &E : Pinned) PinnedBytes += E.Range.Size;
  Sink.add("pinned_ranges", Pinned.size());
  Sink.add("pinned_bytes", PinnedBytes);
}

void GenericDevice::printInfo() {
  PrintingSink Printer;
  describe(Printer);
  std::fflush(stdout);
}

}  // namespace omptarget::plugin
