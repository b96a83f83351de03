"""The library behind tools/omptarget-profile: reading a runtime profile
(trace.py), its summary table (summary.py) and its timeline picture
(timeline.py, the only part that needs matplotlib)."""
