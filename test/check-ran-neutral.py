#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fails if code outside a RAN stack names a class of that RAN.

The LTE stack is every file whose name starts with "lte-"; an NR stack, every file whose name
starts with "nr-". Everywhere else, the code (comments and string literals taken out: an
attribute path such as "ns3::LteEnbMac::..." is configuration read at run time, not a
dependency) must not name an Lte*/Nr* class, nor LTE's EPC classes.
"""

import os
import re
import sys

DIRECTORIES = ["model", "helper", "examples", "benchmarks", "test", "bindings"]
STACK_PREFIXES = ("lte-", "nr-")
# LteFoo, NrFoo (NrHelper, NrGnbNetDevice, ...), EpcFoo, EpsBearer*, PointToPointEpcHelper.
NAMES = re.compile(r"\b(Lte[A-Z]\w*|Nr[A-Z]\w*|Epc[A-Z]\w*|EpsBearer\w*|\w+EpcHelper)\b")
# Comments and literals, in one pass, so that "//" inside a string is not a comment.
TOKENS = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL
)


def code_only(text):
    """The text with comments and literals blanked, line numbers kept."""
    return TOKENS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(__file__))
    found = []
    checked = 0
    for directory in DIRECTORIES:
        for dirpath, _, files in os.walk(os.path.join(root, directory)):
            for name in sorted(files):
                if not name.endswith((".cc", ".h")) or name.startswith(STACK_PREFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    code = code_only(f.read())
                checked += 1
                for number, line in enumerate(code.splitlines(), 1):
                    for match in NAMES.finditer(line):
                        found.append(
                            "%s:%d: %s" % (os.path.relpath(path, root), number, match.group(1))
                        )
    if checked == 0:
        print("no source files found under %s" % root)
        return 1
    for line in found:
        print(line)
    print("%d files checked, %d RAN-specific names outside a RAN stack" % (checked, len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
