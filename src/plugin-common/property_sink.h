// PropertySink: where GenericDevice::describe writes a device's properties,
// one add() per property in display order: a stable snake_case key (the
// labels are in support/device_properties.h) and the value as text. Behind
// device_properties (a sink that calls the core's function) and
// print_device_info (a sink that prints labelled lines).
//
// Integers are written in decimal (add(Key, N)); yes/no and on/off answers
// through addYesNo / addOnOff, so every device spells them alike.
// A sink is used by one thread at a time.
#pragma once

#include <concepts>
#include <string>

namespace omptarget::plugin {

class PropertySink {
 public:
  virtual void add(const char *Key, const std::string &Value) = 0;
  void add(const char *Key, const char *Value) { add(Key, std::string(Value)); }
  template <std::integral T>
  requires(!std::same_as<T, bool>) void add(const char *Key, T Value) {
    add(Key, std::to_string(Value));
  }
  void addYesNo(const char *Key, bool Value) { add(Key, Value ? "yes" : "no"); }
  void addOnOff(const char *Key, bool Value) { add(Key, Value ? "on" : "off"); }

 protected:
  ~PropertySink() = default;
};

}  // namespace omptarget::plugin
