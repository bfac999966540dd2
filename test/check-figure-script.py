#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run a figure script of examples/ in its quick mode into a fresh directory, and check that
it exits 0 and writes each named figure as a PNG of a plausible size.

    check-figure-script.py SCRIPT OUT_DIR NAME[,NAME...] BUILD_DIR

A NAME that ends in .csv is the figures' points table (FigureRun.save_points): it must list
points of the named figures only, each with a finite mean inside its interval, and every
named figure must have a point.

The script is run as a user runs it from a clone, without PYTHONPATH: it must find the
package itself, in ../build/python beside examples/, or through EDGELLM_BUILD_DIR when the
build is elsewhere.
"""

import csv
import math
import os
import shutil
import struct
import subprocess
import sys
import time


def png_size(path):
    """A PNG's width and height from its IHDR chunk, or None if it is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


POINT_COLUMNS = ["figure", "series", "x", "mean", "ci_low", "ci_high", "runs", "samples"]


def point_errors(path, figures):
    """What is wrong with a points table whose figures should be ``figures``."""
    if not os.path.exists(path):
        return ["%s: missing" % path]
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != POINT_COLUMNS:
            return ["%s: columns %s, expected %s" % (path, reader.fieldnames, POINT_COLUMNS)]
        rows = list(reader)
    errors = []
    for i, row in enumerate(rows, start=2):
        if row["figure"] not in figures:
            errors.append("%s:%d: figure %s is not one of %s" % (path, i, row["figure"],
                                                                 figures))
        mean = float(row["mean"])
        low = float(row["ci_low"] or "nan")
        high = float(row["ci_high"] or "nan")
        if not math.isfinite(mean) or (row["ci_low"] and not low <= mean <= high):
            errors.append("%s:%d: mean %s outside [%s, %s]" % (path, i, row["mean"],
                                                               row["ci_low"], row["ci_high"]))
    missing = set(figures) - {row["figure"] for row in rows}
    if missing:
        errors.append("%s: no point of %s" % (path, ", ".join(sorted(missing))))
    return errors


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    script, out_dir, names, build = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4]
    shutil.rmtree(out_dir, ignore_errors=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "EDGELLM_EXAMPLES_DIR", "EDGELLM_BUILD_DIR")}
    beside = os.path.join(os.path.dirname(os.path.abspath(script)), "..", "build")
    if os.path.realpath(beside) != os.path.realpath(build):
        env["EDGELLM_BUILD_DIR"] = build
    start = time.monotonic()
    done = subprocess.run([sys.executable, script, "--quick", "--out-dir", out_dir,
                           "--no-progress"], env=env)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        sys.exit("%s --quick exited with %d" % (script, done.returncode))
    bad = []
    figures = [n for n in names if not n.endswith(".csv")]
    for table in [n for n in names if n.endswith(".csv")]:
        bad += point_errors(os.path.join(out_dir, table), figures)
    for name in figures:
        path = os.path.join(out_dir, name + ".png")
        size = png_size(path) if os.path.exists(path) else None
        if size is None or size[0] < 300 or size[1] < 200:
            bad.append("%s: %s" % (path, "missing or not a PNG" if size is None else size))
    if bad:
        sys.exit("\n".join(bad))
    # The quick mode promises a minute on two cores; the check reports it, a timed test would
    # only measure the machine.
    print("%s --quick: %d figures in %.0f s" % (os.path.basename(script), len(figures),
                                                 elapsed))


if __name__ == "__main__":
    main()
