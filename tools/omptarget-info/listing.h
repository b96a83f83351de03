// What omptarget-info prints, from the properties of every device
// (omptarget_get_device_properties, collected by main.cpp): a human listing
// grouped per device with the peer-access matrix at the end, or one JSON
// document
//   {"offload_disabled":false,
//    "devices":[{"device_num":0,"plugin":"x86_64",...},...],
//    "peer_access":[[null,true,...],...]}
// where every value is a string but those that are decimal integers
// (props::isDecimalInteger), which are JSON numbers, and `peers`, an array
// of device numbers (one peer must not read as a number); peer_access[i][j] is
// true when device i copies to device j directly (j is in i's `peers`),
// null on the diagonal. A device that could not be described carries
// "error" (its message went to stderr) and whatever it reported before.
//
// Pure functions of their arguments (unit tested in
// tests/unit/info_listing_test.cpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace omptarget::info {

struct DeviceProperties {
  int DeviceNum = 0;
  std::vector<std::pair<std::string, std::string>> Props;  // in the order reported
  bool Described = true;  // omptarget_get_device_properties returned 0

  // The value of Key, or nullptr.
  const std::string *find(std::string_view Key) const;
};

// A JSON string literal: quoted, with '"', '\\' and control characters
// escaped (\n, \t, ... or \u00XX); other bytes (UTF-8) as they are.
std::string jsonString(std::string_view Text);
// Value as a JSON number when it is a decimal integer, else as a string.
std::string jsonValue(std::string_view Value);

// The device numbers of a `peers` value ("1,2,3"; "" is none); pieces that
// are no non-negative number are skipped.
std::vector<int> parsePeers(std::string_view Peers);

// Matrix[i][j] for the devices in Devices' order: 1 when device j's number
// is among device i's peers, 0 when not, -1 on the diagonal.
std::vector<std::vector<int>> peerMatrix(const std::vector<DeviceProperties> &Devices);

// The human listing: a summary line, each device's labelled properties,
// then the peer-access matrix (when there are at least two devices).
std::string humanListing(const std::vector<DeviceProperties> &Devices);
// The JSON document, ending in a newline.
std::string jsonListing(const std::vector<DeviceProperties> &Devices, bool OffloadDisabled);
// What the human listing says when OMP_TARGET_OFFLOAD=disabled.
std::string disabledListing();

}  // namespace omptarget::info
