# SPDX-License-Identifier: GPL-2.0-only
"""The scenario of edge-llm-scenario, built and run in this process.

``Network`` takes the example's flags as keyword arguments (``backhaulRate`` is
``backhaul_rate``), with times and rates as text with their units ("500ms", "4.5Gbps"),
calls Python functions from the module's trace sources during the run, runs on in steps,
and reads its records as pandas DataFrames with the columns of the example's CSVs.

ns-3 runs one simulation per process: a process builds one ``Network``, and a second one
raises RuntimeError. Run further networks in child processes, with ``edgellm.run_scenario``
or ``edgellm.sweep``. Every option is checked before ns-3 sees it, so a bad one raises
ValueError or TypeError naming it, never an abort of the interpreter.
"""

import atexit
import io

from . import _edgellm

__all__ = ["Network", "network_traces"]

# Options by what Python type they take. Times and rates are text with a unit, as the
# example's flags: a bare number would leave the unit to guess.
_INTEGERS = ("cells", "columns", "rows", "ues", "tokens", "seed", "run")
_NUMBERS = ("spacing", "arrival_rate", "speed", "speed_spread", "departure_spread",
            "backhaul_loss", "gpu_load")
_WORDS = ("ran", "layout", "backhaul", "mobility", "trigger", "ue_airtime", "scheme",
          "cross_traffic", "stall_policy")
_QUANTITIES = {
    "backhaul_rate": "4.5Gbps", "sim_time": "12s", "outage_after": "50ms",
    "outage_for": "1s", "cross_traffic_rate": "1Gbps", "cross_traffic_start": "2s",
    "cross_traffic_for": "3s", "stall_timeout": "200ms",
}
_ATTRIBUTES = ("scheduler_attributes", "coordinator_attributes", "client_attributes",
               "server_attributes", "engine_attributes")

# The callables are dropped while the interpreter still runs; ns-3 destroys its objects later.
atexit.register(_edgellm.close_network)


def network_traces():
    """The traces ``Network.connect`` takes: {name: (part, argument names)}.

    The part is what fires it: ``observer`` (the RAN), ``coordinator``, ``clients`` (every
    UE's), or ``scheduler`` (the scheme's, for the traces of its kind). Times are in s
    (names ending in ``_s``), cells are cell ids, the rest integers, words or booleans.
    """
    return {name: (part, tuple(args)) for name, part, args in _edgellm.network_traces()}


def _option_text(name, value):
    """An option's value as the text the example's flag would get."""
    if name in _INTEGERS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("%s must be an int, not %s" % (name, type(value).__name__))
        return str(value)
    if name in _NUMBERS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError("%s must be a number, not %s" % (name, type(value).__name__))
        return repr(value)
    if not isinstance(value, str):
        if name in _QUANTITIES:
            raise TypeError("%s must be text with its unit, e.g. %r, not %s"
                            % (name, _QUANTITIES[name], type(value).__name__))
        raise TypeError("%s must be a str, not %s" % (name, type(value).__name__))
    return value


def _attribute_text(part, name, value):
    """An attribute's value as ns-3 reads it from text."""
    if not isinstance(name, str):
        raise TypeError("%s: attribute names must be str, not %s" % (part, type(name).__name__))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if not isinstance(value, str):
        raise TypeError("%s: %s must be a str, int, float or bool, not %s"
                        % (part, name, type(value).__name__))
    return value


