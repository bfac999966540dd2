# SPDX-License-Identifier: GPL-2.0-only
"""Makes ``import edgellm`` work for the figure scripts beside this file.

The package is built into ``build/python`` of the standalone build; a script run from a clone
finds it there without PYTHONPATH. EDGELLM_BUILD_DIR names another build directory.
"""

import os
import sys


def find_edgellm():
    """Import the edgellm package, from PYTHONPATH, $EDGELLM_BUILD_DIR or ../build."""
    try:
        import edgellm  # noqa: F401

        return
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    builds = [os.environ.get("EDGELLM_BUILD_DIR", ""), os.path.join(here, "..", "build")]
    for build in builds:
        path = os.path.join(build, "python")
        if build and os.path.isfile(os.path.join(path, "edgellm", "__init__.py")):
            sys.path.insert(0, os.path.abspath(path))
            return
    sys.exit("no edgellm package: build the module first (README.md's first command builds "
             "it into build/python), or set EDGELLM_BUILD_DIR to the build directory")
