#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot FCT slowdown of flow workloads (examples/cc-workload.cc --fct=FILE), several runs
(e.g. one per congestion-control algorithm) on one figure.

Reads per-flow CSVs (id,src,dst,size_bytes,start_us,end_us,fct_us,ideal_fct_us,slowdown,
retransmissions,ok,transport,cc) and writes:

  <stem>-slowdown  FCT slowdown against flow size: the flows of each run sorted by size and
                   cut into --bins groups of equal count (the HPCC-lineage figure); median
                   (solid) and p99 (dashed) slowdown per group, at the group's largest size
  <stem>-cdf       CDF of the slowdown of every flow, one line per run

Only flows with ok = 1 are drawn; a run's label is --labels, else its cc column (when the
runs' cc differ), else the file name without its folder and ".csv" (with the parent folder
when names repeat). Percentiles are nearest-rank, as the simulator's summary.
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import os

import numpy as np
from common import InputError

COLUMNS = ["size_bytes", "fct_us", "ideal_fct_us", "slowdown", "ok"]

EPILOG = """examples:
  cc-workload --cc=dcqcn --fct=dcqcn.csv; cc-workload --cc=swift --fct=swift.csv
  plot_fct_slowdown.py dcqcn.csv swift.csv --out figs --name websearch"""


def nearest_rank(values, p):
    """The p-th percentile by nearest rank (the ceil(p/100 x n)-th smallest)."""
    v = np.sort(np.asarray(values))
    k = max(1, int(np.ceil(p / 100.0 * len(v) - 1e-9)))
    return v[min(k, len(v)) - 1]


def load(path):
    df = common.read_csv(path, COLUMNS, integer=["size_bytes", "ok"], text=["cc"])
    common.nonnegative(df, path, ["size_bytes", "fct_us", "ideal_fct_us", "slowdown"])
    ok = df[df["ok"] == 1]
    if ok.empty:
        raise InputError("%s: no flow completed (every row has ok = 0)" % path)
    return ok


def short_labels(paths):
    """Legend labels from file names: the name without its directory and '.csv', with the
    parent folder when names repeat (sweeps write one fct.csv per run folder)."""
    def stem(p, parts):
        pieces = os.path.normpath(p).split(os.sep)[-parts:]
        pieces[-1] = pieces[-1][:-4] if pieces[-1].endswith(".csv") else pieces[-1]
        return "/".join(pieces)
    for parts in (1, 2, 3):
        labels = [stem(p, parts) for p in paths]
        if len(set(labels)) == len(labels):
            return labels
    return list(paths)


def binned(df, bins):
    """(largest size, median, p99) of each of `bins` equal-count groups of flows by size."""
    df = df.sort_values("size_bytes", kind="stable")
    groups = np.array_split(np.arange(len(df)), min(bins, len(df)))
    out = []
    for g in groups:
        part = df.iloc[g]
        out.append((part["size_bytes"].iloc[-1], nearest_rank(part["slowdown"], 50),
                    nearest_rank(part["slowdown"], 99)))
    return out


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("fct", nargs="+", help="per-flow CSV files (cc-workload --fct)")
    p.add_argument("--labels", nargs="+", help="legend labels, one per file")
    p.add_argument("--bins", type=int, default=20,
                   help="equal-count flow-size groups in the slowdown figure (default 20)")
    args = p.parse_args()
    if args.bins < 1:
        p.error("--bins must be >= 1, got %d" % args.bins)
    formats, stem = common.parse_output(p, args, args.fct[0].rsplit(".csv", 1)[0])
    runs = [load(f) for f in args.fct]
    if args.labels:
        labels = common.labels_for(args.fct, args.labels)
    else:
        ccs = [r["cc"].iloc[0] for r in runs]
        labels = ccs if len(set(ccs)) == len(ccs) else short_labels(args.fct)

    fig, ax = style.figure("single")
    for i, (run, label) in enumerate(zip(runs, labels)):
        pts = binned(run, args.bins)
        x = [s for s, _, _ in pts]
        color = style.series(i)["color"]
        ax.plot(x, [m for _, m, _ in pts], color=color, marker="o", markersize=3,
                label="%s median" % label)
        ax.plot(x, [q for _, _, q in pts], color=color, linestyle="--", marker="^",
                markersize=3, label="%s p99" % label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(style.axis_label("flow size", "bytes"))
    ax.set_ylabel("FCT slowdown (FCT / ideal FCT)")
    style.legend(ax, above=True, ncol=min(len(runs), 3))
    style.save(fig, args.out, stem + "-slowdown", formats)

    fig, ax = style.figure("single")
    for i, (run, label) in enumerate(zip(runs, labels)):
        v = np.sort(run["slowdown"].to_numpy())
        ax.step(v, np.arange(1, len(v) + 1) / len(v), where="post",
                color=style.series(i)["color"], label=label)
    ax.set_xscale("log")
    ax.set_xlabel("FCT slowdown (FCT / ideal FCT)")
    ax.set_ylabel("fraction of flows")
    ax.set_ylim(0, 1.0)
    style.legend(ax, loc="lower right")
    style.save(fig, args.out, stem + "-cdf", formats)


if __name__ == "__main__":
    common.run(main)
