#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Campaign tools (ns-3's test.py, SEM) see every example as its source says:

- test/examples-to-run.py lists every C++ example of examples/CMakeLists.txt and every
  Python script of examples/ (the helper module edgellm_finder.py aside);
- each C++ example's --PrintHelp shows every flag its source adds (cmd.AddValue), --outDir
  among them, so that a campaign can direct its output.

    check-examples.py SOURCE_DIR EXAMPLES_BUILD_DIR
"""

import ast
import glob
import os
import re
import subprocess
import sys

HELPERS = {"edgellm_finder.py"}


def listed(source):
    """The programs test/examples-to-run.py names (its lists' first words)."""
    tree = ast.parse(open(os.path.join(source, "test", "examples-to-run.py")).read())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            for item in ast.literal_eval(node.value):
                names.add(item[0].split()[0])
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, build = sys.argv[1], sys.argv[2]
    errors = []
    cmake = open(os.path.join(source, "examples", "CMakeLists.txt")).read()
    block = re.search(r"set\(EDGE_LLM_EXAMPLES\s+([^)]*)\)", cmake)
    programs = block.group(1).split() if block else []
    if not programs:
        errors.append("examples/CMakeLists.txt: no EDGE_LLM_EXAMPLES list")
    scripts = sorted(os.path.basename(p) for p in glob.glob(os.path.join(source, "examples",
                                                                         "*.py")))
    names = listed(source)
    for program in programs + [s for s in scripts if s not in HELPERS]:
        if program not in names:
            errors.append("test/examples-to-run.py does not list %s" % program)
    for program in programs:
        text = open(os.path.join(source, "examples", program + ".cc")).read()
        flags = re.findall(r'cmd\.AddValue\(\s*"([^"]+)"', text)
        if "outDir" not in flags:
            errors.append("%s has no --outDir flag" % program)
        done = subprocess.run([os.path.join(build, program), "--PrintHelp"],
                              capture_output=True, text=True)
        shown = done.stdout + done.stderr
        for flag in flags:
            if "--%s:" % flag not in shown:
                errors.append("%s --PrintHelp does not show --%s" % (program, flag))
    if errors:
        sys.exit("\n".join(errors))
    print("%d programs and %d scripts listed; every flag in --PrintHelp"
          % (len(programs), len(scripts) - len(HELPERS)))


if __name__ == "__main__":
    main()
