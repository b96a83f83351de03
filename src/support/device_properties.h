// Device properties for people: the one table of human labels for the
// stable keys that plugins report through device_properties
// (plugin_abi.h) and the core adds (omptarget_get_device_properties), and
// the line a listing prints for one property. print_device_info
// (plugin-common) and omptarget-info both print through propertyLine, so
// they read the same.
//
// A key the table does not know still prints: its label is the key with
// '_' read as ' ' and the first letter in upper case. Values are shown as
// given except for units the key names: `_bytes` (a size: "17179869184
// (16.0 GiB)"), `_khz` ("1980000 kHz (1980 MHz)"), `_us` ("50 us"), and
// `peers` ("1, 2, 3"; empty: "none").
//
// Pure functions, no state: safe from any thread.
#pragma once

#include <string>
#include <string_view>

namespace omptarget::props {

// The label of Key: "memory_total_bytes" -> "Memory total".
std::string propertyLabel(std::string_view Key);

// Value as a listing shows it (units, see above).
std::string propertyDisplayValue(std::string_view Key, std::string_view Value);

// "    <label>:" padded to column 35, then the display value, no newline
// (the layout of LLVM 14's CUDA plugin listing).
std::string propertyLine(std::string_view Key, std::string_view Value);

// Whether Value is a decimal integer as the plugins write one: an optional
// '-', then digits without a leading zero (but "0"), at most 20 of them (any
// int64_t or uint64_t).
bool isDecimalInteger(std::string_view Value);

// "16.0 GiB" for a size of at least 1 KiB, else "" (listings and the
// profile write sizes this way).
std::string binarySize(uint64_t Bytes);

}  // namespace omptarget::props
