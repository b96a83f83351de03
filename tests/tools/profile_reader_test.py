#!/usr/bin/env python3
"""Unit tests of tools/omptarget_profile's reader and summary (standard
library only): every prefix of the sample reads without an exception, as a
truncated profile once the event array has begun; other key orders, the
bare array form, unknown and malformed events, data after the end; name
cutting."""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from omptarget_profile import summary, trace  # noqa: E402

with open(os.path.join(HERE, "profile_sample.json")) as f:
    SAMPLE = f.read()
FULL_SPANS = 33   # the sample's "X" events


class Prefixes(unittest.TestCase):
    def test_every_prefix(self):
        start = SAMPLE.index("[") + 1
        spans = 0
        for n in range(len(SAMPLE) + 1):
            text = SAMPLE[:n]
            if n < start:
                with self.assertRaises(trace.ProfileError):
                    trace.parse(text)
                continue
            p = trace.parse(text)
            self.assertGreaterEqual(len(p.spans), spans, n)
            spans = len(p.spans)
            self.assertEqual(p.truncated, n < len(SAMPLE.rstrip()), n)
            summary.summary_lines(p)
        self.assertEqual(spans, FULL_SPANS)

    def test_cut_after_the_array(self):
        p = trace.parse(SAMPLE[:SAMPLE.index("]") + 1])
        self.assertTrue(p.truncated)
        self.assertEqual(len(p.spans), FULL_SPANS)
        self.assertIn("truncated", p.warnings[0])


class Forms(unittest.TestCase):
    SPAN = {"ph": "X", "pid": 1000, "tid": 0, "cat": "kernel", "name": "k", "ts": 1, "dur": 2,
            "args": {"teams": 1, "threads": 32}}

    def test_events_last_and_cut(self):
        text = ('{"displayTimeUnit": "ns", "otherData": {"producer": "omptarget"}, '
                '"traceEvents": [%s, %s' % (json.dumps(self.SPAN), json.dumps(self.SPAN)[:-3]))
        p = trace.parse(text)
        self.assertTrue(p.truncated)
        self.assertEqual(len(p.spans), 1)

    def test_events_last_complete(self):
        p = trace.parse('{"otherData": {}, "traceEvents": [%s]}' % json.dumps(self.SPAN))
        self.assertFalse(p.truncated)
        self.assertEqual(p.warnings, [])
        self.assertEqual(len(p.spans), 1)

    def test_bare_array_without_its_end(self):
        p = trace.parse("[%s,\n%s,\n" % (json.dumps(self.SPAN), json.dumps(self.SPAN)))
        self.assertTrue(p.truncated)
        self.assertEqual(len(p.spans), 2)

    def test_data_after_the_end(self):
        p = trace.parse('{"traceEvents": [%s]} trailing' % json.dumps(self.SPAN))
        self.assertFalse(p.truncated)
        self.assertEqual(len(p.spans), 1)
        self.assertIn("data after its end", p.warnings[0])

    def test_unknown_and_malformed_events_ignored(self):
        bad = [1, "x", None, [], {"ph": "X"}, {"ph": "X", "pid": 1000, "ts": "1", "dur": 1},
               {"ph": "X", "pid": 1000, "ts": 1, "dur": -1}, {"ph": "X", "pid": True, "ts": 1, "dur": 1},
               {"ph": "X", "pid": 1000, "ts": 1, "dur": float("inf")},
               {"ph": "M", "name": "process_name", "pid": 1000, "args": "no"},
               {"ph": "Q", "pid": 0, "tid": 1, "ts": 1}, {"ph": "f", "pid": 0, "ts": 1}]
        span = dict(self.SPAN, extra={"nested": [1]}, args={"teams": "many", "threads": None})
        p = trace.parse(json.dumps({"traceEvents": bad + [span]}))
        self.assertEqual(len(p.spans), 1)
        self.assertEqual(p.flows, [])
        self.assertEqual(summary.summary_lines(p)[3].split()[-3:], ["?", "x", "?"])


class Layout(unittest.TestCase):
    def kernel_line(self, name):
        span = {"ph": "X", "pid": 1003, "tid": 0, "cat": "kernel", "name": name, "ts": 0,
                "dur": 1.5, "args": {"teams": 2, "threads": 64}}
        return summary.summary_lines(trace.parse(json.dumps({"traceEvents": [span]})))

    def test_names_cut_at_40(self):
        lines = self.kernel_line("k" * 40)
        self.assertEqual(lines[1], "device 3")
        self.assertEqual(lines[3], "  " + "k" * 40 + "        1      0.002      1.500      1.500  2 x 64")
        self.assertEqual(self.kernel_line("k" * 41)[3][:43], "  " + "k" * 39 + "~ ")

    def test_empty_profile(self):
        self.assertEqual(summary.summary_text(trace.parse('{"traceEvents": []}')),
                         "omptarget profile summary\n")


if __name__ == "__main__":
    unittest.main()
