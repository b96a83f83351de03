#!/bin/sh
# fake-cuda-c19-dtors: runs c19_dtors with its library and checks its trace
# against c19_dtors.cpp. Whether the image has an nvptx$device$init kernel
# is clang's choice (a CI build once made the same library without one):
# with it, the destructors must run through it (prefix INIT); without it,
# through nvptx$device$fini (NOINIT).
# usage: check_c19_dtors.sh PROGRAM LIBRARY FILECHECK SOURCE
set -eu
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$1" "$2" > "$log" 2>&1 || { cat "$log"; echo "c19_dtors failed"; exit 1; }
if grep -q 'ran 1 global constructors (nvptx\$device\$init)' "$log"; then
  prefix=INIT
else
  prefix=NOINIT
fi
"$3" --check-prefixes=CHECK,$prefix "$4" < "$log"
