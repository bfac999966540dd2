# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m edgellm EXAMPLE --grid ...: the same as python3 -m edgellm.sweep."""

import sys

from .sweep import main

sys.exit(main())
