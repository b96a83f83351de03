"""Reads a runtime profile: the Chrome Trace Event JSON that the runtime
writes with LIBOMPTARGET_PROFILE=FILE.

Contract:
- load(path) returns a Profile or raises ProfileError (one line, for the
  user: unreadable file, empty file, not JSON, no traceEvents array).
- The document is {"traceEvents": [...], ...} (keys in any order) or a bare
  event array. A file cut short (a program killed while writing it) is
  accepted: every event completely written before the cut is read,
  Profile.truncated is set and Profile.warnings says where the cut is.
  Damage in the middle of a file is treated the same way: the events before
  it are read.
- Events kept: "X" spans (pid, tid, ts and dur numbers; times in
  microseconds), "M" process_name / thread_name metadata, "s" / "f" flow
  ends. Anything else, and any unknown field, is ignored; a span whose
  pid, tid, ts or dur is not a number is skipped.
"""
import json
import math
from collections import namedtuple

HOST_PID = 0
DEVICE_PID_BASE = 1000

# One "X" event. ts and dur in microseconds; args always a dict.
Span = namedtuple("Span", "pid tid cat name ts dur args")
# One end of a flow arrow: phase "s" (start) or "f" (finish).
FlowEnd = namedtuple("FlowEnd", "phase id pid tid ts")


class ProfileError(Exception):
    """Input that is not a profile; the message is one line."""


class Profile:
    def __init__(self):
        self.spans = []           # Span, in file order
        self.flows = []           # FlowEnd, in file order
        self.process_names = {}   # pid -> name
        self.thread_names = {}    # (pid, tid) -> name
        self.truncated = False    # the file ends before its document does
        self.warnings = []        # sentences for the user (where the cut is)

    def process_name(self, pid):
        if pid in self.process_names:
            return self.process_names[pid]
        if pid == HOST_PID:
            return "host"
        return "device %d" % device_of(pid) if is_device(pid) else "process %d" % pid

    def thread_name(self, pid, tid):
        if (pid, tid) in self.thread_names:
            return self.thread_names[(pid, tid)]
        return ("host thread %d" if pid == HOST_PID else "queue %d") % tid


def is_device(pid):
    return pid >= DEVICE_PID_BASE


def device_of(pid):
    return pid - DEVICE_PID_BASE


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _add_event(profile, ev):
    if not isinstance(ev, dict):
        return
    ph = ev.get("ph")
    pid, tid = ev.get("pid"), ev.get("tid", 0)
    if not _is_int(pid) or not _is_int(tid):
        return
    if ph == "X":
        ts, dur = ev.get("ts"), ev.get("dur")
        if not _is_number(ts) or not _is_number(dur) or dur < 0:
            return
        args = ev.get("args")
        name = ev.get("name")
        profile.spans.append(Span(pid, tid, str(ev.get("cat", "")),
                                  name if isinstance(name, str) else str(name),
                                  float(ts), float(dur),
                                  args if isinstance(args, dict) else {}))
    elif ph == "M":
        args = ev.get("args")
        label = args.get("name") if isinstance(args, dict) else None
        if not isinstance(label, str):
            return
        if ev.get("name") == "process_name":
            profile.process_names[pid] = label
        elif ev.get("name") == "thread_name":
            profile.thread_names[(pid, tid)] = label
    elif ph in ("s", "f"):
        ts = ev.get("ts")
        if _is_number(ts) and "id" in ev:
            profile.flows.append(FlowEnd(ph, str(ev["id"]), pid, tid, float(ts)))


class _Cut(Exception):
    """The text ends (or breaks) at offset pos."""

    def __init__(self, pos):
        super().__init__(pos)
        self.pos = pos


class _PartialReader:
    """Reads the complete events of a document that json.loads refused."""

    def __init__(self, text, profile):
        self.text, self.profile = text, profile
        self.decoder = json.JSONDecoder()
        self.found_events = False
        self.count = 0           # complete events read, kept or not

    def skip(self, i):
        text = self.text
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(self, i):
        try:
            return self.decoder.raw_decode(self.text, i)
        except (json.JSONDecodeError, RecursionError):
            raise _Cut(i) from None

    def expect(self, i, chars):
        i = self.skip(i)
        if i >= len(self.text) or self.text[i] not in chars:
            raise _Cut(i)
        return i + 1, self.text[i]

    def events(self, i):
        """i: just after '['. Returns the offset after the closing ']'."""
        self.found_events = True
        i = self.skip(i)
        if self.text.startswith("]", i):
            return i + 1
        while True:
            ev, i = self.value(self.skip(i))
            self.count += 1
            _add_event(self.profile, ev)
            i, sep = self.expect(i, ",]")
            if sep == "]":
                return i

    def document(self):
        i, first = self.expect(0, "{[")
        if first == "[":
            return self.events(i)
        i = self.skip(i)
        if self.text.startswith("}", i):
            return i + 1
        while True:
            key, i = self.value(self.skip(i))
            i, _ = self.expect(i, ":")
            i = self.skip(i)
            if key == "traceEvents" and self.text.startswith("[", i):
                i = self.events(i + 1)
            else:
                _, i = self.value(i)
            i, sep = self.expect(i, ",}")
            if sep == "}":
                return i


def _read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ProfileError("cannot read %s: %s" % (path, e.strerror or e)) from None
    # A cut may split a UTF-8 sequence: replace what does not decode.
    return data.decode("utf-8", errors="replace")


def parse(text, path="<profile>"):
    """The Profile of a document's text (see the module's contract)."""
    profile = Profile()
    if not text.strip():
        raise ProfileError("%s: empty file, not a profile" % path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        return _parse_partial(text, path, profile, e)
    except RecursionError:
        raise ProfileError("%s: not a profile (JSON nested too deeply)" % path) from None
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        raise ProfileError("%s: not a profile (no traceEvents array)" % path)
    for ev in events:
        _add_event(profile, ev)
    return profile


def _parse_partial(text, path, profile, error):
    reader = _PartialReader(text, profile)
    try:
        end = reader.document()
    except _Cut as cut:
        if not reader.found_events:
            raise ProfileError("%s: not a profile (not JSON: %s at line %d column %d)"
                               % (path, error.msg, error.lineno, error.colno)) from None
        profile.truncated = True
        profile.warnings.append("%s is truncated at byte %d of %d (a program killed while "
                                "writing it?): read the %d complete events before the cut"
                                % (path, len(text[:cut.pos].encode("utf-8")),
                                   len(text.encode("utf-8")), reader.count))
        return profile
    if not reader.found_events:
        raise ProfileError("%s: not a profile (no traceEvents array)" % path)
    profile.warnings.append("%s has data after its end (from byte %d), ignored"
                            % (path, len(text[:end].encode("utf-8"))))
    return profile


def load(path):
    """Reads the profile at path (see the module's contract)."""
    return parse(_read_text(path), path)
