// FUZZ_CHECK(condition): what a fuzz target asserts. A failure prints the
// condition and aborts, which libFuzzer reports as a crash and saves the
// input for.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(Cond)                                                                  \
  do {                                                                                    \
    if (!(Cond)) {                                                                        \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #Cond); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)
