#!/usr/bin/env python3
"""Checks a runtime profile (LIBOMPTARGET_PROFILE) for the offload tests.

  check_profile.py spans FILE
      Parses FILE strictly (json.load: a truncated or malformed file fails),
      checks the producer and the event fields, that every host span lies on
      a thread named in the metadata, has dur >= 0 and that spans of one
      thread that do not nest do not overlap; prints one line per span,
      "span <tid> <name> loc=<loc or -> device=<device or ->", in file order,
      then "profile ok: N spans on T host threads".
  check_profile.py device FILE
      Parses FILE strictly and checks its device side: every device span
      lies on a track named in the metadata of a named device process, has a
      known category with its fields (copies: bytes > 0, direction, route;
      kernels: kernel, teams, threads; alloc/free: bytes), and the spans of
      one track do not overlap (a queue runs its work in order); every flow
      has both ends, its start inside a host span of its thread and its end
      at the start of a device span on its track. Prints, in time order, one
      line per copy and kernel, "work <device> <queue|inline> copy <dir>
      <bytes> <route>" / "work <device> <queue|inline> kernel <name>
      <teams> x <threads>", then "moved h2d=N d2h=N d2d=N", "memory
      alloc=N free=N" (bytes), "flows F of W device spans" and "device
      tracks ok: W spans on T tracks".
  check_profile.py same-summary RUNTIME_OUTPUT TOOL_OUTPUT
      The table the runtime printed at exit (from its "omptarget profile
      summary" line to the end of its output) is the one
      tools/omptarget-profile printed from the file: prints "summaries
      agree (N lines)" or the first difference, exit 1.
"""
import json
import sys


def spans(path):
    with open(path) as f:
        doc = json.load(f)
    other = doc.get("otherData", {})
    assert other.get("producer") == "omptarget", "producer: %r" % other
    threads = {}
    out = []
    for e in doc["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "X" and e.get("pid") == 0:
            assert (0, e["tid"]) in threads, "span on an unnamed thread: %r" % e
            assert e["dur"] >= 0, "negative duration: %r" % e
            out.append(e)
    by_thread = {}
    for e in out:
        by_thread.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for tid, items in by_thread.items():
        items.sort()
        stack = []
        for begin, end, name in items:
            while stack and stack[-1][1] <= begin:
                stack.pop()
            if stack:  # nested: must end inside its parent
                assert end <= stack[-1][1] + 0.002, "%s overlaps %s on thread %d" % (
                    name, stack[-1][2], tid)
            stack.append((begin, end, name))
    for e in out:
        args = e.get("args", {})
        print("span %d %s loc=%s device=%s" % (e["tid"], e["name"], args.get("loc", "-"),
                                              args.get("device", "-")))
    print("profile ok: %d spans on %d host threads" % (len(out), len(by_thread)))


def device(path):
    with open(path) as f:
        doc = json.load(f)
    processes, tracks, host, work, flows = {}, {}, {}, [], {}
    for e in doc["traceEvents"]:
        ph = e.get("ph")
        if ph == "M" and e.get("name") == "process_name":
            processes[e["pid"]] = e["args"]["name"]
        elif ph == "M" and e.get("name") == "thread_name":
            tracks[(e["pid"], e["tid"])] = e["args"]["name"]
        elif ph == "X" and e.get("pid") == 0:
            host.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"]))
        elif ph == "X":
            work.append(e)
        elif ph in ("s", "f"):
            flows.setdefault(e["id"], {})[ph] = e
    eps = 0.002
    by_track = {}
    for e in work:
        assert e["pid"] >= 1000 and e["pid"] in processes, "span of an unnamed device: %r" % e
        assert (e["pid"], e["tid"]) in tracks, "span on an unnamed track: %r" % e
        assert e["dur"] >= 0, "negative duration: %r" % e
        a, cat = e["args"], e["cat"]
        if cat == "copy":
            assert a["bytes"] > 0 and a["direction"] in ("h2d", "d2h", "d2d"), e
            assert a["route"] in ("pageable", "pinned", "staged", "device"), e
        elif cat == "kernel":
            assert a["kernel"] == e["name"] and isinstance(a["teams"], int), e
            assert isinstance(a["threads"], int), e
        else:
            assert cat in ("alloc", "free") and a["bytes"] >= 0, e
        by_track.setdefault((e["pid"], e["tid"]), []).append(e)
    for key, items in by_track.items():
        items.sort(key=lambda e: e["ts"])
        for prev, cur in zip(items, items[1:]):
            assert cur["ts"] + eps >= prev["ts"] + prev["dur"], "%s overlaps %s on %s" % (
                cur["name"], prev["name"], tracks[key])
    starts = {(e["pid"], e["tid"], e["ts"]) for e in work}
    for ident, ends in flows.items():
        assert set(ends) == {"s", "f"}, "flow %r lacks an end" % ident
        s_, f_ = ends["s"], ends["f"]
        assert s_["pid"] == 0 and any(b - eps <= s_["ts"] <= e + eps
                                      for b, e in host.get(s_["tid"], [])), \
            "flow %r starts outside the host spans of thread %r" % (ident, s_["tid"])
        assert (f_["pid"], f_["tid"], f_["ts"]) in starts, \
            "flow %r does not end at a device span's start" % ident
    moved = {"h2d": 0, "d2h": 0, "d2d": 0}
    memory = {"alloc": 0, "free": 0}
    for e in sorted(work, key=lambda e: e["ts"]):
        a, dev = e["args"], e["pid"] - 1000
        kind = "queue" if tracks[(e["pid"], e["tid"])].startswith("queue") else "inline"
        if e["cat"] == "copy":
            moved[a["direction"]] += a["bytes"]
            print("work %d %s copy %s %d %s" % (dev, kind, a["direction"], a["bytes"], a["route"]))
        elif e["cat"] == "kernel":
            print("work %d %s kernel %s %d x %d" % (dev, kind, e["name"], a["teams"], a["threads"]))
        else:
            memory[e["cat"]] += a["bytes"]
    print("moved h2d=%d d2h=%d d2d=%d" % (moved["h2d"], moved["d2h"], moved["d2d"]))
    print("memory alloc=%d free=%d" % (memory["alloc"], memory["free"]))
    print("flows %d of %d device spans" % (len(flows), len(work)))
    print("device tracks ok: %d spans on %d tracks" % (len(work), len(by_track)))


def summary_lines(path):
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if line == "omptarget profile summary":
            return lines[i:]
    return []


def same_summary(runtime_path, tool_path):
    a, b = summary_lines(runtime_path), summary_lines(tool_path)
    if not a:
        print("no summary in %s" % runtime_path)
        return 1
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print("line %d differs:\n  runtime: %s\n  tool:    %s" % (i + 1, x, y))
            return 1
    if len(a) != len(b):
        print("lengths differ: runtime %d lines, tool %d" % (len(a), len(b)))
        return 1
    print("summaries agree (%d lines)" % len(a))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "spans":
        spans(sys.argv[2])
    elif sys.argv[1] == "device":
        device(sys.argv[2])
    elif sys.argv[1] == "same-summary":
        sys.exit(same_summary(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: check_profile.py spans FILE | device FILE | same-summary RUNTIME TOOL")
