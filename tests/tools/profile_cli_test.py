#!/usr/bin/env python3
"""Runs tools/omptarget-profile as a user would and checks what it does
outside its summary (whose figures profile_summary.check checks).

Usage: profile_cli_test.py CASE TOOL SAMPLE_DIR WORK_DIR
  png            the picture: a PNG (signature) of the width asked for and
                 the height of the sample's 6 lanes, also with --from/--to,
                 and PROFILE.png beside PROFILE.json by default; exits 77
                 (skipped) when the tool says matplotlib is missing
  no-matplotlib  with matplotlib hidden: a picture is exit status 2 and one
                 line naming python3-matplotlib; --no-picture still works
  bad-input      a missing file, a directory, an empty file, not JSON, JSON
                 that is no profile: exit status 1, one error line, no
                 traceback, nothing on stdout; bad options: exit status 2
Prints "profile CASE: ok".
"""
import os
import shutil
import struct
import subprocess
import sys

CASE, TOOL, SAMPLES, WORK = sys.argv[1:5]
SAMPLE = os.path.join(SAMPLES, "profile_sample.json")
SAMPLE_LANES = 6   # 2 host threads, 2 devices x 2 queues
DPI = 100


def run(args, env=None):
    p = subprocess.run([TOOL] + args, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def fail(msg):
    sys.exit("profile %s: FAILED: %s" % (CASE, msg))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        fail("%s is not a PNG: %r" % (path, head))
    return struct.unpack(">II", head[16:24])


def check_png(args, path, width_in):
    if os.path.exists(path):
        os.remove(path)
    rc, out, err = run(args)
    if rc == 2 and "python3-matplotlib" in err:
        print("profile png: skipped, no matplotlib: " + err.strip())
        sys.exit(77)
    if rc != 0 or not out.startswith("omptarget profile summary\n"):
        fail("%s: exit status %d, stderr %r" % (args, rc, err))
    size = png_size(path)
    want = (round(width_in * DPI), round((1.5 + 0.5 * SAMPLE_LANES) * DPI))
    if size != want:
        fail("%s is %d x %d pixels, not %d x %d" % ((path,) + size + want))


def case_png():
    os.makedirs(WORK, exist_ok=True)
    out = os.path.join(WORK, "profile_picture.png")
    check_png([SAMPLE, "-o", out, "--width", "12"], out, 12)
    check_png([SAMPLE, "-o", out, "--width", "7.5", "--from", "1", "--to", "2"], out, 7.5)
    copy = os.path.join(WORK, "profile_copy.json")
    shutil.copyfile(SAMPLE, copy)
    check_png([copy], os.path.join(WORK, "profile_copy.png"), 12)


def case_no_matplotlib():
    env = dict(os.environ)
    hidden = os.path.join(SAMPLES, "no_matplotlib")
    env["PYTHONPATH"] = hidden + os.pathsep + env.get("PYTHONPATH", "")
    rc, out, err = run([SAMPLE, "-o", os.path.join(WORK, "never.png")], env)
    lines = err.splitlines()
    if rc != 2 or len(lines) != 1 or "python3-matplotlib" not in err or out:
        fail("picture without matplotlib: exit status %d, stdout %r, stderr %r" % (rc, out, err))
    rc, out, err = run([SAMPLE, "--no-picture"], env)
    if rc != 0 or not out.startswith("omptarget profile summary\ndevice 0: ") or err:
        fail("--no-picture without matplotlib: exit status %d, stderr %r" % (rc, err))


def case_bad_input():
    os.makedirs(WORK, exist_ok=True)
    files = {"empty.json": "", "not_json.json": "this is not JSON\n",
             "no_events.json": '{"displayTimeUnit": "ns"}', "events_not_list.json": '{"traceEvents": 3}',
             "garbage.json": '{"traceEvents" [1, 2'}
    for name, text in files.items():
        with open(os.path.join(WORK, name), "w") as f:
            f.write(text)
    cases = [os.path.join(WORK, "missing.json"), WORK] + [os.path.join(WORK, n) for n in files]
    for path in cases:
        rc, out, err = run([path, "--no-picture"])
        lines = err.splitlines()
        if (rc != 1 or out or len(lines) != 1 or "Traceback" in err
                or not lines[0].startswith("omptarget-profile: ") or path not in lines[0]):
            fail("%s: exit status %d, stdout %r, stderr %r" % (path, rc, out, err))
    for args in (["--width", "wide", SAMPLE], ["--from", "2", "--to", "1", SAMPLE], [],
                 [SAMPLE, "--bogus"]):
        rc, out, err = run(args)
        if rc != 2 or out or "usage: omptarget-profile" not in err or "Traceback" in err:
            fail("%s: exit status %d, stdout %r, stderr %r" % (args, rc, out, err))


{"png": case_png, "no-matplotlib": case_no_matplotlib, "bad-input": case_bad_input}[CASE]()
print("profile %s: ok" % CASE)
