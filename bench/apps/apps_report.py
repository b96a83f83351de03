#!/usr/bin/env python3
"""Figures and table of the applications benchmark (bench/apps/run_apps.sh).

Input: a directory of raw outputs, one file per process, named
CASE.SIDE.rROUND.log, as run_apps.sh writes them: the application's own
output (stdout and stderr), closed by a line "# exit rc=N seconds=S"; next to
it CASE.SIDE.rROUND.log.ld, the dynamic loader's list of the files it loaded
(LD_DEBUG=files).

Each application's own figure is read from its own output, and its own
verification must have passed, else the process counts as an error (never as
a figure):

  babelstream        Copy, Triad, Dot lines: MBytes/sec of the best of the
                     runs (-> GB/s); an error on any "Validation failed" line
  xsbench_hash,      "Lookups/s:" (lookups per second of the whole event-based
  xsbench_unionized  simulation, data transfers included on the OpenMP side);
                     needs "Verification checksum: N (Valid)"
  minibude           the highest "gflop/s:" among the configurations tried;
                     every configuration must say "valid: true"
  tealeaf            the last "Wallclock:" (s); needs "This run PASSED"
  cloverleaf         the last "Wall clock" (s); needs "This test is
                     considered PASSED"

and the process must have exited 0. With --libs DIR, an OpenMP side must have
loaded libomptarget.so (or libomptarget.so.19.1, the soname of clang 19's
programs) and (when loaded at all; always in --mode run)
libomptarget.rtl.cuda.so from DIR/ours (sides ours*) or DIR/llvm (sides
llvm*), and the side ours-c19 libomp.so.5 from DIR/libomp-19 (libomp 19),
else: error MISCONFIGURED.

Output: one line per figure or error (also to --results FILE):
  side=SIDE round=R case=NAME value=V unit=U
  side=SIDE round=R case=NAME error=WHY
then the table: per case and side the median over the rounds (n = rounds with
a figure; spread = (max - min) / min of them), and the speed-ups, each a
ratio of performance (rate, or 1/time), above 1 meaning the first is faster:
  ours/LLVM14     ours against llvm (the same binary on LLVM 14's runtime)
  devrtl/LLVM14   ours-devrtl (built with our device runtime, on ours)
                  against llvm
  ours/CUDA       ours against the application's CUDA version
  c19/CUDA        ours-c19 (built by clang 19 with LLVM 19's device runtime,
                  on ours with libomp 19) against the CUDA version
  c19/ours        ours-c19 against ours (the clang 14 build, on ours)
and their geometric means over the cases that have both sides (lines
geomean ours/llvm, devrtl/llvm, ours/cuda, ours-c19/cuda, ours-c19/ours).
Exit status: 1 when any process failed.
"""
import argparse
import glob
import math
import os
import re
import statistics
import sys
from collections import defaultdict

# case -> (unit, higher is better)
UNITS = {
    "babelstream_copy": ("GB/s", True),
    "babelstream_triad": ("GB/s", True),
    "babelstream_dot": ("GB/s", True),
    "xsbench_hash": ("lookups/s", True),
    "xsbench_unionized": ("lookups/s", True),
    "minibude": ("GFLOP/s", True),
    "tealeaf": ("s", False),
    "cloverleaf": ("s", False),
}
ORDER = list(UNITS)
RUN_SIDES = ["ours", "ours-devrtl", "ours-c19", "llvm", "cuda"]
SMOKE_SIDES = ["ours", "ours-devrtl", "ours-c19", "llvm", "llvm-devrtl"]
# The speed-ups of --mode run: (name, first side, second side).
RATIOS = [
    ("ours/llvm", "ours", "llvm"),
    ("devrtl/llvm", "ours-devrtl", "llvm"),
    ("ours/cuda", "ours", "cuda"),
    ("ours-c19/cuda", "ours-c19", "cuda"),
    ("ours-c19/ours", "ours-c19", "ours"),
]
RATIO_HEADS = ["ours/LLVM14", "devrtl/LLVM14", "ours/CUDA", "c19/CUDA", "c19/ours"]
NAME_RE = re.compile(r"^(?P<case>[a-z_]+)\.(?P<side>[a-z0-9-]+)\.r(?P<round>\d+)\.log$")
EXIT_RE = re.compile(r"^# exit rc=(-?\d+) seconds=(\d+)", re.M)
NUM = r"([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)"


