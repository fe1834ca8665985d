#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the CSVs of examples/lb-compare.cc: the load-balancing tiers side by side.

Reads one or more files written with --csv (one per seed: the runs are averaged, the whiskers
go from the smallest to the largest seed). Each row is a scenario (allreduce, alltoall,
permutation,
each with -down or -degrade for the failed or degraded spine link), a configuration
(transport), a load balancer (lb) and its results. Writes:

  <stem>-tiers   the outcome per tier: AllReduce and AlltoAll bus bandwidth (higher is
                 better) and the permutation's p99 FCT (lower is better), one panel per
                 scenario and
                 transport, one group per fabric state, one bar per tier
  <stem>-fabric  what each tier did to the fabric: leaf-to-spine utilization imbalance
                 (max / mean), out-of-sequence arrivals and retransmissions, per scenario
                 and fabric state, one bar per tier (one row of panels per transport)

A run that is not ok (did not complete) is marked with an "X".
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import numpy as np
import pandas as pd
from common import InputError

NUMBERS = ["bytes", "flows", "completed", "retransmissions", "uplink_imbalance",
           "out_of_order", "ok"]
TEXT = ["scenario", "config", "lb", "busbw_GBps", "fct_p99_us"]
STATES = ["none", "down", "degrade"]
STATE_NAMES = {"none": "healthy", "down": "spine link down", "degrade": "spine link degraded"}
CONFIG_NAMES = {"roce-dcqcn": "RoCEv2 + DCQCN", "roce-pfc": "RoCEv2, PFC only",
                "uet-nscc": "UET NSCC + REPS", "uet-rccc": "UET RCCC + REPS"}
TIER_NAMES = {"ecmp": "ECMP", "entropy-ecmp": "E-ECMP", "resilient": "resilient",
              "flowlet": "flowlet", "adaptive": "adaptive", "adaptive-packet": "adaptive/pkt",
              "conga": "CONGA", "te": "TE", "spray": "spray"}

EPILOG = """examples:
  for s in 1 2 3; do lb-compare --seed=$s --csv=lbc-$s.csv; done
  plot_lb_compare.py lbc-1.csv lbc-2.csv lbc-3.csv --name lbc --out figs"""


def split_state(s):
    """``"permutation-degrade"`` -> ("permutation", "degrade"); no suffix: "none"."""
    for st in STATES[1:]:
        if s.endswith("-" + st):
            return s[: -len(st) - 1], st
    return s, "none"


def load(path, seed):
    """The rows of one file with the metric of each (busbw or p99 FCT) and its fabric state."""
    df = common.read_csv(path, NUMBERS, integer=["bytes", "flows", "completed",
                                                 "retransmissions", "out_of_order", "ok"],
                         text=TEXT)
    common.nonnegative(df, path, NUMBERS)
    empty = df["lb"] == ""
    if empty.any():
        raise InputError("%s: line %d: column 'lb' is empty (run lb-compare, whose rows name "
                         "their load balancer)" % (path, int(empty.to_numpy().nonzero()[0][0]) + 2))
    df["collective"] = df["flows"] == 0
    metric = np.where(df["collective"], df["busbw_GBps"], df["fct_p99_us"])
    values = pd.to_numeric(pd.Series(metric), errors="coerce")
    bad = (df["ok"] == 1) & (values.isna() | (values < 0))
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        col = "busbw_GBps" if df["collective"].iloc[i] else "fct_p99_us"
        raise InputError("%s: line %d: column '%s' is %r, expected a number >= 0"
                         % (path, i + 2, col, df[col].iloc[i]))
    df["metric"] = values
    df["base"], df["state"] = zip(*df["scenario"].map(split_state))
    df["seed"] = seed
    return df


def tier_bars(ax, groups, tiers, stats, fmt=None):
    """One group per entry of ``groups``, one bar per tier: ``stats(g, t)`` gives (mean, min,
    max, all ok) or None."""
    width = 0.8 / len(tiers)
    top = 0.0
    for ti, t in enumerate(tiers):
        for gi, g in enumerate(groups):
            s = stats(g, t)
            if s is None:
                continue
            mean, lo, hi, ok = s
            x = gi + (ti - (len(tiers) - 1) / 2) * width
            bar = ax.bar([x], [mean], width=width, label=TIER_NAMES.get(t, t) if gi == 0 else None,
                         **style.bar_style(ti))
            if hi > lo:
                ax.plot([x, x], [lo, hi], color="black", linewidth=0.7)
            if fmt:
                ax.bar_label(bar, fmt=fmt, padding=1.0, fontsize=4.5)
            if not ok:
                ax.plot([x], [mean], marker="x", color="black", markersize=5)
            top = max(top, hi)
    ax.set_xticks(np.arange(len(groups)))
    ax.grid(axis="x", visible=False)
    ax.set_ylim(0, max(top, 1e-12) * 1.18)


