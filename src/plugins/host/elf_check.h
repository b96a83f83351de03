// Recognises the images the host plugin can run: x86_64 ELF shared objects.
#pragma once

#include <cstddef>
#include <span>

namespace omptarget::host {

// True for a little-endian ELF64 ET_DYN image for EM_X86_64 whose program
// header table lies inside the image. Any input is safe (short, garbage).
bool isX86_64SharedObject(std::span<const std::byte> Image);

}  // namespace omptarget::host
