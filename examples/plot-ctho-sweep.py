#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot a sweep written by edge-llm-ctho-analytic --csv: the worst user's handover delay under
tHO, cHO and ctHO, and ctHO's prefix length L*, against the swept parameter.

    ./build/examples/edge-llm-ctho-analytic --sweep=rbh --csv=rbh.csv
    python3 examples/plot-ctho-sweep.py rbh.csv --out rbh.png
"""

import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

LABELS = {
    "rbh": "backhaul rate R_bh (Gb/s)",
    "ues": "UEs handing over together, K",
    "cMax": "largest context C_max (tokens)",
    "prefillRate": "prefill rate 1/a (tokens/s)",
}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no rows")
    sweeps = {r["sweep"] for r in rows}
    if len(sweeps) != 1 or "none" in sweeps:
        sys.exit(f"{path}: expected one sweep (rbh, ues, cMax or prefillRate), found {sorted(sweeps)}")
    return sweeps.pop(), rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="CSV written by edge-llm-ctho-analytic --csv")
    parser.add_argument("--out", default="ctho-sweep.png", help="PNG to write")
    args = parser.parse_args()

    sweep, rows = read(args.csv)
    x = [float(r["value"]) for r in rows]
    fig, (delay, prefix) = plt.subplots(2, 1, sharex=True, figsize=(6, 6))
    for column, label, style in (("tho_s", "tHO", "s--"), ("cho_s", "cHO", "^--"),
                                 ("ctho_s", "ctHO", "o-")):
        delay.plot(x, [1e3 * float(r[column]) for r in rows], style, label=label)
    delay.set_yscale("log")
    delay.set_ylabel("worst user's HO delay (ms)")
    delay.legend()
    delay.grid(True, alpha=0.3)
    prefix.plot(x, [int(r["l_star"]) for r in rows], "o-", color="tab:green")
    prefix.set_ylabel("ctHO prefix L* (tokens)")
    prefix.set_xlabel(LABELS[sweep])
    prefix.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
