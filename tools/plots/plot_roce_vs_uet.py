#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the CSV of examples/roce-vs-uet.cc: RoCEv2 and Ultra Ethernet side by side.

Reads the file written with --csv (one row per scenario and configuration: scenario,config,
transport,bytes,busbw_GBps,flows,completed,fct_median_us,fct_p99_us,fct_max_us,
max_queue_bytes,pfc_pauses,pfc_pauses_data_class,trims,drops,ecn_marks,retransmissions,
timeouts,nacks,trim_nacks,cnps,uet_bytes_posted,uet_bytes_delivered,ok; busbw set for the
collective rows, the FCTs for the flow patterns) and writes:

  <stem>-busbw     AllReduce bus bandwidth per message size, one bar per configuration; one
                   panel per collective scenario (allreduce, allreduce-failure)
  <stem>-fct       tail flow completion time of the flow patterns (incast, permutation,
                   permutation-failure): bar = p99, dot = median, whisker to the maximum
  <stem>-activity  what the fabric did per scenario and configuration: the largest egress
                   queue, PFC pause frames and trimmed packets (collective rows summed over
                   their sizes, the queue their maximum)

A row that is not ok (did not complete) is plotted hatched-out with an "X" over its bar.
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import numpy as np
import pandas as pd
from common import InputError

NUMBERS = ["bytes", "flows", "completed", "max_queue_bytes", "pfc_pauses",
           "pfc_pauses_data_class", "trims", "drops", "ecn_marks", "retransmissions",
           "timeouts", "nacks", "trim_nacks", "cnps", "uet_bytes_posted", "uet_bytes_delivered",
           "ok"]
OPTIONAL = ["busbw_GBps", "fct_median_us", "fct_p99_us", "fct_max_us"]
TEXT = ["scenario", "config", "transport"] + OPTIONAL

#: Display names of the configurations the example knows; others are shown as given.
CONFIG_NAMES = {
    "roce-dcqcn": "RoCEv2 + DCQCN + PFC",
    "roce-pfc": "RoCEv2, PFC only",
    "uet-nscc": "UET NSCC + REPS",
    "uet-rccc": "UET RCCC + REPS",
    "uet-both": "UET NSCC + RCCC + REPS",
    "uet-none": "UET, no CC, REPS",
}

EPILOG = """examples:
  roce-vs-uet --csv=roce-vs-uet.csv
  plot_roce_vs_uet.py roce-vs-uet.csv --out figs
  plot_roce_vs_uet.py roce-vs-uet --name compare --format pdf"""


def config_name(c):
    """Legend name of a configuration."""
    if c in CONFIG_NAMES:
        return CONFIG_NAMES[c]
    if c.startswith("uet-"):
        parts = c.split("-")
        ev = parts[2] if len(parts) > 2 else "reps"
        return "UET %s + %s" % (parts[1].upper() if parts[1] != "none" else "no CC",
                                ev.upper() if ev == "reps" else ev)
    return c


def scenario_name(s):
    """Tick / panel name of a scenario."""
    if s.endswith("-failure"):
        return s[: -len("-failure")] + " (failed link)"
    return s


def size_label(b):
    """Binary-prefixed size: 1048576 -> '1 MiB'."""
    for unit, div in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= div:
            return "%g %s" % (b / div, unit)
    return "%d B" % b


def optional_numbers(df, path, column, rows):
    """Column ``column`` as floats on ``rows`` (a boolean mask): each must be a number >= 0."""
    text = df[column]
    values = pd.to_numeric(text, errors="coerce")
    bad = rows & (values.isna() | (values < 0))
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        got = text.iloc[i]
        raise InputError("%s: line %d: column '%s' is %s, expected a number >= 0"
                         % (path, i + 2, column, repr(got) if got else "empty"))
    return values


