# SPDX-License-Identifier: GPL-2.0-only
"""edgellm.Network: a scenario built, traced and run in the interpreter.

A process builds one network, so each test that builds one runs its script in a child
process of its own; the refusals build nothing and run here.
"""

import csv
import json
import os
import subprocess
import sys

import pytest

import edgellm

# The 3 x 3 grid of ImpactHO with 10 UEs on random routes, staggered as the example's (each
# UE at 40 m/s within 25 %, leaving its first cell up to one leg after 1 s): they cross into
# other cells after 4 s, each at an instant of its own, while their 2000-token sessions still
# stream (about 6 s of wall time).
GRID = dict(layout="grid", rows=3, columns=3, ues=10, scheme="impactho", speed=40,
            tokens=2000, sim_time="8s", seed=1, run=1)
GRID_FLAGS = ["--layout=grid", "--rows=3", "--columns=3", "--ues=10", "--mobility=routes",
              "--scheme=impactho", "--speed=40", "--tokens=2000", "--simTime=8s",
              "--RngSeed=1", "--RngRun=1", "--quiet"]

GRID_SCRIPT = r"""
import json, sys
import edgellm

net = edgellm.Network(**json.loads(sys.argv[1]))
started, done, counts = [], [], {}
net.connect("HandoverStarted", lambda imsi, source, target: started.append(
    [imsi, source, target, net.now]))
net.connect("HandoverDone", lambda imsi, target: done.append([imsi, target]))
refused = {}
for name in edgellm.network_traces():
    counts[name] = 0
    def count(*args, name=name):
        counts[name] += 1
    try:
        net.connect(name, count)
    except ValueError as e:
        refused[name] = str(e)
net.run("4s")
first = {"now": net.now, "handovers": len(net.handovers()),
         "tokens": net.tokens().to_dict("list")}
net.run("8s")
handovers = net.handovers()
tokens = net.tokens()
net.write_csv(sys.argv[2])
print(json.dumps({
    "started": started, "done": done, "counts": counts, "refused": refused, "first": first,
    "now": net.now, "columns": list(handovers.columns),
    "handovers": handovers[["imsi", "source_cell", "target_cell", "ho_start_s"]]
        .values.tolist(),
    "tokens": tokens.to_dict("list"), "sessions": len(net.sessions()),
}))
"""


def _child(script, *args):
    """Run a script in a fresh interpreter; its stdout, or the test fails with its stderr."""
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    out = tmp_path_factory.mktemp("network")
    result = json.loads(_child(GRID_SCRIPT, json.dumps(GRID), str(out)))
    return result, out


def test_grid_handovers_seen_by_the_callback_are_the_records_and_the_csv(grid):
    result, out = grid
    started = sorted((imsi, source, target) for imsi, source, target, _ in result["started"])
    assert len(started) >= 5, "the run should hand several UEs over"
    records = sorted((int(i), int(s), int(t)) for i, s, t, _ in result["handovers"])
    assert started == records
    written = sorted((int(r["imsi"]), int(r["source_cell"]), int(r["target_cell"]))
                     for r in _csv_rows(os.path.join(out, "handovers.csv")))
    assert started == written
    # Every started handover completed, into the target it started for.
    assert sorted(result["done"]) == sorted([i, t] for i, _, t in started)
    # The callback ran at the records' times, inside the run.
    for (imsi, _, _, when), (_, _, _, start) in zip(sorted(result["started"]),
                                                     sorted(result["handovers"])):
        assert when >= start and when < 8


def test_grid_records_have_the_example_columns_and_rows(grid):
    result, out = grid
    example = os.path.join(out, "example")
    subprocess.run([edgellm.example_path("edge-llm-scenario"), *GRID_FLAGS,
                    "--outDir=" + example, "--tokensCsv=" + os.path.join(example, "tokens.csv")],
                   capture_output=True, timeout=120)
    for name in ("handovers.csv", "sessions.csv", "tokens.csv"):
        ours = _csv_rows(os.path.join(out, name))
        theirs = _csv_rows(os.path.join(example, name))
        assert list(ours[0]) == list(theirs[0]), name
        assert ours == theirs, name
    assert result["columns"] == list(_csv_rows(os.path.join(example, "handovers.csv"))[0])
    assert os.path.exists(os.path.join(out, "handovers.csv.json"))


