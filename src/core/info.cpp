#include "info.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "env.h"
#include "error.h"

namespace omptarget::core::info {

namespace detail {
// env::getFlags's range: a negative value stands for its 32-bit pattern.
constinit env::CachedInt Level("LIBOMPTARGET_INFO", 0, env::kFlagsMin, env::kFlagsMax);
}  // namespace detail

namespace {

std::vector<std::string> split(const std::string &Text) {
  std::vector<std::string> Fields;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find(';', Start);
    if (End == std::string::npos) End = Text.size();
    Fields.push_back(Text.substr(Start, End - Start));
    Start = End + 1;
  }
  return Fields;
}

// What follows the last '/' of a path, as LLVM 14's SourceInfo::removePath
// takes it.
std::string baseName(const std::string &Path) { return Path.substr(Path.find_last_of('/') + 1); }
}  // namespace

void setLevel(uint32_t Flags) { detail::Level.set(Flags); }

void print(int32_t DeviceId, const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  std::string Line = formatString("Libomptarget device %d info: ", DeviceId);
  Line += formatStringV(Format, Args);
  va_end(Args);
  if (Line.back() != '\n') Line += '\n';
  std::fputs(Line.c_str(), stderr);
}

SourceLocation location(const ident_t *Loc) {
  SourceLocation Result;
  if (!Loc || !Loc->psource) return Result;
  // ";file;function;line;column;;"
  std::vector<std::string> F = split(Loc->psource);
  if (F.size() < 5) return Result;
  Result.Path = F[1];
  Result.File = baseName(F[1]);
  Result.Function = F[2];
  Result.Line = std::atoi(F[3].c_str());
  Result.Column = std::atoi(F[4].c_str());
  Result.Known = Result.File != "unknown" && Result.Line > 0;
  return Result;
}

std::string varName(map_var_info_t Name) {
  if (!Name) return "unknown";
  std::vector<std::string> F = split(static_cast<const char *>(Name));
  return F.size() > 1 && !F[1].empty() ? F[1] : "unknown";
}

SourceLocation declaration(map_var_info_t Name) {
  SourceLocation Result;
  if (!Name) return Result;
  std::vector<std::string> F = split(static_cast<const char *>(Name));
  if (F.size() > 4) {
    Result.Path = F[2];
    Result.File = baseName(F[2]);
    Result.Line = std::atoi(F[3].c_str());
    Result.Column = std::atoi(F[4].c_str());
  }
  return Result;
}

void printArguments(const ident_t *Loc, int32_t DeviceId, const char *RegionType, int32_t Num,
                    int64_t *Sizes, int64_t *Types, map_var_info_t *Names) {
  SourceLocation L = location(Loc);
  print(DeviceId, "%s at %s:%d:%d with %d arguments:", RegionType, L.File.c_str(), L.Line, L.Column,
        Num);
  for (int32_t I = 0; I < Num; ++I) {
    int64_t T = Types[I];
    const char *Kind;
    if ((T & abi::kMapTo) && (T & abi::kMapFrom))
      Kind = "tofrom";
    else if (T & abi::kMapTo)
      Kind = "to";
    else if (T & abi::kMapFrom)
      Kind = "from";
    else if (T & abi::kMapPrivate)
      Kind = "private";
    else if (T & abi::kMapLiteral)
      Kind = "firstprivate";
    else if (Sizes[I] != 0)
      Kind = "alloc";
    else
      Kind = "use_address";
    print(DeviceId, "%s(%s)[%" PRId64 "] %s", Kind, varName(Names ? Names[I] : nullptr).c_str(),
          Sizes[I], (T & abi::kMapImplicit) ? "(implicit)" : "");
  }
}

}  // namespace omptarget::core::info
