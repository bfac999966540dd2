#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs each example the manual shows a sample of, and fails if its output differs.

A sample is a literal block of doc/edge-llm.rst whose first line is a shell command that
starts with "$ ./build/examples/": every line after it must be a line of what the program
prints (its standard output, then its standard error), in the same order (trailing spaces
aside). A sample of an error shows the message; its exit code is not the manual's business. The command runs from a fresh
directory with ./build standing for the build directory given, so the files it writes go
nowhere else.

    check-manual-samples.py MANUAL BUILD_DIR
"""

import os
import shlex
import subprocess
import sys
import tempfile

PROMPT = "$ ./build/examples/"


def samples(manual):
    """(line number, command, expected lines) of each sample block."""
    with open(manual, encoding="utf-8") as f:
        lines = f.read().splitlines()
    found = []
    i = 0
    while i < len(lines):
        if not lines[i].rstrip().endswith("::"):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or not lines[j].startswith(" "):
            i = j
            continue
        indent = len(lines[j]) - len(lines[j].lstrip())
        block = []
        k = j
        while k < len(lines) and (not lines[k].strip() or lines[k].startswith(" " * indent)):
            block.append(lines[k][indent:].rstrip())
            k += 1
        while block and not block[-1]:
            block.pop()
        if block and block[0].startswith(PROMPT):
            found.append((j + 1, block[0][2:], [b for b in block[1:] if b]))
        i = k
    return found


def main():
    manual, build = sys.argv[1], os.path.abspath(sys.argv[2])
    blocks = samples(manual)
    if not blocks:
        print("no sample in %s starts with %r" % (manual, PROMPT))
        return 1
    failed = 0
    for line, command, expected in blocks:
        with tempfile.TemporaryDirectory() as cwd:
            os.symlink(build, os.path.join(cwd, "build"))
            run = subprocess.run(shlex.split(command), cwd=cwd, capture_output=True, text=True)
        printed = run.stdout + run.stderr
        output = [o.rstrip() for o in printed.splitlines()]
        at = 0
        missing = None
        for e in expected:
            while at < len(output) and output[at] != e:
                at += 1
            if at == len(output):
                missing = e
                break
            at += 1
        if missing is not None:
            failed += 1
            print("%s:%d: `%s` (exit %d) does not print, in order:" % (manual, line, command,
                                                                       run.returncode))
            print("  " + missing)
            print("it printed:\n" + printed)
        else:
            print("%s:%d: `%s`: %d lines as in the manual" % (manual, line, command,
                                                             len(expected)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
