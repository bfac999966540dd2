#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Pallas paper's study on the packet-level simulator (edge-llm-pallas): the service
interruption (SIT) and the inter-token latency (ITL) per scheme against the inter-cell link
rate, for one handover (the sweep study) and for UEs on random routes over an 8 x 8 grid of
cells (the grid study, whose link rates are drawn around the given mean).

    examples/pallas-figures.py --quick          # about 30 s
    examples/pallas-figures.py --out-dir doc/figures --runs 10

Each point is the mean over RngRuns of the run's mean SIT over its handovers, mean ITL over
its sessions and mean of its sessions' P99 ITL, with a 95 % Student-t interval over the
runs, under the example's defaults: A3 handovers and the trajectory predictor, with Pallas
told each draw's handovers as its bound. Writes pallas-sweep.png and pallas-grid.png into --out-dir, and the sweeps' tables into
OUT_DIR/data.
"""

import sys

from edgellm_finder import find_edgellm

find_edgellm()

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from edgellm.figures import FigureRun, log_y, parser, per_run, plot_lines, summarize  # noqa: E402

SCHEMES = ["pallas", "pallas-full-copy", "pallas-recompute", "ctho", "detour"]
QUICK_GRID_SCHEMES = ["pallas", "ctho"]
LABELS = {"pallas": "Pallas", "pallas-full-copy": "full copy", "pallas-recompute":
          "recompute", "ctho": "ctHO", "detour": "Detour",
          "pallas-oracle-bound": "Pallas, oracle (bound)"}
# Under the defaults (A3, the trajectory predictor) each run has pallas's oracle bound too.
BOUND = "pallas-oracle-bound"

FULL = {"sweep": [100, 200, 300, 500, 800], "grid": [100, 300, 500], "grid_ues": 4}
QUICK = {"sweep": [100, 300, 500], "grid": [300], "grid_ues": 2}


def figure(run, name, handovers, sessions, schemes, title, runs):
    """SIT, mean ITL and P99 ITL against the link rate, one line per scheme."""
    for frame in (handovers, sessions):
        frame["x"] = frame["linkRates"].astype(float)
    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(5.6, 8))
    # A full copy's SIT is seconds where the others' are tens of ms: log axes for the means.
    panels = [(handovers, "sit_s", "mean SIT (ms)", "log"),
              (sessions, "itl_mean_s", "mean ITL (ms)", "log"),
              (sessions, "itl_p99_s", "P99 ITL (ms)\nmean over sessions", "linear")]
    for ax, (frame, column, ylabel, scale) in zip(axes, panels):
        if scale == "log":
            log_y(ax)
        plot_lines(ax, summarize(per_run(frame, "x", column, "mean"), "x"), "x", order=schemes,
                   labels=LABELS, scale=1e3)
        ax.set_ylabel(ylabel)
    axes[0].legend(fontsize=7)
    axes[0].set_title("%s; %d RngRuns per point, 95 %% CI" % (title, runs), fontsize=9)
    axes[-1].set_xlabel("inter-cell link rate (Mb/s)")
    run.save(fig, "pallas-" + name)
    plt.close(fig)


def main(argv=None):
    args = parser(__doc__.splitlines()[0]).parse_args(argv)
    run = FigureRun(args, default_runs=10)
    points = QUICK if args.quick else FULL
    handovers, sessions = run.sweep(
        "pallas-sweep", "edge-llm-pallas", {"linkRates": points["sweep"]},
        params=dict(quiet=True, study="sweep", scheme=",".join(SCHEMES)),
        extra_tables=["sessions"])
    figure(run, "sweep", handovers, sessions, [SCHEMES[0], BOUND] + SCHEMES[1:],
           "one handover, A3", run.runs)
    grid_schemes = QUICK_GRID_SCHEMES if args.quick else SCHEMES
    # The grid costs about 7 s of CPU per UE, scheme and run; the full mode's 3 runs keep it
    # within minutes.
    grid_runs = run.runs_or(3)
    grid_params = dict(quiet=True, study="grid", ues=points["grid_ues"],
                       scheme=",".join(grid_schemes))
    if args.quick:
        # The predictor's lag is trained on grid runs of its own: one is enough to check it.
        grid_params["calibrationRuns"] = 1
    handovers, sessions = run.sweep(
        "pallas-grid", "edge-llm-pallas", {"linkRates": points["grid"]},
        params=grid_params,
        extra_tables=["sessions"], runs=grid_runs)
    figure(run, "grid", handovers, sessions, [grid_schemes[0], BOUND] + grid_schemes[1:],
           "8 x 8 grid, %d UEs, A3" % points["grid_ues"], grid_runs)
    return run.finish()


if __name__ == "__main__":
    sys.exit(main())
