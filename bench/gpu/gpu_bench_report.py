#!/usr/bin/env python3
"""Table of the GPU benchmark (bench/gpu/run_gpu_bench.sh run).

Input: the results file, one line per figure:
  side=SIDE round=R case=NAME value=V unit=U [key=value...]
  side=SIDE round=R case=NAME error=WHY | skipped=WHY
Sides: raw, ours, llvm, devrtl (ours, the program built with our device runtime),
ours-bpsmN (case e with OMPTARGET_CUDA_BLOCKS_PER_SM=N), ours-nomm (case h_alloc
with LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=0), ours-poolq (case h_alloc with
OMPTARGET_CUDA_MEMORY_POOL=2: synchronous allocations by cuMemAlloc),
ours-nopool (case h_map with OMPTARGET_CUDA_MEMORY_POOL=0), ours-spin, ours-yield,
ours-blocking (and ours-auto; cases a, b, f by default, with
OMPTARGET_CUDA_SYNC_MODE=spin/yield/blocking/auto), ours-c19 (the program built
by clang 19 with LLVM 19's device runtime, on our core and CUDA plugin with
libomp 19; every case ours runs).

Per side and case the best round is kept (min for times, max for rates: noise
only makes a run slower); spread = (max - min) / min over the rounds.
Ratios are of costs (time per operation; for rates, 1/rate):
  ours/raw  = cost(ours) / cost(raw)    1.00 = as fast as raw CUDA, lower is better
  LLVM/ours = cost(llvm) / cost(ours)   above 1: ours is faster than LLVM 14
  %raw      = 100 * cost(raw) / cost(ours)   ours' speed as a share of raw's
  c19/raw   = cost(ours-c19) / cost(raw)     as ours/raw, for the clang 19 build
  c19/ours  = cost(ours-c19) / cost(ours)    1.00 = as fast as the clang 14 build
                                             on ours, lower is better
The ours-c19 columns are there when the results have an ours-c19 figure or
error. For the cases of the tables below the first one, raw's figure for
c19/raw is the one the table compares ours with: the same case, except the
locked copies (raw pinned), the overlap (raw pinned) and alloc + free (raw
pool).

The synchronization modes get rows of their own below the first table: per
case, ours (the default: the primary context's flags left alone) and each
mode, with mode/raw = cost(ours with the mode) / cost(raw) and LLVM/mode =
cost(llvm) / cost(ours with the mode).

The locked host memory cases (g_*) get tables of their own below the first
one: GB/s per direction, size and host memory kind, with locked/pinned =
cost(ours locked) / cost(raw cuMemAllocHost); lock + unlock times (ms, ours
against cuMemHostRegister + cuMemHostUnregister); and the copy/kernel
overlap's hidden fraction (unit frac, higher is better) with the best round's
t_copy, t_kernel and t_both. Cases a runtime skipped (no lock API) are listed
under them.

The device allocation cases (h_*) get a third table: us per
omp_target_alloc + omp_target_free pair per size against raw cuMemAlloc +
cuMemFree (sync) and cuMemAllocFromPoolAsync + cuMemFreeAsync (pool), ours
also without the memory manager and with synchronous allocations by
cuMemAlloc, with ours/raw-pool = cost(ours) / cost(raw pool); and us per
region of the map loops (to/from and all tofrom) against the same operations
on raw CUDA from a pool and with cuMemAlloc / cuMemFree, ours also without the
memory pool, with ours/raw-pool and LLVM/ours.

With ours-c19 figures, those tables get its columns too, and a table of its
own follows them: per g and h case, ours-c19 against raw's figure and ours,
c19/raw and c19/ours. Every case with an ours-c19 figure has a line
summary case=.. side=ours-c19 unit=.. value=.. raw_case=.. raw=.. ours=..
c19_over_raw=.. c19_over_ours=..
"""
import sys
from collections import defaultdict

LOWER_UNITS = ("us", "ms")  # times: lower is better; every other unit is a rate (frac: a share, higher is better)
ORDER = ["a_small_region", "a_small_region_alloc", "b_empty_region", "c_memcpy_d2d_1g", "c_memcpy_peer_1g",
         "d_update_to_1g", "d_update_from_1g", "e_triad", "f_nowait_chain_10k", "f_nowait_4threads"]