def last_float(pattern, text):
    found = re.findall(pattern, text, re.M)
    return float(found[-1]) if found else None


def parse_babelstream(text, mode):
    """-> ({case: value}, error or None, the exit status a good run has)"""
    bad = re.findall(r"^Validation failed.*$", text, re.M)
    if bad:
        return {}, "verification(" + bad[0].strip().replace(" ", "_") + ")", 0
    figs = {}
    for label, case in (("Copy", "babelstream_copy"), ("Triad", "babelstream_triad"), ("Dot", "babelstream_dot")):
        v = last_float(r"^%s\s+%s\s" % (label, NUM), text)
        if v is None:
            return {}, "no-figure(%s)" % label, 0
        figs[case] = v / 1000.0  # MBytes/sec -> GB/s
    return figs, None, 0


# XSBench knows its checksum only for its default 17M lookups (small and
# large problems). The smoke runs 200,000 lookups of the small problem, whose
# checksum XSBench itself gives as 599527 (hash, unionized and nuclide grids,
# on both runtimes); XSBench calls it invalid and exits 1.
XSBENCH_SMOKE = {"lookups": 200000, "checksum": 599527}


def parse_xsbench(case):
    def parse(text, mode):
        m = re.search(r"^Verification checksum: (\d+) \((.*)\)", text, re.M)
        if not m:
            return {}, "no-verification", 0
        n = re.findall(r"^Lookups:\s+([0-9,]+)", text, re.M)
        smoke_ok = (mode == "smoke" and n and int(n[-1].replace(",", "")) == XSBENCH_SMOKE["lookups"]
                    and int(m.group(1)) == XSBENCH_SMOKE["checksum"])
        if m.group(2) != "Valid" and not smoke_ok:
            return {}, "verification(checksum_%s_invalid)" % m.group(1), 0
        v = re.findall(r"^Lookups/s:\s+(-?[0-9,]+)", text, re.M)
        t = last_float(r"^Runtime:\s+" + NUM + " seconds", text)
        if not v or not n or t is None:
            return {}, "no-figure(Lookups/s)", 0
        lps = float(v[-1].replace(",", ""))
        lookups = float(n[-1].replace(",", ""))
        # XSBench prints Lookups/s as an int (it overflows past 2^31/s, as
        # a CUDA run of 17M lookups may) and Runtime to the ms: the printed
        # rate unless it disagrees with lookups / runtime.
        if not (lookups / (t + 0.0005) <= lps <= (lookups / (t - 0.0005) if t > 0.0005 else math.inf)):
            lps = lookups / t if t > 0 else 0.0
        if lps <= 0:
            return {}, "no-figure(Runtime_%g)" % t, 0
        return {case: lps}, None, 1 if smoke_ok else 0
    return parse


def parse_minibude(text, mode):
    valid = re.findall(r"outcome:\s+\{ valid: (true|false)", text)
    if not valid:
        return {}, "no-verification", 0
    if "false" in valid:
        return {}, "verification(%d_of_%d_configurations_invalid)" % (valid.count("false"), len(valid)), 0
    g = [float(x) for x in re.findall(r"gflop/s:\s+" + NUM, text)]
    if not g:
        return {}, "no-figure(gflop/s)", 0
    return {"minibude": max(g)}, None, 0


def parse_tealeaf(text, mode):
    if not re.search(r"This run PASSED", text):
        m = re.search(r"This run FAILED.*", text)
        return {}, "verification(%s)" % (m.group(0).strip().replace(" ", "_") if m else "no_PASSED_line"), 0
    v = last_float(r"Wallclock:\s+" + NUM + "s", text)
    if v is None:
        return {}, "no-figure(Wallclock)", 0
    return {"tealeaf": v}, None, 0


def parse_cloverleaf(text, mode):
    if not re.search(r"This test is considered PASSED", text):
        return {}, "verification(not_PASSED)", 0
    v = last_float(r"^\s*Wall clock\s+" + NUM, text)
    if v is None:
        return {}, "no-figure(Wall_clock)", 0
    return {"cloverleaf": v}, None, 0


