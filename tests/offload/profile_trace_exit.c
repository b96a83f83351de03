// The profile file is complete, strict JSON, when the program leaves through
// exit() with data still mapped, and when a fatal offload error (a mapping
// whose device memory cannot be allocated) aborts it: the spans before are in
// it; the construct that failed, still open, is not. (exit() while a nowait
// region has not started yet is not tested here: the runtime's library
// destructor can then run under the region's helper thread, a shutdown race
// of its own.)
// REQUIRES: omptarget-core
// RUN: %clang-offload -gline-tables-only %s -o %t
// RUN: rm -f %t.exit.json %t.fatal.json
// RUN: %run env LIBOMPTARGET_PROFILE=%t.exit.json sh -c '%t exit; test $? = 3'
// RUN: %check_profile spans %t.exit.json | %fcheck --check-prefixes=EXIT,EXIT-%cc
// RUN: %run env LIBOMPTARGET_PROFILE=%t.fatal.json not --crash %t fatal 2>&1 | %fcheck --check-prefix=FATAL
// RUN: %check_profile spans %t.fatal.json | %fcheck --check-prefixes=FATALSPANS,FATALSPANS-%cc
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int x = 1, y = 0;
#pragma omp target map(tofrom : x) // line 21
  x += 1;
  if (argc > 1 && !strcmp(argv[1], "exit")) {
#pragma omp target enter data map(to : x) map(alloc : y) // line 24
    exit(3);
  }
  char *h = malloc(16);
  const size_t huge = (size_t)1 << 46;  // 64 TiB: more than any machine has
#pragma omp target enter data map(alloc : h[0:huge]) // line 29
  printf("not reached %p\n", (void *)h);
  return 0;
}

// Span names follow the entry point the program called ("target teams",
// "target"; every clang 19 region calls __tgt_target_kernel: "target
// kernel"), hence the C14/C19 lines.
// EXIT-C14: span 1 target loc={{.*}}profile_trace_exit.c:21:1 device=0
// EXIT-C19: span 1 target kernel loc={{.*}}profile_trace_exit.c:21:1 device=0
// EXIT: span 1 target data begin loc={{.*}}profile_trace_exit.c:24:1 device=0
// EXIT: profile ok: 2 spans on 1 host threads

// FATAL: fatal error
// FATALSPANS-C14: span 1 target loc={{.*}}profile_trace_exit.c:21:1 device=0
// FATALSPANS-C19: span 1 target kernel loc={{.*}}profile_trace_exit.c:21:1 device=0
// FATALSPANS-NOT: target data begin
// FATALSPANS: profile ok: 1 spans on 1 host threads

// Not on remote devices (remote-mpi): its fatal case runs `not --crash` inside the rank, which then
// ends normally while its device server waits.
// UNSUPPORTED: remote-mpi
