# SPDX-License-Identifier: GPL-2.0-only
"""What the figure scripts in examples/ share: their command line, their sweeps, confidence
intervals over RngRuns, and one line per scheme.

A figure's point is a statistic of each run (the worst user's handover delay, the mean
accuracy), averaged over the RngRuns of its grid point, with a Student-t confidence interval
over those runs: the runs are independent draws, the handovers within a run are not.
"""

import argparse
import math
import numbers
import os
import sys

from .sweep import extra_table_path, run_sweep

__all__ = [
    "FigureRun",
    "confidence_interval",
    "line_styles",
    "log_y",
    "parser",
    "per_run",
    "plot_lines",
    "summarize",
]


def confidence_interval(values, level=0.95):
    """Mean and the half-width of its Student-t interval at ``level``, and the count.

    One value has no interval: its half-width is NaN. Values must be finite.
    """
    values = [float(v) for v in values]
    if not values:
        raise ValueError("values = [] is invalid; allowed: at least one value")
    if not all(math.isfinite(v) for v in values):
        raise ValueError("values = %r is invalid; allowed: finite numbers" % (values,))
    if not 0 < level < 1:
        raise ValueError("level = %r is invalid; allowed: (0, 1)" % (level,))
    n = len(values)
    mean = math.fsum(values) / n
    if n == 1:
        return mean, float("nan"), 1
    from scipy import stats

    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = stats.t.ppf(0.5 + level / 2, n - 1) * math.sqrt(variance / n)
    return mean, half, n


def per_run(frame, x, metric, how, by="scheme"):
    """One value per (``by``, ``x``, RngRun): ``how`` ("max", "mean", "min", "sum" or a
    callable on a Series) of ``metric`` over the run's rows; rows whose metric is empty are
    left out, and a run with none has no value."""
    columns = [by, x, "RngRun"]
    missing = [c for c in columns + [metric] if c not in frame.columns]
    if missing:
        raise KeyError("the table has no column %s; it has: %s"
                       % (", ".join(missing), ", ".join(frame.columns)))
    kept = frame.dropna(subset=[metric])
    return kept.groupby(columns, sort=False)[metric].agg(how).rename("value").reset_index()


def summarize(runs, x, by="scheme", level=0.95):
    """Mean and interval half-width over RngRuns of ``per_run``'s values, per (by, x)."""
    import pandas

    rows = []
    for (group, point), part in runs.groupby([by, x], sort=False):
        mean, half, n = confidence_interval(part["value"], level)
        rows.append({by: group, x: point, "mean": mean, "half": half, "n": n})
    return pandas.DataFrame(rows, columns=[by, x, "mean", "half", "n"])


# One colour and marker per scheme, the same in every figure.
_STYLES = {
    "tho": ("tab:blue", "s"), "cho": ("tab:orange", "^"), "ctho": ("tab:green", "o"),
    "detour": ("tab:purple", "D"), "none": ("black", "x"),
    "impactho": ("tab:green", "o"), "impact-equal": ("tab:blue", "s"),
    "impact-pf": ("tab:cyan", "v"), "impact-wta": ("tab:red", "P"),
    "impact-hybrid": ("tab:olive", "^"), "impact-reprefill": ("tab:brown", "<"),
    "impact-full": ("tab:orange", ">"),
    "pallas": ("tab:red", "*"), "pallas-full-copy": ("tab:orange", "^"),
    "pallas-recompute": ("tab:blue", "s"),
}


def line_styles(scheme):
    """The colour and marker of a scheme (grey dots for a scheme without one)."""
    return _STYLES.get(scheme, ("tab:gray", "."))


def plot_lines(ax, summary, x, by="scheme", order=None, labels=None, scale=1.0,
               linestyle="-", label_suffix="", intervals=True):
    """One line per scheme of ``summarize``'s table, its interval as a band and error bars.

    ``order`` lists the schemes to draw (all, in table order, by default); ``labels`` maps a
    scheme to its legend text; ``scale`` multiplies the values (1e3: s to ms);
    ``intervals=False`` draws the means alone (a reference line). The x values must be
    numbers; the axis is ticked at them.
    """
    schemes = order or list(dict.fromkeys(summary[by]))
    for scheme in schemes:
        part = summary[summary[by] == scheme]
        if part.empty:
            continue
        pairs = sorted(zip([float(v) for v in part[x]], part["mean"] * scale,
                           part["half"].fillna(0) * scale))
        px = [p[0] for p in pairs]
        py = [p[1] for p in pairs]
        ph = [p[2] for p in pairs]
        colour, marker = line_styles(scheme)
        text = (labels or {}).get(scheme, scheme) + label_suffix
        if not intervals:
            ax.plot(px, py, color=colour, linestyle=linestyle, linewidth=1, label=text)
            continue
        ax.errorbar(px, py, yerr=ph, color=colour, marker=marker, linestyle=linestyle,
                    capsize=3, label=text, markersize=5)
        ax.fill_between(px, [a - b for a, b in zip(py, ph)], [a + b for a, b in zip(py, ph)],
                        color=colour, alpha=0.12, linewidth=0)
    ticks = sorted({float(v) for v in summary[x]})
    ax.set_xticks(ticks)
    ax.set_xticklabels(["%g" % t for t in ticks])
    ax.minorticks_off()
    ax.grid(True, alpha=0.3)


