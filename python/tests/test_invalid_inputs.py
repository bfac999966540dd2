# SPDX-License-Identifier: GPL-2.0-only
"""Every refused value of test/invalid-inputs.csv, given through edgellm.set_default: each
raises ValueError whose message is the attribute's refusal, with the table's allowed values.

Each value is tried in a child process of its own (set_default runs ns-3's CommandLine), on
as many threads as there are cores.
"""

import concurrent.futures
import csv
import os

import pytest

import edgellm
from edgellm import _edgellm

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test",
                     "invalid-inputs.csv")


def _values(cell):
    """A cell's values: separated by ";", "(empty)" for the empty text, none for "-"."""
    if cell == "-":
        return []
    return ["" if v.strip() == "(empty)" else v.strip() for v in cell.split(";")]


def _registered(name):
    try:
        _edgellm.attribute_info(name)
        return True
    except ValueError:
        return False


def _rows():
    with open(TABLE, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and list(rows[0]) == ["attribute", "allowed", "refused", "accepted"]
    return rows


def _refusal(name, value):
    """What set_default raised for the value, or None if it took it."""
    try:
        edgellm.set_default(name, value)
    except ValueError as e:
        return str(e)
    return None


def test_every_refused_value_raises_the_refusal():
    cases = []
    for row in _rows():
        name = row["attribute"]
        if not _registered(name):
            # NrRanStack is registered only in builds with 5G-LENA's nr module.
            assert name.startswith("ns3::NrRanStack::"), "%s is not registered" % name
            continue
        cases += [(name, row["allowed"], value) for value in _values(row["refused"])]
    assert len(cases) > 200
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        messages = list(pool.map(lambda c: _refusal(c[0], c[2]), cases))
    failures = []
    for (name, allowed, value), message in zip(cases, messages):
        words = " is invalid; allowed: " + allowed
        if (message is None or not message.startswith(name + " = ") or words not in message
                or not (message.endswith(words) or (words + " (") in message)):
            failures.append("%s = %r: %r" % (name, value, message))
    assert not failures, "\n".join(failures)
    assert edgellm.get_defaults() == {}


def test_an_accepted_value_is_recorded():
    row = next(r for r in _rows() if r["attribute"] == "ns3::LlmEngine::IterationMode")
    for value in _values(row["accepted"]):
        edgellm.set_default("ns3::LlmEngine::IterationMode", value)
        assert edgellm.get_defaults() == {"ns3::LlmEngine::IterationMode": value}