# case -> (max ours/raw, min LLVM/ours, text); None where the issue sets no goal
GOALS = {
    "a_small_region": (1.2, 2.0, "ours<=1.2x raw, >=2x faster than LLVM 14"),
    "c_memcpy_peer_1g": (1 / 0.95, None, "ours>=95% of raw cuMemcpyPeer"),
    "e_triad": (1 / 0.80, None, "ours>=80% of raw CUDA triad"),
    "f_nowait_4threads": (1.3, None, "ours<=1.3x raw (4 threads, own streams)"),
}
# (side, label) of the synchronization mode rows; "ours" is the default.
SYNC_SIDES = (("ours", "default(unset)"), ("ours-auto", "auto"), ("ours-spin", "spin"), ("ours-yield", "yield"),
              ("ours-blocking", "blocking"))


def parse(path):
    recs = []
    with open(path) as f:
        for line in f:
            kv = {}
            for tok in line.split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    kv[k] = v
            if "side" in kv and "case" in kv:
                recs.append(kv)
    return recs


def fmt(x, unit):
    if x is None:
        return "-"
    if unit == "regions/s":
        return "%.0f" % x
    if unit == "TB/s":
        return "%.3f" % x
    if unit == "ms":
        return "%.3f" % x if x < 10 else "%.1f" % x
    return "%.2f" % x if x < 1000 else "%.0f" % x


def goal_met(goal, over_raw, llvm_over):
    """'yes' / 'NO' for a case's goal given its cost ratios, 'n/a' without a
    goal or without the figures it needs."""
    if not goal:
        return "n/a"
    oks = []
    if goal[0] is not None:
        oks.append(None if over_raw is None else over_raw <= goal[0])
    if goal[1] is not None:
        oks.append(None if llvm_over is None else llvm_over >= goal[1])
    return "n/a" if None in oks else ("yes" if all(oks) else "NO")


SIZES = (("4m", "4 MiB"), ("1g", "1 GiB"))
# (column title, side, case-name suffix) of the locked-memory bandwidth table
BW_COLUMNS = (("raw-pageable", "raw", "pageable"), ("ours-pageable", "ours", "pageable"),
              ("ours-locked", "ours", "locked"), ("raw-pinned", "raw", "pinned"),
              ("raw-registered", "raw", "registered"), ("llvm14-pageable", "llvm", "pageable"))
# ... with the clang 19 build on ours (side ours-c19), where it ran
C19_BW_COLUMNS = (("c19-pageable", "ours-c19", "pageable"), ("c19-locked", "ours-c19", "locked"))
OVERLAP_ROWS = (("ours", "g_overlap_locked"), ("ours", "g_overlap_pageable"), ("ours-c19", "g_overlap_locked"),
                ("ours-c19", "g_overlap_pageable"), ("llvm", "g_overlap_locked"), ("llvm", "g_overlap_pageable"),
                ("raw", "g_overlap_pinned"))
C19 = "ours-c19"


def raw_case(case):
    """The raw figure an OpenMP case is compared with (for c19/raw): the same
    case, except the locked copies and the overlap (raw pinned memory) and
    alloc + free (raw's stream-ordered pool)."""
    if case.startswith("g_overlap_"):
        return "g_overlap_pinned"
    if case.startswith("g_") and case.endswith("_locked"):
        return case[:-len("locked")] + "pinned"
    if case.startswith("h_alloc_free_"):
        return case + "_pool"
    return case


