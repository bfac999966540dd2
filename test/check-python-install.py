#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""cmake --install gives a Python package that works on its own: installed into a scratch
prefix, imported from there by a fresh interpreter in another directory (no PYTHONPATH to the
build, no EDGELLM_EXAMPLES_DIR), it finds the installed examples and runs one.

    check-python-install.py BUILD_DIR SCRATCH_DIR PACKAGE_DIR_RELATIVE_TO_PREFIX
"""

import os
import shutil
import subprocess
import sys

PROBE = r"""
import os, sys, edgellm
prefix = sys.argv[1]
assert os.path.dirname(edgellm.__file__).startswith(prefix), edgellm.__file__
assert edgellm.examples_dir() == os.path.join(prefix, "bin"), edgellm.examples_dir()
r = edgellm.run_handover(numUes=1, tokensAfter=20, scheme="ctho", quiet=True)
assert r.handovers["outcome"] == ["migrated"], r.handovers
try:
    edgellm.set_default("ns3::LlmEngine::NoSuchAttribute", 1)
    raise SystemExit("an unknown attribute was accepted")
except ValueError:
    pass
print("installed package ran", r.example, "from", edgellm.examples_dir())
"""


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    build, scratch, relative = sys.argv[1:]
    prefix = os.path.join(os.path.abspath(scratch), "prefix")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    done = subprocess.run(["cmake", "--install", build, "--prefix", prefix],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("cmake --install failed:\n" + done.stdout + done.stderr)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "EDGELLM_EXAMPLES_DIR", "EDGELLM_BUILD_DIR")}
    env["PYTHONPATH"] = os.path.join(prefix, relative)
    done = subprocess.run([sys.executable, "-c", PROBE, prefix], cwd=scratch, env=env,
                          capture_output=True, text=True)
    sys.stdout.write(done.stdout)
    if done.returncode != 0:
        sys.exit("the installed package failed:\n" + done.stderr)


if __name__ == "__main__":
    main()
