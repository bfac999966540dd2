#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""README.md's first Python cell runs as it stands, in a scratch directory, and writes the
figure it names (the last savefig's file), a PNG. With TEXT, the first cell that contains
TEXT runs instead, and must exit 0 and write the CSVs of every write_csv("dir") it calls,
with at least one handover.

    check-readme-python.py README.md SCRATCH_DIR [TEXT]
"""

import os
import re
import shutil
import subprocess
import sys


def run_cell(code, scratch):
    """Run a cell as cell.py in a fresh scratch directory; exit if it fails."""
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    with open(os.path.join(scratch, "cell.py"), "w") as f:
        f.write(code)
    done = subprocess.run([sys.executable, "cell.py"], cwd=scratch)
    if done.returncode != 0:
        sys.exit("the cell exited with %d" % done.returncode)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    readme, scratch = sys.argv[1:3]
    cells = re.findall(r"^```python\n(.*?)^```$", open(readme).read(), re.S | re.M)
    if len(sys.argv) == 4:
        cells = [c for c in cells if sys.argv[3] in c]
    if not cells:
        sys.exit("%s has no ```python cell%s" % (readme, " with " + sys.argv[3]
                                                 if len(sys.argv) == 4 else ""))
    code = cells[0]
    if len(sys.argv) == 4:
        run_cell(code, scratch)
        for directory in re.findall(r"write_csv\(\"([^\"]+)\"", code):
            for name in ("handovers.csv", "sessions.csv", "tokens.csv"):
                path = os.path.join(scratch, directory, name)
                if not os.path.exists(path):
                    sys.exit("the cell wrote no %s/%s" % (directory, name))
            with open(os.path.join(scratch, directory, "handovers.csv")) as f:
                if len(f.read().splitlines()) < 2:
                    sys.exit("the cell's run handed nobody over")
        print("README's cell with %s ran" % sys.argv[3])
        return
    figures = re.findall(r"savefig\(\"([^\"]+)\"", code)
    if not figures:
        sys.exit("the cell saves no figure")
    run_cell(code, scratch)
    path = os.path.join(scratch, figures[-1])
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            sys.exit("%s is not a PNG" % path)
    print("README's Python cell wrote %s" % path)


if __name__ == "__main__":
    main()
