#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plots the results an edge-llm example writes with --outDir (and --tokensCsv).

    plot-results.py DIR [--tokens TOKENS_CSV] [--out OUT_DIR]

reads DIR/handovers.csv and DIR/sessions.csv and draws, into OUT_DIR (DIR by default):
  handover-delay-cdf.png  the CDF of each scheme's handover delay (ho_delay_s)
  sit-cdf.png             the CDF of each scheme's service interruption (sit_s)
  itl.png                 each scheme's ITL mean, P50, P90 and P99 over its sessions
  sit-split.png           each scheme's mean SIT as a stacked bar of its parts (sit_*_s)
  tokens.png              with a tokens CSV: token index against delivery time for the UE
                          of the first handover, one line per scheme, the handover marked

Needs Debian's python3-matplotlib: run it with /usr/bin/python3.
"""

import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_scheme(rows, column):
    """Each scheme's measured values of a column, in file order of the schemes."""
    out = {}
    for r in rows:
        out.setdefault(r["scheme"], [])
        if r[column] != "":
            out[r["scheme"]].append(float(r[column]))
    return out


def cdf(values, title, xlabel, path):
    fig, ax = plt.subplots(figsize=(6, 4))
    drawn = 0
    for scheme, v in values.items():
        if not v:
            continue
        v = sorted(v)
        # The empirical CDF rises from 0 at the smallest value: nothing is below it.
        y = [0.0] + [(i + 1) / len(v) for i in range(len(v))]
        ax.step([x * 1e3 for x in [v[0]] + v], y, where="post", label=scheme)
        drawn += 1
    ax.set_xlabel(xlabel)
    ax.set_ylabel("fraction of handovers")
    ax.set_title(title)
    ax.set_ylim(0, 1.02)
    if drawn:
        ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return drawn


def itl(sessions, path):
    schemes = []
    stats = {"itl_mean_s": [], "itl_p50_s": [], "itl_p90_s": [], "itl_p99_s": []}
    for scheme, rows in group(sessions).items():
        schemes.append(scheme)
        for k in stats:
            v = [float(r[k]) for r in rows if r[k] != ""]
            stats[k].append(max(v) * 1e3 if v else 0.0)
    fig, ax = plt.subplots(figsize=(6, 4))
    width = 0.2
    for i, (k, v) in enumerate(stats.items()):
        ax.bar([x + i * width for x in range(len(schemes))], v, width,
               label=k.replace("itl_", "").replace("_s", ""))
    ax.set_xticks([x + 1.5 * width for x in range(len(schemes))])
    ax.set_xticklabels(schemes)
    ax.set_ylabel("ITL, ms (worst session)")
    ax.set_title("Inter-token latency per scheme")
    # Room above the tallest bar for the legend, in one row, so it covers no bar.
    ax.set_ylim(0, max([max(v) for v in stats.values()] + [1e-9]) * 1.3)
    ax.legend(ncol=len(stats), loc="upper center")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


SIT_PARTS = ("radio_before", "execution", "control_wait", "recovery_wait", "gpu_wait",
             "delivery")


def sit_split(handovers, path):
    """Each scheme's mean SIT parts, stacked; False if no row has them."""
    schemes, means = [], []
    for scheme, rows in group(handovers).items():
        rows = [r for r in rows if r.get("sit_delivery_s", "") != ""]
        if rows:
            schemes.append(scheme)
            means.append([sum(float(r["sit_%s_s" % p]) for r in rows) / len(rows) * 1e3
                          for p in SIT_PARTS])
    if not schemes:
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    bottom = [0.0] * len(schemes)
    for i, part in enumerate(SIT_PARTS):
        v = [m[i] for m in means]
        ax.bar(schemes, v, bottom=bottom, label=part.replace("_", " "))
        bottom = [b + x for b, x in zip(bottom, v)]
    ax.set_ylabel("mean SIT, ms")
    ax.set_title("Where the interruption goes")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def group(rows):
    out = {}
    for r in rows:
        out.setdefault(r["scheme"], []).append(r)
    return out


def tokens(handovers, tokens_csv, path):
    migrated = [h for h in handovers if h["outcome"] in ("migrated", "relayed")]
    if not migrated:
        return False
    imsi = migrated[0]["imsi"]
    rows = [t for t in read(tokens_csv) if t["imsi"] == imsi]
    if not rows:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    # Around the handover: 0.3 s before it to 1.2 s after, where the schemes differ.
    start = float(migrated[0]["ho_start_s"])
    lo, hi = start - 0.3, start + 1.2
    for scheme, rs in group(rows).items():
        rs = [t for t in rs if lo <= float(t["delivered_s"]) <= hi]
        rs.sort(key=lambda t: int(t["token_index"]))
        ax.plot([float(t["delivered_s"]) for t in rs], [int(t["token_index"]) for t in rs],
                label=scheme, linewidth=1.2, marker=".", markersize=2)
        for h in handovers:
            if h["scheme"] == scheme and h["imsi"] == imsi:
                ax.axvline(float(h["ho_start_s"]), linestyle=":", linewidth=0.8, color="grey")
    ax.set_xlim(lo, hi)
    ax.set_xlabel("delivery time, s")
    ax.set_ylabel("token index")
    ax.set_title("UE %s: tokens as its application got them (handovers dotted)" % imsi)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir", help="where handovers.csv and sessions.csv are")
    p.add_argument("--tokens", help="a tokens CSV (the example's --tokensCsv)")
    p.add_argument("--out", help="where the plots go (default: DIR)")
    a = p.parse_args()
    out = a.out or a.dir
    os.makedirs(out, exist_ok=True)
    for name in ("handovers.csv", "sessions.csv"):
        if not os.path.isfile(os.path.join(a.dir, name)):
            print("plot-results.py: %s has no %s" % (a.dir, name), file=sys.stderr)
            return 1
    handovers = read(os.path.join(a.dir, "handovers.csv"))
    sessions = read(os.path.join(a.dir, "sessions.csv"))
    drawn = cdf(by_scheme(handovers, "ho_delay_s"), "Handover delay", "ho_delay, ms",
                os.path.join(out, "handover-delay-cdf.png"))
    cdf(by_scheme(handovers, "sit_s"), "Service interruption", "SIT, ms",
        os.path.join(out, "sit-cdf.png"))
    itl(sessions, os.path.join(out, "itl.png"))
    if not sit_split(handovers, os.path.join(out, "sit-split.png")):
        print("plot-results.py: no handover of %s has its SIT taken apart" % a.dir,
              file=sys.stderr)
        return 1
    if a.tokens and not tokens(handovers, a.tokens, os.path.join(out, "tokens.png")):
        print("plot-results.py: no tokens of a handed-over UE in %s" % a.tokens, file=sys.stderr)
        return 1
    if drawn == 0:
        print("plot-results.py: no scheme has a measured handover delay", file=sys.stderr)
        return 1
    print("plots in %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
