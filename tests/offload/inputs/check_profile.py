#!/usr/bin/env python3
"""Checks a runtime profile (LIBOMPTARGET_PROFILE) for the offload tests.

  check_profile.py spans FILE
      Parses FILE strictly (json.load: a truncated or malformed file fails),
      checks the producer and the event fields, that every host span lies on
      a thread named in the metadata, has dur >= 0 and that spans of one
      thread that do not nest do not overlap; prints one line per span,
      "span <tid> <name> loc=<loc or -> device=<device or ->", in file order,
      then "profile ok: N spans on T host threads".
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
    elif sys.argv[1] == "same-summary":
        sys.exit(same_summary(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: check_profile.py spans FILE | same-summary RUNTIME TOOL")
