#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run every benchmark of edge-llm and collect their outputs in one directory.

Each scaling point runs in a process of its own, because peak RSS is a per-process
high-water mark. Writes, into --out:
  scaling.csv, scaling.md   one row per scaling point, with its LTE-only floor (the same
                            network and handovers without the module) run beside it
  scaling.png               wall time and peak RSS against UEs, cells and context (the
                            sweeps of more than one point)
  <program>.txt             what each other benchmark printed
  impactho-road-68.txt,     ImpactHO's 60 s road (edge-llm-bench-impactho --simTime=68) and
  impactho-road-68.md       its LTE-only floor, each against the stored baseline of an earlier
                            version of the module measured on the same machine
                            (benchmarks/results/baseline/), as ratios

--jobs 2 runs each scaling point's module run beside its floor, one per core (they then
share the memory bus and the last-level cache); the other programs run one at a time. The
1,000-UE grid point costs most: its LTE floor alone takes about 3 minutes of one core per
simulated second. With --jobs 2 the whole set took 85 minutes on two cores, 69 of them that
point. --smoke runs everything at the tiniest sizes, in seconds, to check that it
all builds and runs (and reads the stored baseline).

Needs Debian's python3-matplotlib: run it with /usr/bin/python3.
"""

import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import time

# One axis varies per sweep; the others stay at the sweep's base. sim_s caps the simulated
# time of every point of the sweep, so that the points simulate the same span; "extra" holds
# further arguments of every point, module and floor alike. A base without
# "layout" is the line (edge-llm-bench-scale's default).
FULL_SWEEPS = [
    # All UEs on one cell, handed over to the other: the load ns-3 needs a longer SRS period
    # for. Long enough for 200 UEs' KV caches (about 10 GB) to cross the 10 Gb/s link.
    {"name": "ues", "axis": "ues", "values": [10, 50, 100, 200],
     "base": {"ues": 10, "cells": 2, "context": 1024}, "sim_s": 16},
    {"name": "cells", "axis": "cells", "values": [2, 8, 32, 64],
     "base": {"ues": 10, "cells": 2, "context": 1024}, "sim_s": 6},
    # Long enough for a 128K-token prefill (12.4 s) and the KV cache's migration after it.
    {"name": "context", "axis": "context",
     "values": [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072],
     "base": {"ues": 1, "cells": 2, "context": 1024}, "sim_s": 22},
    # Two networks of the scenario layer, one point each. The road: UEs entering as a Poisson
    # process, handed over along it, every KV transfer across the star's one shared uplink.
    {"name": "road", "axis": "ues", "values": [64],
     "base": {"layout": "road", "ues": 64, "cells": 8, "context": 1024}, "sim_s": 30},
    # The grid: UEs on random routes, a link per neighbour pair.
    {"name": "grid", "axis": "ues", "values": [64],
     "base": {"layout": "grid", "ues": 64, "columns": 8, "rows": 8, "context": 1024},
     "sim_s": 30},
    # The same grid with 1,000 UEs, about 16 a cell. Their sessions open 1 ms apart (1 s; the
    # network's default, 5 ms, would take 5 s of a run that costs minutes per simulated
    # second), they set off over one 10 s leg from about 2.3 s, and each crosses its first
    # boundary half a leg later: by 10 s about the first 270 UEs have handed over once.
    {"name": "grid-1000", "axis": "ues", "values": [1000],
     "base": {"layout": "grid", "ues": 1000, "columns": 8, "rows": 8, "context": 1024},
     "extra": ["--ns3::EdgeLlmNetwork::SessionStagger=1ms"], "sim_s": 10},
]

SMOKE_SWEEPS = [
    {"name": "ues", "axis": "ues", "values": [1, 2],
     "base": {"ues": 1, "cells": 2, "context": 1024}, "sim_s": 3},
    {"name": "cells", "axis": "cells", "values": [2, 3],
     "base": {"ues": 1, "cells": 2, "context": 1024}, "sim_s": 3},
    {"name": "context", "axis": "context", "values": [1024, 2048],
     "base": {"ues": 1, "cells": 2, "context": 1024}, "sim_s": 3},
    # Just long enough for one handover each (the road's first boundary is 8.3 s in, a grid
    # leg's 5 s), so that the floor's handovers are checked against the module's; about a
    # second each.
    {"name": "road", "axis": "ues", "values": [2],
     "base": {"layout": "road", "ues": 2, "cells": 3, "context": 1024}, "sim_s": 12},
    {"name": "grid", "axis": "ues", "values": [2],
     "base": {"layout": "grid", "ues": 2, "columns": 2, "rows": 2, "context": 1024},
     "sim_s": 8},
]

# The 60 s road of ImpactHO against the stored baseline: the program's arguments and the file
# that holds what the baseline version printed for them.
ROAD_ARGS = ["--simTime=68"]
ROAD_BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "baseline",
                             "edge-llm-bench-impactho-68.txt")

AXIS_LABELS = {"ues": "UEs", "cells": "cells (eNBs)", "context": "context (prompt tokens)"}

# The other benchmark programs: name, arguments of a full run, arguments of a smoke run.
OTHER_PROGRAMS = [
    ("edge-llm-bench-ctho-solver", [], ["--smoke"]),
    ("edge-llm-bench-kv-transfer", [], ["--smoke"]),
    ("edge-llm-bench-module-overhead", [], ["--smoke"]),
    ("edge-llm-bench-impactho", [], ["--smoke"]),
]


def positive_dir(text):
    if not text:
        raise argparse.ArgumentTypeError("must be a directory path, not empty")
    return text


def jobs_count(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value not in (1, 2):
        raise argparse.ArgumentTypeError(f"--jobs = {text} is invalid; allowed: 1 or 2")
    return value


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=positive_dir, default="build",
                        help="the build directory that holds benchmarks/ (default: build)")
    parser.add_argument("--out", type=positive_dir, required=True,
                        help="directory for the outputs (made if missing)")
    parser.add_argument("--smoke", action="store_true",
                        help="every benchmark at its tiniest size, in seconds")
    parser.add_argument("--jobs", type=jobs_count, default=1,
                        help="1 (default): one process at a time; 2: each scaling point's module "
                             "run and its LTE floor side by side, one per core")
    args = parser.parse_args()
    bench_dir = os.path.join(args.build, "benchmarks")
    if not os.path.isdir(bench_dir):
        parser.error(f"--build {args.build}: no benchmarks/ directory there; build first")
    return args


def run_program(path, arguments):
    """Run one program; return (exit code, stdout + stderr, wall seconds)."""
    start = time.monotonic()
    done = subprocess.run([path] + arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    return done.returncode, done.stdout, time.monotonic() - start


def run_others(bench_dir, out, smoke):
    """Run the non-scaling benchmarks; return the names of those that failed."""
    failed = []
    for name, full_args, smoke_args in OTHER_PROGRAMS:
        path = os.path.join(bench_dir, name)
        if not os.path.exists(path):
            print(f"{name}: missing ({path} not built); skipped", flush=True)
            continue
        code, text, wall = run_program(path, smoke_args if smoke else full_args)
        with open(os.path.join(out, name + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{name}: exit {code}, {wall:.1f} s wall -> {name}.txt", flush=True)
        if code != 0:
            print(text, file=sys.stderr)
            failed.append(name)
    return failed


def read_road_rows(text):
    """The kv and floor rows of edge-llm-bench-impactho's output: {run: (wall s, handovers,
    sessions ok)}; raises ValueError if either is missing."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^(kv|floor)\s+\S+\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\d+)\s+(\S+)",
                     line)
        if m:
            rows[m.group(1)] = (float(m.group(2)), int(m.group(3)), m.group(4))
    if set(rows) != {"kv", "floor"}:
        raise ValueError("no kv and floor rows in edge-llm-bench-impactho's output")
    return rows


