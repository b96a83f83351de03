"""The summary table of a profile: per device (in device-number order) its
kernels, transfers and allocations, then the host's calls. The runtime
prints the same table with LIBOMPTARGET_PROFILE_SUMMARY=1, so the layout is
fixed and every figure is computed one way:

- Spans counted: those whose start (ts) lies in [from_ms, to_ms), compared
  in milliseconds as ts / 1000; no bound means no limit. Host spans: pid 0.
  Device D's spans: pid 1000+D, by category "kernel", "copy", "alloc",
  "free" (other categories are not counted).
- Totals are sums of dur in file order (microseconds); "total ms" is
  total / 1000 with 3 decimals, "mean us" total / calls and "max us" with 3
  decimals; GB/s is bytes / total_us / 1000 with 2 decimals, "-" when the
  total is 0.
- Kernels by total descending (ties: name ascending); teams x threads is the
  most frequent shape (ties: the first seen in file order), " (+N more)"
  when the kernel ran with N other shapes; a missing teams or threads is "?".
- Transfers by (direction, route): directions h2d, d2h, d2d, then any other
  alphabetically; routes alphabetically. Missing fields: "?", 0 bytes.
- Allocations: the rows alloc, then free.
- Host calls by total descending (ties: name ascending), then the host
  time spent in the runtime: the sum of the durations of each host
  thread's outermost spans (a span is outermost when it starts at or after
  the end, ts + dur, of the thread's last outermost span; file order).
- Names are left-aligned in their column and cut to its width with a
  trailing "~"; numbers right-aligned (a wider number widens its line).
- A section with no rows is omitted, a device or host with none at all too.
"""
import math

from . import trace

DIRECTION_ORDER = {"h2d": 0, "d2h": 1, "d2d": 2}


def _cut(name, width):
    return name if len(name) <= width else name[:width - 1] + "~"


def _ms(us):
    return "%.3f" % (us / 1000.0)


def _us(us):
    return "%.3f" % us


def _gbps(nbytes, us):
    return "-" if us == 0 else "%.2f" % (nbytes / us / 1000.0)


def _int_arg(args, key):
    v = args.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return int(v)


def _str_arg(args, key):
    v = args.get(key)
    return v if isinstance(v, str) else "?"


class _Calls:
    """calls, total and max duration of one name; the shapes of a kernel."""

    def __init__(self):
        self.calls, self.total, self.max = 0, 0.0, 0.0
        self.shapes = {}   # shape -> count, in first-seen order

    def add(self, dur, shape=None):
        self.calls += 1
        self.total += dur
        self.max = max(self.max, dur)
        if shape is not None:
            self.shapes[shape] = self.shapes.get(shape, 0) + 1

    def shape(self):
        best = max(self.shapes.values())
        first = next(s for s, n in self.shapes.items() if n == best)
        more = len(self.shapes) - 1
        return first + (" (+%d more)" % more if more else "")


class _Device:
    def __init__(self):
        self.kernels = {}     # name -> _Calls
        self.transfers = {}   # (direction, route) -> [count, bytes, total]
        self.memory = {}      # "alloc" / "free" -> [count, bytes, total]

    def add(self, span):
        if span.cat == "kernel":
            teams, threads = _int_arg(span.args, "teams"), _int_arg(span.args, "threads")
            shape = "%s x %s" % ("?" if teams is None else teams,
                                 "?" if threads is None else threads)
            self.kernels.setdefault(span.name, _Calls()).add(span.dur, shape)
        elif span.cat == "copy":
            key = (_str_arg(span.args, "direction"), _str_arg(span.args, "route"))
            _add_sized(self.transfers, key, span)
        elif span.cat in ("alloc", "free"):
            _add_sized(self.memory, span.cat, span)

    def lines(self):
        out = []
        if self.kernels:
            out.append("  %-40s%9s%11s%11s%11s  %s"
                       % ("kernel", "calls", "total ms", "mean us", "max us", "teams x threads"))
            for name, k in sorted(self.kernels.items(), key=lambda kv: (-kv[1].total, kv[0])):
                out.append("  %-40s%9d%11s%11s%11s  %s"
                           % (_cut(name, 40), k.calls, _ms(k.total), _us(k.total / k.calls),
                              _us(k.max), k.shape()))
        if self.transfers:
            out.append("  %-10s%-8s%10s%15s%11s%11s"
                       % ("transfer", "route", "count", "bytes", "total ms", "GB/s"))
            order = lambda key: (DIRECTION_ORDER.get(key[0], len(DIRECTION_ORDER)), key[0], key[1])
            for (direction, route) in sorted(self.transfers, key=order):
                count, nbytes, total = self.transfers[(direction, route)]
                out.append("  %-10s%-8s%10d%15d%11s%11s"
                           % (_cut(direction, 10), _cut(route, 8), count, nbytes, _ms(total),
                              _gbps(nbytes, total)))
        if self.memory:
            out.append("  %-18s%10s%15s%11s" % ("alloc/free", "count", "bytes", "total ms"))
            for kind in ("alloc", "free"):
                if kind in self.memory:
                    count, nbytes, total = self.memory[kind]
                    out.append("  %-18s%10d%15d%11s" % (kind, count, nbytes, _ms(total)))
        return out


def _add_sized(table, key, span):
    row = table.setdefault(key, [0, 0, 0.0])
    row[0] += 1
    row[1] += _int_arg(span.args, "bytes") or 0
    row[2] += span.dur


def _in_window(span, from_ms, to_ms):
    start = span.ts / 1000.0
    return (from_ms is None or start >= from_ms) and (to_ms is None or start < to_ms)


def summary_lines(profile, from_ms=None, to_ms=None):
    """The summary table of profile as a list of lines (no newlines)."""
    devices = {}
    host = {}
    outer_end = {}     # host tid -> end of its last outermost span
    in_runtime = 0.0
    for span in profile.spans:
        if not _in_window(span, from_ms, to_ms):
            continue
        if span.pid == trace.HOST_PID:
            host.setdefault(span.name, _Calls()).add(span.dur)
            if span.tid not in outer_end or span.ts >= outer_end[span.tid]:
                in_runtime += span.dur
                outer_end[span.tid] = span.ts + span.dur
        elif trace.is_device(span.pid):
            devices.setdefault(span.pid, _Device()).add(span)
    out = ["omptarget profile summary"]
    for pid in sorted(devices):
        body = devices[pid].lines()
        if body:
            out.append(profile.process_name(pid))
            out.extend(body)
    if host:
        out.append(profile.process_name(trace.HOST_PID))
        out.append("  %-40s%9s%11s%11s" % ("call", "calls", "total ms", "mean us"))
        for name, c in sorted(host.items(), key=lambda kv: (-kv[1].total, kv[0])):
            out.append("  %-40s%9d%11s%11s"
                       % (_cut(name, 40), c.calls, _ms(c.total), _us(c.total / c.calls)))
        out.append("  in the runtime: %s ms of host time (outermost calls of every thread)"
                   % _ms(in_runtime))
    return out


def summary_text(profile, from_ms=None, to_ms=None):
    return "".join(line + "\n" for line in summary_lines(profile, from_ms, to_ms))
