#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""README.md's first Python cell runs as it stands, in a scratch directory, and writes the
figure it names (the last savefig's file), a PNG.

    check-readme-python.py README.md SCRATCH_DIR
"""

import os
import re
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    readme, scratch = sys.argv[1:]
    cell = re.search(r"^```python\n(.*?)^```$", open(readme).read(), re.S | re.M)
    if not cell:
        sys.exit("%s has no ```python cell" % readme)
    code = cell.group(1)
    figures = re.findall(r"savefig\(\"([^\"]+)\"", code)
    if not figures:
        sys.exit("the cell saves no figure")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    with open(os.path.join(scratch, "cell.py"), "w") as f:
        f.write(code)
    done = subprocess.run([sys.executable, "cell.py"], cwd=scratch)
    if done.returncode != 0:
        sys.exit("the cell exited with %d" % done.returncode)
    path = os.path.join(scratch, figures[-1])
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            sys.exit("%s is not a PNG" % path)
    print("README's Python cell wrote %s" % path)


if __name__ == "__main__":
    main()
