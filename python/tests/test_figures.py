# SPDX-License-Identifier: GPL-2.0-only
"""The figure scripts' statistics: intervals over RngRuns, a statistic per run, the lines."""

import math
import os

import pytest

pandas = pytest.importorskip("pandas")
pytest.importorskip("scipy")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from edgellm.figures import confidence_interval, per_run, plot_lines, summarize  # noqa: E402


def test_interval_by_hand():
    # 1, 2, 3: mean 2, s = 1; t(0.975, 2) = 4.303 in any t table, so 4.303 / sqrt(3).
    mean, half, n = confidence_interval([1, 2, 3])
    assert (mean, n) == (2.0, 3)
    assert half == pytest.approx(4.303 / math.sqrt(3), abs=1e-3)
    # 0, 2: s = sqrt(2), t(0.975, 1) = 12.706: the half-width is 12.706 itself.
    assert confidence_interval([0, 2])[1] == pytest.approx(12.706, abs=1e-3)
    # 90 %: t(0.95, 2) = 2.920.
    assert confidence_interval([1, 2, 3], level=0.9)[1] == pytest.approx(
        2.920 / math.sqrt(3), abs=1e-3)


def test_interval_edges():
    mean, half, n = confidence_interval([5])
    assert (mean, n) == (5.0, 1) and math.isnan(half)
    assert confidence_interval([4, 4, 4])[1] == 0.0
    for bad, message in (([], "values = \\[\\]"), ([1, float("nan")], "finite")):
        with pytest.raises(ValueError, match=message):
            confidence_interval(bad)
    with pytest.raises(ValueError, match="level"):
        confidence_interval([1, 2], level=1.0)


def test_interval_covers_the_mean_as_often_as_it_says():
    # 2000 samples of 5 normal draws: a 95 % interval must hold the true mean in about 95 %
    # of them (binomial sd 0.5 %, so 93.5 % .. 96.5 % is 3 sd).
    import random

    rng = random.Random(7)
    covered = 0
    for _ in range(2000):
        mean, half, _ = confidence_interval([rng.gauss(10, 3) for _ in range(5)])
        covered += abs(mean - 10) <= half
    assert 0.935 <= covered / 2000 <= 0.965


def frame():
    # Two schemes, two x, two RngRuns, two handovers per run; one unmeasured delay.
    rows = []
    for scheme, base in (("a", 1.0), ("b", 10.0)):
        for x in (1, 2):
            for run in (1, 2):
                for k in (0, 1):
                    rows.append({"scheme": scheme, "x": x, "RngRun": run,
                                 "d": base * x + run + k})
    rows.append({"scheme": "a", "x": 1, "RngRun": 1, "d": float("nan")})
    return pandas.DataFrame(rows)


def test_per_run_takes_the_statistic_within_each_run():
    runs = per_run(frame(), "x", "d", "max")
    a1 = runs[(runs.scheme == "a") & (runs.x == 1)].set_index("RngRun")["value"]
    # Run 1: 1 + 1 + {0, 1} -> 3 (the NaN row left out); run 2: 4.
    assert a1.to_dict() == {1: 3.0, 2: 4.0}
    assert len(runs) == 8
    with pytest.raises(KeyError, match="no column nope"):
        per_run(frame(), "x", "nope", "max")


def test_summarize_averages_over_runs():
    summary = summarize(per_run(frame(), "x", "d", "mean"), "x")
    b2 = summary[(summary.scheme == "b") & (summary.x == 2)].iloc[0]
    # Runs' means 21.5 and 22.5: mean 22, s = sqrt(0.5), t(0.975, 1) = 12.706.
    assert b2["mean"] == pytest.approx(22.0)
    assert b2["half"] == pytest.approx(12.706 * math.sqrt(0.5) / math.sqrt(2), abs=1e-3)
    assert b2["n"] == 2


def test_plot_lines_draws_one_line_per_scheme_in_order():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    plot_lines(ax, summarize(per_run(frame(), "x", "d", "mean"), "x"), "x", order=["b", "a"],
               labels={"a": "A"}, scale=2.0)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["b", "A"]
    # b's runs average 12 at x = 1 and 22 at x = 2; a's 3 and 4 (its NaN row left out).
    lines = [c.lines[0] for c in ax.containers]
    assert [list(line.get_ydata()) for line in lines] == [[24.0, 44.0], [6.0, 8.0]]
    assert [list(line.get_xdata()) for line in lines] == [[1.0, 2.0], [1.0, 2.0]]
    plt.close(fig)


def test_figure_run_refuses_bad_runs_and_out_dir(tmp_path):
    from edgellm.figures import FigureRun, parser

    args = parser("x").parse_args(["--runs", "0", "--out-dir", str(tmp_path)])
    with pytest.raises(SystemExit, match="--runs = 0 is invalid"):
        FigureRun(args, default_runs=3)
    blocker = tmp_path / "file"
    blocker.write_text("")
    args = parser("x").parse_args(["--out-dir", str(blocker)])
    with pytest.raises(SystemExit, match="--out-dir = .* is invalid"):
        FigureRun(args, default_runs=3)
    args = parser("x").parse_args(["--quick", "--out-dir", str(tmp_path / "ok")])
    run = FigureRun(args, default_runs=3)
    assert (run.runs, run.mode) == (2, "quick")
    assert os.path.isdir(str(tmp_path / "ok" / "data"))
