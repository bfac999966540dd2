# SPDX-License-Identifier: GPL-2.0-only
"""The pure models through the bindings, against values derived by hand."""

import math
import subprocess
import sys

import pytest

import edgellm


def approx(value):
    return pytest.approx(value, rel=1e-9, abs=1e-12)


# A ctHO group by hand. p(L) = a L + b with a = 0.0002 s/token, b = 0.01 s, padded batches;
# R = 2000 tokens/s; UE 0 has C = 1000 tokens and hands over at 0 s, UE 1 has C = 600 at
# 0.1 s; no prefill cycle, so the batch starts at t_s = tau_2 = 0.1 s.
#   D_pf(L) = t_s + p(L) - tau_1 = 0.11 + 0.0002 L.
#   UE 0's (1000 - L) tokens leave at 0 and end at F_1 = 0.5 - 0.0005 L (>= 0.1 for
#   L <= 800), so UE 1's (600 - L) follow at once: F_2 = 0.8 - 0.001 L.
#   D_tx*(L) = max(F_1 - 0, F_2 - 0.1) = max(0.5 - 0.0005 L, 0.7 - 0.001 L), which is
#   0.5 - 0.0005 L from L = 400 on.
#   D_pf = D_tx* at 0.11 + 0.0002 L = 0.5 - 0.0005 L, L = 557.14: L* = 557 (V = D_tx* =
#   0.2215) beats 558 (V = D_pf = 0.2216).
#   Plan of 557: prefill 0.1 -> 0.1 + 0.0002 * 557 + 0.01 = 0.2214. UE 0 sends 443 tokens,
#   0 -> 0.2215, delay 0.2215; UE 1 sends 43, 0.2215 -> 0.243, delay 0.143; deadlines
#   tau_i + 0.2215.
#   tHO (L = 1000): D_pf = 0.11 + 0.2 = 0.31. cHO (L = 0): D_tx* = 0.7, nothing prefilled.
def hand_solver():
    compute = edgellm.ComputeModel.linear(a=0.0002, b=0.01, batch_mode="PaddedMax")
    return edgellm.CtHoSolver([1000, 600], [0.0, 0.1], 2000.0, compute=compute)


def test_ctho_optimum_by_hand():
    solver = hand_solver()
    assert solver.prefill_start == approx(0.1)
    assert solver.max_context == 1000
    best = solver.solve()
    assert best.prefix_tokens == 557
    assert best.prefill_delay == approx(0.2214)
    assert best.transfer_delay == approx(0.2215)
    assert best.worst_delay == approx(0.2215)
    assert solver.evaluate(558).worst_delay == approx(0.2216)
    assert solver.solve_by_scan().prefix_tokens == 557
    assert solver.tho().worst_delay == approx(0.31)
    assert solver.cho().worst_delay == approx(0.7)
    assert solver.cho().prefill_delay == 0.0


def test_ctho_plan_by_hand():
    plan = edgellm.ctho_plan([1000, 600], [0.0, 0.1], 2000.0,
                             compute=edgellm.ComputeModel.linear(a=0.0002, b=0.01))
    assert plan.value.prefix_tokens == 557
    assert plan.prefill_start == approx(0.1)
    assert plan.prefill_end == approx(0.2214)
    first, second = plan.ues
    assert (first.ue, first.prefill_tokens, first.transfer_tokens) == (0, 557, 443)
    assert first.transfer_start == approx(0.0)
    assert first.transfer_end == approx(0.2215)
    assert first.delay == approx(0.2215)
    assert first.deadline == approx(0.2215)
    assert (second.ue, second.prefill_tokens, second.transfer_tokens) == (1, 557, 43)
    assert second.transfer_start == approx(0.2215)
    assert second.transfer_end == approx(0.243)
    assert second.delay == approx(0.143)
    assert second.deadline == approx(0.3215)
    # Readable, and plain data for pandas.
    assert "prefix_tokens=557" in repr(plan)
    assert plan.to_dict()["ues"][1]["transfer_tokens"] == 43


def test_ctho_plan_of_a_given_prefix_and_order():
    # Given in reverse handover order: the plan lists UEs by handover time, indexed as given.
    solver = edgellm.CtHoSolver([600, 1000], [0.1, 0.0], 2000.0,
                                compute=edgellm.ComputeModel.linear(a=0.0002, b=0.01))
    plan = solver.plan(0)
    assert [u.ue for u in plan.ues] == [1, 0]
    # cHO: 1000 tokens from 0 to 0.5, then 600 to 0.8; UE at 0.1 waits 0.7.
    assert plan.ues[1].transfer_end == approx(0.8)
    assert plan.value.worst_delay == approx(0.7)


