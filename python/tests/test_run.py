# SPDX-License-Identifier: GPL-2.0-only
"""Examples in child processes: records, metadata, errors, attribute defaults."""

import pandas
import pytest

import edgellm
from conftest import QUICK_HANDOVER


def test_handover_run_columns_and_metadata():
    result = edgellm.run_handover(RngRun=3, **QUICK_HANDOVER)
    h = result.handovers
    assert h["scheme"] == ["ctho"]
    assert h["imsi"] == [1]
    assert h["outcome"] == ["migrated"]
    # What the target prefilled and what crossed the backhaul make up the whole context.
    assert h["prefill_tokens"][0] + h["transfer_tokens"][0] == h["context_tokens"][0]
    assert h["ho_delay_s"][0] > 0
    assert isinstance(h["kv_bytes"][0], int) and isinstance(h["ho_delay_s"][0], float)
    frame = pandas.DataFrame(result.handovers)
    assert len(frame) == 1 and "sit_s" in frame.columns
    sessions = pandas.DataFrame(result.sessions)
    assert list(sessions["imsi"]) == [1]
    meta = result.metadata
    assert meta["program"] == "edge-llm-handover"
    assert meta["rng_run"] == 3
    assert meta["parameters"]["numUes"] == "1"
    assert meta["parameters"]["scheme"] == "ctho"
    assert "--RngRun=3" in result.command


def test_handover_record_matches_the_solver():
    # One UE, so the plan is ctHO's optimum for its context and handover time alone. The
    # example's defaults: p(L) = 9.4267e-5 L + 0.0024, T_c = 10 ms, 4.5 Gb/s; the KV bytes per
    # token come from the record itself.
    h = edgellm.run_handover(RngRun=1, **QUICK_HANDOVER).handovers
    bytes_per_token = h["kv_bytes"][0] / h["transfer_tokens"][0]
    solver = edgellm.CtHoSolver(
        [h["context_tokens"][0]], [h["ho_start_s"][0]], 4.5e9 / 8 / bytes_per_token,
        compute=edgellm.ComputeModel.linear(a=9.4267e-5, b=0.0024), prefill_cycle=0.01)
    best = solver.solve()
    assert best.prefix_tokens == h["prefix_tokens"][0]
    assert best.worst_delay == pytest.approx(h["predicted_delay_s"][0], abs=2e-9)


def test_same_rng_run_same_table_other_run_differs():
    first = edgellm.run_handover(RngRun=5, numUes=2, tokensAfter=20, scheme="ctho", quiet=True)
    again = edgellm.run_handover(RngRun=5, numUes=2, tokensAfter=20, scheme="ctho", quiet=True)
    other = edgellm.run_handover(RngRun=6, numUes=2, tokensAfter=20, scheme="ctho", quiet=True)
    assert first.handovers == again.handovers
    assert first.sessions == again.sessions
    assert first.handovers["context_tokens"] != other.handovers["context_tokens"]


def test_bad_parameter_raises_with_the_flags_message():
    with pytest.raises(edgellm.SimulationError) as error:
        edgellm.run_handover(backhaulRate="-1Gbps")
    assert "--backhaulRate = -1Gbps is invalid; allowed: a rate > 0, e.g. 4.5Gbps" in str(
        error.value)
    assert error.value.returncode == 1


def test_unreadable_attribute_text_raises_with_its_refusal():
    # A text that is no time is refused by the example's command line check, before ns-3's
    # reader could stop the run: exit 1, the attribute's refusal its only line.
    with pytest.raises(edgellm.SimulationError) as error:
        edgellm.run_handover(defaults={"ns3::EdgeLlmClient::NackDelay": "soon"},
                             **QUICK_HANDOVER)
    refusal = ("ns3::EdgeLlmClient::NackDelay = soon is invalid; allowed: "
               "a time >= 0 (not a time, e.g. 10ms)")
    assert str(error.value) == refusal
    assert error.value.returncode == 1
    assert error.value.stderr.strip() == refusal


def test_unknown_example_and_reserved_flag():
    with pytest.raises(ValueError, match="example = 'nope' is invalid"):
        edgellm.run("nope")
    with pytest.raises(ValueError, match="outDir"):
        edgellm.run_handover(outDir="x")


def test_out_dir_keeps_the_records(tmp_path):
    result = edgellm.run("handover", out_dir=str(tmp_path / "kept"), RngRun=1, **QUICK_HANDOVER)
    assert (tmp_path / "kept" / "handovers.csv").exists()
    assert (tmp_path / "kept" / "handovers.csv.json").exists()
    assert len(result.handovers["imsi"]) == 1


