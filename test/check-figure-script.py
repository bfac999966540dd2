#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run a figure script of examples/ in its quick mode into a fresh directory, and check that
it exits 0 and writes each named figure as a PNG of a plausible size.

    check-figure-script.py SCRIPT OUT_DIR NAME[,NAME...] BUILD_DIR

The script is run as a user runs it from a clone, without PYTHONPATH: it must find the
package itself, in ../build/python beside examples/, or through EDGELLM_BUILD_DIR when the
build is elsewhere.
"""

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
    for name in names:
        path = os.path.join(out_dir, name + ".png")
        size = png_size(path) if os.path.exists(path) else None
        if size is None or size[0] < 300 or size[1] < 200:
            bad.append("%s: %s" % (path, "missing or not a PNG" if size is None else size))
    if bad:
        sys.exit("\n".join(bad))
    # The quick mode promises a minute on two cores; the check reports it, a timed test would
    # only measure the machine.
    print("%s --quick: %d figures in %.0f s" % (os.path.basename(script), len(names), elapsed))


if __name__ == "__main__":
    main()