def test_block_aligned_prefix():
    # Blocks of 16 tokens: L in {..., 544, 560, ...}. D_pf(560) = 0.222 > D_tx*(560) = 0.22,
    # D_tx*(544) = 0.228 > D_pf(544) = 0.2188: V(560) = 0.222 < V(544) = 0.228.
    solver = edgellm.CtHoSolver([1000, 600], [0.0, 0.1], 2000.0, block_tokens=16,
                                compute=edgellm.ComputeModel.linear(a=0.0002, b=0.01))
    best = solver.solve()
    assert best.prefix_tokens == 560
    assert best.worst_delay == approx(0.222)


def test_compute_model():
    c = edgellm.ComputeModel.linear(a=0.001, b=0.5, batch_mode="TokenCount")
    assert c.prefill_time(100) == approx(0.6)
    assert c.prefill_time(0) == 0.0
    # A packed batch costs p(sum of lengths): p(300).
    assert c.batch_prefill_time([100, 200]) == approx(0.8)
    padded = edgellm.ComputeModel.linear(a=0.001, b=0.5)
    assert padded.batch_prefill_time([100, 200]) == approx(0.7)
    assert edgellm.ComputeModel.default_preset_name() in edgellm.ComputeModel.preset_names()
    measured = edgellm.ComputeModel.measured([(100, 0.1), (200, 0.3)])
    assert measured.prefill_time(150) == approx(0.2)


# ImpactHO's curve A(y) = (M/2)(1 + u / sqrt(1 + u^2)), u = k (y - y0), with M = 0.8, k = 4,
# y0 = 0.25: A(y0) = 0.4; at u = 1, A = 0.4 (1 + 1/sqrt 2); A'(y) = M k / (2 (1 + u^2)^1.5),
# 1.6 at y0 and 1.6 / 2^1.5 at u = 1.
CURVE = dict(full_accuracy=0.8, steepness=4.0, inflection=0.25)


def test_accuracy_model_by_hand():
    model = edgellm.AccuracyModel(edgellm.AccuracyParams(**CURVE))
    assert model.accuracy(0.25) == approx(0.4)
    assert model.accuracy(0.5) == approx(0.4 * (1 + 1 / math.sqrt(2)))
    assert model.slope(0.25) == approx(1.6)
    assert model.peak_slope() == approx(1.6)
    assert model.slope(0.5) == approx(1.6 / 2 ** 1.5)
    assert model.inverse_slope(1.6 / 2 ** 1.5) == approx(0.5)
    assert model.inverse_accuracy(0.4) == approx(0.25)
    assert model.inverse_slope(0.0) == math.inf
    assert edgellm.accuracy(1.0, edgellm.AccuracyParams(**CURVE)) == approx(
        0.4 * (1 + 3 / math.sqrt(10)))
    paper = edgellm.AccuracyParams.importance_order()
    assert (paper.full_accuracy, paper.steepness, paper.inflection) == (0.941, 30.0, 0.065)
    assert edgellm.AccuracyParams() == paper


# A water-filling slot by hand, with CURVE for both UEs, S = 1e6 bit each, Delta t = 0.1 s.
# UE 0 has sent x = 0.25 (its y0), UE 1 x = 0.5: B_min = 0. Same curve and size, so the
# optimum gives both the same y (A'(y_0) = A'(y_1) = lambda S / Delta t) where both move.
# B = 5.5 Mb/s moves B Delta t / S = 0.55 of a cache: (y - 0.25) + (y - 0.5) = 0.55, y = 0.65.
# Rates S (y - x) / Delta t: 4 Mb/s and 1.5 Mb/s. lambda = Delta t A'(0.65) / S with
# u = 1.6: A' = 1.6 / 3.56^1.5.
# With B = 1.5 Mb/s only UE 0 moves: 0.25 + 0.15 = 0.4 < 0.5, where UE 1 already is.
def hand_ues():
    params = edgellm.AccuracyParams(**CURVE)
    return [edgellm.WaterFillingUe(1e6, 0.25, params),
            {"cache_bits": 1e6, "sent_fraction": 0.5, "accuracy": params}]


