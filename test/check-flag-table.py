#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fails if an example's flags and test/invalid-flags.csv, the table of what each allows, differ.

- Every flag an example's --PrintHelp shows has a row (example, flag), and every row names a
  flag of its example; the row's kind (time, rate, count, ...) is what test/check-bad-input.py
  tries it with;
- each refused value of a row, given alone (--flag=value), makes the example exit non-zero
  with a line "--flag = ... is invalid ...; allowed: <allowed> ...": the row's allowed words
  come right after "allowed: ", and may be followed by more (why this value is refused).

Values are separated by ";" in the table. Each run is a process of its own, in a scratch
directory, on as many threads as there are cores.

    check-flag-table.py SOURCE_DIR EXAMPLES_BUILD_DIR
"""

import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import tempfile

HEADER = ["example", "flag", "kind", "allowed", "refused"]


def shown_flags(program):
    """The flags of a program's --PrintHelp, in its Program Options."""
    out = subprocess.run([program, "--PrintHelp"], capture_output=True, text=True).stdout
    options = out.split("Program Options:", 1)[-1].split("General Arguments:", 1)[0]
    return re.findall(r"^\s+--(\w+):", options, re.MULTILINE)


def refusal(program, flag, value, directory):
    """The example's exit code and stderr for --flag=value."""
    done = subprocess.run([program, "--%s=%s" % (flag, value)], capture_output=True, text=True,
                          cwd=directory, timeout=120)
    return done.returncode, done.stderr


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, build = sys.argv[1], os.path.abspath(sys.argv[2])
    table = os.path.join(source, "test", "invalid-flags.csv")
    with open(table, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [(n, r) for n, r in enumerate(reader, start=2)]
    errors = []
    if header != HEADER:
        errors.append("%s:1: the header is %s; it must be %s" % (table, header, HEADER))
    cmake = open(os.path.join(source, "examples", "CMakeLists.txt")).read()
    block = re.search(r"set\(EDGE_LLM_EXAMPLES\s+([^)]*)\)", cmake)
    programs = block.group(1).split() if block else []
    flags = {p: shown_flags(os.path.join(build, p)) for p in programs}
    seen = {}
    cases = []
    for line, row in rows:
        if len(row) != 5:
            errors.append("%s:%d: %d fields; a row has 5: %s" % (table, line, len(row),
                                                                  ",".join(HEADER)))
            continue
        example, flag, _, allowed, refused = row
        if (example, flag) in seen:
            errors.append("%s:%d: --%s of %s has a row already, at line %d"
                          % (table, line, flag, example, seen[(example, flag)]))
        seen[(example, flag)] = line
        if flag not in flags.get(example, []):
            errors.append("%s:%d: %s has no flag --%s" % (table, line, example, flag))
            continue
        values = [v.strip() for v in refused.split(";")] if refused != "-" else []
        cases += [(len(cases) + i, line, example, flag, allowed, v) for i, v in enumerate(values)]
    for program in programs:
        for flag in flags[program]:
            if (program, flag) not in seen:
                errors.append("%s: --%s has no row in %s; add one, in the examples' order:\n"
                              "%s,%s,<kind: see test/check-bad-input.py>,"
                              "\"<allowed values, in the words its refusal prints>\","
                              "\"<values it refuses, separated by ;>\""
                              % (program, flag, table, program, flag))
    with tempfile.TemporaryDirectory(prefix="edge-llm-flags-") as scratch:

        def run(case):
            index, line, example, flag, allowed, value = case
            directory = os.path.join(scratch, str(index))
            os.makedirs(directory)
            return refusal(os.path.join(build, example), flag, value, directory)

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            outcomes = list(pool.map(run, cases))
    for (_, line, example, flag, allowed, value), (code, err) in zip(cases, outcomes):
        # The value may be told as read ("1e-09" for "1e-9"), or its bad item alone.
        start = "--%s = " % flag
        told = [l for l in err.splitlines() if l.startswith(start) and " is invalid" in l]
        if code == 0 or not any(("allowed: " + allowed) in l for l in told):
            errors.append("%s:%d: %s --%s=%s exited with %d; no line \"%s... is invalid...; "
                          "allowed: %s\" on stderr, which has:\n%s"
                          % (table, line, example, flag, value, code, start, allowed,
                             err.strip()[:2000]))
    for e in errors:
        print(e)
    if errors:
        return 1
    print("%d flags of %d examples, each in %s; %d refused values refused with its words"
          % (len(seen), len(programs), os.path.basename(table), len(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
