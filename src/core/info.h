// LIBOMPTARGET_INFO output in LLVM 14's style ("Libomptarget device N info:"),
// source locations from clang's ident_t, and variable names and declaration
// places from map names. The mapping-table dump is in table_dump.h.
#pragma once

#include <cstdint>
#include <string>

#include "env.h"

#include "omptarget/abi.h"

namespace omptarget::core {

namespace info {

namespace detail {
extern env::CachedInt Level;
}  // namespace detail

// Flags from LIBOMPTARGET_INFO, read once (asked several times per construct).
// A negative value (-1: everything) stands for its 32-bit pattern.
inline uint32_t level() { return env::flagsFromInt(detail::Level.get()); }
void setLevel(uint32_t Flags);
inline bool enabled(uint32_t Kind) { return (level() & Kind) != 0; }

// "Libomptarget device <Id> info: <text>" on stderr.
void print(int32_t DeviceId, const char *Format, ...) __attribute__((format(printf, 2, 3)));

// Where a construct is, or where a mapped variable was declared. File is the
// file's base name, which LLVM 14 prints in every message ("prog.c:6:1");
// Path is the whole path clang recorded (as it was given on clang's command
// line), which the profile keeps.
struct SourceLocation {
  std::string File = "unknown";
  std::string Path = "unknown";
  std::string Function = "unknown";
  int Line = 0;
  int Column = 0;
  bool Known = false;
};
SourceLocation location(const ident_t *Loc);
// The variable name recorded in a map name (";name;file;line;col;;"), or "unknown".
std::string varName(map_var_info_t Name);
// Where that variable was declared (File, Path, Line, Column; the other fields
// keep their defaults), or "unknown" and 0s.
SourceLocation declaration(map_var_info_t Name);

// Arguments of a construct ("Entering OpenMP kernel at f.c:3:1 with 2 arguments:").
void printArguments(const ident_t *Loc, int32_t DeviceId, const char *RegionType, int32_t Num,
                    int64_t *Sizes, int64_t *Types, map_var_info_t *Names);

}  // namespace info
}  // namespace omptarget::core
