# SPDX-License-Identifier: GPL-2.0-only
"""Shared fixtures: every test starts without recorded attribute defaults."""

import pytest

import edgellm


@pytest.fixture(autouse=True)
def no_defaults():
    edgellm.reset_defaults()
    yield
    edgellm.reset_defaults()


# The quickest packet-level run: one UE, one handover, ctHO only (about 0.3 s).
QUICK_HANDOVER = dict(numUes=1, tokensAfter=20, scheme="ctho", quiet=True)