def test_slot_reference_by_hand():
    # Equal allocation of 1 Gb/s between two 1-Gbit transfers, handed over at 0 and 0.25 s,
    # slots of 100 ms, windows of 500 ms: the second is served from slot 3 (0.3 s). Alone a
    # slot moves 0.1 of a cache, shared 0.05: 3 x 0.1 + 2 x 0.05 = 0.4 each, over 8 slots.
    ues = [edgellm.SlotReferenceUe(0.0, 1e9), edgellm.SlotReferenceUe(0.25, 1e9)]
    r = edgellm.slot_reference("impact-equal", ues, capacity_bps=1e9)
    assert r.fractions == [approx(0.4), approx(0.4)]
    assert r.slots == 8
    curve = edgellm.AccuracyModel(edgellm.AccuracyParams())
    assert r.mean_accuracy == approx(curve.accuracy(0.4))
    # Pro rata the second starts at its instant, half of slot 2: 0.35 and 0.375.
    pro = edgellm.slot_reference("impact-equal", ues, capacity_bps=1e9, window="pro-rata")
    assert pro.fractions == [approx(0.35), approx(0.375)]
    # To the deadline: from slot 3 to 0.75 s, the last slot in half: 0.35 for the second.
    cut = edgellm.slot_reference("impact-equal", ues, capacity_bps=1e9, window="to-deadline")
    assert cut.fractions == [approx(0.4), approx(0.35)]
    # Re-prefill funds no transfer: y is the prefix, on the random-order curve.
    prefix = edgellm.slot_reference(
        "impact-reprefill", [edgellm.SlotReferenceUe(0.0, 1e9, 0.25, True)], capacity_bps=1e9)
    assert prefix.fractions == [approx(0.25)]
    random = edgellm.AccuracyModel(edgellm.AccuracyParams.random_order())
    assert prefix.accuracies == [approx(random.accuracy(0.25))]


def test_water_filling_slot_by_hand():
    slot = edgellm.water_filling_slot(hand_ues(), capacity_bps=5.5e6, slot_seconds=0.1)
    assert slot.mode == "water-filling"
    assert slot.minimum_capacity_bps == approx(0.0)
    assert [u.fraction for u in slot.ues] == [pytest.approx(0.65, rel=1e-7)] * 2
    assert slot.ues[0].rate_bps == pytest.approx(4e6, rel=1e-6)
    assert slot.ues[1].rate_bps == pytest.approx(1.5e6, rel=1e-6)
    assert slot.ues[0].fraction_rate == pytest.approx(4.0, rel=1e-6)
    assert slot.price == pytest.approx(0.1 * 1.6 / 3.56 ** 1.5 / 1e6, rel=1e-6)
    # Never more than the capacity.
    assert sum(u.rate_bps for u in slot.ues) <= 5.5e6 * (1 + 1e-12)

    low = edgellm.water_filling_slot(hand_ues(), capacity_bps=1.5e6, slot_seconds=0.1)
    assert low.ues[0].fraction == pytest.approx(0.4, rel=1e-7)
    assert low.ues[1].fraction == approx(0.5)
    assert low.ues[1].rate_bps == pytest.approx(0.0, abs=1e-3)


def test_water_filling_fallback_and_not_binding_by_hand():
    params = edgellm.AccuracyParams(**CURVE)
    # Both at 0 below y0 = 0.25: they need 1e6 * 0.25 / 0.1 = 2.5 Mb/s and 7.5 Mb/s, B_min =
    # 10 Mb/s. B = 6 Mb/s is shared equally, 3 each; UE 0 is capped at its 2.5, and UE 1 gets
    # the other 3.5: y = 0.25 and 0.35 / 3.
    ues = [(1e6, 0.0, params), (3e6, 0.0, params)]
    slot = edgellm.water_filling_slot(ues, capacity_bps=6e6, slot_seconds=0.1)
    assert slot.mode == "equalized-bytes"
    assert math.isnan(slot.price)
    assert slot.minimum_capacity_bps == approx(10e6)
    assert [u.rate_bps for u in slot.ues] == [approx(2.5e6), approx(3.5e6)]
    assert slot.ues[1].fraction == approx(0.35 / 3)
    # Enough for everything (1e6 * 1 / 0.1 + 3e6 / 0.1 = 40 Mb/s): everyone completes.
    full = edgellm.water_filling_slot(ues, capacity_bps=50e6, slot_seconds=0.1)
    assert full.mode == "not-binding"
    assert full.price == 0.0
    assert [u.fraction for u in full.ues] == [1.0, 1.0]


