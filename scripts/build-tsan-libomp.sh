#!/bin/sh
# Builds the libomp 14 that the offload programs load under ThreadSanitizer
# (scripts/test.sh, before the TSan tree; lit.cfg.py puts DIR/lib first on
# the programs' library path in that tree). Usage: build-tsan-libomp.sh DIR.
#
# The sources are Debian's, of the installed libomp5-14 (apt-get source
# --download-only; a deb-src entry for the system's Debian release is added
# to apt's sources if none gives them), with tests/sanitizers/libomp-malloc.patch
# applied: libomp's task memory goes through malloc/free, which TSan sees,
# instead of libomp's own free lists, which it does not (the patch says why).
# Built with clang 14, not instrumented, in about 40 s on two cores; DIR
# keeps the result, and a rebuild happens only when the version or the patch
# changes. Prints DIR/lib, which holds libomp.so.5.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: build-tsan-libomp.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
patch_file="$root/tests/sanitizers/libomp-malloc.patch"
pkg=$(dpkg-query -W -f='${source:Package}' libomp5-14)
ver=$(dpkg-query -W -f='${source:Version}' libomp5-14)
stamp="$pkg $ver $(sha256sum "$patch_file" | cut -d' ' -f1)"
if [ -f "$dir/lib/libomp.so.5" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "$dir/lib"; exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! apt-cache showsrc "$pkg" 2>/dev/null | grep -q "^Version: $ver\$"; then
  # shellcheck disable=SC1091
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  echo "adding a deb-src entry for Debian $codename (the sources of $pkg $ver)" >&2
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$codename" | $SUDO tee /etc/apt/sources.list.d/omptarget-deb-src.sources >/dev/null
  $SUDO apt-get update -qq
fi
rm -rf "$dir/download" "$dir/src" "$dir/build" "$dir/lib" "$dir/stamp"
mkdir -p "$dir/download" "$dir/src"
(cd "$dir/download" && apt-get source --download-only -qq "$pkg=$ver" >&2)
orig=$(ls "$dir"/download/*.orig.tar.*)
# Only the OpenMP part of the LLVM tree (and its CMake modules).
tar -xf "$orig" -C "$dir/src" --strip-components=1 --wildcards '*/openmp/*' '*/cmake/*'
patch -d "$dir/src" -p1 -s < "$patch_file"
cmake -S "$dir/src/openmp" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS=-DUSE_FAST_MEMORY=0 \
  -DOPENMP_ENABLE_LIBOMPTARGET=OFF -DLIBOMP_OMPD_SUPPORT=OFF \
  -DOPENMP_ENABLE_OMPT_TOOLS=OFF -DLIBOMP_USE_HWLOC=OFF >/dev/null
cmake --build "$dir/build" -j "${JOBS:-2}" --target omp >/dev/null
mkdir -p "$dir/lib"
# Programs built by clang 14 on Debian ask for libomp.so.5.
cp "$dir/build/runtime/src/libomp.so" "$dir/lib/libomp.so.5"
rm -rf "$dir/download" "$dir/src"
echo "$stamp" > "$dir/stamp"
echo "$dir/lib"
