#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only

# Examples that ns-3's test.py runs as tests: (name, run condition, valgrind condition).
cpp_examples = [
    ("edge-llm-ctho-analytic", "True", "True"),
    ("edge-llm-ctho-analytic --rbhGbps=4.5 --ues=8 --blockAligned=1", "True", "True"),
]

python_examples = []