def run_road_baseline(bench_dir, out, smoke):
    """Run the 60 s road beside its floor and compare both with the stored baseline; return
    the names of what failed."""
    with open(ROAD_BASELINE, encoding="utf-8") as f:
        baseline_text = f.read()
    try:
        baseline = read_road_rows(baseline_text)
    except ValueError as e:
        print(f"{ROAD_BASELINE}: {e}", file=sys.stderr)
        return ["the stored baseline"]
    if smoke:
        print(f"impactho road baseline: read ({baseline['kv'][0]:.1f} s, floor "
              f"{baseline['floor'][0]:.1f} s); the 60 s road is not run with --smoke", flush=True)
        return []
    path = os.path.join(bench_dir, "edge-llm-bench-impactho")
    code, text, wall = run_program(path, ROAD_ARGS)
    with open(os.path.join(out, "impactho-road-68.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    if code != 0:
        print(text, file=sys.stderr)
        return ["edge-llm-bench-impactho " + " ".join(ROAD_ARGS)]
    now = read_road_rows(text)
    first = baseline_text.splitlines()[0]
    lines = ["| run | baseline wall s | now wall s | now / baseline | handovers (baseline, now) "
             "| sessions ok (baseline, now) |", "|---|---|---|---|---|---|"]
    for run in ("kv", "floor"):
        b, n = baseline[run], now[run]
        lines.append(f"| {run} | {b[0]:.2f} | {n[0]:.2f} | {n[0] / b[0]:.3f} | {b[1]}, {n[1]} "
                     f"| {b[2]}, {n[2]} |")
    lines += ["", f"edge-llm-bench-impactho {' '.join(ROAD_ARGS)}; the baseline: {first}"]
    with open(os.path.join(out, "impactho-road-68.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"impactho road, 60 s: kv {now['kv'][0]:.1f} s ({now['kv'][0] / baseline['kv'][0]:.3f} "
          f"of the baseline's), floor {now['floor'][0]:.1f} s "
          f"({now['floor'][0] / baseline['floor'][0]:.3f}); {wall:.1f} s wall "
          f"-> impactho-road-68.md", flush=True)
    return []


def run_point(path, arguments):
    """Run one scaling point; return (its CSV row as a dict or None, exit code, output)."""
    code, text, _ = run_program(path, arguments + ["--header"])
    lines = [line for line in text.splitlines() if "," in line]
    if code != 0 or len(lines) < 2:
        return None, code, text
    return next(csv.DictReader(lines[-2:])), code, text


def run_scaling(bench_dir, sweeps, jobs):
    """Run every scaling point, and its LTE-only floor, each in its own process (with jobs = 2
    the two side by side); return (rows, names of failed points)."""
    path = os.path.join(bench_dir, "edge-llm-bench-scale")
    if not os.path.exists(path):
        print(f"edge-llm-bench-scale: missing ({path} not built); no scaling table", flush=True)
        return [], ["edge-llm-bench-scale"]
    rows, failed = [], []
    for sweep in sweeps:
        for value in sweep["values"]:
            point = dict(sweep["base"])
            point[sweep["axis"]] = value
            arguments = [f"--{k}={v}" for k, v in point.items()]
            arguments += [f"--simTime={sweep['sim_s']}"] + sweep.get("extra", [])
            label = f"{sweep['name']} sweep, " + " ".join(arguments)
            # One worker runs the module, then the floor; two run them side by side.
            with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
                module_run = pool.submit(run_point, path, arguments)
                floor_run = pool.submit(run_point, path, arguments + ["--floor"])
                row, code, text = module_run.result()
                floor, floor_code, floor_text = floor_run.result()
            if row is None or floor is None:
                print(f"{label}: FAILED (exit {code}, floor exit {floor_code})\n{text}"
                      f"\n{floor_text}", file=sys.stderr, flush=True)
                failed.append(label)
                continue
            if row["handovers"] != floor["handovers"]:
                # The floor is only a floor if it ran the same network and handovers. The
                # module's traffic loads the radio, which may change the outcome of a few of a
                # thousand handovers' random accesses: within 1 % the point is kept, and its line
                # in scaling.md gives both counts.
                differ = abs(int(row["handovers"]) - int(floor["handovers"]))
                if differ > max(1, int(row["handovers"]) // 100):
                    print(f"{label}: FAILED: {row['handovers']} handovers, but "
                          f"{floor['handovers']} in the LTE-only floor", file=sys.stderr,
                          flush=True)
                    failed.append(label)
                    continue
                print(f"{label}: note: {row['handovers']} handovers, {floor['handovers']} in "
                      f"the LTE-only floor (within 1 %)", flush=True)
            # The layout goes last, after the floor's columns, so that the columns of a
            # table written before there were layouts keep their places.
            layout = row.pop("layout")
            row = {"sweep": sweep["name"], **row,
                   "floor_events": floor["events"], "floor_handovers": floor["handovers"],
                   "floor_run_wall_s": floor["run_wall_s"],
                   "floor_peak_rss_kb": floor["peak_rss_kb"], "layout": layout}
            rows.append(row)
            print(f"{label}: {float(row['run_wall_s']):.2f} s wall "
                  f"(LTE floor {float(floor['run_wall_s']):.2f}), "
                  f"{int(row['peak_rss_kb']) / 1024:.1f} MB peak RSS "
                  f"(floor {int(floor['peak_rss_kb']) / 1024:.1f})", flush=True)
    return rows, failed


def ns_per_event(row):
    return float(row["run_wall_s"]) / max(int(row["events"]), 1) * 1e9


def floor_ns_per_event(row):
    return float(row["floor_run_wall_s"]) / max(int(row["floor_events"]), 1) * 1e9


def wall_ratio(row):
    return float(row["run_wall_s"]) / max(float(row["floor_run_wall_s"]), 1e-9)


def write_csv(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)


def write_markdown(rows, sweeps, path):
    header = ("| sweep | layout | UEs | cells | context | simulated s | events | radio packets | "
              "backhaul MB | tokens | handovers | wall s | LTE floor wall s | wall / floor | ns / event | "
              "peak RSS MB | LTE floor RSS MB | heap at end MB |")
    lines = [header, "|" + "|".join(["---"] * (header.count("|") - 1)) + "|"]
    for r in rows:
        lines.append(
            f"| {r['sweep']} | {r['layout']} | {r['ues']} | {r['cells']} | {r['context']} | {r['sim_s']} | "
            f"{int(r['events']):,} | {int(r['radio_packets']):,} | "
            f"{int(r['backhaul_bytes']) / 1e6:,.1f} | {int(r['tokens']):,} | {r['handovers']} | "
            f"{float(r['run_wall_s']):.2f} | {float(r['floor_run_wall_s']):.2f} | "
            f"{wall_ratio(r):.2f} | "
            f"{ns_per_event(r):.0f} | {int(r['peak_rss_kb']) / 1024:.1f} | "
            f"{int(r['floor_peak_rss_kb']) / 1024:.1f} | {int(r['heap_end_kb']) / 1024:.1f} |")
    lines.append("")
    lines.append("wall s: wall time of Simulator::Run; LTE floor: the same network, mobility and "
                 "handovers without the module (no traffic); ns / event: wall time per simulator "
                 "event; peak RSS: the process's high-water mark (getrusage); heap at end: heap "
                 "in use when the run is over (the allocator's own count: tcmalloc's when "
                 "linked, else mallinfo2).")
    for sweep in sweeps:
        points = [r for r in rows if r["sweep"] == sweep["name"]]
        if not points:
            continue
        if len(points) == 1:
            # Nothing to compare along an axis: the point against its floor.
            r = points[0]
            lines.append(
                f"- {sweep['name']} ({r['layout']}, {r['ues']} UEs, {r['cells']} cells, "
                f"{r['sim_s']} s" + "".join(f", {a}" for a in sweep.get("extra", []))
                + f"): wall {float(r['run_wall_s']):.2f} s, LTE floor "
                f"{float(r['floor_run_wall_s']):.2f} s (wall / floor {wall_ratio(r):.2f}); "
                f"{ns_per_event(r):.0f} ns per event (LTE floor {floor_ns_per_event(r):.0f}); "
                f"{r['handovers']} handovers"
                + (f" ({r['floor_handovers']} in the LTE floor)"
                   if r["floor_handovers"] != r["handovers"] else "")
                + f", {r['migrated']} sessions migrated; peak RSS "
                f"{int(r['peak_rss_kb']) / 1024:.1f} MB.")
            continue
        per_event = [ns_per_event(r) for r in points]
        floor_per_event = [floor_ns_per_event(r) for r in points]
        rss = [int(r["peak_rss_kb"]) for r in points]
        lines.append(
            f"- {sweep['name']}: wall time per event from {per_event[0]:.0f} to "
            f"{per_event[-1]:.0f} ns (last/first {per_event[-1] / per_event[0]:.2f}; LTE floor "
            f"{floor_per_event[0]:.0f} to {floor_per_event[-1]:.0f} ns, "
            f"{floor_per_event[-1] / floor_per_event[0]:.2f}); "
            f"peak RSS from {rss[0] / 1024:.1f} to {rss[-1] / 1024:.1f} MB.")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def base_text(sweep):
    names = {"ues": ("UE", "UEs"), "cells": ("cell", "cells"), "columns": ("column", "columns"),
             "rows": ("row", "rows")}
    parts = []
    for key, value in sweep["base"].items():
        if key == sweep["axis"]:
            continue
        if key == "layout":
            parts.append(value)
        elif key == "context":
            parts.append(f"{value // 1024}K-token context" if value >= 1024
                         else f"{value}-token context")
        else:
            parts.append(f"{value} {names[key][0] if value == 1 else names[key][1]}")
    return ", ".join(parts) + f", {sweep['sim_s']} s simulated"


def write_plot(rows, sweeps, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # A sweep of one point has no curve; scaling.md gives it against its floor.
    sweeps = [s for s in sweeps if sum(r["sweep"] == s["name"] for r in rows) > 1]
    if not sweeps:
        return False
    fig, axes = plt.subplots(2, len(sweeps), figsize=(5 * len(sweeps), 8), squeeze=False)
    for col, sweep in enumerate(sweeps):
        points = [r for r in rows if r["sweep"] == sweep["name"]]
        x = [int(r[sweep["axis"]]) for r in points]
        wall = [float(r["run_wall_s"]) for r in points]
        rss = [int(r["peak_rss_kb"]) / 1024 for r in points]
        floor_wall = [float(r["floor_run_wall_s"]) for r in points]
        floor_rss = [int(r["floor_peak_rss_kb"]) / 1024 for r in points]
        for row, (y, floor, ylabel, what) in enumerate(
                [(wall, floor_wall, "wall time of the run (s)", "Wall time"),
                 (rss, floor_rss, "peak RSS (MB)", "Peak RSS")]):
            ax = axes[row][col]
            ax.plot(x, y, marker="o", label="edge-llm")
            ax.plot(x, floor, marker="s", linestyle="--", color="gray",
                    label="LTE only (no traffic)")
            ax.legend(fontsize=8)
            ax.set_xscale("log", base=2)
            ax.set_xticks(x)
            ax.set_xticklabels([f"{v // 1024}K" if v >= 1024 else str(v) for v in x])
            ax.set_xlabel(AXIS_LABELS[sweep["axis"]])
            ax.set_ylabel(ylabel)
            ax.set_title(f"{what} vs {AXIS_LABELS[sweep['axis']].split(' ')[0]}\n"
                         f"({base_text(sweep)})", fontsize=10)
            ax.set_ylim(0, max(y) * 1.15)
            ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("edge-llm scaling: one process per point", fontsize=12)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


def main():
    args = parse_args()
    start = time.monotonic()
    os.makedirs(args.out, exist_ok=True)
    bench_dir = os.path.join(args.build, "benchmarks")
    sweeps = SMOKE_SWEEPS if args.smoke else FULL_SWEEPS

    failed = run_others(bench_dir, args.out, args.smoke)
    failed += run_road_baseline(bench_dir, args.out, args.smoke)
    rows, failed_points = run_scaling(bench_dir, sweeps, args.jobs)
    failed += failed_points
    if rows:
        write_csv(rows, os.path.join(args.out, "scaling.csv"))
        write_markdown(rows, sweeps, os.path.join(args.out, "scaling.md"))
        plotted = write_plot(rows, sweeps, os.path.join(args.out, "scaling.png"))
        outputs = "scaling.csv, scaling.md" + (", scaling.png" if plotted else "")
        print(f"scaling: {len(rows)} points -> {outputs} in {args.out}")
    print(f"total wall time {time.monotonic() - start:.1f} s")
    if failed:
        print("failed: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
