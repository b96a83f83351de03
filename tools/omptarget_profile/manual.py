"""The text of `omptarget-profile --help`, a manual page (the usage line
first, as on a usage error, then NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
ENVIRONMENT, EXIT STATUS, FILES, SEE ALSO)."""

TEXT = """\
NAME
    omptarget-profile - summary table and timeline picture of an omptarget
    runtime profile

SYNOPSIS
    omptarget-profile PROFILE.json [-o OUT.png] [--from MS] [--to MS]
                      [--no-picture] [--width INCHES]
    omptarget-profile --help

DESCRIPTION
    Reads PROFILE.json, the Chrome Trace Event JSON that the omptarget
    runtime (libomptarget.so) writes at exit when a program runs with
    LIBOMPTARGET_PROFILE=PROFILE.json, and

    - prints its summary table on stdout: per device, its kernels (calls,
      total and mean time, launch shape), its transfers by direction and
      route (count, bytes, GB/s) and its allocations; then the host's
      constructs and runtime calls, longest total time first;
    - draws its timeline picture (unless --no-picture): one lane per host
      thread, then one per device queue, the spans as bars coloured by kind
      (host call, copy h2d/d2h/d2d, kernel, alloc, free), arrows from a
      host call to the device work it started, time in milliseconds.

    A truncated profile (a program killed while writing it) is read up to
    its cut, with a warning on stderr. The file also opens in trace viewers
    (Perfetto, chrome://tracing).

OPTIONS
    -o, --output OUT.png
        The picture's file; default: PROFILE.json with .png for .json.
        Another extension matplotlib knows (.svg, .pdf) picks that format.
    --from MS, --to MS
        A window, in milliseconds after the process start: the picture
        shows that stretch of time, the summary counts the spans starting
        in it (MS of --from included, of --to excluded).
    --no-picture
        Print the summary only (needs no matplotlib).
    --width INCHES
        The picture's width, 0.5 to 500 (default 12), at 100 dots per inch;
        its height is 1.5 inches plus 0.5 per lane.
    -h, --help
        Print this text and exit.

ENVIRONMENT
    The profile is made by the runtime, not by this tool:
    LIBOMPTARGET_PROFILE=FILE
        makes libomptarget.so write FILE at the program's exit;
    LIBOMPTARGET_PROFILE_SUMMARY=1
        makes it print the same summary table on stderr at exit.
    The tool itself reads:
    PYTHONPATH
        searched for matplotlib, as by every Python program. When the
        python3 running the tool lacks matplotlib and a picture is asked
        for, the tool runs itself again under /usr/bin/python3
        (OMPTARGET_PROFILE_REEXEC, set by the tool, marks that second run).

EXIT STATUS
    0   success (also for a truncated profile)
    1   the input is no profile (missing, empty, not JSON, no traceEvents)
        or the picture cannot be written; one line on stderr
    2   bad options, or a picture asked for without matplotlib (Debian
        package python3-matplotlib)

FILES
    The Python package omptarget_profile (trace.py reads a profile,
    summary.py makes the table, timeline.py draws the picture): beside the
    script in the source tree (tools/), in ../share/omptarget/python from
    the script's directory once installed.

SEE ALSO
    omptarget-info(1); docs/usage.md, "Profiling: LIBOMPTARGET_PROFILE and
    tools/omptarget-profile"; docs/env-vars.md.
"""