def log_y(ax):
    """A log y axis labelled with plain numbers (300, 1000), not powers of ten."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ax.set_yscale("log")
    # Ticks at 1, 2 and 5 of each decade, so that a range within one decade is labelled too.
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
    ax.yaxis.set_minor_formatter(NullFormatter())


def parser(description, quick_seconds=60):
    """The command line every figure script has."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true",
                   help="a few points and RngRuns, within about %d s on two cores"
                   % quick_seconds)
    p.add_argument("--runs", type=int, help="RngRuns per point (default: 2 quick, more full)")
    p.add_argument("--out-dir", default="edge-llm-figures",
                   help="where the PNGs go; the sweeps' tables go to OUT_DIR/data, and a "
                   "second call resumes them [edge-llm-figures]")
    p.add_argument("--workers", type=int, help="local processes [all cores]")
    p.add_argument("--scheduler", help="a Dask scheduler address, e.g. tcp://host:8786")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    return p


class FigureRun:
    """The sweeps of one figure script: where their tables go, and what failed."""

    def __init__(self, args, default_runs):
        if args.runs is not None and args.runs < 1:
            raise SystemExit("--runs = %d is invalid; allowed: an integer >= 1" % args.runs)
        self.args = args
        self.runs = self.runs_or(default_runs)
        self.mode = "quick" if args.quick else "full"
        self.data_dir = os.path.join(args.out_dir, "data")
        try:
            os.makedirs(self.data_dir, exist_ok=True)
        except OSError as e:
            raise SystemExit("--out-dir = %s is invalid: cannot make %s: %s"
                             % (args.out_dir, self.data_dir, e.strerror)) from None
        self.failures = []
        self.written = []
        self.points = []

    def runs_or(self, full_default):
        """The RngRuns of a sweep whose full mode has its own default: --runs, else 2 in the
        quick mode, else ``full_default``."""
        return self.args.runs or (2 if self.args.quick else full_default)

    def sweep(self, name, example, grid, params=None, extra_tables=(), runs=None):
        """Run a sweep of ``runs`` RngRuns per point (the script's by default) into
        OUT_DIR/data/NAME-MODE.csv and read it (and its extra tables)."""
        import pandas

        out = os.path.join(self.data_dir, "%s-%s.csv" % (name, self.mode))
        result = run_sweep(example, grid, runs=runs or self.runs, out=out,
                           workers=self.args.workers,
                           scheduler=self.args.scheduler, params=params,
                           progress=not self.args.no_progress, extra_tables=extra_tables)
        for point, rng_run, error in result.failed:
            self.failures.append("%s %s RngRun=%d: %s" % (name, point, rng_run,
                                                          error.splitlines()[0] if error else ""))
        tables = [out] + [extra_table_path(out, t) for t in extra_tables]
        # A table no run wrote a row of is empty (no handover has no handovers.csv rows);
        # a sweep with no rows at all has nothing to draw.
        frames = [pandas.read_csv(p) if os.path.exists(p) else pandas.DataFrame()
                  for p in tables]
        if all(f.empty for f in frames):
            raise SystemExit("%s: no run of the sweep %s gave records" % (out, name))
        return frames[0] if not extra_tables else frames

    def save(self, fig, name):
        """Write a figure as OUT_DIR/NAME.png."""
        path = os.path.join(self.args.out_dir, name + ".png")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        self.written.append(path)
        print("wrote %s" % path)

    def keep_points(self, figure, summary, x, by="scheme", frame=None, metric=None):
        """Keep a figure's points, ``summarize``'s table, for ``save_points``. Given the
        sweep's ``frame`` and the ``metric`` the points were made of, each point also counts
        the rows of its runs that have the metric (for a per-handover metric, its handovers);
        without them that count is left empty."""
        import pandas

        rows = pandas.DataFrame({"figure": figure, "series": summary[by],
                                 "x": ["%g" % v if isinstance(v, numbers.Number) else str(v)
                                       for v in summary[x]],
                                 "mean": summary["mean"],
                                 "ci_low": summary["mean"] - summary["half"],
                                 "ci_high": summary["mean"] + summary["half"],
                                 "runs": summary["n"]})
        if frame is not None:
            counts = frame.dropna(subset=[metric]).groupby([by, x]).size()
            rows["samples"] = [int(counts.get((s, p), 0)) for s, p in zip(summary[by],
                                                                          summary[x])]
        self.points.append(rows)

    def save_points(self, name):
        """Write every kept point as OUT_DIR/NAME.csv: figure, series, x, mean, ci_low and
        ci_high (the Student-t interval; empty for one run), runs and samples."""
        import pandas

        path = os.path.join(self.args.out_dir, name + ".csv")
        table = pandas.concat(self.points, ignore_index=True)
        if "samples" not in table.columns:
            table["samples"] = float("nan")
        table["samples"] = table["samples"].astype("Int64")
        table.to_csv(path, index=False, float_format="%.4f")
        self.written.append(path)
        print("wrote %s" % path)

    def finish(self):
        """The exit code: 1, listing them, when a run failed (its points are missing)."""
        for failure in self.failures:
            print("failed run: %s" % failure, file=sys.stderr)
        if self.failures:
            print("%d runs failed; their points are missing from the figures"
                  % len(self.failures), file=sys.stderr)
            return 1
        return 0
