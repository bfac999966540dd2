# SPDX-License-Identifier: GPL-2.0-only
"""edge-llm from Python.

The pure models run in this process (``ctho_plan``, ``CtHoSolver``, ``water_filling_slot``,
``slot_reference``, ``AccuracyModel``, ``PallasWindowModel``), and so does one scenario network a process may
build, run and trace (``Network``); every other simulation runs as an example program in a
process of its own (``run``, ``run_handover``, ...), and ``edgellm.sweep`` runs grids of
them on local cores or a Dask cluster.
"""

from ._edgellm import attribute_info, attribute_names
from .network import Network, network_traces
from .run import (
    EXAMPLES,
    RunResult,
    SimulationError,
    example_path,
    examples_dir,
    get_defaults,
    reset_defaults,
    run,
    run_ctho_analytic,
    run_custom_policy,
    run_handover,
    run_impactho,
    run_pallas,
    run_scenario,
    run_streaming,
    set_default,
)
from .solvers import (
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
    accuracy,
    backhaul_tokens_per_second,
    ctho_plan,
    pallas_window,
    pallas_window_limit,
    slot_reference,
    water_filling_slot,
)

__all__ = [
    "EXAMPLES", "Network", "RunResult", "SimulationError", "attribute_info", "attribute_names",
    "example_path", "examples_dir", "get_defaults", "network_traces", "reset_defaults", "run",
    "run_ctho_analytic", "run_custom_policy", "run_handover", "run_impactho", "run_pallas",
    "run_scenario", "run_streaming", "set_default",
    "AccuracyEnvelope", "AccuracyModel", "AccuracyParams", "ComputeModel", "CtHoSolver",
    "KvCacheProfile", "PallasWindowModel", "SlotReferenceResult", "SlotReferenceUe",
    "WaterFillingUe", "accuracy", "backhaul_tokens_per_second", "ctho_plan", "pallas_window",
    "pallas_window_limit", "slot_reference", "water_filling_slot", "sweep",
]


def __getattr__(name):
    # edgellm.sweep on first use: importing it here would make python3 -m edgellm.sweep
    # find it imported twice.
    if name == "sweep":
        import importlib

        return importlib.import_module(__name__ + ".sweep")
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