def locked_tables(vals, units, extras, skips, best, cost, spread, summaries, have_c19):
    """The g_* cases: bandwidth per host memory kind, lock + unlock cost,
    copy/kernel overlap. Nothing when no g_* figure is there."""
    if not any(c.startswith("g_") for (_, c) in vals) and not skips:
        return
    bw_columns = BW_COLUMNS + (C19_BW_COLUMNS if have_c19 else ())

    def pct(x):
        return "%.0f%%" % (100 * x) if x is not None else "-"

    print()
    print("Locked host memory: H2D/D2H of a mapped buffer, GB/s, best of rounds; locked/pinned = "
          "time(ours locked) / time(raw cuMemAllocHost), 1.00 = as fast, lower is better")
    hdr = "%-11s" % "copy" + "".join(" %15s" % t for (t, _, _) in bw_columns) + " %13s %7s" % ("locked/pinned",
                                                                                           "spread")
    print(hdr)
    print("-" * len(hdr))
    for sz, sz_txt in SIZES:
        for d in ("h2d", "d2h"):
            base = "g_%s_%s_" % (d, sz)
            cells = [fmt(best(side, base + kind), "GB/s") for (_, side, kind) in bw_columns]
            cl, cp = cost("ours", base + "locked"), cost("raw", base + "pinned")
            ratio = cl / cp if cl and cp else None
            sp = [spread(side, base + kind) for (_, side, kind) in bw_columns]
            sp = [x for x in sp if x is not None]
            print("%-11s" % ("%s %s" % (d, sz_txt)) + "".join(" %15s" % c for c in cells) +
                  " %13s %7s" % ("%.2f" % ratio if ratio else "-", pct(max(sp)) if sp else "-"))
            summaries.append("summary copy=%s_%s ours_locked=%s raw_pinned=%s locked_over_pinned=%s" % (
                d, sz, best("ours", base + "locked"), best("raw", base + "pinned"),
                "%.3f" % ratio if ratio else "na"))

    lock_cases = ["g_lock_unlock_" + sz for sz, _ in SIZES]
    if any((s, c) in vals for s in ("ours", "raw", C19) for c in lock_cases):
        print()
        print("lock + unlock of a fresh touched malloc buffer, ms, best of rounds (ours: llvm_omp_target_lock_mem + "
              "llvm_omp_target_unlock_mem; raw: cuMemHostRegister(PORTABLE) + cuMemHostUnregister):")
        for sz, sz_txt in SIZES:
            c = "g_lock_unlock_" + sz
            o, r = best("ours", c), best("raw", c)
            eo, er = extras.get(("ours", c), {}), extras.get(("raw", c), {})
            line = "  %-6s ours %9s (lock %s, unlock %s)   raw %9s (lock %s, unlock %s)   ours/raw %s" % (
                sz_txt, fmt(o, "ms"), eo.get("lock_ms", "-"), eo.get("unlock_ms", "-"), fmt(r, "ms"),
                er.get("lock_ms", "-"), er.get("unlock_ms", "-"), "%.2f" % (o / r) if o and r else "-")
            if have_c19:
                c19, ec = best(C19, c), extras.get((C19, c), {})
                line += "   ours-c19 %9s (lock %s, unlock %s)" % (fmt(c19, "ms"), ec.get("lock_ms", "-"),
                                                                 ec.get("unlock_ms", "-"))
            print(line)
            summaries.append("summary case=%s ours_ms=%s raw_ms=%s" % (c, o, r))

    rows = [(s, c) for (s, c) in OVERLAP_ROWS if (s, c) in vals]
    if rows:
        print()
        print("overlap of a 256 MiB H2D copy (target update to nowait; raw: its own stream) with a kernel of about "
              "the same length;")
        print("hidden fraction = (t_copy + t_kernel - t_both) / min(t_copy, t_kernel): 1 = fully hidden, "
              "0 = serialized; best of rounds:")
        for s, c in rows:
            e = extras.get((s, c), {})
            sp = spread(s, c)
            print("  %-8s %-20s %6s   t_copy %8s ms  t_kernel %8s ms  t_both %8s ms  spread %s" % (
                s, c, "%.2f" % best(s, c), e.get("t_copy_ms", "-"), e.get("t_kernel_ms", "-"),
                e.get("t_both_ms", "-"), pct(sp)))
            summaries.append("summary case=%s side=%s hidden_frac=%s" % (c, s, best(s, c)))
    if skips:
        print()
        for (side, why), cs in sorted(skips.items()):
            print("skipped on %s (%s): %s" % (side, why, " ".join(sorted(cs))))


ALLOC_SIZES = (("1k", "1 KiB"), ("64k", "64 KiB"), ("1m", "1 MiB"), ("256m", "256 MiB"))
# (case name, row title) of the map loop table
MAP_CASES = (("h_map_loop_1m", "1 MiB"), ("h_map_loop_64m", "64 MiB"),
             ("h_map_tofrom_1m", "1M tofrom"), ("h_map_tofrom_64m", "64M tofrom"))
