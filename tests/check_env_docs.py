#!/usr/bin/env python3
"""Every environment variable the code reads is documented in docs/env-vars.md.

Scans the shipped code (src/, tools/) and the fake CUDA driver the tests and
docs use (tests/fake_cuda/) for string literals that are environment variable
names of the families the runtime reads (LIBOMPTARGET_*, OMPTARGET_*, OMP_*,
NVTX_*, LIBOMP_*, KMP_*): every read goes through such a literal
(env::getInt("NAME"), env::CachedInt Level("NAME", ...), std::getenv("NAME"),
os.environ.get(NAME) with NAME = "..."). Each name must appear in
docs/env-vars.md as `NAME`. Exits 1 listing the undocumented names (and where
they are read), 0 otherwise; prints how many names it checked.

usage: check_env_docs.py REPO_ROOT
"""
import os
import re
import sys

FAMILIES = ("LIBOMPTARGET", "OMPTARGET", "OMP", "NVTX", "LIBOMP", "KMP")
LITERAL = re.compile(r"[\"']((?:%s)_[A-Z0-9_]+)[\"']" % "|".join(FAMILIES))
SCANNED = ("src", "tools", os.path.join("tests", "fake_cuda"))
SUFFIXES = (".cpp", ".h", ".cu", ".c", ".py", ".sh")


def is_source(path):
    if path.endswith(SUFFIXES):
        return True
    # Scripts without a suffix (tools/omptarget-profile): a shebang.
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def names_read(root):
    found = {}
    for top in SCANNED:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                if not is_source(path):
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        for var in LITERAL.findall(line):
                            found.setdefault(var, "%s:%d" % (os.path.relpath(path, root), lineno))
    return found


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    root = argv[1]
    with open(os.path.join(root, "docs", "env-vars.md"), encoding="utf-8") as f:
        documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", f.read()))
    found = names_read(root)
    if not found:
        print("check_env_docs: no variable found under %s: wrong root?" % root)
        return 1
    missing = sorted(v for v in found if v not in documented)
    for v in missing:
        print("undocumented: %s (read at %s): add it to docs/env-vars.md" % (v, found[v]))
    print("check_env_docs: %d variables read, %d undocumented" % (len(found), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
