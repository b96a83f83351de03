#!/bin/sh
# The installed package, as a user gets it: installs the build into a fresh
# prefix (cmake --install BUILD --prefix WORK/prefix), then with a clean
# environment (env -i: no LD_LIBRARY_PATH, no PKG_CONFIG_PATH of the caller)
#  - every library, plugin, header, tool and package file is there, nothing
#    of the tests is;
#  - the installed binaries carry no debug info, and .debug/<name>.debug
#    beside each holds it and is named by its .gnu_debuglink (when the build
#    splits it, OMPTARGET_SPLIT_DEBUG_INFO, and has debug info to split);
#  - examples/package configures and builds against the prefix with clang 14
#    (find_package(omptarget), host offloading), runs without
#    LD_LIBRARY_PATH on our libomptarget.so (its run path starts with the
#    prefix's lib/ and has no empty entry; ldd; the plugin loaded from the
#    prefix; omptarget_get_device_properties, which LLVM 14's lacks) and
#    prints its result, in the build tree and installed;
#  - pkg-config --cflags --libs omptarget gives the prefix's flags, and a
#    program compiled with them alone runs on our runtime too;
#  - bin/omptarget-info --json parses (the host plugin's 4 devices, found by
#    the installed core beside itself), bin/omptarget-profile finds its
#    Python package and summarizes a profile, and each tool's --help is a
#    manual page (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, ENVIRONMENT).
# Prints "install-package: ok", or the first failure and exits 1.
#
# Usage: install_package_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE GENERATOR
#                                MAKE_PROGRAM CLANG SPLIT_DEBUG_INFO LIBDIR
# (LIBDIR: the build's CMAKE_INSTALL_LIBDIR, relative to the prefix)
set -eu
[ $# -eq 9 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR CMAKE GENERATOR MAKE_PROGRAM CLANG SPLIT_DEBUG_INFO LIBDIR" >&2; exit 2; }
build=$1 src=$2 work=$3 cmake=$4 generator=$5 make_program=$6 clang=$7 split=$8 libdir=$9
prefix=$work/prefix
lib=$prefix/$libdir
fail() { echo "install-package: FAILED: $*" >&2; exit 1; }
# What a user's shell would have, nothing of the build's environment.
clean() { env -i PATH=/usr/bin:/bin HOME="$work" "$@"; }

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install $build --prefix $prefix"; }

# --- the files
for f in "$libdir/libomptarget.so" include/omptarget/omp_target_ext.h \
         bin/omptarget-info bin/omptarget-profile bin/omptarget-sm90-path \
         share/omptarget/python/omptarget_profile/__init__.py \
         share/omptarget/python/omptarget_profile/trace.py \
         share/omptarget/python/omptarget_profile/summary.py \
         share/omptarget/python/omptarget_profile/timeline.py \
         "$libdir/cmake/omptarget/omptargetConfig.cmake" "$libdir/cmake/omptarget/omptargetConfigVersion.cmake" \
         "$libdir/pkgconfig/omptarget.pc"; do
  [ -f "$prefix/$f" ] || fail "$f is not installed"
done
plugins=0
for f in "$build"/lib/libomptarget.rtl.*.so "$build"/lib/libomptarget-devicertl-nvptx.bc; do
  [ -f "$f" ] || continue
  [ -f "$lib/${f##*/}" ] || fail "$libdir/${f##*/} (built) is not installed"
  case $f in *.so) plugins=$((plugins + 1)) ;; esac
done
[ "$plugins" -ge 1 ] || fail "no plugin in $build/lib"
for f in "$lib"/*nvtx* "$lib"/*fake* "$prefix"/bin/*unit_tests*; do
  [ ! -e "$f" ] || fail "a test file is installed: $f"
done
for tool in omptarget-info omptarget-profile omptarget-sm90-path; do
  [ -x "$prefix/bin/$tool" ] || fail "bin/$tool is not executable"
done

# --- the debug info, split off
has_debug_info() { readelf -S -W "$1" 2>/dev/null | grep -q '[[:space:]]\.debug_info[[:space:]]'; }
if [ "$split" = ON ] && has_debug_info "$build/lib/libomptarget.so"; then
  for f in "$lib"/libomptarget.so "$lib"/libomptarget.rtl.*.so "$prefix"/bin/omptarget-info; do
    name=${f##*/} dbg=${f%/*}/.debug/${f##*/}.debug
    ! has_debug_info "$f" || fail "$f still has .debug_info"
    [ -f "$dbg" ] || fail "$dbg (its debug info) is missing"
    has_debug_info "$dbg" || fail "$dbg has no .debug_info"
    readelf --string-dump=.gnu_debuglink "$f" | grep -q "] *$name.debug$" ||
      fail "$f's .gnu_debuglink does not name $name.debug"
  done
  echo "libomptarget.so: $(wc -c < "$build/lib/libomptarget.so") bytes built," \
       "$(wc -c < "$lib/libomptarget.so") bytes installed," \
       "$(wc -c < "$lib/.debug/libomptarget.so.debug") bytes of debug info beside it"
