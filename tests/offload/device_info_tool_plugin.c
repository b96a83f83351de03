// llvm-omp-device-info with our host plugin, under our core or LLVM 14's:
// each device is started for the listing (with no image loaded) and
// described by print_device_info: the properties of device_properties
// (GenericDevice::describe) with their labels, and the listing reports no
// error.
// (This file only carries the RUN lines: the program is LLVM's.)
// REQUIRES: omptarget-plugin
// LLVM 14's program is not instrumented, and TSan's runtime cannot be
// preloaded into it (under ASan, lit.cfg.py's %uninstrumented preloads ASan's).
// UNSUPPORTED: tsan
// RUN: %run %uninstrumented %llvm14_bin/llvm-omp-device-info 2>&1 | %fcheck
// CHECK: Device (0):
// CHECK-NEXT: Device 0 (x86_64 plugin):
// CHECK-NEXT: Name: {{ *[^ ].*}}
// CHECK-NEXT: Device type: {{ *}}host (x86_64), runs offloaded code on the CPU
// CHECK-NEXT: Queue mode: {{ *}}{{synchronous|asynchronous}}
// CHECK: Memory total: {{ *[1-9][0-9]* bytes}}
// CHECK: Loaded images: {{ *}}0
// CHECK: Memory manager threshold: {{ *}}8192 bytes (8.0 KiB)
// CHECK: Pinned host ranges: {{ *}}0
// CHECK: Device (3):
// CHECK-NEXT: Device 3 (x86_64 plugin):
// CHECK-NOT: Device (4):
// CHECK-NOT: error
int main(void) { return 0; }