def test_grid_run_twice_continues(grid):
    result, _ = grid
    first, last = result["first"], result["tokens"]
    assert result["first"]["now"] == 4.0 and result["now"] == 8.0
    assert first["handovers"] == 0 and len(result["handovers"]) > 0
    n = len(first["tokens"]["delivered_s"])
    assert 0 < n < len(last["delivered_s"])
    for column in first["tokens"]:
        assert last[column][:n] == first["tokens"][column]
    assert max(first["tokens"]["delivered_s"]) <= 4.0 < max(last["delivered_s"])


def test_grid_traces_fire_where_the_scheme_has_them(grid):
    result, _ = grid
    counts = result["counts"]
    # Pallas's window loop is no part of ImpactHO: refused by name.
    assert set(result["refused"]) == {"Window"}
    assert "ns3::ImpactHoScheduler" in result["refused"]["Window"]
    for name in ("HandoverStarted", "HandoverDone", "SessionResumed", "ServiceInterruption",
                 "Budget", "HandoverPlanned", "TokenDelivered", "MigrationState", "UeReady"):
        assert counts[name] > 0, name
    assert counts["TokenDelivered"] == len(result["tokens"]["delivered_s"])
    assert counts["HandoverStarted"] == len(result["started"])


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(scheme="nope"), ValueError, "scheme = nope is invalid; allowed: one of"),
    (dict(backhaul_rate="1000"), ValueError, "backhaul_rate = 1000 is invalid"),
    (dict(backhaul_rate="-1Gbps"), ValueError, "backhaul_rate = -1Gbps is invalid"),
    (dict(backhaul_rate=1e9), TypeError, "backhaul_rate must be text with its unit"),
    (dict(layout="grid", rows=0), ValueError, "rows = 0 is invalid; allowed: an integer in [1, 8]"),
    (dict(layout="grid", rows=3.0), TypeError, "rows must be an int"),
    (dict(layout="grid", cells=3), ValueError, "cells = 3 is invalid with layout = grid"),
    (dict(layout="hexagon"), ValueError, "layout = hexagon is invalid"),
    (dict(sim_time="soon"), ValueError, "sim_time = soon is invalid"),
    (dict(stall_timeout="-1s"), ValueError, "stall_timeout = -1s is invalid"),
    (dict(seed=0), ValueError, "seed = 0 is invalid"),
    (dict(ue_airtime="sometimes"), ValueError,
     "ue_airtime = sometimes is invalid; allowed: run or session"),
    (dict(scheme="impactho", scheduler_attributes={"Windoe": "300ms"}), ValueError,
     "scheduler_attributes: Windoe = 300ms is invalid; allowed: an attribute of "
     "ns3::ImpactHoScheduler"),
    (dict(scheme="impactho", scheduler_attributes={"Window": "-300ms"}), ValueError,
     "scheduler_attributes: ns3::ImpactSlotScheduler::Window = -300ms is invalid"),
    (dict(client_attributes={"NackDelay": "later"}), ValueError,
     "client_attributes: ns3::EdgeLlmClient::NackDelay = later is invalid"),
    (dict(client_attributes={"TokensToGenerate": "3"}), ValueError, "the option tokens"),
])
def test_bad_options_raise_naming_the_option(kwargs, error, words):
    with pytest.raises(error) as raised:
        edgellm.Network(**kwargs)
    assert words in str(raised.value)


def test_nr_is_refused_where_the_build_has_none():
    try:
        edgellm.Network(ran="nr", scheme="nope")
    except ValueError as e:
        # Without NR the radio is refused first; with it, the scheme.
        assert ("ran = nr is invalid here" in str(e)) or ("scheme = nope" in str(e))
    else:
        pytest.fail("Network built with an unknown scheme")


ONE_PER_PROCESS = r"""
import edgellm
try:
    edgellm.Network(scheme="nope")
except ValueError:
    pass
net = edgellm.Network(sim_time="2s")  # a refused one builds nothing: this one builds
try:
    net.connect("HandoverBegun", print)
except ValueError as e:
    print("trace:", e)
try:
    net.connect("Budget", print)
except ValueError as e:
    print("budget:", e)
try:
    edgellm.Network(sim_time="2s")
except RuntimeError as e:
    print("second:", e)
"""


def test_one_network_per_process_and_unknown_traces():
    out = _child(ONE_PER_PROCESS)
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert lines["trace"].startswith("trace = HandoverBegun is invalid; allowed: ")
    assert "HandoverStarted" in lines["trace"] and "SessionResumed" in lines["trace"]
    assert "ns3::CtHoScheduler" in lines["budget"]
    assert "one simulation per process" in lines["second"]
    assert "child process" in lines["second"]


