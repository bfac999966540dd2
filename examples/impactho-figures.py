#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The ImpactHO paper's studies on the packet-level simulator (edge-llm-impactho), from one
sweep: the users' mean accuracy at the window's end per scheduler against the handover
arrival rate rho, with each run's share of its clairvoyant bound; the random-order ablation at
each rho; the users starved under overload (rho = 12) by each overload case; the time to
0.99 M without a window per context length; and the mean accuracy against the allocation
slot Delta t and the transfer window T_max.

    examples/impactho-figures.py --quick        # 2 schedulers, a few points, 2 RngRuns
    examples/impactho-figures.py --out-dir doc/figures

The full mode runs 4 RngRuns per point, each long enough for about 60 handovers at its rho
(over 200 per point): 20 points, 12 of them of 6 schedulers, the longest study of the module,
best run on a Dask cluster (--scheduler). Each point is the mean over RngRuns of a statistic
of each run, with a 95 % Student-t interval over the runs. Writes impactho-rho.png,
impactho-bound.png, impactho-order.png, impactho-overload.png, impactho-t99.png,
impactho-slot.png and impactho-window.png into --out-dir, with impactho-points.csv (every
point drawn: its mean, interval, RngRuns and handovers), and the sweep's one table into
OUT_DIR/data.
"""

import math
import sys

from edgellm_finder import find_edgellm

find_edgellm()

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from edgellm.figures import (FigureRun, line_styles, parser, per_run, plot_lines,  # noqa: E402
                             summarize)

SCHEDULERS = ["impactho", "impact-equal", "impact-pf", "impact-wta", "impact-hybrid",
              "impact-reprefill"]
QUICK_SCHEDULERS = ["impactho", "impact-equal"]
# impact-full (cHO) waits for the whole cache, about 11 Gb/s per handover per second on the
# road: it keeps up with B = 20 Gb/s at rho = 1 only; above, its transfers queue past the run.
FULL_CACHE = "impact-full"
FULL_CACHE_RHO = 1
LABELS = {"impactho": "ImpactHO", "impact-equal": "equal share", "impact-pf":
          "proportional fair", "impact-wta": "winner takes all", "impact-hybrid":
          "hybrid (ctHO split)", "impact-reprefill": "re-prefill", "impact-full":
          "full cache (cHO)"}
# The paper's three overload cases and the module's fourth.
OVERLOADS = ["no-admission", "winner-take-all", "equalized-bytes", "admission"]
OVERLOAD_LABELS = {"no-admission": "no admission\ncontrol", "winner-take-all":
                   "winner-take-all\nfallback", "equalized-bytes": "Equalized-Bytes\nfallback",
                   "admission": "admission\ncontrol"}
# M / 2 = A(y0) of the importance curve (M = 0.941): below it a user is starved.
STARVED_BELOW = 0.941 / 2

# Every point of the sweep sets every one of these flags, so that the one table has a column
# for each. UEs enter from 1.5 s until 8 s before the end: about rho x (simTime - 9.5 s)
# handovers per run.
BASE = {"rho": 4, "simTime": "24s", "slot": "100ms", "window": "500ms", "order": "importance",
        "overload": "equalized-bytes"}
FULL = {
    "rho": {1: "60s", 2: "35s", 4: "24s", 8: "17s", 12: "15s"},
    "slot": ["50ms", "100ms", "200ms", "400ms"],
    "window": ["100ms", "250ms", "500ms", "1000ms"],
    "overload_rho": 12,
    # Without a window every cache moves whole: at rho = 4 the link would fall behind.
    "t99_rho": 1,
}
QUICK = {
    "rho": {2: "11s", 4: "11s"},
    "slot": ["100ms", "200ms"],
    "window": ["250ms", "500ms"],
    "overload_rho": 4,
    "t99_rho": 2,
}
AXES = {
    "slot": ("allocation slot Delta t (ms)", lambda t: float(t[: -len("ms")])),
    "window": ("transfer window T_max (ms)", lambda t: float(t[: -len("ms")])),
}


def select(frame, **fixed):
    """The rows whose flags have the given values."""
    part = frame
    for k, v in fixed.items():
        part = part[part[k].astype(str) == str(v)]
    return part.copy()


def bound_share(frame):
    """Per (scheme, rho, RngRun): the sum of the accuracies over the run's clairvoyant bound."""
    kept = frame.dropna(subset=["policy_accuracy", "policy_run_clairvoyant_bound"])
    sums = kept.groupby(["scheme", "rho", "RngRun"], sort=False).agg(
        total=("policy_accuracy", "sum"), bound=("policy_run_clairvoyant_bound", "first"))
    sums["value"] = sums["total"] / sums["bound"]
    return sums["value"].reset_index()


