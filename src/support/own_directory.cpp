#include "own_directory.h"

#include <dlfcn.h>

namespace omptarget {

std::string directoryOf(const void *AddressInObject) {
  Dl_info Info;
  if (!dladdr(AddressInObject, &Info) || !Info.dli_fname) return {};
  const std::string Path = Info.dli_fname;
  const size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? std::string() : Path.substr(0, Slash + 1);
}

}  // namespace omptarget
