#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only

# Examples that ns-3's test.py runs as tests: (name, run condition, valgrind condition).
cpp_examples = [
    ("edge-llm-ctho-analytic", "True", "True"),
    ("edge-llm-ctho-analytic --sweep=none --ues=8 --blockAligned=1", "True", "True"),
    ("edge-llm-ctho-analytic --sweep=cMax --values=2048,32768", "True", "True"),
    ("edge-llm-streaming --enbs=2 --ues=1 --tokens=300 --simTime=6", "True", "True"),
    ("edge-llm-handover --numUes=2 --tokensAfter=60 --moveStart=1s", "True", "True"),
    ("edge-llm-custom-policy --numUes=2 --window=150ms", "True", "True"),
    ("edge-llm-scenario --layout=road --cells=3 --spacing=200 --backhaul=star "
     "--mobility=poisson --arrivalRate=2 --speed=40 --ues=3 --tokens=300 --simTime=12", "True", "True"),
    ("edge-llm-impactho --simTime=10s --runs=1 --scheme=impactho,impact-hybrid --quiet", "True", "False"),
    ("edge-llm-pallas --linkRates=300 --runs=1 --quiet", "True", "False"),
]

# The figure scripts and plots need the standalone build's edgellm package or an example's
# CSV, which an ns-3 tree's test.py does not provide: they are listed for campaign tools, and
# the standalone build's CTest runs them (edge-llm-figures-*, example-plot-*).
python_examples = [
    ("ctho-figures.py --quick", "False"),
    ("impactho-figures.py --quick", "False"),
    ("pallas-figures.py --quick", "False"),
    ("plot-ctho-sweep.py", "False"),
    ("plot-results.py", "False"),
]