PARSERS = {
    "babelstream": parse_babelstream,
    "xsbench_hash": parse_xsbench("xsbench_hash"),
    "xsbench_unionized": parse_xsbench("xsbench_unionized"),
    "minibude": parse_minibude,
    "tealeaf": parse_tealeaf,
    "cloverleaf": parse_cloverleaf,
}


def figure_cases(case):
    return ["babelstream_copy", "babelstream_triad", "babelstream_dot"] if case == "babelstream" else [case]


def loaded(ld_path):
    """Paths of the libomptarget core, CUDA plugin and libomp the process loaded."""
    core = plugin = openmp = None
    try:
        text = open(ld_path, errors="replace").read()
    except OSError:
        return None, None, None
    for path in re.findall(r"calling init: (\S+)", text):
        base = os.path.basename(path)
        if base in ("libomptarget.so", "libomptarget.so.19.1") and core is None:
            core = path
        elif base == "libomptarget.rtl.cuda.so" and plugin is None:
            plugin = path
        elif base == "libomp.so.5" and openmp is None:
            openmp = path
    return core, plugin, openmp


def check_libs(ld_path, side, libs, mode):
    if side == "cuda" or not libs:
        return None
    want = os.path.join(libs, "llvm" if side.startswith("llvm") else "ours")
    core, plugin, openmp = loaded(ld_path)
    bad = []
    if core is None or os.path.dirname(core) != want:
        bad.append("core=%s" % (core or "none"))
    if (plugin is not None or mode == "run") and (plugin is None or os.path.dirname(plugin) != want):
        bad.append("plugin=%s" % (plugin or "none"))
    if side == "ours-c19" and (openmp is None or os.path.dirname(openmp) != os.path.join(libs, "libomp-19")):
        bad.append("libomp=%s" % (openmp or "none"))
    return "MISCONFIGURED(%s)" % ",".join(bad) if bad else None


def parse_process(path, case, side, libs, mode):
    """-> list of (case, value or None, error or None, detail)"""
    text = open(path, errors="replace").read()
    m = EXIT_RE.search(text)
    cases = figure_cases(case)
    if not m:
        return [(c, None, "no-exit-line(killed?)") for c in cases]
    rc = int(m.group(1))
    err = check_libs(path + ".ld", side, libs, mode)
    figs, why, good_rc = PARSERS[case](text, mode)
    # The first of: wrong libraries, a failed verification, a bad exit, no figure.
    if err is None and why is not None and why.startswith("verification"):
        err = why
    if err is None and rc != good_rc:
        err = "timeout" if rc == 124 else "exit-%d" % rc
    if err is None:
        err = why
    if err is not None:
        return [(c, None, err, last_line(text)) for c in cases]
    return [(c, figs[c], None, None) for c in cases]


