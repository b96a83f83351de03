#!/bin/sh
# Fetches LLVM 19's OpenMP runtime (Debian's libomp5-19 and libomp-19-dev)
# into a build-local prefix, without installing it:
#   fetch-llvm19-runtime.sh [PREFIX]     (default ${BUILD_DIR:-build}/llvm19-runtime)
# and prints the lib directory, PREFIX/usr/lib/llvm-19/lib.
#
# A comparison side only: the clang-19 test configurations run the same
# programs on LLVM 19's libomptarget.so.19.1 (runtime=llvm19) and compile
# against its omp.h and libomp.so; nothing of our runtime uses it.
#
# Why not apt-get install: libomp5-19 and libomp-19-dev conflict with LLVM
# 14's libomp5-14/libomp-14-dev (installing one removes the other), and our
# runtime is checked against LLVM 14's. So the packages are taken with
# `apt-get download` (the version apt offers, pinned for both) in a
# temporary directory and unpacked with `dpkg-deb -x`. The prefix then holds
# usr/lib/llvm-19/lib/{libomptarget.so.19.1 (its plugins built in),
# libomp.so.5, libomp.so, libomptarget.devicertl.a, libomptarget-nvptx-*.bc}
# and usr/lib/llvm-19/lib/clang/19/include/omp.h. libomptarget.so.19.1 needs
# libLLVM.so.19.1 (package libllvm19, which clang-19 depends on).
#
# Idempotent: a prefix that is complete (its stamp file .fetched names the
# version, and the files above exist) is left as it is, without asking apt.
# Runs as a user (apt-get download needs no root) or as root without sudo;
# only when apt knows no version of the packages (no package lists yet) does
# it run `apt-get update`, through sudo unless root.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-${BUILD_DIR:-$root/build}/llvm19-runtime}
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
lib=$prefix/usr/lib/llvm-19/lib
stamp=$prefix/.fetched
PACKAGES="libomp5-19 libomp-19-dev"

complete() {
  [ -f "$stamp" ] && [ -f "$lib/libomptarget.so.19.1" ] && [ -e "$lib/libomp.so.5" ] &&
    [ -f "$lib/clang/19/include/omp.h" ] && [ -f "$lib/libomptarget.devicertl.a" ]
}
if complete; then
  echo "$lib"
  exit 0
fi

candidate() {  # PACKAGE -> the version apt would install, or nothing
  apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '^(none)$' || true
}
version=$(candidate libomp5-19)
if [ -z "$version" ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "fetch-llvm19-runtime.sh: apt knows no libomp5-19; running apt-get update" >&2
  $SUDO apt-get update -qq >&2
  version=$(candidate libomp5-19)
fi
[ -n "$version" ] || { echo "fetch-llvm19-runtime.sh: apt offers no libomp5-19" >&2; exit 1; }
dev_version=$(candidate libomp-19-dev)
[ "$dev_version" = "$version" ] || {
  echo "fetch-llvm19-runtime.sh: libomp5-19 $version and libomp-19-dev ${dev_version:-(none)} differ" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llvm19-runtime.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# As root, apt-get download drops to the user _apt, which must be able to
# write here (mktemp's mode is 0700).
chmod 0755 "$tmp"
[ "$(id -u)" -ne 0 ] || chown _apt "$tmp" 2>/dev/null || true
(cd "$tmp" && apt-get download -qq libomp5-19="$version" libomp-19-dev="$version" >&2)
rm -rf "$prefix"
mkdir -p "$prefix"
for deb in "$tmp"/*.deb; do
  dpkg-deb -x "$deb" "$prefix"
done
complete_files_ok=1
for f in libomptarget.so.19.1 libomp.so.5 clang/19/include/omp.h libomptarget.devicertl.a; do
  [ -e "$lib/$f" ] || { echo "fetch-llvm19-runtime.sh: $lib/$f missing after unpacking" >&2; complete_files_ok=0; }
done
[ $complete_files_ok = 1 ] || exit 1
echo "$version" > "$stamp"
echo "$lib"