# Pallas by hand: T_0 = 0.05 s, T_hist = T_load + L_hist / r_p = 0.1 + 1000 / 10000 = 0.2 s;
# the suffix grows by r_d s_KV = 50 * 1e5 bytes/s, 8 * 5e6 / 1e7 = 4 s of link per s of
# window: T_res = 3 T_w. T_SIT = 0.05 + max(0.2 - T_w, 3 T_w), least at T_w = 0.05 (0.2);
# T_early = 0 there, so J = 0.8 * 0.2 = 0.16. Grid 0, 0.05, ..., 0.5: 11 points.
PALLAS = dict(radio_interruption_s=0.05, load_s=0.1, prefix_tokens=1000,
              prefill_tokens_per_second=1e4, decode_tokens_per_second=50.0,
              kv_bytes_per_token=1e5, backhaul_bps=1e7, alpha=0.8, grid_step_s=0.05,
              window_limit_s=0.5)


def test_pallas_window_by_hand():
    model = edgellm.PallasWindowModel(**PALLAS)
    assert model.history_time() == approx(0.2)
    assert model.residual_time(0.1) == approx(0.3)
    assert model.sit(0.0) == approx(0.25)
    assert model.regime(0.0) == "prefix"
    assert model.regime(0.1) == "stream"
    assert model.early_time(0.5) == approx(0.3)
    assert model.cost(0.5) == approx(0.8 * (0.05 + 1.5) + 0.2 * 0.3)
    choice = edgellm.pallas_window(**PALLAS)
    assert choice.window_s == approx(0.05)
    assert choice.sit_s == approx(0.2)
    assert choice.early_s == 0.0
    assert choice.cost == approx(0.16)
    assert choice.grid_points == 11
    assert edgellm.pallas_window_limit(0.5, 0.3) == 0.3


def test_pallas_window_ablations_by_hand():
    # Held back, the suffix crosses after the handover: T_res = 4 T_w, T_SIT = 0.05 +
    # max(0.2 - T_w, 4 T_w): 0.25 at T_w = 0 and at 0.05, where J ties at 0.2; the smaller wins.
    held = dict(PALLAS, streaming=False)
    assert edgellm.PallasWindowModel(**held).residual_time(0.1) == approx(0.4)
    choice = edgellm.pallas_window(**held)
    assert choice.window_s == 0.0
    assert choice.sit_s == approx(0.25)
    # S_0 = 2.5e5 bytes ahead of the suffix: 8 S_0 / B = 0.2 s more on the link, so
    # T_res(0.1) = 0.2 + 0.4 - 0.1 = 0.5, and without streaming 0.2 + 0.4 = 0.6.
    ahead = dict(PALLAS, history_bytes=2.5e5)
    assert edgellm.PallasWindowModel(**ahead).residual_time(0.1) == approx(0.5)
    assert edgellm.PallasWindowModel(**dict(ahead, streaming=False)).residual_time(0.1) == \
        approx(0.6)
    with pytest.raises(ValueError, match=r"historyBytes \(S_0, bytes\) = -1 is invalid"):
        edgellm.PallasWindowModel(**dict(PALLAS, history_bytes=-1.0))


