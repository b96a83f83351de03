// llvm-omp-device-info with our host plugin, under our core or LLVM 14's:
// each device is started for the listing (with no image loaded) and
// described, and the listing reports no error.
// (This file only carries the RUN lines: the program is LLVM's.)
// REQUIRES: omptarget-plugin
// RUN: %run %llvm14_bin/llvm-omp-device-info 2>&1 | %fcheck
// CHECK: Device (0):
// CHECK-NEXT: Device 0 (x86_64 plugin):
// CHECK: Device number: {{ *}}0 of 4
// CHECK: Loaded images: {{ *}}0
// CHECK: Device type: {{ *}}host (x86_64)
// CHECK: Device (3):
// CHECK-NEXT: Device 3 (x86_64 plugin):
// CHECK-NOT: Device (4):
// CHECK-NOT: error
int main(void) { return 0; }
