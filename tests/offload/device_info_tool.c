// LLVM's device listing, llvm-omp-device-info (LLVM 14's binary, which calls
// __tgt_register_lib with an empty descriptor, __tgt_init_all_rtls,
// omp_get_num_devices and __tgt_print_device_info), lists every device of
// every plugin on every mix of cores and plugins: the host plugin's four
// devices, each started without an image. LLVM 14's host plugin has no
// print_device_info; device_info_tool_plugin.c checks what ours prints.
// (This file only carries the RUN lines: the program is LLVM's.)
// LLVM 14's program is not instrumented, and TSan's runtime cannot be
// preloaded into it (under ASan, lit.cfg.py's %uninstrumented preloads ASan's).
// UNSUPPORTED: tsan
// LLVM 19's runtime starts its plugins only for a registered image: the tool
// (an empty descriptor) gets no device and prints nothing (so does LLVM 19's
// own llvm-omp-device-info-19 on it).
// XFAIL: runtime-llvm19
// RUN: %run %uninstrumented %llvm14_bin/llvm-omp-device-info 2>&1 | %fcheck
// CHECK: Device (0):
// CHECK-NEXT: {{^Device 0 \(x86_64 plugin\):$|print_device_info not implemented}}
// CHECK: Device (3):
// CHECK-NEXT: {{^Device 3 \(x86_64 plugin\):$|print_device_info not implemented}}
// CHECK-NOT: Device (4):
// CHECK-NOT: error
int main(void) { return 0; }

// Not on remote devices (remote-mpi): it checks the listing of the program's own x86_64 devices.
// UNSUPPORTED: remote-mpi
