"""The timeline picture of a profile (PNG, matplotlib's Agg backend).

Contract: draw(profile, path, width_in, from_ms, to_ms) writes a PNG of
width_in x height_in(lanes) inches at DPI dots per inch: one lane per host
thread (pid 0, by tid) and then per device queue (pid 1000+D, by D, then
tid), labelled with the metadata names; every span a bar coloured by its
kind (host call; copy by direction; kernel; alloc; free; other), a legend of
the kinds drawn, the flow arrows from host calls to their device work as
thin lines, x in milliseconds over [from_ms, to_ms] (default: 0 to the last
span's end). One artist per lane and kind (the rectangles that
Axes.broken_barh would draw, as one compound path built from arrays, without
its per-span Python objects), so 100k+ spans stay cheap. Importing this
module needs matplotlib (and its numpy).
"""
import matplotlib
import numpy

matplotlib.use("Agg")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch, PathPatch  # noqa: E402
from matplotlib.path import Path  # noqa: E402

from . import trace  # noqa: E402

DPI = 100

# kind -> (legend label, colour), in legend order.
KINDS = {
    "host": ("host call", "#4878d0"),
    "h2d": ("copy h2d", "#ee854a"),
    "d2h": ("copy d2h", "#6acc64"),
    "d2d": ("copy d2d", "#956cb4"),
    "copy": ("copy (other)", "#8c613c"),
    "kernel": ("kernel", "#d65f5f"),
    "alloc": ("alloc", "#d5bb67"),
    "free": ("free", "#82c6e2"),
    "other": ("other", "#a0a0a0"),
}


def height_in(lanes):
    """The picture's height in inches for a number of lanes."""
    return 1.5 + 0.5 * max(lanes, 1)


def _kind(span):
    if span.pid == trace.HOST_PID:
        return "host"
    if span.cat == "copy":
        direction = span.args.get("direction")
        return direction if direction in ("h2d", "d2h", "d2d") else "copy"
    return span.cat if span.cat in ("kernel", "alloc", "free") else "other"


def lanes(profile):
    """The (pid, tid) of every lane, in drawing order (top first)."""
    keys = set(profile.thread_names) | {(s.pid, s.tid) for s in profile.spans}
    keys = [k for k in keys if k[0] == trace.HOST_PID or trace.is_device(k[0])]
    return sorted(keys)


def _label(profile, pid, tid):
    thread = profile.thread_name(pid, tid)
    if pid == trace.HOST_PID:
        return thread
    return "%s\n%s" % (profile.process_name(pid), thread)


def _flow_segments(profile, row, lo, hi):
    starts, segments = {}, []
    for end in profile.flows:
        if end.phase == "s":
            starts.setdefault(end.id, end)
            continue
        s = starts.get(end.id)
        if s is None or (s.pid, s.tid) not in row or (end.pid, end.tid) not in row:
            continue
        x0, x1 = s.ts / 1000.0, end.ts / 1000.0
        if min(x0, x1) <= hi and max(x0, x1) >= lo:
            segments.append([(x0, row[(s.pid, s.tid)]), (x1, row[(end.pid, end.tid)])])
    return segments


_RECT_CODES = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]


def _bars(xranges, y0, height, colour, min_width):
    """The rectangles [start, start + width] x [y0, y0 + height] of
    xranges ((start, width) pairs; a width at least min_width, so that
    every span shows) as one PathPatch, filled, not stroked."""
    r = numpy.asarray(xranges, dtype=float)
    x0, x1 = r[:, 0], r[:, 0] + numpy.maximum(r[:, 1], min_width)
    verts = numpy.empty((len(r), 5, 2))
    verts[:, :, 0] = numpy.stack([x0, x0, x1, x1, x0], axis=1)
    verts[:, :, 1] = [y0, y0 + height, y0 + height, y0, y0]
    codes = numpy.tile(numpy.array(_RECT_CODES, dtype=Path.code_type), len(r))
    return PathPatch(Path(verts.reshape(-1, 2), codes), facecolor=colour, linewidth=0)


def draw(profile, path, width_in=12.0, from_ms=None, to_ms=None):
    keys = lanes(profile)
    row = {k: i for i, k in enumerate(keys)}
    lo = 0.0 if from_ms is None else from_ms
    if to_ms is not None:
        hi = to_ms
    else:
        ends = [(s.ts + s.dur) / 1000.0 for s in profile.spans if (s.pid, s.tid) in row]
        hi = max(ends, default=0.0)
    if hi <= lo:   # nothing after --from, or --to at or before 0
        if to_ms is None:
            hi = lo + 1.0
        else:
            lo = hi - 1.0
    bars = {}   # (lane, kind) -> [(start_ms, dur_ms)]
    for s in profile.spans:
        lane = row.get((s.pid, s.tid))
        start, dur = s.ts / 1000.0, s.dur / 1000.0
        if lane is None or start > hi or start + dur < lo:
            continue
        bars.setdefault((lane, _kind(s)), []).append((start, dur))

    fig = Figure(figsize=(width_in, height_in(len(keys))), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    pixel = (hi - lo) / (width_in * DPI)   # under one pixel of the axes
    order = list(KINDS)
    for (lane, kind), xranges in sorted(bars.items(), key=lambda kv: order.index(kv[0][1])):
        ax.add_artist(_bars(xranges, lane - 0.4, 0.8, KINDS[kind][1], pixel))
    segments = _flow_segments(profile, row, lo, hi)
    if segments:
        ax.add_collection(LineCollection(segments, colors="#404040", linewidths=0.5, alpha=0.5),
                          autolim=False)
    ax.set_xlim(lo, hi)
    ax.set_ylim(max(len(keys), 1) - 0.5, -0.5)
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels([_label(profile, *k) for k in keys], fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.set_xlabel("time (ms)", fontsize=9)
    ax.grid(axis="x", color="#e0e0e0", linewidth=0.5)
    ax.set_axisbelow(True)
    drawn = {kind for _, kind in bars}
    handles = [Patch(color=colour, label=label) for kind, (label, colour) in KINDS.items()
               if kind in drawn]
    top = 1.0
    if handles:
        # Entries about 1.2 inches wide each, as many rows as needed.
        ncol = max(1, min(len(handles), int(width_in / 1.2)))
        rows = -(-len(handles) // ncol)
        fig.legend(handles=handles, loc="upper center", ncol=ncol, fontsize=8, frameon=False)
        top = 1.0 - (0.1 + 0.22 * rows) / fig.get_figheight()
    fig.tight_layout(rect=(0.0, 0.0, 1.0, top))
    fig.savefig(path, dpi=DPI)
