// A shared object loaded from memory, leaving no file behind.
//
// The image is written to an anonymous memfd and dlopen'ed through
// /proc/self/fd/N. The fd stays open as long as the library is loaded: glibc
// recognises already-loaded libraries by path, so if the fd number were
// reused by a later image (another device loading the same program), that
// dlopen would silently return the first copy and the devices would share
// their globals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "error.h"

namespace omptarget::host {

class MemoryLibrary {
 public:
  // Tag names the memfd (visible in /proc/self/fd for debugging).
  static Expected<std::unique_ptr<MemoryLibrary>> load(std::span<const std::byte> Image,
                                                       const std::string &Tag);
  ~MemoryLibrary();
  MemoryLibrary(const MemoryLibrary &) = delete;
  MemoryLibrary &operator=(const MemoryLibrary &) = delete;

  // Address of a dynamic symbol of this library only (dlsym: not for
  // symbols of internal linkage).
  Expected<void *> symbol(const char *Name) const;
  // The difference between the library's addresses in memory and in its
  // ELF file (link_map::l_addr): an image's p_vaddr/sh_addr plus this is
  // where that byte was loaded.
  uintptr_t loadBase() const { return Base_; }

 private:
  struct Key {};  // only load() constructs

 public:
  MemoryLibrary(Key, int Fd, void *Handle, uintptr_t Base)
      : Fd_(Fd), Handle_(Handle), Base_(Base) {}

 private:
  int Fd_;
  void *Handle_;
  uintptr_t Base_;
};

}  // namespace omptarget::host