def test_backhaul_tokens_per_second_by_hand():
    # Qwen2.5-7B-Instruct: 28 layers x 4 KV heads x 128 dims x 2 (K and V) x 2 bytes = 57,344
    # bytes per token; 4.5 Gb/s is 562,500,000 bytes/s, so R = 562.5e6 / 57,344 = 9809.24.
    qwen = edgellm.KvCacheProfile.from_preset("Qwen2.5-7B-Instruct")
    assert (qwen.layers, qwen.kv_heads, qwen.head_dim, qwen.bits) == (28, 4, 128, 16)
    assert qwen.bytes_per_token == 57344
    assert edgellm.backhaul_tokens_per_second("4.5Gbps", qwen) == approx(562.5e6 / 57344)
    assert edgellm.backhaul_tokens_per_second(4.5e9, qwen) == approx(562.5e6 / 57344)
    # At 4 bits a token is a quarter of that: four times the tokens.
    kivi = edgellm.KvCacheProfile.from_preset("Qwen2.5-7B-Instruct", bits=4)
    assert edgellm.backhaul_tokens_per_second("1Gbps", kivi) == approx(125e6 / 14336)
    assert "Qwen3-32B" in edgellm.KvCacheProfile.preset_names()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: edgellm.CtHoSolver([0], [0.0], 1.0), "contextTokens"),
        (lambda: edgellm.CtHoSolver([-5], [0.0], 1.0), "context_tokens[0] = -5 is invalid"),
        (lambda: edgellm.CtHoSolver([10], [0.0], 0.0), "backhaulTokensPerSecond"),
        (lambda: edgellm.CtHoSolver([10], [float("nan")], 1.0), "handoverTime"),
        (lambda: edgellm.CtHoSolver([10, 20], [0.0], 1.0), "handover_times"),
        (lambda: edgellm.CtHoSolver([], [], 1.0), "ues"),
        (lambda: edgellm.CtHoSolver([10], [0.0], 1.0, block_tokens=0), "block_tokens"),
        (lambda: hand_solver().evaluate(-1), "prefix_tokens = -1"),
        (lambda: edgellm.ComputeModel.preset("no-such-preset"), "ComputePreset"),
        (lambda: edgellm.ComputeModel.linear(a=-1.0, b=0.0), "PrefillA"),
        (lambda: edgellm.ComputeModel.linear(a=1.0, b=0.0, batch_mode="Odd"), "BatchMode"),
        (lambda: edgellm.AccuracyParams(full_accuracy=1.5), "fullAccuracy"),
        (lambda: edgellm.AccuracyParams(steepness=0.0), "steepness"),
        (lambda: edgellm.water_filling_slot([(1e6, 1.5)], 1e6, 0.1), "ues[0].sentFraction"),
        (lambda: edgellm.water_filling_slot([(0.0, 0.0)], 1e6, 0.1), "cacheBits"),
        (lambda: edgellm.water_filling_slot([], 1e6, 0.0), "slotSeconds"),
        (lambda: edgellm.water_filling_slot(["x"], 1e6, 0.1), "ues entry"),
        (lambda: edgellm.slot_reference("tho", [], 1e9), "scheme"),
        (lambda: edgellm.slot_reference("impactho", [], 0.0), "capacityBps"),
        (lambda: edgellm.slot_reference("impactho", [], 1e9, order="sorted"), "order"),
        (lambda: edgellm.slot_reference("impactho", [], 1e9, window="late"), "window"),
        (lambda: edgellm.slot_reference(
            "impactho", [edgellm.SlotReferenceUe(1.0, 1e9, prefix_fraction=2.0)], 1e9),
         "ues[0].prefixFraction"),
        (lambda: edgellm.pallas_window(**dict(PALLAS, alpha=2.0)), "alpha"),
        (lambda: edgellm.pallas_window(**dict(PALLAS, grid_step_s=1e-12)), "grid"),
        (lambda: edgellm.PallasWindowModel(**PALLAS).sit(-1.0), "windowS"),
        (lambda: edgellm.PallasWindowModel(**dict(PALLAS, prefix_tokens=-1)), "prefix_tokens"),
        (lambda: edgellm.KvCacheProfile.from_preset("Qwen-9"), "Qwen-9"),
        (lambda: edgellm.KvCacheProfile.from_preset("Qwen3-8B", bits=3), "3"),
        (lambda: edgellm.backhaul_tokens_per_second(
            "4.5", edgellm.KvCacheProfile.from_preset("Qwen3-8B")), "rate = \"4.5\""),
        (lambda: edgellm.backhaul_tokens_per_second(
            0.0, edgellm.KvCacheProfile.from_preset("Qwen3-8B")), "rate = 0"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value)
    assert "allowed" in str(error.value) or "invalid" in str(error.value)


def test_interpreter_survives_bad_input():
    # In a fresh interpreter, so that an abort would show as its exit code.
    code = (
        "import edgellm\n"
        "for bad in (lambda: edgellm.CtHoSolver([0], [0.0], 1.0),\n"
        "            lambda: edgellm.water_filling_slot([(1e6, 2.0)], 1.0, 0.1),\n"
        "            lambda: edgellm.ComputeModel.preset('x')):\n"
        "    try:\n"
        "        bad()\n"
        "    except ValueError:\n"
        "        pass\n"
        "print('alive')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "alive"