def load(path):
    """The rows, with busbw / FCT columns numeric where they apply."""
    df = common.read_csv(path, NUMBERS, integer=[c for c in NUMBERS], text=TEXT)
    common.nonnegative(df, path, NUMBERS)
    for c in ["scenario", "config"]:
        empty = df[c] == ""
        if empty.any():
            raise InputError("%s: line %d: column '%s' is empty"
                             % (path, int(empty.to_numpy().nonzero()[0][0]) + 2, c))
    collective = df["flows"] == 0
    ok = df["ok"] == 1
    df["busbw"] = optional_numbers(df, path, "busbw_GBps", collective & ok)
    done = ~collective & (df["completed"] > 0)
    for c in ["fct_median_us", "fct_p99_us", "fct_max_us"]:
        df[c.replace("_us", "")] = optional_numbers(df, path, c, done)
    bad = done & ~(
        (df["fct_median"] <= df["fct_p99"]) & (df["fct_p99"] <= df["fct_max"]))
    if bad.any():
        raise InputError("%s: line %d: expected fct_median_us <= fct_p99_us <= fct_max_us"
                         % (path, int(bad.to_numpy().nonzero()[0][0]) + 2))
    df["collective"] = collective
    dup = df.duplicated(["scenario", "config", "bytes"], keep=False)
    if dup.any():
        i = int(dup.to_numpy().nonzero()[0][0])
        raise InputError("%s: line %d: scenario %s, config %s, bytes %d appears twice"
                         % (path, i + 2, df["scenario"].iloc[i], df["config"].iloc[i],
                            df["bytes"].iloc[i]))
    return df


def grouped_bars(ax, groups, configs, value, label_fmt=None, failed=None):
    """Bars: one group per entry of ``groups``, one bar per configuration; ``value(g, c)`` is
    the bar's height (None: no bar), ``failed(g, c)`` marks a bar that did not complete."""
    width = 0.8 / len(configs)
    top = 0.0
    for ci, c in enumerate(configs):
        xs, ys, bad = [], [], []
        for gi, g in enumerate(groups):
            v = value(g, c)
            if v is None:
                continue
            xs.append(gi + (ci - (len(configs) - 1) / 2) * width)
            ys.append(v)
            bad.append(bool(failed and failed(g, c)))
        if not xs:
            continue
        bars = ax.bar(xs, ys, width=width, label=config_name(c), **style.bar_style(ci))
        if label_fmt:
            ax.bar_label(bars, fmt=label_fmt, padding=1.0, fontsize=5)
        for x, y, b in zip(xs, ys, bad):
            if b:
                ax.plot([x], [y], marker="x", color="black", markersize=5)
        top = max(top, max(ys))
    ax.set_xticks(np.arange(len(groups)))
    ax.grid(axis="x", visible=False)
    ax.set_ylim(0, max(top, 1e-12) * 1.15)
    return top


def plot_busbw(df, configs, out, stem, formats):
    coll = df[df["collective"]]
    scenarios = list(dict.fromkeys(coll["scenario"]))
    if not scenarios:
        print("no collective rows: no busbw figure")
        return
    fig, axes = style.figure("double", cols=len(scenarios), sharey=True)
    axes = axes if isinstance(axes, list) else [axes]
    top = 0.0
    for ax, s in zip(axes, scenarios):
        rows = coll[coll["scenario"] == s]
        sizes = sorted(rows["bytes"].unique())

        def value(b, c, rows=rows):
            r = rows[(rows["bytes"] == b) & (rows["config"] == c)]
            if r.empty:
                return None
            return 0.0 if r["ok"].iloc[0] != 1 else float(r["busbw"].iloc[0])

        def failed(b, c, rows=rows):
            r = rows[(rows["bytes"] == b) & (rows["config"] == c)]
            return not r.empty and r["ok"].iloc[0] != 1

        top = max(top, grouped_bars(ax, sizes, configs, value, "%.0f", failed))
        ax.set_xticklabels([size_label(b) for b in sizes])
        ax.set_xlabel(style.category_label("AllReduce size per GPU: " + scenario_name(s)))
    axes[0].set_ylim(0, max(top, 1e-12) * 1.15)  # shared by every panel
    axes[0].set_ylabel(style.axis_label("Bus bandwidth", "GB/s"))
    style.figure_legend(fig, *axes[0].get_legend_handles_labels())
    style.save(fig, out, stem + "-busbw", formats)


