#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot queue and PFC activity over time per switch tier (examples/cc-workload.cc
--timeline=FILE, SwitchQueueSampler's timeline), several runs (e.g. one per congestion-control
algorithm) on one figure.

Reads timeline CSVs (time_us,tier,queue_max_bytes,queue_sum_bytes,pfc_pause_frames,
paused_ports; one row per tier per sample) and writes:

  <stem>-timeline  two stacked panels sharing the time axis: the largest egress queue of any
                   port of each tier at each sample, and the PFC pause frames (XOFF) each
                   tier's ports sent per time window (--bin; by default the sample interval,
                   or a 1-2-5 multiple of it so that there are at most 300 windows;
                   --cumulative: since the start); one colour per run, one line style per
                   tier (leaf solid, spine dashed, ...)

A run's label is --labels, else the file name. --tiers keeps some tiers only.
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
from common import InputError

COLUMNS = ["time_us", "queue_max_bytes", "queue_sum_bytes", "pfc_pause_frames", "paused_ports"]
INTEGERS = ["queue_max_bytes", "queue_sum_bytes", "pfc_pause_frames", "paused_ports"]
TIER_STYLES = ["-", "--", ":", "-."]
MAX_BINS = 300  #: pause-frame windows on the time axis, at most, unless --bin says otherwise

EPILOG = """examples:
  cc-workload --timeline=dcqcn.csv; cc-workload --cc=none --timeline=none.csv
  plot_fabric_timeline.py dcqcn.csv none.csv --labels DCQCN "no CC" --out figs --name websearch
  plot_fabric_timeline.py none.csv --tiers leaf --cumulative"""


def load(path):
    """The rows of a timeline CSV, checked; tiers in order of first appearance."""
    df = common.read_csv(path, COLUMNS, integer=INTEGERS, text=["tier"])
    common.nonnegative(df, path, COLUMNS)
    empty = df["tier"] == ""
    if empty.any():
        raise InputError("%s: line %d: column 'tier' is empty"
                         % (path, int(empty.to_numpy().nonzero()[0][0]) + 2))
    bad = df["queue_max_bytes"] > df["queue_sum_bytes"]
    if bad.any():
        raise InputError("%s: line %d: expected queue_max_bytes <= queue_sum_bytes"
                         % (path, int(bad.to_numpy().nonzero()[0][0]) + 2))
    for tier, rows in df.groupby("tier", sort=False):
        back = rows["time_us"].diff() < 0
        if back.any():
            raise InputError("%s: line %d: time_us goes back in time for tier '%s'"
                             % (path, int(rows.index[back.to_numpy().nonzero()[0][0]]) + 2,
                                tier))
    return df


def interval(runs):
    """The sample interval (µs): the most common time step of a tier, 0 if none."""
    steps = []
    for run in runs:
        for _, rows in run.groupby("tier", sort=False):
            d = rows["time_us"].diff().dropna()
            d = d[d > 0]
            if not d.empty:
                steps.append(d.round(3).mode().iloc[0])
    return min(steps) if steps else 0


def auto_bin(step, span):
    """The smallest 1-2-5 multiple of the sample interval ``step`` (µs) that cuts ``span``
    (µs) into at most MAX_BINS windows."""
    if step <= 0:
        return 0
    mult = 1
    while span / (step * mult) > MAX_BINS:
        mult = next(m * 10 ** e for e in range(12) for m in (1, 2, 5) if m * 10 ** e > mult)
    return step * mult


def per_bin(rows, bin_us):
    """(window starts, pause frames sent in each window of ``bin_us`` µs)."""
    if bin_us <= 0:
        return rows["time_us"], rows["pfc_pause_frames"]
    # A row counts the frames sent up to its time: it belongs to the window it closes.
    window = ((rows["time_us"] - 1e-6) // bin_us).clip(lower=0)
    sums = rows["pfc_pause_frames"].groupby(window).sum()
    full = sums.reindex(range(int(window.max()) + 1), fill_value=0)
    return full.index.to_series() * bin_us, full


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("timeline", nargs="+", help="timeline CSV files (cc-workload --timeline)")
    p.add_argument("--labels", "--label", nargs="+", help="legend labels, one per file")
    p.add_argument("--tiers", nargs="+", metavar="TIER",
                   help="tiers to draw (default: every tier of the files)")
    p.add_argument("--cumulative", action="store_true",
                   help="draw the PFC pause frames sent since the start, not per window")
    p.add_argument("--bin", type=float, metavar="US",
                   help="window of the pause-frame counts, µs, a multiple of the sample "
                        "interval (default: the smallest 1-2-5 multiple giving at most %d "
                        "windows)" % MAX_BINS)
    args = p.parse_args()
    if args.bin is not None and not args.bin > 0:
        p.error("--bin must be > 0 µs, got %g" % args.bin)
    formats, stem = common.parse_output(p, args, args.timeline[0].rsplit(".csv", 1)[0])
    runs = [load(f) for f in args.timeline]
    labels = common.labels_for([f.rsplit(".csv", 1)[0] for f in args.timeline], args.labels)

    tiers = []
    for run in runs:
        tiers += [t for t in run["tier"].unique() if t not in tiers]
    if args.tiers:
        unknown = [t for t in args.tiers if t not in tiers]
        if unknown:
            raise InputError("--tiers: no tier %s in the input (found: %s)"
                             % (", ".join("'%s'" % t for t in unknown), ", ".join(tiers)))
        tiers = list(dict.fromkeys(args.tiers))

    span = max(r["time_us"].max() for r in runs)
    t_div, t_unit = style.time_scale(span)
    bin_us = args.bin if args.bin else auto_bin(interval(runs), span)
    q_div, q_unit = style.bytes_scale(max(r["queue_max_bytes"].max() for r in runs))
    fig, (ax_q, ax_p) = style.figure("single", rows=2, sharex=True)
    for i, (run, label) in enumerate(zip(runs, labels)):
        color = style.series(i)["color"]
        for j, tier in enumerate(tiers):
            rows = run[run["tier"] == tier]
            if rows.empty:
                continue
            name = "%s, %s" % (label, tier) if len(runs) > 1 else tier
            ls = TIER_STYLES[j % len(TIER_STYLES)]
            t = rows["time_us"] / t_div
            ax_q.step(t, rows["queue_max_bytes"] / q_div, where="post", color=color,
                      linestyle=ls, linewidth=0.9, label=name)
            if args.cumulative:
                tp, pauses = t, rows["pfc_pause_frames"].cumsum()
            else:
                start, pauses = per_bin(rows, bin_us)
                tp = start / t_div
            ax_p.step(tp, pauses, where="post", color=color, linestyle=ls, linewidth=0.9,
                      label=name)
    ax_q.set_ylabel(style.axis_label("max queue", q_unit))
    ax_q.set_ylim(bottom=0)
    if args.cumulative:
        ax_p.set_ylabel(style.axis_label("PFC pauses, total", "frames"))
    elif bin_us:
        window = "%g µs" % bin_us if bin_us < 1000 else "%g ms" % (bin_us / 1000)
        ax_p.set_ylabel(style.axis_label("PFC pauses", "frames / " + window))
    else:
        ax_p.set_ylabel(style.axis_label("PFC pauses", "frames"))
    ax_p.set_xlabel(style.axis_label("time", t_unit))
    style.count_axis(ax_p)
    ax_p.set_ylim(bottom=0)
    style.legend(ax_q, above=True, ncol=min(len(tiers), 4))  # a row per run
    style.save(fig, args.out, stem + "-timeline", formats)


if __name__ == "__main__":
    common.run(main)
