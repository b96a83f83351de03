#include "memory_library.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace omptarget::host {

namespace {
Status writeAll(int Fd, std::span<const std::byte> Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(Fd, Data.data(), Data.size());
    if (N < 0 && errno == EINTR) continue;
    if (N <= 0) return makeError("cannot write the image to a memfd: %s", std::strerror(errno));
    Data = Data.subspan(static_cast<size_t>(N));
  }
  return {};
}
}  // namespace

Expected<std::unique_ptr<MemoryLibrary>> MemoryLibrary::load(std::span<const std::byte> Image,
                                                             const std::string &Tag) {
  int Fd = ::memfd_create(Tag.c_str(), MFD_CLOEXEC);
  if (Fd < 0) return makeError("memfd_create failed: %s", std::strerror(errno));
  if (Status S = writeAll(Fd, Image); !S) {
    ::close(Fd);
    return S.takeError();
  }
  std::string Path = "/proc/self/fd/" + std::to_string(Fd);
  ::dlerror();
  void *Handle = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = ::dlerror();
    ::close(Fd);
    return makeError("dlopen of the image (%zu bytes) failed: %s", Image.size(),
                     Why ? Why : "unknown error");
  }
  struct link_map *Map = nullptr;
  if (::dlinfo(Handle, RTLD_DI_LINKMAP, &Map) != 0 || !Map) {
    const char *Why = ::dlerror();
    ::dlclose(Handle);
    ::close(Fd);
    return makeError("dlinfo of the loaded image failed: %s", Why ? Why : "no link map");
  }
  return std::make_unique<MemoryLibrary>(Key{}, Fd, Handle, static_cast<uintptr_t>(Map->l_addr));
}

MemoryLibrary::~MemoryLibrary() {
  ::dlclose(Handle_);
  ::close(Fd_);
}

Expected<void *> MemoryLibrary::symbol(const char *Name) const {
  ::dlerror();
  void *Addr = ::dlsym(Handle_, Name);
  if (!Addr) {
    const char *Why = ::dlerror();
    return makeError("symbol not found in the image (%s)", Why ? Why : "null address");
  }
  return Addr;
}

}  // namespace omptarget::host