def plot_fct(df, configs, out, stem, formats):
    flows = df[~df["collective"]]
    scenarios = list(dict.fromkeys(flows["scenario"]))
    if not scenarios:
        print("no flow rows: no FCT figure")
        return
    fig, ax = style.figure("double")

    def row(s, c):
        r = flows[(flows["scenario"] == s) & (flows["config"] == c)]
        return None if r.empty or r["completed"].iloc[0] == 0 else r.iloc[0]

    def value(s, c):
        r = row(s, c)
        return None if r is None else float(r["fct_p99"])

    def failed(s, c):
        r = flows[(flows["scenario"] == s) & (flows["config"] == c)]
        return not r.empty and r["ok"].iloc[0] != 1

    grouped_bars(ax, scenarios, configs, value, "%.0f", failed)
    width = 0.8 / len(configs)
    top = 0.0
    for ci, c in enumerate(configs):
        for gi, s in enumerate(scenarios):
            r = row(s, c)
            if r is None:
                continue
            x = gi + (ci - (len(configs) - 1) / 2) * width
            ax.plot([x, x], [r["fct_p99"], r["fct_max"]], color="black", linewidth=0.8)
            ax.plot([x], [r["fct_median"]], marker="o", color="black", markersize=2.5,
                    label="median" if (ci, gi) == (0, 0) else None, linestyle="none")
            top = max(top, r["fct_max"])
    ax.set_ylim(0, max(top, 1e-12) * 1.15)
    ax.set_xticklabels([scenario_name(s) for s in scenarios])
    ax.set_xlabel(style.category_label("Flow pattern (bar: p99, dot: median, line: to max)"))
    ax.set_ylabel(style.axis_label("Flow completion time", "µs"))
    style.legend(ax, above=True, ncol=min(len(configs) + 1, 5))
    style.save(fig, out, stem + "-fct", formats)


def plot_activity(df, configs, out, stem, formats):
    scenarios = list(dict.fromkeys(df["scenario"]))
    agg = df.groupby(["scenario", "config"]).agg(
        max_queue_bytes=("max_queue_bytes", "max"), pfc_pauses=("pfc_pauses", "sum"),
        trims=("trims", "sum"), ok=("ok", "min"))
    fig, axes = style.figure("double", rows=3, sharex=True)
    div, unit = style.bytes_scale(agg["max_queue_bytes"].max())
    panels = [("max_queue_bytes", style.axis_label("Max. queue", unit), div, "%.3g"),
              ("pfc_pauses", style.axis_label("PFC pauses", "frames"), 1, "%d"),
              ("trims", style.axis_label("Trims", "packets"), 1, "%d")]
    for ax, (col, label, d, fmt) in zip(axes, panels):
        def value(s, c, col=col, d=d):
            key = (s, c)
            return None if key not in agg.index else float(agg.loc[key, col]) / d

        def failed(s, c):
            return (s, c) in agg.index and agg.loc[(s, c), "ok"] != 1

        grouped_bars(ax, scenarios, configs, value, fmt, failed)
        ax.set_ylabel(label)
        if col != "max_queue_bytes":
            style.count_axis(ax)
    axes[-1].set_xticklabels([scenario_name(s) for s in scenarios], rotation=15, ha="right")
    axes[-1].set_xlabel(style.category_label("Scenario"))
    style.legend(axes[0], above=True)
    style.save(fig, out, stem + "-activity", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("csv", help="the CSV roce-vs-uet wrote with --csv (or its path without .csv)")
    args = p.parse_args()
    path = args.csv if args.csv.endswith(".csv") else args.csv + ".csv"
    formats, stem = common.parse_output(p, args, path[:-4])
    df = load(path)
    configs = list(dict.fromkeys(df["config"]))
    for _, r in df.iterrows():
        what = ("busbw %.2f GB/s" % r["busbw"] if r["collective"] and r["ok"] == 1 else
                "p99 FCT %.1f µs" % r["fct_p99"] if not r["collective"] and r["completed"] > 0
                else "did not complete")
        print("%s %s %s: %s, %d PFC pauses, %d trims%s"
              % (r["scenario"], size_label(r["bytes"]) if r["collective"] else "",
                 r["config"], what, r["pfc_pauses"], r["trims"],
                 "" if r["ok"] == 1 else " (NOT OK)"))
    plot_busbw(df, configs, args.out, stem, formats)
    plot_fct(df, configs, args.out, stem, formats)
    plot_activity(df, configs, args.out, stem, formats)


if __name__ == "__main__":
    common.run(main)