else
  echo "no debug info split (OMPTARGET_SPLIT_DEBUG_INFO=$split or a build without debug info)"
fi

# --- examples/package against the prefix, with clang 14 (host offloading)
example=$work/example
clean "$cmake" -S "$src/examples/package" -B "$example" -G "$generator" \
  -DCMAKE_MAKE_PROGRAM="$make_program" -DCMAKE_C_COMPILER="$clang" \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/example-configure.log" 2>&1 ||
  { cat "$work/example-configure.log"; fail "examples/package does not configure"; }
clean "$cmake" --build "$example" > "$work/example-build.log" 2>&1 ||
  { cat "$work/example-build.log"; fail "examples/package does not build"; }
check_run() {  # WHAT PROGRAM: runs PROGRAM on our installed runtime
  # The run path: the prefix's lib/ first, no empty entry (the current
  # directory).
  runpath=$(readelf -d "$2" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p')
  case $runpath in
    "$lib:"*) ;;
    *) fail "$1: run path '$runpath' does not start with $lib" ;;
  esac
  case ":$runpath:" in *::*) fail "$1: run path '$runpath' has an empty entry" ;; esac
  loaded=$(clean ldd "$2" | awk '$1 == "libomptarget.so" {print $3}')
  [ "$loaded" = "$lib/libomptarget.so" ] ||
    fail "$1 loads libomptarget.so from '$loaded', not from $lib"
  if ! out=$(clean LIBOMPTARGET_DEBUG=1 "$2" 2> "$work/run.err"); then
    tail -20 "$work/run.err"; fail "$1 failed: $out"
  fi
  echo "$out" | grep -Eq '^vector_add: 1048576 elements on device 0 \(x86_64 plugin, .+\): ok$' ||
    fail "$1 printed '$out'"
  grep -q "Loaded plugin $lib/libomptarget.rtl.x86_64.so " "$work/run.err" ||
    { grep -i plugin "$work/run.err"; fail "$1 did not load the host plugin from $lib"; }
  echo "$1: $out"
}
check_run examples/package "$example/vector_add"
clean "$cmake" --install "$example" --prefix "$work/app" > "$work/example-install.log" 2>&1 ||
  { cat "$work/example-install.log"; fail "examples/package does not install"; }
check_run "examples/package installed" "$work/app/bin/vector_add"

# --- pkg-config
flags=$(clean PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --cflags --libs omptarget) ||
  fail "pkg-config does not know omptarget"
flags=$(printf '%s\n' "$flags" | sed 's/  */ /g; s/^ //; s/ $//')
want="-I$prefix/include -L$lib -lomptarget -Wl,-rpath,$lib"
[ "$flags" = "$want" ] || fail "pkg-config --cflags --libs omptarget: '$flags', not '$want'"
# shellcheck disable=SC2086  # the flags are words
clean "$clang" -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu "$src/examples/package/vector_add.c" \
  $flags -o "$work/vector_add_pc" || fail "vector_add.c does not build with pkg-config's flags"
check_run "pkg-config build" "$work/vector_add_pc"

# --- the tools
clean "$prefix/bin/omptarget-info" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
host = [x for x in d["devices"] if x["plugin"] == "x86_64"]
assert d["offload_disabled"] is False and len(host) == 4, d
print("omptarget-info --json: %d devices, %d of the host plugin" % (len(d["devices"]), len(host)))
' || fail "bin/omptarget-info --json"
summary=$(clean "$prefix/bin/omptarget-profile" "$src/tests/tools/profile_sample.json" --no-picture) ||
  fail "bin/omptarget-profile exits with status $?"
[ "${summary%%
*}" = "omptarget profile summary" ] || fail "bin/omptarget-profile printed '$summary'"
for tool in omptarget-info omptarget-profile omptarget-sm90-path; do
  clean "$prefix/bin/$tool" --help > "$work/$tool.help" || fail "$tool --help: exit status $?"
  python3 - "$work/$tool.help" "$tool" <<'PY' || fail "$tool --help is no manual page"
import re, sys
text, tool = open(sys.argv[1]).read(), sys.argv[2]
sections = re.findall(r"^([A-Z][A-Z ]+)$", text, re.M)
want = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "ENVIRONMENT"]
assert [s for s in sections if s in want] == want, sections
name = text.split("\nNAME\n", 1)[1].split("\n\n", 1)[0]
assert name.strip().startswith(tool + " - "), name
PY
done
echo "install-package: ok"