CALLBACK_RAISES = r"""
import edgellm
net = edgellm.Network(sim_time="3s")
calls = []
def ready(imsi, cell):
    calls.append(imsi)
    if len(calls) == 1:
        raise ZeroDivisionError("from the callback")
net.connect("UeReady", ready)
try:
    net.run("3s")
except ZeroDivisionError as e:
    print("raised", e, "at", net.now, "after", len(calls))
net.run("3s")
print("continued to", net.now, "after", len(calls))
"""


def test_an_exception_in_a_callback_stops_the_run_and_is_raised():
    out = _child(CALLBACK_RAISES).splitlines()
    raised = out[0].split()
    assert raised[:4] == ["raised", "from", "the", "callback"]
    assert float(raised[5]) < 3.0 and raised[-1] == "1"
    # The next run continues to its end, calling the callable again.
    continued = out[1].split()
    assert continued[2] == "3.0" and int(continued[-1]) > 1


CALLBACK_REENTERS = r"""
import edgellm
net = edgellm.Network(sim_time="3s")
refused = {}
def ready(imsi, cell):
    for name, call in (("run", lambda: net.run("3s")), ("close", net.close)):
        if name not in refused:
            try:
                call()
                refused[name] = "called"
            except RuntimeError as e:
                refused[name] = str(e)
net.connect("UeReady", ready)
net.run("3s")
for name, message in sorted(refused.items()):
    print(name + ":", message)
print("now:", net.now, len(net.sessions()))
"""


def test_run_and_close_from_a_callback_are_refused():
    lines = dict(line.split(": ", 1) for line in _child(CALLBACK_REENTERS).splitlines())
    # Both raised RuntimeError saying why; neither ran the simulation inside its own run nor
    # destroyed it under the run, which goes on to its end with the network still open.
    assert lines["run"] == "edgellm.Network: run() was called from a callback of the run"
    assert lines["close"] == "edgellm.Network: close() was called from a callback of the run"
    now, sessions = lines["now"].split()
    assert float(now) == 3.0 and int(sessions) > 0


AIRTIME = r"""
import json
import edgellm

# The default road's 3 UEs, each session of 100 tokens; they attach at the start (their
# sessions open within 0.5 s of it) and leave once their sessions are over.
net = edgellm.Network(ue_airtime="session", tokens=100, sim_time="8s", seed=1, run=1)
changes, complete = [], {}
net.connect("AirChange", lambda imsi, on: changes.append([imsi, on, net.now]))
net.connect("SessionComplete", lambda imsi: complete.setdefault(imsi, net.now))
net.run()
print(json.dumps({"changes": changes, "complete": complete}))
"""


def test_ue_airtime_session_takes_each_ue_off_the_air_after_its_session():
    result = json.loads(_child(AIRTIME))
    complete = {int(k): v for k, v in result["complete"].items()}
    assert len(complete) == 3
    for imsi, done in complete.items():
        mine = [(on, t) for i, on, t in result["changes"] if i == imsi]
        # Off 0.2 s (LeaveDelay) after its last token, or a little later while it hands over;
        # a UE that comes back on for a handover decided before it left goes off again.
        assert mine and mine[0][0] is False, (imsi, mine)
        assert done + 0.2 - 1e-9 <= mine[0][1] < done + 0.5, (imsi, done, mine)
        assert mine[-1][0] is False, (imsi, mine)


CONTROL_PLANE = r"""
import json, sys
import edgellm

# The default road with its control plane on the backhaul: each handover's plan waits for
# its control messages, and the rows say when it was applied.
net = edgellm.Network(tokens=300, sim_time="8s", seed=1, run=1,
                      coordinator_attributes={"ControlPlane": sys.argv[1], "PolicyAt": "target"})
net.run()
h = net.handovers()
s = net.sessions()
print(json.dumps({"start": h["ho_start_s"].tolist(), "applied": h["plan_applied_s"].tolist(),
                  "control": h["sit_control_wait_s"].tolist(),
                  "complete": s["complete"].tolist()}))
"""


@pytest.mark.parametrize("plane", ["ideal", "network"])
def test_the_control_plane_on_the_network_delays_each_plan(plane):
    result = json.loads(_child(CONTROL_PLANE, plane))
    assert result["start"], "the road's UEs hand over"
    assert all(result["complete"])
    waits = [a - s for s, a in zip(result["start"], result["applied"])]
    if plane == "ideal":
        assert waits == [0.0] * len(waits)
        assert all(c in (0.0, "") or c != c for c in result["control"])
    else:
        # A notice to the target and its plan back: two one-way delays of the star's paths.
        assert all(w > 0 for w in waits), waits
