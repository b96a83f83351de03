#!/bin/sh
# Our nvptx device runtime defines every entry point LLVM 14's defines: what
# clang 14 calls from kernels, and what LLVM's OpenMPOpt adds calls to, both
# by name (__kmpc_*, omp_*, llvm_omp_*, __llvm_omp_*), plus the device
# environment global the plugins write.
#   check_devicertl_entry_points.sh OURS.bc LLVM14.bc LLVM_NM
set -eu
ours=$1 llvm=$2 nm=$3
list() {
  "$nm" --defined-only "$1" | awk '{print $NF}' |
    grep -E '^(__kmpc_|omp_|llvm_omp_|__llvm_omp_|omptarget_device_environment$)' | sort -u
}
list "$ours" > ours.syms
list "$llvm" > llvm.syms
[ -s llvm.syms ] || { echo "no entry points found in $llvm"; exit 1; }
missing=$(comm -23 llvm.syms ours.syms)
if [ -n "$missing" ]; then
  echo "entry points of LLVM 14's device runtime that ours does not define:"
  echo "$missing"
  exit 1
fi
echo "ok: $(wc -l < ours.syms) entry points; all $(wc -l < llvm.syms) of LLVM 14's are defined"