# (column title, side, case-name suffix) of the two device allocation tables
ALLOC_COLUMNS = (("raw-sync", "raw", "_sync"), ("raw-pool", "raw", "_pool"),
                 ("raw-poolsync", "raw", "_poolsync"), ("ours", "ours", ""),
                 ("ours-nomm", "ours-nomm", ""), ("ours-poolq", "ours-poolq", ""), ("llvm14", "llvm", ""))
MAP_COLUMNS = (("raw-pool", "raw", ""), ("raw-sync", "raw", "_sync"), ("ours", "ours", ""),
               ("ours-nopool", "ours-nopool", ""), ("ours-devrtl", "devrtl", ""), ("llvm14", "llvm", ""))


def allocation_tables(vals, errors, best, cost, spread, summaries, have_c19):
    """The h_* cases: alloc + free pairs per size, map loop per size. Nothing
    when no h_* case has a figure or an error (a failed process's error is
    listed under the name it ran, h_alloc or h_map, with the other errors)."""
    alloc_columns = ALLOC_COLUMNS + ((("ours-c19", C19, ""),) if have_c19 else ())
    map_columns = MAP_COLUMNS + ((("ours-c19", C19, ""),) if have_c19 else ())
    def ratio(a, b):
        return a / b if a and b else None

    def r2(x):
        return "%.2f" % x if x else "-"

    def r3(x):
        return "%.3f" % x if x else "na"

    def max_spread(cells):
        sp = [spread(side, c) for (side, c) in cells]
        sp = [x for x in sp if x is not None]
        return "%.0f%%" % (100 * max(sp)) if sp else "-"

    def present(cells):
        return any(k in vals or k in errors for k in cells)

    rows = [(sz, sz_txt, "h_alloc_free_" + sz) for (sz, sz_txt) in ALLOC_SIZES]
    rows = [r for r in rows if present([(side, r[2] + suffix) for (_, side, suffix) in alloc_columns])]
    map_rows = [(None, txt, base) for (base, txt) in MAP_CASES]
    map_rows = [r for r in map_rows if present([(side, r[2] + suffix) for (_, side, suffix) in map_columns])]
    if not rows and not map_rows:
        return
    print()
    print("Device allocation (case h): us, best of rounds; ours/raw-pool = time(ours) / time(raw-pool), 1.00 = as "
          "fast, lower is better")
    if rows:
        print("alloc + free pair (ours, llvm14: omp_target_alloc + omp_target_free; raw-sync: cuMemAlloc + "
              "cuMemFree;")
        print("raw-pool: cuMemAllocFromPoolAsync + cuMemFreeAsync on one stream, one cuStreamSynchronize per "
              "batch;")
        print("raw-poolsync: the same waited for per pair as our synchronous route (cuStreamSynchronize, "
              "cuCtxSynchronize);")
        print("ours-nomm: no memory manager; ours-poolq: synchronous allocations by cuMemAlloc, not the pool), "
              "memory not touched:")
        hdr = "%-10s" % "size" + "".join(" %12s" % t for (t, _, _) in alloc_columns) + " %13s %7s" % (
            "ours/raw-pool", "spread")
        print(hdr)
        print("-" * len(hdr))
    for _, sz_txt, base in rows:
        cells = [(side, base + suffix) for (_, side, suffix) in alloc_columns]
        o_p = ratio(cost("ours", base), cost("raw", base + "_pool"))
        print("%-10s" % sz_txt + "".join(" %12s" % fmt(best(side, c), "us") for (side, c) in cells) +
              " %13s %7s" % (r2(o_p), max_spread(cells)))
        summaries.append("summary case=%s raw_sync=%s raw_pool=%s raw_poolsync=%s ours=%s ours_nomm=%s "
                         "ours_poolq=%s llvm=%s ours_over_raw_pool=%s" % (
                             base, best("raw", base + "_sync"), best("raw", base + "_pool"),
                             best("raw", base + "_poolsync"), best("ours", base), best("ours-nomm", base),
                             best("ours-poolq", base), best("llvm", base), r3(o_p)))

    if map_rows:
        if rows:
            print()
        print("map loop, per region: target teams distribute parallel for, 3 maps (2 to, 1 from; tofrom rows: 3 "
              "tofrom) created and deleted every time")
        print("(raw: the same driver calls, the 3 buffers from the pool in stream order (raw-pool) or by "
              "cuMemAlloc/cuMemFree (raw-sync); ours-nopool: OMPTARGET_CUDA_MEMORY_POOL=0); LLVM/ours as above:")
        hdr = "%-10s" % "size" + "".join(" %11s" % t for (t, _, _) in map_columns) + " %13s %9s %7s" % (
            "ours/raw-pool", "LLVM/ours", "spread")
        print(hdr)
        print("-" * len(hdr))
    for _, sz_txt, base in map_rows:
        cells = [(side, base + suffix) for (_, side, suffix) in map_columns]
        o_p = ratio(cost("ours", base), cost("raw", base))
        l_o = ratio(cost("llvm", base), cost("ours", base))
        print("%-10s" % sz_txt + "".join(" %11s" % fmt(best(side, c), "us") for (side, c) in cells) +
              " %13s %9s %7s" % (r2(o_p), r2(l_o), max_spread(cells)))
        summaries.append("summary case=%s raw_pool=%s raw_sync=%s ours=%s ours_nopool=%s devrtl=%s llvm=%s "
                         "ours_over_raw_pool=%s llvm_over_ours=%s" % (
                             base, best("raw", base), best("raw", base + "_sync"), best("ours", base),
                             best("ours-nopool", base), best("devrtl", base), best("llvm", base), r3(o_p), r3(l_o)))


