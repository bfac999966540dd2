#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fails if the manual's Traces table and the module's trace sources differ.

Every AddTraceSource("Name", ...) of model/*.cc and helper/*.cc belongs to the TypeId whose
TypeId("ns3::Class") comes last before it in its file. The section "Traces" of
doc/edge-llm.rst must have exactly one row per such source, whose first cell is
``Class::Name``: a source without a row is missing from the manual, and a row without a
source names one that was renamed or removed. Pairs, not bare names, are compared, since
several classes have a source of the same name (SessionRejected, SessionComplete).

    check-manual-traces.py [SOURCE_DIR]
"""

import glob
import os
import re
import sys

TYPE_ID = re.compile(r'\bTypeId\s*\(\s*"ns3::(\w+)"')
TRACE_SOURCE = re.compile(r'\.AddTraceSource\s*\(\s*"(\w+)"')
# A list-table row's first cell.
ROW = re.compile(r"^\s*\*\s+-\s+``(\w+)::(\w+)``\s*$")
ADORNMENT = re.compile(r"^([=*#~-])\1{2,}\s*$")


def code_sources(root):
    """{(class, name): "file:line"} of every trace source the code registers."""
    found = {}
    for path in sorted(glob.glob(os.path.join(root, "model", "*.cc")) +
                       glob.glob(os.path.join(root, "helper", "*.cc"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        owner = None
        # Both patterns in one pass, so that each source gets the TypeId written before it.
        for m in re.finditer(TYPE_ID.pattern + "|" + TRACE_SOURCE.pattern, text):
            if m.group(1):
                owner = m.group(1)
                continue
            where = "%s:%d" % (os.path.relpath(path, root), text.count("\n", 0, m.start()) + 1)
            if owner is None:
                sys.exit("%s: AddTraceSource before any TypeId(\"ns3::...\")" % where)
            found[(owner, m.group(2))] = where
    return found


def manual_rows(manual):
    """[(class, name, line)] of the Traces section's rows, in order."""
    with open(manual, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = None
    for i in range(len(lines) - 1):
        if lines[i].strip() == "Traces" and ADORNMENT.match(lines[i + 1]):
            if start is not None:
                sys.exit("%s: more than one section named Traces" % manual)
            start, level = i + 2, lines[i + 1][0]
    if start is None:
        sys.exit("%s: no section named Traces" % manual)
    # The section ends at the next heading of its own level or above; "*" sections hold "="
    # ones in this manual, so only those two end it.
    ends = "=*" if level == "=" else "*"
    rows = []
    for i in range(start, len(lines)):
        if (i + 1 < len(lines) and lines[i].strip() and ADORNMENT.match(lines[i + 1])
                and lines[i + 1][0] in ends and not ADORNMENT.match(lines[i])):
            break
        m = ROW.match(lines[i])
        if m:
            rows.append((m.group(1), m.group(2), i + 1))
    return rows


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    manual = os.path.join(root, "doc", "edge-llm.rst")
    code = code_sources(root)
    if not code:
        print("no AddTraceSource found under %s/model or %s/helper" % (root, root))
        return 1
    rows = manual_rows(manual)
    failed = 0
    seen = {}
    for owner, name, line in rows:
        if (owner, name) in seen:
            print("%s:%d: %s::%s listed again (first at line %d)" % (manual, line, owner, name,
                                                                    seen[(owner, name)]))
            failed += 1
        seen.setdefault((owner, name), line)
        if (owner, name) not in code:
            print("%s:%d: %s::%s is no trace source of the module" % (manual, line, owner, name))
            failed += 1
    for (owner, name), where in sorted(code.items(), key=lambda item: item[1]):
        if (owner, name) not in seen:
            print("%s: %s::%s is missing from the Traces section of %s" % (where, owner, name,
                                                                        manual))
            failed += 1
    if failed:
        return 1
    print("%d trace sources, each in the manual's Traces table once" % len(code))
    return 0


if __name__ == "__main__":
    sys.exit(main())