def titled(ax, text, run, quick):
    if quick:
        text += ", 2-bit KV, B = 2.5 Gb/s"
    ax.set_title("%s\n%d RngRuns per point, 95 %% CI" % (text, run.runs), fontsize=9)


def main(argv=None):
    args = parser(__doc__.splitlines()[0], quick_seconds=90).parse_args(argv)
    run = FigureRun(args, default_runs=4)
    points = QUICK if args.quick else FULL
    schedulers = QUICK_SCHEDULERS if args.quick else SCHEDULERS
    common = dict(quiet=True)
    if args.quick:
        # A KV transfer costs a packet per 1.4 kB: 2-bit caches over an eighth of the link
        # keep every transfer's duration, and so the schedulers' contest, at an eighth of the
        # packets.
        common.update(kvBits=2, backhaulRate="2.5Gbps")
    rhos = sorted(points["rho"])

    def sweep(grid, schemes):
        full = dict(BASE)
        full.update(grid)
        params = dict(common, scheme=",".join(schemes))
        return run.sweep("impactho", "edge-llm-impactho", {k: [v] if not isinstance(v, list)
                                                          else v for k, v in full.items()},
                         params=params)

    # One table for every study: each call adds its points, and a point already run (the
    # shared base) is not run again.
    for rho in rhos:
        schemes = schedulers + ([FULL_CACHE] if rho == FULL_CACHE_RHO and not args.quick
                                else [])
        sweep({"rho": rho, "simTime": points["rho"][rho]}, schemes)
        sweep({"rho": rho, "simTime": points["rho"][rho], "order": "random"}, ["impactho"])
    rho_o = points["overload_rho"]
    sweep({"rho": rho_o, "simTime": points["rho"].get(rho_o, FULL["rho"][rho_o]),
           "overload": OVERLOADS}, ["impactho"])
    rho_t = points["t99_rho"]
    sweep({"rho": rho_t, "simTime": points["rho"].get(rho_t, FULL["rho"][rho_t]),
           "window": "0ms"}, schedulers)
    base_time = points["rho"].get(BASE["rho"], BASE["simTime"])
    frame = None
    for swept in AXES:
        frame = sweep({"simTime": base_time, swept: points[swept]}, schedulers)

    # Mean accuracy against rho, and each run's share of its clairvoyant bound.
    at = dict(slot=BASE["slot"], window=BASE["window"], order="importance",
              overload=BASE["overload"])
    by_rho = select(frame, **at)
    by_rho = by_rho[by_rho["rho"].astype(str).isin([str(r) for r in rhos])]
    by_rho = by_rho[by_rho["simTime"].astype(str) == by_rho["rho"].map(
        lambda r: points["rho"][int(float(r))])]
    by_rho["rho"] = by_rho["rho"].astype(float)
    for name, values, ylabel in (
            ("rho", per_run(by_rho, "rho", "policy_accuracy", "mean"),
             "mean accuracy at the window's end"),
            ("bound", bound_share(by_rho), "share of the clairvoyant bound (sum of A)")):
        fig, ax = plt.subplots(figsize=(5.6, 4))
        summary = summarize(values, "rho")
        run.keep_points("impactho-" + name, summary, "rho", frame=by_rho,
                        metric="policy_accuracy")
        plot_lines(ax, summary, "rho", order=schedulers + [FULL_CACHE], labels=LABELS)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("handover arrival rate rho (1/s)")
        ax.set_ylabel(ylabel)
        titled(ax, "Delta t = %s, T_max = %s" % (BASE["slot"], BASE["window"]), run,
               args.quick)
        ax.legend(fontsize=7)
        run.save(fig, "impactho-" + name)
        plt.close(fig)

    # The ordering ablation: ImpactHO in importance and in random order, the same draws.
    ablation = select(frame, slot=BASE["slot"], window=BASE["window"],
                      overload=BASE["overload"], scheme="impactho")
    ablation = ablation[ablation["rho"].astype(str).isin([str(r) for r in rhos])]
    ablation = ablation[ablation["simTime"].astype(str) == ablation["rho"].map(
        lambda r: points["rho"][int(float(r))])]
    ablation["rho"] = ablation["rho"].astype(float)
    fig, ax = plt.subplots(figsize=(5.6, 4))
    summary = summarize(per_run(ablation, "rho", "policy_accuracy", "mean", by="order"), "rho",
                        by="order")
    run.keep_points("impactho-order", summary, "rho", by="order", frame=ablation,
                    metric="policy_accuracy")
    for order, colour, marker in (("importance", line_styles("impactho")[0], "o"),
                                  ("random", "tab:gray", "x")):
        part = summary[summary["order"] == order].sort_values("rho")
        if not part.empty:
            ax.errorbar(part["rho"], part["mean"], yerr=part["half"].fillna(0), color=colour,
                        marker=marker, capsize=3, label="%s order" % order)
    ax.set_xticks(rhos)
    ax.set_xticklabels(["%g" % r for r in rhos])
    ax.grid(True, alpha=0.3)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("handover arrival rate rho (1/s)")
    ax.set_ylabel("ImpactHO's mean accuracy at the window's end")
    titled(ax, "ordering ablation", run, args.quick)
    ax.legend(fontsize=7)
    run.save(fig, "impactho-order")
    plt.close(fig)

    # Starvation under overload, per case.
    over = select(frame, rho=rho_o, slot=BASE["slot"], window=BASE["window"],
                  order="importance", scheme="impactho")
    over = over[over["overload"].isin(OVERLOADS)]
    starved = per_run(over, "overload", "policy_accuracy",
                      lambda s: float((s < STARVED_BELOW).sum()))
    counted = summarize(starved, "overload")
    run.keep_points("impactho-overload", counted, "overload", frame=over,
                    metric="policy_accuracy")
    fig, ax = plt.subplots(figsize=(5.6, 4))
    shown = [o for o in OVERLOADS if o in set(counted["overload"])]
    rows = [counted[counted["overload"] == o].iloc[0] for o in shown]
    ax.bar(range(len(shown)), [r["mean"] for r in rows],
           yerr=[0 if r["half"] != r["half"] else r["half"] for r in rows], capsize=4,
           color=line_styles("impactho")[0], alpha=0.8)
    ax.set_xticks(range(len(shown)))
    ax.set_xticklabels([OVERLOAD_LABELS[o] for o in shown], fontsize=8)
    ax.set_ylabel("users starved (A < M/2) per run")
    ax.set_ylim(0, max([1.0] + [r["mean"] + (r["half"] if r["half"] == r["half"] else 0)
                                for r in rows]) * 1.15)
    titled(ax, "ImpactHO, rho = %g/s" % rho_o, run, args.quick)
    ax.grid(True, axis="y", alpha=0.3)
    run.save(fig, "impactho-overload")
    plt.close(fig)

    # Time to 0.99 M without a window, per context length: each run's median.
    t99 = select(frame, rho=rho_t, slot=BASE["slot"], window="0ms", order="importance",
                 overload=BASE["overload"])
    # A handover's context is its prompt (4K, 8K or 16K tokens) and what it generated before:
    # each goes to its prompt's power of two. A UE whose session had ended has none.
    t99 = t99[t99["context_tokens"] > 0].copy()
    t99["context"] = t99["context_tokens"].astype(float).map(lambda c: 2.0 ** math.floor(
        math.log2(c)))
    fig, ax = plt.subplots(figsize=(5.6, 4))
    medians = summarize(per_run(t99, "context", "policy_time_to_99_s", "median"), "context")
    run.keep_points("impactho-t99", medians, "context", frame=t99,
                    metric="policy_time_to_99_s")
    plot_lines(ax, medians, "context", order=schedulers, labels=LABELS, scale=1e3)
    ax.set_xscale("log", base=2)
    ticks = sorted(set(t99["context"]))
    ax.set_xticks(ticks)
    ax.set_xticklabels(["%dK" % (t // 1024) for t in ticks])
    ax.set_xlabel("context (tokens)")
    ax.set_ylabel("time to 0.99 M after the handover, median (ms)")
    ax.set_ylim(bottom=0)
    titled(ax, "no window, rho = %g/s" % rho_t, run, args.quick)
    ax.legend(fontsize=7)
    run.save(fig, "impactho-t99")
    plt.close(fig)

    # Mean accuracy against Delta t and T_max at the base point.
    for swept, (xlabel, x_of) in AXES.items():
        others = {k: v for k, v in BASE.items() if k not in (swept, "simTime")}
        part = select(frame, **others)
        part = part[part["simTime"].astype(str) == base_time]
        part = part[part[swept].astype(str).isin([str(v) for v in points[swept]])].copy()
        part["x"] = part[swept].astype(str).map(x_of)
        fig, ax = plt.subplots(figsize=(5.6, 4))
        accuracy = summarize(per_run(part, "x", "policy_accuracy", "mean"), "x")
        run.keep_points("impactho-" + swept, accuracy, "x", frame=part,
                        metric="policy_accuracy")
        plot_lines(ax, accuracy, "x", order=schedulers, labels=LABELS)
        # Accuracy lies in [0, 1]; an interval of a few runs may reach past it.
        ax.set_ylim(0, 1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("mean accuracy at the window's end")
        titled(ax, ", ".join("%s = %s" % (k, v) for k, v in others.items()
                             if k in ("rho", "slot", "window")), run, args.quick)
        ax.legend(fontsize=7)
        run.save(fig, "impactho-" + swept)
        plt.close(fig)
    run.save_points("impactho-points")
    return run.finish()


if __name__ == "__main__":
    sys.exit(main())