def main():
    recs = parse(sys.argv[1])
    gpus = sys.argv[2] if len(sys.argv) > 2 else "?"
    vals = defaultdict(list)   # (side, case) -> values
    units = {}
    extras = {}                # (side, case) -> extra fields of the best run
    errors = defaultdict(list)
    skips = defaultdict(set)   # (side, why) -> cases (locked-memory cases skipped on a runtime)
    for r in recs:
        key = (r["side"], r["case"])
        if "value" in r:
            v = float(r["value"])
            unit = r.get("unit", "")
            units[r["case"]] = unit
            lower = unit in LOWER_UNITS
            prev = vals[key]
            best_so_far = (min(prev) if lower else max(prev)) if prev else None
            vals[key].append(v)
            if best_so_far is None or (v < best_so_far if lower else v > best_so_far):
                extras[key] = {k: x for k, x in r.items() if k not in ("side", "round", "case", "value", "unit",
                                                                         "min", "max", "reps")}
        elif "error" in r:
            errors[key].append(r["error"])
        elif "skipped" in r and r["side"] == "raw":
            errors[key].append("skipped:" + r["skipped"])
        elif "skipped" in r and r["case"].startswith("g_"):
            skips[(r["side"], r["skipped"])].add(r["case"])

    def best(side, case):
        v = vals.get((side, case))
        if not v:
            return None
        return min(v) if units.get(case) in LOWER_UNITS else max(v)

    def spread(side, case):
        v = vals.get((side, case))
        if not v or min(v) <= 0:
            return None
        return (max(v) - min(v)) / min(v)

    def cost(side, case):
        b = best(side, case)
        if b is None or b <= 0:
            return None
        return b if units.get(case) in LOWER_UNITS else 1.0 / b

    def c19_ratios(case):
        """(raw's case, c19/raw, c19/ours) of the clang 19 build."""
        rc = raw_case(case)
        cc, cr, co = cost(C19, case), cost("raw", rc), cost("ours", case)
        return rc, (cc / cr if cc and cr else None), (cc / co if cc and co else None)

    have_c19 = any(s == C19 for (s, _) in list(vals) + list(errors))
    main_sides = ("raw", "ours", "llvm") + ((C19,) if have_c19 else ())
    cases = [c for c in ORDER if any((s, c) in vals or (s, c) in errors for s in main_sides)]
    print()
    print("GPU benchmark (%s GPU(s)); best of rounds; ratios of time per op (see docs/benchmarks.md)" % gpus)
    c19_hdr = " %10s %8s %8s" % ("ours-c19", "c19/raw", "c19/ours") if have_c19 else ""
    hdr = "%-22s %-9s %10s %10s %10s %9s %9s %6s%s %7s  %s" % ("case", "unit", "raw", "ours", "llvm14", "ours/raw",
                                                               "LLVM/ours", "%raw", c19_hdr, "spread",
                                                               "goal -> met")
    print(hdr)
    print("-" * len(hdr))
    summaries = []
    for c in cases:
        u = units.get(c, "?")
        cr, co, cl = cost("raw", c), cost("ours", c), cost("llvm", c)
        o_r = co / cr if co and cr else None
        l_o = cl / co if cl and co else None
        pct = 100.0 * cr / co if co and cr else None
        sp = [spread(s, c) for s in main_sides]
        sp_txt = "%.0f%%" % (100 * max(x for x in sp if x is not None)) if any(x is not None for x in sp) else "-"
        goal = GOALS.get(c)
        met = goal_met(goal, o_r, l_o)
        goal_txt = goal[2] if goal else "none (informational)"
        c19_txt = c19_sum = ""
        if have_c19:
            _, c_r, c_o = c19_ratios(c)
            c19_txt = " %10s %8s %8s" % (fmt(best(C19, c), u), "%.2f" % c_r if c_r else "-",
                                         "%.2f" % c_o if c_o else "-")
            c19_sum = " ours_c19=%s c19_over_raw=%s c19_over_ours=%s" % (
                best(C19, c), "%.3f" % c_r if c_r else "na", "%.3f" % c_o if c_o else "na")
        print("%-22s %-9s %10s %10s %10s %9s %9s %6s%s %7s  %s -> %s" % (
            c, u, fmt(best("raw", c), u), fmt(best("ours", c), u), fmt(best("llvm", c), u),
            "%.2f" % o_r if o_r else "-", "%.2f" % l_o if l_o else "-", "%.0f" % pct if pct else "-", c19_txt,
            sp_txt, goal_txt, met))
        summaries.append("summary case=%s unit=%s raw=%s ours=%s llvm=%s ours_over_raw=%s llvm_over_ours=%s "
                         "goal=%s met=%s%s" % (c, u, best("raw", c), best("ours", c), best("llvm", c),
                                               "%.3f" % o_r if o_r else "na", "%.3f" % l_o if l_o else "na",
                                               goal_txt.replace(" ", "_"), met, c19_sum))
    # Case e: launch sizing variants.
    bps = sorted({s for (s, c) in vals if s.startswith("ours-bpsm") and c == "e_triad"},
                 key=lambda s: int(s[len("ours-bpsm"):]))
    if bps or ("ours", "e_triad") in vals:
        print()
        print("e_triad launch sizing (ours; OMPTARGET_CUDA_BLOCKS_PER_SM; default = 64 per SM at 128 threads; -1 = occupancy-based cap):")
        cr = cost("raw", "e_triad")
        for s in ["ours"] + bps:
            b = best(s, "e_triad")
            label = "default(unset)" if s == "ours" else "BLOCKS_PER_SM=" + s[len("ours-bpsm"):]
            pct = "%.0f%%" % (100.0 * cr * b) if b and cr else "-"
            sp = spread(s, "e_triad")
            print("  %-18s %8s TB/s  %6s of raw  spread %s" % (label, fmt(b, "TB/s"), pct,
                                                              "%.0f%%" % (100 * sp) if sp is not None else "-"))
        ex = extras.get(("raw", "e_triad"))
        if ex:
            print("  raw CUDA best launch: blocks=%s threads=%s (sms=%s)" % (ex.get("blocks"), ex.get("threads"),
                                                                           ex.get("sms")))
    # CUDA synchronization modes (sides ours-<mode>).
    scases = [c for c in ORDER if any((s, c) in vals or (s, c) in errors for s, _ in SYNC_SIDES[1:])]
    if scases:
        print()
        print("CUDA synchronization mode (ours; OMPTARGET_CUDA_SYNC_MODE; default(unset) = the primary context's "
              "flags left alone, the driver's auto;")
        print("LLVM 14's plugin sets blocking); mode/raw = time(mode) / time(raw), LLVM/mode = time(LLVM 14) / "
              "time(mode), as above:")
        for c in scases:
            u = units.get(c, "?")
            cr, cl = cost("raw", c), cost("llvm", c)
            for s, label in SYNC_SIDES:
                if (s, c) not in vals:
                    continue
                cs = cost(s, c)
                s_r = cs / cr if cs and cr else None
                l_s = cl / cs if cl and cs else None
                sp = spread(s, c)
                print("  %-22s %-15s %10s %-9s  mode/raw %5s  LLVM/mode %5s  spread %s" % (
                    c, label, fmt(best(s, c), u), u, "%.2f" % s_r if s_r else "-", "%.2f" % l_s if l_s else "-",
                    "%.0f%%" % (100 * sp) if sp is not None else "-"))
                summaries.append("summary case=%s side=%s sync_mode=%s value=%s mode_over_raw=%s llvm_over_mode=%s"
                                 % (c, s, label, best(s, c), "%.3f" % s_r if s_r else "na",
                                    "%.3f" % l_s if l_s else "na"))
    # The same program built with our device runtime (side devrtl).
    dcases = [c for c in cases if ("devrtl", c) in vals]
    if dcases:
        print()
        print("with our device runtime (libomptarget-devicertl-nvptx.bc; our core and plugin):")
        for c in dcases:
            u = units.get(c, "?")
            cr, cd, co, cl = cost("raw", c), cost("devrtl", c), cost("ours", c), cost("llvm", c)
            d_r = cd / cr if cd and cr else None
            l_d = cl / cd if cl and cd else None
            o_d = co / cd if co and cd else None
            goal = GOALS.get(c)
            met = goal_met(goal, d_r, l_d)
            print("  %-22s %-9s %10s  devrtl/raw %s  LLVM/devrtl %s  ours(LLVM rtl)/devrtl %s  %%raw %s  %s -> %s" % (
                c, u, fmt(best("devrtl", c), u), "%.2f" % d_r if d_r else "-", "%.2f" % l_d if l_d else "-",
                "%.2f" % o_d if o_d else "-", "%.0f" % (100.0 / d_r) if d_r else "-",
                goal[2] if goal else "none", met))
            summaries.append("summary case=%s side=devrtl value=%s devrtl_over_raw=%s met=%s" % (
                c, best("devrtl", c), "%.3f" % d_r if d_r else "na", met))
    locked_tables(vals, units, extras, skips, best, cost, spread, summaries, have_c19)
    allocation_tables(vals, errors, best, cost, spread, summaries, have_c19)
    # The clang 19 build (side ours-c19): the g and h cases (those of the
    # first table have its columns), then a summary line per case.
    first = {}  # case -> its place in the results file
    for r in recs:
        first.setdefault(r["case"], len(first))
    c19_cases = sorted({c for (s, c) in vals if s == C19},
                       key=lambda c: (ORDER.index(c) if c in ORDER else len(ORDER), first[c]))
    gh_cases = [c for c in c19_cases if c not in ORDER]
    if gh_cases:
        print()
        print("the program built by clang 19 (ours-c19: LLVM 19's device runtime, our core and plugin, libomp 19), "
              "cases g and h; c19/raw = time(ours-c19) / time(raw's case), c19/ours = time(ours-c19) / time(ours):")
        hdr = "  %-22s %-7s %10s %10s %10s  %-22s %8s %8s %7s" % ("case", "unit", "ours-c19", "ours", "raw",
                                                                 "raw's case", "c19/raw", "c19/ours", "spread")
        print(hdr)
        print("  " + "-" * (len(hdr) - 2))
        for c in gh_cases:
            u = units.get(c, "?")
            rc, c_r, c_o = c19_ratios(c)
            sp = [spread(s, k) for (s, k) in ((C19, c), ("ours", c), ("raw", rc))]
            sp = [x for x in sp if x is not None]
            print("  %-22s %-7s %10s %10s %10s  %-22s %8s %8s %7s" % (
                c, u, fmt(best(C19, c), u), fmt(best("ours", c), u), fmt(best("raw", rc), u), rc,
                "%.2f" % c_r if c_r else "-", "%.2f" % c_o if c_o else "-",
                "%.0f%%" % (100 * max(sp)) if sp else "-"))
    for c in c19_cases:
        rc, c_r, c_o = c19_ratios(c)
        summaries.append("summary case=%s side=ours-c19 unit=%s value=%s raw_case=%s raw=%s ours=%s "
                         "c19_over_raw=%s c19_over_ours=%s" % (
                             c, units.get(c, "?"), best(C19, c), rc, best("raw", rc), best("ours", c),
                             "%.3f" % c_r if c_r else "na", "%.3f" % c_o if c_o else "na"))
    if errors:
        print()
        print("errors / skipped:")
        for (s, c), e in sorted(errors.items()):
            print("  %-13s %-22s %s" % (s, c, ", ".join(sorted(set(e)))))
    print()
    for line in summaries:
        print(line)


if __name__ == "__main__":
    main()
