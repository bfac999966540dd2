# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration of the edge-llm manual. It uses only what Debian's python3-sphinx
# ships (the alabaster theme, MathJax for the equations), so that the manual builds wherever
# the module's other dependencies install; CTest edge-llm-manual builds it with -W.

import os
import re

project = "edge-llm"
author = "the edge-llm authors"
root_doc = "edge-llm"

# The version is the one CMakeLists.txt declares, so that the two never differ.
with open(os.path.join(os.path.dirname(__file__), "..", "CMakeLists.txt"), encoding="utf-8") as f:
    _match = re.search(r"project\(edge-llm VERSION (\S+)", f.read())
release = _match.group(1) if _match else ""
version = ".".join(release.split(".")[:2])

extensions = ["sphinx.ext.mathjax"]
# Quotes and ellipses only: the tables of validated inputs print flags as "--cMin", which
# would otherwise read as an en dash.
smartquotes_action = "qe"
highlight_language = "cpp"
html_theme = "alabaster"
html_title = "edge-llm " + release
