#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the outputs of examples/dcqcn-incast.cc: congestion control off vs DCQCN.

Reads, per input prefix, <prefix>-summary.csv (cc,senders,pfc_pauses,max_queue_bytes,
ecn_marks,cnps,drops,fct_min_us,fct_mean_us,fct_max_us; one row per run, several rows allowed)
and <prefix>-queue.csv (time_us,queue_bytes,pfc_pauses), and writes:

  <stem>-summary  bars of PFC pause frames and of the maximum egress queue per run
  <stem>-fct      flow completion time per run: bar = mean, whiskers = min..max
  <stem>-queue    egress queue over time per input, cumulative PFC pause frames below it

Runs are told apart by (cc, senders): with one sender count the bars are per cc; with several,
grouped by sender count with one bar per cc. The same (cc, senders) twice is an error.
"""

import os

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import numpy as np
import pandas as pd
from common import InputError

SUMMARY = "summary"
QUEUE = "queue"
SUMMARY_NUMBERS = ["senders", "pfc_pauses", "max_queue_bytes", "ecn_marks", "cnps", "drops",
                   "fct_min_us", "fct_mean_us", "fct_max_us"]
SUMMARY_INTEGERS = ["senders", "pfc_pauses", "max_queue_bytes", "ecn_marks", "cnps", "drops"]
CC_ORDER = ["none", "dcqcn"]

EPILOG = """examples:
  dcqcn-incast --cc=none --prefix=incast-none; dcqcn-incast --cc=dcqcn --prefix=incast-dcqcn
  plot_dcqcn_incast.py incast-none incast-dcqcn --out figs
  plot_dcqcn_incast.py sweep-summary.csv --no-queue --out figs   (several rows in one file)"""


def cc_name(cc, short=False):
    """Display name of a cc value (short: for tick labels)."""
    names = {"none": ("No CC (PFC only)", "No CC"), "dcqcn": ("DCQCN", "DCQCN")}
    return names.get(cc, (cc, cc))[1 if short else 0]


def load(prefixes, with_queue):
    """(summary rows with a 'source' column, [(prefix, queue df, summary rows of it)])."""
    frames, queues = [], []
    for pf in prefixes:
        path = pf + "-" + SUMMARY + ".csv"
        s = common.read_csv(path, SUMMARY_NUMBERS, integer=SUMMARY_INTEGERS, text=["cc"])
        common.nonnegative(s, path, SUMMARY_NUMBERS)
        empty = s["cc"] == ""
        if empty.any():
            raise InputError("%s: line %d: column 'cc' is empty"
                             % (path, int(empty.to_numpy().nonzero()[0][0]) + 2))
        bad = (s["fct_min_us"] > s["fct_mean_us"]) | (s["fct_mean_us"] > s["fct_max_us"])
        if bad.any():
            raise InputError("%s: line %d: expected fct_min_us <= fct_mean_us <= fct_max_us"
                             % (path, int(bad.to_numpy().nonzero()[0][0]) + 2))
        s["source"] = ["%s line %d" % (path, i + 2) for i in range(len(s))]
        frames.append(s)
        if with_queue:
            qpath = pf + "-" + QUEUE + ".csv"
            if not os.path.exists(qpath):
                raise InputError("%s: no such file (pass --no-queue to plot summaries only)"
                                 % qpath)
            q = common.read_csv(qpath, ["time_us", "queue_bytes", "pfc_pauses"],
                                integer=["queue_bytes", "pfc_pauses"])
            common.nonnegative(q, qpath, ["time_us", "queue_bytes", "pfc_pauses"])
            queues.append((pf, q.sort_values("time_us"), s))
    rows = pd.concat(frames, ignore_index=True)
    dup = rows.duplicated(["cc", "senders"], keep=False)
    if dup.any():
        d = rows[dup].iloc[:2]
        raise InputError("run cc=%s senders=%d appears twice (%s and %s); plot them separately"
                         % (d["cc"].iloc[0], d["senders"].iloc[0], d["source"].iloc[0],
                            d["source"].iloc[1]))
    order = {c: i for i, c in enumerate(CC_ORDER)}
    rows["cc_rank"] = rows["cc"].map(lambda c: order.get(c, len(order)))
    rows = rows.sort_values(["senders", "cc_rank", "cc"]).reset_index(drop=True)
    return rows, queues


def layout(rows):
    """Bar positions: (x per row, colour index per row, tick positions, tick labels, bar width,
    x label, legend wanted)."""
    ccs = list(dict.fromkeys(rows.sort_values(["cc_rank", "cc"])["cc"]))
    colour = rows["cc"].map({c: i for i, c in enumerate(ccs)}).to_numpy()
    senders = sorted(rows["senders"].unique())
    if len(senders) == 1:
        x = np.arange(len(rows), dtype=float)
        return (x, colour, x, [cc_name(c, short=True) for c in rows["cc"]], 0.6,
                style.category_label("Congestion control, %d:1 incast" % senders[0]), False)
    width = 0.8 / len(ccs)
    group = rows["senders"].map({s: i for i, s in enumerate(senders)}).to_numpy()
    x = group + (colour - (len(ccs) - 1) / 2) * width
    return (x, colour, np.arange(len(senders)), [str(s) for s in senders], width,
            style.category_label("Senders (N:1 incast)"), True)


def bars(ax, rows, values, fmt, xlabel=True):
    """One bar per run; ``fmt`` labels each bar with its value (None: no label)."""
    x, colour, ticks, ticklabels, width, x_label, with_legend = layout(rows)
    seen = set()
    for xi, ci, v, cc in zip(x, colour, values, rows["cc"]):
        label = None if cc in seen or not with_legend else cc_name(cc)
        seen.add(cc)
        b = ax.bar([xi], [v], width=width, label=label, **style.bar_style(ci))
        if fmt:
            ax.bar_label(b, fmt=fmt, padding=1.5, fontsize=6)
    ax.set_xticks(ticks)
    ax.set_xticklabels(ticklabels)
    if xlabel is True:
        ax.set_xlabel(x_label)
    ax.grid(axis="x", visible=False)
    ax.set_ylim(0, max(values.max(), 1e-12) * 1.15)  # room for the value labels
    return with_legend


def plot_summary(rows, out, stem, formats, queue_unit):
    wide = len(rows) > 4
    fig, (pax, qax) = style.figure("double" if wide else "single", cols=2)
    legend = bars(pax, rows, rows["pfc_pauses"].to_numpy(), "%d", xlabel=False)
    pax.set_ylabel(style.axis_label("PFC pause frames", "count"))
    style.count_axis(pax)
    div, unit = style.bytes_scale(rows["max_queue_bytes"].max(), queue_unit)
    bars(qax, rows, rows["max_queue_bytes"].to_numpy() / div, "%.3g", xlabel=False)
    qax.set_ylabel(style.axis_label("Max. egress queue", unit))
    fig.supxlabel(layout(rows)[5], fontsize=style.RC["axes.labelsize"])
    if legend:  # one legend centred over both panels
        style.figure_legend(fig, *pax.get_legend_handles_labels())
    style.save(fig, out, stem + "-summary", formats)


def plot_fct(rows, out, stem, formats):
    fig, ax = style.figure("single")
    bars(ax, rows, rows["fct_mean_us"].to_numpy(), None)
    x = layout(rows)[0]
    mean = rows["fct_mean_us"].to_numpy()
    top = rows["fct_max_us"].to_numpy()
    yerr = np.vstack([mean - rows["fct_min_us"].to_numpy(), top - mean])
    ax.errorbar(x, mean, yerr=yerr, fmt="none", ecolor="black", elinewidth=0.8, capsize=3,
                label="min–max (bar: mean)")
    for xi, m, t in zip(x, mean, top):  # the mean, above the whisker
        ax.annotate("%.0f" % m, (xi, t), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=6)
    ax.set_ylabel(style.axis_label("Flow completion time", "µs"))
    ax.set_ylim(0, max(top.max(), 1e-12) * 1.12)
    style.legend(ax, above=True)
    style.save(fig, out, stem + "-fct", formats)


def plot_queue(queues, rows, out, stem, formats, queue_unit, time_unit):
    fig, (ax, pax) = style.figure("single", rows=2, sharex=True)
    tmax = max(q["time_us"].max() for _, q, _ in queues)
    qmax = max(q["queue_bytes"].max() for _, q, _ in queues)
    tdiv, tunit = style.time_scale(tmax, time_unit)
    bdiv, bunit = style.bytes_scale(qmax, queue_unit)
    several_senders = rows["senders"].nunique() > 1
    labels = common.labels_for([pf for pf, _, _ in queues], None)
    ccs = list(dict.fromkeys(rows["cc"]))
    for i, (pf, q, s) in enumerate(queues):
        if len(s) == 1:
            label = cc_name(s["cc"].iloc[0])
            if several_senders:
                label += ", %d senders" % s["senders"].iloc[0]
            colour = ccs.index(s["cc"].iloc[0]) if len(set(rows["cc"])) == len(rows) else i
        else:
            label, colour = labels[i], i
        t = q["time_us"].to_numpy() / tdiv
        ax.plot(t, q["queue_bytes"] / bdiv, label=label, **style.series(colour))
        pax.plot(t, q["pfc_pauses"], label=label, **style.series(colour))
    ax.set_ylabel(style.axis_label("Egress queue", bunit))
    ax.set_ylim(bottom=0)
    ax.set_xlim(left=0)
    pax.set_ylabel(style.axis_label("Cum. PFC pauses", "frames"))
    style.count_axis(pax)
    pax.set_xlabel(style.axis_label("Time", tunit))
    style.legend(ax, above=True)
    style.save(fig, out, stem + "-queue", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("prefix", nargs="+",
                   help="output prefix of a run (e.g. incast-none) or the path of its "
                        "-summary.csv or -queue.csv; give one per run to compare")
    p.add_argument("--no-queue", action="store_true",
                   help="summary files only: do not read <prefix>-queue.csv, no queue plot")
    p.add_argument("--queue-unit", choices=["auto", "B", "KB", "MB"], default="auto",
                   help="unit of queue axes (default: KB below 1 MB, else MB)")
    p.add_argument("--time-unit", choices=["auto", "us", "ms"], default="auto",
                   help="time axis unit (default: µs up to 10 ms, else ms)")
    args = p.parse_args()
    prefixes = [common.strip_suffix(a, [SUMMARY, QUEUE]) for a in args.prefix]
    if len(set(prefixes)) != len(prefixes):
        p.error("the same prefix is given twice")
    formats, stem = common.parse_output(p, args, prefixes[0])
    queue_unit = None if args.queue_unit == "auto" else args.queue_unit
    time_unit = None if args.time_unit == "auto" else args.time_unit

    rows, queues = load(prefixes, not args.no_queue)
    for _, r in rows.iterrows():
        print("cc=%s senders=%d: %d pause frames, max queue %.1f KB, FCT mean %.1f µs"
              % (r["cc"], r["senders"], r["pfc_pauses"], r["max_queue_bytes"] / 1e3,
                 r["fct_mean_us"]))
    plot_summary(rows, args.out, stem, formats, queue_unit)
    plot_fct(rows, args.out, stem, formats)
    if queues:
        plot_queue(queues, rows, args.out, stem, formats, queue_unit, time_unit)


if __name__ == "__main__":
    common.run(main)
