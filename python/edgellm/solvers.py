# SPDX-License-Identifier: GPL-2.0-only
"""The pure models, in this process: plain numbers and lists in, result objects out.

Every function checks its input in the C++ model it calls; a bad value raises ValueError
naming the field and its allowed range, and the interpreter goes on.
"""

from ._edgellm import (
    AccuracyEnvelope,
    AccuracyModel,
    AccuracyParams,
    ComputeModel,
    CtHoSolver,
    KvCacheProfile,
    PallasWindowModel,
    SlotReferenceResult,
    SlotReferenceUe,
    WaterFillingUe,
    backhaul_tokens_per_second,
    pallas_window_limit,
    slot_reference,
)
from ._edgellm import water_filling_slot as _water_filling_slot

__all__ = [
    "AccuracyEnvelope",
    "AccuracyModel",
    "AccuracyParams",
    "ComputeModel",
    "CtHoSolver",
    "KvCacheProfile",
    "PallasWindowModel",
    "SlotReferenceResult",
    "SlotReferenceUe",
    "WaterFillingUe",
    "accuracy",
    "backhaul_tokens_per_second",
    "ctho_plan",
    "pallas_window",
    "pallas_window_limit",
    "slot_reference",
    "water_filling_slot",
]


def ctho_plan(context_tokens, handover_times, backhaul_tokens_per_second, prefix_tokens=None,
              **options):
    """The ctHO plan of a handover group (a CtHoPlan).

    ``context_tokens`` C_i and ``handover_times`` tau_i (s), one per UE;
    ``backhaul_tokens_per_second`` R, the KV cache the backhaul carries per second, in tokens
    (``backhaul_tokens_per_second(rate, KvCacheProfile.from_preset(name))``). ``prefix_tokens`` L, or None for the optimum.
    ``options``: compute (a ComputeModel), prefill_cycle, earliest_prefill_start,
    backlog_tokens, block_tokens, as CtHoSolver takes them.
    """
    solver = CtHoSolver(list(context_tokens), list(handover_times),
                        backhaul_tokens_per_second, **options)
    return solver.plan(prefix_tokens)


def _ue(entry):
    if isinstance(entry, WaterFillingUe):
        return entry
    if isinstance(entry, dict):
        return WaterFillingUe(**entry)
    if isinstance(entry, (tuple, list)):
        return WaterFillingUe(*entry)
    raise ValueError(
        "ues entry %r is invalid; allowed: a WaterFillingUe, a dict of its fields, or a tuple "
        "(cache_bits, sent_fraction, accuracy)" % (entry,)
    )


def water_filling_slot(ues, capacity_bps, slot_seconds):
    """One slot of ImpactHO's water-filling (a WaterFillingResult).

    ``ues``: WaterFillingUe objects, dicts ``{"cache_bits": S, "sent_fraction": x,
    "accuracy": AccuracyParams(...)}`` or tuples in that order; ``capacity_bps`` B;
    ``slot_seconds`` Delta t.
    """
    return _water_filling_slot([_ue(u) for u in ues], capacity_bps, slot_seconds)


def accuracy(fraction, params=None):
    """A(y) of ImpactHO's accuracy curve (the importance-order curve by default)."""
    return AccuracyModel(params if params is not None else AccuracyParams()).accuracy(fraction)


def pallas_window(**inputs):
    """Pallas's choice of prefetch window (a PallasWindowChoice); inputs as PallasWindowModel."""
    return PallasWindowModel(**inputs).choose()