def stats_of(df, col):
    """(group key, tier) -> (mean, min, max, all ok) over the seeds."""
    g = df.groupby(["key", "lb"])
    agg = g[col].agg(["mean", "min", "max"]).join(g["ok"].min())

    def get(key, tier):
        if (key, tier) not in agg.index:
            return None
        r = agg.loc[(key, tier)]
        return float(r["mean"]), float(r["min"]), float(r["max"]), r["ok"] == 1
    return get


def plot_tiers(df, tiers, configs, out, stem, formats):
    bases = list(dict.fromkeys(df["base"]))
    states = [s for s in STATES if s in set(df["state"])]
    fig, axes = style.figure("double", rows=len(bases), cols=len(configs),
                             height=1.9 * len(bases) + 0.4)
    axes = axes if isinstance(axes, list) else [axes]
    for bi, base in enumerate(bases):
        for ci, config in enumerate(configs):
            ax = axes[bi * len(configs) + ci]
            rows = df[(df["base"] == base) & (df["config"] == config)].copy()
            rows["key"] = rows["state"]
            tier_bars(ax, states, tiers, stats_of(rows, "metric"), "%.0f")
            ax.set_xticklabels([STATE_NAMES[s] for s in states])
            collective = bool(rows["collective"].any())
            name = {"allreduce": "AllReduce busbw", "alltoall": "AlltoAll busbw"}.get(base, "busbw")
            ax.set_ylabel(style.axis_label(name if collective else "p99 FCT",
                                           "GB/s" if collective else "µs"))
            ax.set_xlabel(style.category_label(
                "%s, %s (%s)" % (base, CONFIG_NAMES.get(config, config),
                                 "higher is better" if collective else "lower is better")))
    style.figure_legend(fig, *axes[0].get_legend_handles_labels(), ncol=len(tiers))
    style.save(fig, out, stem + "-tiers", formats)


def plot_fabric(df, tiers, configs, out, stem, formats):
    df = df.copy()
    df["key"] = df["scenario"]
    scenarios = list(dict.fromkeys(df["scenario"]))
    panels = [("uplink_imbalance", style.axis_label("Imbalance", "max/mean"), "%.1f"),
              ("out_of_order", style.axis_label("Out of sequence", "packets"), None),
              ("retransmissions", style.axis_label("Retransmitted", "packets"), None)]
    fig, axes = style.figure("double", rows=len(panels) * len(configs), sharex=True,
                             height=1.25 * len(panels) * len(configs) + 0.5)
    axes = axes if isinstance(axes, list) else [axes]
    for ci, config in enumerate(configs):
        rows = df[df["config"] == config]
        for pi, (col, label, fmt) in enumerate(panels):
            ax = axes[ci * len(panels) + pi]
            tier_bars(ax, scenarios, tiers, stats_of(rows, col), fmt)
            ax.set_ylabel(label, fontsize=6)
            if pi == 0:
                ax.text(0.01, 0.97, CONFIG_NAMES.get(config, config), transform=ax.transAxes,
                        ha="left", va="top", fontsize=6.5)
    axes[-1].set_xticklabels(scenarios, rotation=15, ha="right")
    axes[-1].set_xlabel(style.category_label("Scenario and fabric state"))
    style.figure_legend(fig, *axes[0].get_legend_handles_labels(), ncol=len(tiers))
    style.save(fig, out, stem + "-fabric", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("csv", nargs="+", help="CSVs lb-compare wrote with --csv (one per seed)")
    args = p.parse_args()
    paths = [a if a.endswith(".csv") else a + ".csv" for a in args.csv]
    formats, stem = common.parse_output(p, args, paths[0][:-4])
    df = pd.concat([load(path, i) for i, path in enumerate(paths)], ignore_index=True)
    tiers = list(dict.fromkeys(df["lb"]))
    configs = list(dict.fromkeys(df["config"]))
    summary = df.groupby(["scenario", "config", "lb"], sort=False)["metric"].mean()
    for (scenario, config, lb), v in summary.items():
        print("%s %s %s: %.1f %s" % (scenario, config, lb, v,
                                     "GB/s" if scenario.startswith("all") else "us p99"))
    plot_tiers(df, tiers, configs, args.out, stem, formats)
    plot_fabric(df, tiers, configs, args.out, stem, formats)


if __name__ == "__main__":
    common.run(main)
