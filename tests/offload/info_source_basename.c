// Source locations in messages are the file's base name, as LLVM 14 prints
// them, however clang was given the file: by an absolute path (lit's %s) or
// by a relative path with directories (sub/dir/...). Checked in every line
// that prints one: the arguments of a construct (LIBOMPTARGET_INFO 0x1), the
// mapping table after a construct and its Declaration column (0x4), and the
// location before the fatal error of a failed construct (a 'present' map of
// data that is not mapped). Each check starts right after "at " or at the
// start of the line, so a directory in front of the name fails it. Our core
// prints LLVM 14's lines; LLVM 19 prints other lines with the same base
// names (INFO-OURS/INFO-LLVM lines against INFO-LLVM19 lines).
// RUN: %clang-offload -fopenmp-version=51 %s -o %t.abs
// RUN: rm -rf %t.d && mkdir -p %t.d/sub/dir && cp %s %t.d/sub/dir/info_source_basename.c
// RUN: cd %t.d && %clang-offload -fopenmp-version=51 sub/dir/info_source_basename.c -o %t.rel
// RUN: %run env LIBOMPTARGET_INFO=-1 %t.abs 2>&1 | %fcheck --check-prefixes=INFO,INFO-%core
// RUN: %run env LIBOMPTARGET_INFO=-1 %t.rel 2>&1 | %fcheck --check-prefixes=INFO,INFO-%core
// RUN: not --crash %run %t.abs present 2>&1 | %fcheck --check-prefixes=FATAL-%core
// RUN: not --crash %run %t.rel present 2>&1 | %fcheck --check-prefixes=FATAL-%core
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  setbuf(stdout, NULL);
  int x = 1;
  int arr[4] = {0, 0, 0, 0};
  if (argc > 1 && !strcmp(argv[1], "present")) {
    // FATAL-OURS: Libomptarget message: device mapping required by 'present' map type modifier does not exist
    // FATAL-OURS: {{^}}info_source_basename.c:[[@LINE+5]]:1: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
    // FATAL-LLVM: Libomptarget message: device mapping required by 'present' map type modifier does not exist
    // FATAL-LLVM: {{^}}info_source_basename.c:[[@LINE+3]]:1: Libomptarget fatal error 1: failure of target construct while offloading is mandatory
    // FATAL-LLVM19: omptarget message: device mapping required by 'present' map type modifier does not exist
    // FATAL-LLVM19: {{^}}info_source_basename.c:[[@LINE+1]]:1: omptarget fatal error 1: failure of target construct while offloading is mandatory
#pragma omp target map(present, to : arr)
    arr[0] = 1;
  }
  // INFO-OURS: Libomptarget device 0 info: Entering OpenMP data region at info_source_basename.c:[[@LINE+12]]:1 with 1 arguments:
  // INFO-OURS: Libomptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+11]]:1:
  // INFO-OURS-NEXT: Libomptarget device 0 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // INFO-OURS-NEXT: Libomptarget device 0 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 4 {{ *}}1 {{ *}}0 {{ *}}x at info_source_basename.c:23:7
  // INFO-LLVM: Libomptarget device 0 info: Entering OpenMP data region at info_source_basename.c:[[@LINE+8]]:1 with 1 arguments:
  // INFO-LLVM: Libomptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+7]]:1:
  // INFO-LLVM-NEXT: Libomptarget device 0 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // INFO-LLVM-NEXT: Libomptarget device 0 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 4 {{ *}}1 {{ *}}0 {{ *}}x at info_source_basename.c:23:7
  // INFO-LLVM19: omptarget device 0 info: Entering OpenMP data region with being_mapper at info_source_basename.c:[[@LINE+4]]:1 with 1 arguments:
  // INFO-LLVM19: omptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+3]]:1:
  // INFO-LLVM19-NEXT: omptarget device 0 info: Host Ptr           Target Ptr         Size (B) DynRefCount HoldRefCount Declaration
  // INFO-LLVM19-NEXT: omptarget device 0 info: 0x{{[0-9a-f]+}} 0x{{[0-9a-f]+}} 4 {{ *}}1 {{ *}}0 {{ *}}x at info_source_basename.c:23:7
#pragma omp target data map(tofrom : x)
  {
    // INFO-OURS: Libomptarget device 0 info: Entering OpenMP kernel at info_source_basename.c:[[@LINE+6]]:1 with 2 arguments:
    // INFO-OURS: Libomptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+5]]:1:
    // INFO-LLVM: Libomptarget device 0 info: Entering OpenMP kernel at info_source_basename.c:[[@LINE+4]]:1 with 2 arguments:
    // INFO-LLVM: Libomptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+3]]:1:
    // INFO-LLVM19: omptarget device 0 info: Entering OpenMP kernel at info_source_basename.c:[[@LINE+2]]:1 with 2 arguments:
    // INFO-LLVM19: omptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+1]]:1:
#pragma omp target map(tofrom : x, arr)
    x += 1;
    // INFO-OURS: Libomptarget device 0 info: Updating OpenMP data at info_source_basename.c:[[@LINE+6]]:1 with 1 arguments:
    // INFO-OURS: Libomptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+5]]:1:
    // INFO-LLVM: Libomptarget device 0 info: Updating OpenMP data at info_source_basename.c:[[@LINE+4]]:1 with 1 arguments:
    // INFO-LLVM: Libomptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+3]]:1:
    // INFO-LLVM19: omptarget device 0 info: Updating data within the OpenMP data region with update_mapper at info_source_basename.c:[[@LINE+2]]:1 with 1 arguments:
    // INFO-LLVM19: omptarget device 0 info: OpenMP Host-Device pointer mappings after block at info_source_basename.c:[[@LINE+1]]:1:
#pragma omp target update from(x)
  }
  // INFO-OURS: Libomptarget device 0 info: Exiting OpenMP data region at info_source_basename.c:[[@LINE-18]]:1 with 1 arguments:
  // INFO-LLVM: Libomptarget device 0 info: Exiting OpenMP data region at info_source_basename.c:[[@LINE-19]]:1 with 1 arguments:
  // INFO-LLVM19: omptarget device 0 info: Exiting OpenMP data region with end_mapper at info_source_basename.c:[[@LINE-20]]:1 with 1 arguments:
  // INFO: x=2
  printf("x=%d\n", x);
  return 0;
}

// The GPU runner runs single commands, not this test's copy into sub/dir:
// GPU: skip
