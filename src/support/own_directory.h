// The directory of a loaded object (the executable or a shared library),
// with its trailing '/', found from an address inside it (dladdr). A
// library passes the address of one of its own functions to find the files
// installed beside it: the core its plugins, the MPI plugin its transport.
// Empty when the address is in no loaded object. No state; thread safe.
#pragma once

#include <string>

namespace omptarget {

std::string directoryOf(const void *AddressInObject);

}  // namespace omptarget
