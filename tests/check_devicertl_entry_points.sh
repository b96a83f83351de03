#!/bin/sh
# Our nvptx device runtime defines every entry point LLVM 14's defines: what
# clang 14 calls from kernels, and what LLVM's OpenMPOpt adds calls to, both
# by name (__kmpc_*, omp_*, llvm_omp_*, __llvm_omp_*), plus the device
# environment global the plugins write; and, when EXTRAS is given, every
# entry point that file lists (ours beyond LLVM 14's, one per line, `#`
# comments).
#   check_devicertl_entry_points.sh OURS.bc LLVM14.bc LLVM_NM [EXTRAS]
set -eu
ours=$1 llvm=$2 nm=$3 extras=${4:-}
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
extra_note=""
if [ -n "$extras" ]; then
  sed -e 's/#.*//' -e 's/[[:space:]]//g' "$extras" | grep -v '^$' | sort -u > extras.syms
  missing=$(comm -23 extras.syms ours.syms)
  if [ -n "$missing" ]; then
    echo "entry points listed in $extras that our device runtime does not define:"
    echo "$missing"
    exit 1
  fi
  extra_note="; the $(wc -l < extras.syms) of $(basename "$extras") too"
fi
echo "ok: $(wc -l < ours.syms) entry points; all $(wc -l < llvm.syms) of LLVM 14's are defined$extra_note"
