#!/bin/sh
# Fails if our libomptarget.so lacks any symbol (name@version) that LLVM 14's exports.
set -eu
ours=$1; llvm=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
list() { nm -D --defined-only "$1" | awk '{print $3}' | sed 's/@@/@/' | sort -u; }
list "$llvm" > "$tmp/llvm"; list "$ours" > "$tmp/ours"
missing=$(comm -23 "$tmp/llvm" "$tmp/ours")
if [ -n "$missing" ]; then
  echo "missing exports (present in LLVM 14's libomptarget.so):"; echo "$missing"; exit 1
fi
echo "all $(wc -l < "$tmp/llvm") LLVM 14 exports present with matching versions"