class Network:
    """One network of edge-llm-scenario, in this process.

    Every keyword argument is a flag of ``edge-llm-scenario --help`` (snake_case), with its
    default when left out: ``ran`` ("lte", or "nr" in a build with 5G-LENA), ``layout``
    ("road", "line" or "grid"), ``cells`` (line or road, 4), ``columns`` and ``rows`` (grid,
    3 by 3), ``spacing`` (m, 300), ``backhaul`` ("pairs" or "star"), ``backhaul_rate``
    ("4.5Gbps"), ``ues`` (3), ``mobility`` ("routes" on the grid, "constant" elsewhere, or
    "poisson"), ``arrival_rate`` (UEs/s, poisson), ``speed`` (m/s, 20), ``speed_spread``
    (routes: each UE's speed is speed x (1 + u), u uniform in [-speed_spread, speed_spread];
    0.25), ``departure_spread`` (routes: each UE leaves its first cell up to this many legs
    after 1 s; 1), ``trigger`` ("planned", "a3", "a2a4" or "none"), ``ue_airtime`` ("run":
    every UE on the air from the start; "session": from 0.5 s before its session until 0.2 s
    after it, so the radio's work follows the UEs with a session), ``tokens`` (per session,
    400), ``sim_time`` (the horizon of routes and arrivals and run()'s default end, "12s"),
    ``scheme`` (a registered scheme, "ctho"), ``seed`` and ``run`` (ns-3's RngSeed and RngRun,
    1 and 1), and the fault
    flags ``backhaul_loss``, ``outage_after``, ``outage_for``, ``cross_traffic``,
    ``cross_traffic_rate``, ``cross_traffic_start``, ``cross_traffic_for``, ``stall_policy``,
    ``stall_timeout``, ``gpu_load``.

    ``scheduler_attributes``, ``coordinator_attributes``, ``client_attributes``,
    ``server_attributes`` and ``engine_attributes`` set ns-3 attributes of the scheme's
    scheduler, the coordinator, every client, server and engine: {name: value as text}, e.g.
    ``scheduler_attributes={"Window": "300ms"}``.

    A bad value raises ValueError (TypeError for a value of the wrong type) naming the option
    and what it allows; nothing is built then. A second Network in the same process raises
    RuntimeError.
    """

    def __init__(self, *, ran=None, layout=None, cells=None, columns=None, rows=None,
                 spacing=None, backhaul=None, backhaul_rate=None, ues=None, mobility=None,
                 arrival_rate=None, speed=None, speed_spread=None, departure_spread=None,
                 trigger=None, ue_airtime=None, tokens=None, sim_time=None, scheme=None, seed=None, run=None,
                 backhaul_loss=None, outage_after=None,
                 outage_for=None, cross_traffic=None, cross_traffic_rate=None,
                 cross_traffic_start=None, cross_traffic_for=None, stall_policy=None,
                 stall_timeout=None, gpu_load=None, scheduler_attributes=None,
                 coordinator_attributes=None, client_attributes=None,
                 server_attributes=None, engine_attributes=None):
        given = {k: v for k, v in locals().items() if k != "self" and v is not None}
        options = {}
        attributes = {}
        for name, value in given.items():
            if name in _ATTRIBUTES:
                if not isinstance(value, dict):
                    raise TypeError("%s must be a dict of attribute names to values, not %s"
                                    % (name, type(value).__name__))
                attributes[name] = {k: _attribute_text(name, k, v) for k, v in value.items()}
            else:
                options[name] = _option_text(name, value)
        self._sim_time = options.get("sim_time", "12s")
        self._net = _edgellm._Network(options, attributes)

    def connect(self, trace, callback):
        """Call ``callback(*arguments)`` whenever the trace fires (``network_traces()`` lists
        the traces and their arguments). It runs inside the simulation: an exception it raises
        stops the run, and ``run()`` raises it. Unknown trace names raise ValueError."""
        if not callable(callback):
            raise TypeError("callback must be callable, not %s" % type(callback).__name__)
        self._net.connect(trace, callback)

    def run(self, until=None):
        """Run the simulation on to the time ``until`` (text with a unit, e.g. "20s"; by
        default ``sim_time``). A later call continues from there: run("5s") then run("10s")
        is run("10s"), with the records of both."""
        if until is None:
            until = self._sim_time
        if not isinstance(until, str):
            raise TypeError("until must be text with its unit, e.g. '20s', not %s"
                            % type(until).__name__)
        self._net.run(until)

    @property
    def now(self):
        """The simulation's time, s."""
        return self._net.now()

    def handovers(self):
        """Every handover so far, one row each, with the columns of handovers.csv."""
        return _frame(self._net.handovers_csv())

    def sessions(self):
        """Every session so far, one row each, with the columns of sessions.csv."""
        return _frame(self._net.sessions_csv())

    def tokens(self):
        """Every token delivered so far, with the columns of the example's --tokensCsv."""
        return _frame(self._net.tokens_csv())

    def write_csv(self, out_dir):
        """Write handovers.csv and sessions.csv (each with its .json sidecar) and tokens.csv
        to ``out_dir``, made when missing, as the example's --outDir and --tokensCsv do."""
        self._net.write_csv(str(out_dir))

    def close(self):
        """End the simulation and drop the connected callables; the network can do nothing
        more, and the process still cannot build another."""
        self._net.close()


def _frame(text):
    import pandas

    return pandas.read_csv(io.StringIO(text))