def last_line(text):
    """The output's last line (not ours), to tell why a process failed."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("# ")]
    return lines[-1][:160] if lines else ""


def fmt(v):
    if v is None:
        return "-"
    if v >= 1e5:
        return "%.4g" % v
    if v >= 100:
        return "%.1f" % v
    return "%.3f" % v


def speedup(case, a, b):
    """performance of a over b (>1: a faster)"""
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return a / b if UNITS[case][1] else b / a


def versus_llvm(case, ours, llvm):
    """faster, noise (the rounds' ranges overlap) or SLOWER; - without both"""
    if not ours or not llvm:
        return "-"
    if speedup(case, statistics.median(ours), statistics.median(llvm)) >= 1:
        return "faster"
    best = max(ours) if UNITS[case][1] else min(ours)
    worst = min(llvm) if UNITS[case][1] else max(llvm)
    return "noise" if speedup(case, best, worst) >= 1 else "SLOWER"


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", help="directory of CASE.SIDE.rROUND.log files")
    ap.add_argument("--mode", choices=["run", "smoke"], default="run")
    ap.add_argument("--libs", default="", help="the bundle's lib directory (checks what was loaded)")
    ap.add_argument("--results", default="", help="also write the figure/error lines here")
    args = ap.parse_args()

    recs = []  # (case, side, round, value, error)
    details = {}  # (case, side, round) -> the last output line of a failed process
    for path in sorted(glob.glob(os.path.join(args.raw, "*.log"))):
        m = NAME_RE.match(os.path.basename(path))
        if not m or m.group("case") not in PARSERS:
            continue
        side, rnd = m.group("side"), int(m.group("round"))
        for c, v, e, d in parse_process(path, m.group("case"), side, args.libs, args.mode):
            recs.append((c, side, rnd, v, e))
            if e is not None:
                details[(m.group("case"), side, rnd)] = d
    lines = []
    for c, s, r, v, e in sorted(recs, key=lambda x: (x[2], ORDER.index(x[0]), x[1])):
        if e is None:
            lines.append("side=%s round=%d case=%s value=%.6g unit=%s" % (s, r, c, v, UNITS[c][0]))
        else:
            lines.append("side=%s round=%d case=%s error=%s" % (s, r, c, e))
    print("\n".join(lines))
    if args.results:
        with open(args.results, "w") as f:
            f.write("\n".join(lines) + "\n")

    sides = RUN_SIDES if args.mode == "run" else SMOKE_SIDES
    vals = defaultdict(list)
    errors = defaultdict(list)
    for c, s, r, v, e in recs:
        (vals if e is None else errors)[(c, s)].append(v if e is None else "r%d:%s" % (r, e))
    cases = [c for c in ORDER if any((c, s) in vals or (c, s) in errors for s in sides)]

    print()
    if args.mode == "smoke":
        print("(smoke: host fallback, tiny inputs; the figures say nothing about a GPU)")
    head = "%-18s %-9s" % ("case", "unit") + "".join(" %14s" % s for s in sides)
    if args.mode == "run":
        head += "".join(" %13s" % h for h in RATIO_HEADS)
    print(head)
    med = {}
    sp = defaultdict(list)
    for c in cases:
        row = "%-18s %-9s" % (c, UNITS[c][0])
        for s in sides:
            xs = vals.get((c, s), [])
            med[(c, s)] = statistics.median(xs) if xs else None
            cell = fmt(med[(c, s)])
            if xs:
                spread = (max(xs) - min(xs)) / min(xs) if min(xs) > 0 else 0.0
                cell += "(%d,%d%%)" % (len(xs), round(100 * spread)) if len(xs) > 1 else "(1)"
            elif errors.get((c, s)):
                cell = "ERROR"
            row += " %14s" % cell
        if args.mode == "run":
            ratios = [speedup(c, med[(c, a)], med[(c, b)]) for _, a, b in RATIOS]
            for (name, _, _), x in zip(RATIOS, ratios):
                if x is not None:
                    sp[name].append(x)
            row += "".join(" %13s" % ("%.2fx" % x if x is not None else "-") for x in ratios)
        print(row)
    print("cells: median (rounds with a figure, spread max/min-1); speed-ups: performance ratio of medians, >1: first faster")
    if args.mode == "run":
        for name, _, _ in RATIOS:
            g = geomean(sp[name])
            print("geomean %s=%s over %d case(s)" % (name, "%.3fx" % g if g else "-", len(sp[name])))
        for c in cases:
            print("summary case=%s %s %s ours_vs_llvm=%s devrtl_vs_llvm=%s" % (
                c, " ".join("%s=%s" % (s, fmt(med[(c, s)])) for s in sides),
                " ".join("%s=%s" % (name, "%.3f" % x if x is not None else "-")
                         for name, x in ((n, speedup(c, med[(c, a)], med[(c, b)])) for n, a, b in RATIOS)),
                versus_llvm(c, vals.get((c, "ours")), vals.get((c, "llvm"))),
                versus_llvm(c, vals.get((c, "ours-devrtl")), vals.get((c, "llvm")))))
        print("ours_vs_llvm: faster (median), noise (slower median, but the best round of ours beats the worst of "
              "LLVM 14), SLOWER; goal: no SLOWER case, geomean >= 1.8x")
    nerr = sum(len(v) for v in errors.values())
    if nerr:
        print("errors (%d):" % nerr)
        for (c, s), es in sorted(errors.items()):
            print("  %s %s: %s" % (c, s, " ".join(es)))
        print("last output line of each failed process:")
        for (c, s, r), d in sorted(details.items()):
            print("  %s.%s.r%d: %s" % (c, s, r, d))
    return 1 if nerr or not recs else 0


if __name__ == "__main__":
    sys.exit(main())