def test_analytic_example_table():
    result = edgellm.run_ctho_analytic(sweep="ues", values="1,2")
    t = result.table()
    assert t["ues"] == [1, 2]
    # The optimum is never worse than either baseline.
    for ctho, tho, cho in zip(t["ctho_s"], t["tho_s"], t["cho_s"]):
        assert ctho <= min(tho, cho) + 1e-12


def test_set_default_reaches_the_run():
    edgellm.set_default("ns3::EdgeLlmClient::NackDelay", "20ms")
    assert edgellm.get_defaults() == {"ns3::EdgeLlmClient::NackDelay": "20ms"}
    result = edgellm.run_handover(RngRun=1, **QUICK_HANDOVER)
    assert "--ns3::EdgeLlmClient::NackDelay=20ms" in result.command
    changed = result.metadata["attribute_defaults"]
    assert "ns3::EdgeLlmClient::NackDelay" in changed
    assert changed["ns3::EdgeLlmClient::NackDelay"] in ("+20ms", "+2e+07ns", "+20000000ns")


def test_set_default_unknown_name_raises():
    with pytest.raises(ValueError) as error:
        edgellm.set_default("ns3::EdgeLlmClient::NoSuchAttribute", "1")
    # ns-3's own refusal, and which attributes the TypeId has.
    assert "Invalid command-line argument: --ns3::EdgeLlmClient::NoSuchAttribute=1" in str(
        error.value)
    # The message lists what the TypeId has.
    assert "NackDelay" in str(error.value)
    with pytest.raises(ValueError, match="no TypeId ns3::NoSuchClass"):
        edgellm.set_default("ns3::NoSuchClass::Foo", "1")
    assert edgellm.get_defaults() == {}


def test_set_default_bad_value_raises_with_the_refusal():
    # The message is the refusal as C++ prints it, without ns-3's help around it.
    with pytest.raises(ValueError) as error:
        edgellm.set_default("ns3::EdgeLlmClient::NackDelay", "-5ms")
    assert str(error.value) == ("ns3::EdgeLlmClient::NackDelay = -5e+06ns is invalid; "
                                "allowed: a time >= 0 (negative)")
    with pytest.raises(ValueError) as error:
        edgellm.set_default("ns3::EdgeLlmClient::NackDelay", "soon")
    assert str(error.value) == ("ns3::EdgeLlmClient::NackDelay = soon is invalid; allowed: "
                                "a time >= 0 (not a time, e.g. 10ms)")
    assert edgellm.get_defaults() == {}


def test_attribute_info():
    info = edgellm.attribute_info("ns3::EdgeLlmClient::NackDelay")
    assert info["type_id"] == "ns3::EdgeLlmClient"
    assert info["declared_by"] == "ns3::EdgeLlmClient"
    assert info["name"] == "ns3::EdgeLlmClient::NackDelay"
    assert info["value_type"] == "ns3::TimeValue"
    # The range in the words the refusal gives, not ns-3's limits of a Time.
    assert info["allowed"] == "a time >= 0"


def test_inherited_attribute_under_a_subclass():
    # attribute_names lists what a class inherits; each is taken under that class too.
    assert "Window" in edgellm.attribute_names("ns3::ImpactHoScheduler")
    info = edgellm.attribute_info("ns3::ImpactHoScheduler::Window")
    assert info["type_id"] == "ns3::ImpactHoScheduler"
    assert info["declared_by"] == "ns3::ImpactSlotScheduler"
    assert info["name"] == "ns3::ImpactSlotScheduler::Window"
    assert "e+18" not in info["allowed"] and info["allowed"]
    edgellm.set_default("ns3::ImpactHoScheduler::Window", "300ms")
    # Recorded, and given to the examples, under the one name ns-3 takes.
    assert edgellm.get_defaults() == {"ns3::ImpactSlotScheduler::Window": "300ms"}
    with pytest.raises(ValueError, match="ns3::ImpactSlotScheduler::Window = -1"):
        edgellm.set_default("ns3::ImpactHoScheduler::Window", "-1ms")


@pytest.mark.parametrize("example, params", [
    # a rate with a unit, as the other examples take one, or a plain number of Mb/s
    ("edge-llm-pallas", dict(linkRates="300Mbps", scheme="pallas", quiet=True)),
    ("edge-llm-impactho", dict(scheme="impactho", kvBits=2, backhaulRate="2.5Gbps",
                               quiet=True)),
])
def test_runs_start_at_the_given_rng_run(example, params):
    # A campaign gives each process its own RngRun: --runs=1 --RngRun=2 must be the second of
    # --runs=2 --RngRun=1, and another draw than RngRun 1.
    def contexts(**more):
        table = edgellm.run(example, **params, **more).handovers
        return list(zip(table["imsi"], table["context_tokens"]))

    both = contexts(runs=2, RngRun=1)
    first, second = contexts(runs=1, RngRun=1), contexts(runs=1, RngRun=2)
    assert first != second
    assert both == first + second
