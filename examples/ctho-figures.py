#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The ctHO paper's study on the packet-level simulator (edge-llm-handover): the worst user's
handover delay under tHO, cHO and ctHO against the backhaul rate R_bh, the prefill rate 1/a,
the largest context C_max and the number of UEs K, and the total streaming delay against the
distance between the base stations, with the no-handover case.

    examples/ctho-figures.py --quick            # about 20 s: 2 points per sweep, 2 RngRuns
    examples/ctho-figures.py --out-dir doc/figures --runs 5

Each point is the mean over RngRuns of the run's statistic (the worst user's HO delay; the
mean total streaming delay of its users) with a 95 % Student-t interval over the runs; the
dashed lines are the analytic delay of the same draws (the plan's prediction). Writes
ctho-rbh.png, ctho-prefill-rate.png, ctho-cmax.png, ctho-ues.png and
ctho-streaming-distance.png into --out-dir, and the sweeps' tables into OUT_DIR/data.
"""

import sys

from edgellm_finder import find_edgellm

find_edgellm()

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from edgellm.figures import FigureRun, log_y, parser, per_run, plot_lines, summarize  # noqa: E402

SCHEMES = ["tho", "cho", "ctho"]
LABELS = {"tho": "tHO", "cho": "cHO", "ctho": "ctHO", "detour": "Detour",
          "none": "no handover"}

# Every point of the full mode; the quick mode takes the two marked ones of each.
FULL = {
    "rbh": [1, 2, 4.5, 10, 20],  # Gb/s
    "prefill": [5000, 10000, 20000, 40000],  # tokens/s (1/a)
    "cmax": [2048, 3072, 4096, 6144, 8192],  # tokens
    "ues": [1, 2, 4, 8],
    "distance": [300, 500, 700, 1000],  # m
}
QUICK = {"rbh": [2, 10], "prefill": [5000, 20000], "cmax": [2048, 4096], "ues": [1, 4],
         "distance": [300, 500]}


def worst_delay_figure(run, name, grid, x_of, xlabel, params, logx=False):
    """A sweep of edge-llm-handover, and its figure: worst HO delay, measured and analytic."""
    frame = run.sweep(name, "edge-llm-handover", grid, params=params)
    flag = next(iter(grid))
    frame["x"] = frame[flag].map(x_of)
    fig, ax = plt.subplots(figsize=(5.6, 4))
    measured = summarize(per_run(frame, "x", "ho_delay_s", "max"), "x")
    if logx:
        ax.set_xscale("log")
    plot_lines(ax, measured, "x", order=SCHEMES, labels=LABELS, scale=1e3)
    analytic = summarize(per_run(frame, "x", "predicted_delay_s", "max"), "x")
    plot_lines(ax, analytic, "x", order=SCHEMES, labels=LABELS, scale=1e3, linestyle="--",
               label_suffix=" (analytic)", intervals=False)
    log_y(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("worst user's handover delay (ms)")
    ax.legend(fontsize=7, ncol=2)
    ax.set_title("%d RngRuns per point, 95 %% CI" % run.runs, fontsize=9)
    run.save(fig, "ctho-" + name)
    plt.close(fig)


def streaming_figure(run, distances, params):
    """Total streaming delay against the distance of the base stations, with no handover."""
    grid = {"bsDistance": distances}
    sessions = run.sweep("streaming-distance", "edge-llm-handover", grid,
                         params=dict(params, scheme="tho,cho,ctho,detour"),
                         extra_tables=["sessions"])[1]
    # No handover: the same sessions on the same draw, the UE staying on its source cell.
    alone = run.sweep("streaming-distance-none", "edge-llm-handover", grid,
                      params=dict(params, scheme="ctho", trigger="none", batching="online"),
                      extra_tables=["sessions"])[1]
    alone["scheme"] = "none"
    import pandas

    frame = pandas.concat([sessions, alone], ignore_index=True)
    frame["x"] = frame["bsDistance"].astype(float)
    order = SCHEMES + ["detour", "none"]
    totals = summarize(per_run(frame, "x", "total_s", "mean"), "x")
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(5.6, 6))
    plot_lines(top, totals, "x", order=order, labels=LABELS)
    top.set_ylabel("total streaming delay (s)\nmean over the users")
    top.legend(fontsize=7)
    top.set_title("%d RngRuns per point, 95 %% CI" % run.runs, fontsize=9)
    # The same against no handover, per run and user, so that the session's length (which
    # grows with the distance) cancels.
    key = ["x", "RngRun", "imsi"]
    base = frame[frame["scheme"] == "none"].set_index(key)["total_s"]
    extra = frame[frame["scheme"] != "none"].copy()
    extra["extra_s"] = extra["total_s"].values - base.reindex(
        pandas.MultiIndex.from_frame(extra[key])).values
    added = summarize(per_run(extra, "x", "extra_s", "mean"), "x")
    plot_lines(bottom, added, "x", order=order, labels=LABELS, scale=1e3)
    bottom.axhline(0, color="black", linewidth=0.8)
    bottom.set_ylabel("minus no handover (ms)")
    bottom.set_xlabel("distance between the base stations D_bs (m)")
    run.save(fig, "ctho-streaming-distance")
    plt.close(fig)


def main(argv=None):
    args = parser(__doc__.splitlines()[0]).parse_args(argv)
    run = FigureRun(args, default_runs=5)
    points = QUICK if args.quick else FULL
    # The quick mode's sessions are short: 2 UEs and 60 tokens after each handover.
    params = dict(quiet=True, scheme=",".join(SCHEMES))
    if args.quick:
        params.update(numUes=2, tokensAfter=60)
    ues_params = {k: v for k, v in params.items() if k != "numUes"}
    worst_delay_figure(run, "rbh", {"backhaulRate": ["%gGbps" % r for r in points["rbh"]]},
                       lambda text: float(text[: -len("Gbps")]),
                       "backhaul rate R_bh (Gb/s)", params, logx=True)
    worst_delay_figure(run, "prefill-rate", {"prefillA": [1.0 / r for r in points["prefill"]]},
                       lambda a: 1.0 / float(a), "prefill rate 1/a (tokens/s)", params,
                       logx=True)
    worst_delay_figure(run, "cmax", {"cMax": points["cmax"]}, float,
                       "largest context C_max (tokens; contexts U[1024, C_max])", params)
    worst_delay_figure(run, "ues", {"numUes": points["ues"]}, float,
                       "UEs handing over together, K", ues_params)
    streaming_figure(run, points["distance"], params)
    return run.finish()


if __name__ == "__main__":
    sys.exit(main())
