#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the outputs of examples/rail-allreduce.cc (the main job).

Reads <prefix>-results.csv (op,bytes,ranks,time_us,algbw_GBps,busbw_GBps,measured_busbw_GBps)
and <prefix>-fabric.csv (bytes,element,utilization,max_queue_bytes,pfc_pauses,ecn_marks,drops)
and writes:

  <stem>-busbw    bus bandwidth vs message size (log x), simulated and, when the run was given
                  --measured, the real nccl-tests log next to it
  <stem>-time     completion time vs message size (log-log)
  <stem>-fabric   per message size: link utilization per rail / spine / NVSwitch tier, and the
                  maximum egress queue and PFC pause frames per tier
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import numpy as np

RESULTS = "results"
FABRIC = "fabric"


def tier_of(element):
    """rail3 -> leaf, spine0 -> spine, nvswitch -> nvswitch."""
    for prefix, tier in (("rail", "leaf"), ("leaf", "leaf"), ("spine", "spine"),
                         ("nvswitch", "nvswitch")):
        if element.startswith(prefix):
            return tier
    return element


def size_label(b):
    for unit, div in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= div:
            return "%g %s" % (b / div, unit)
    return "%d B" % b


def plot_busbw(res, out, stem, formats):
    fig, ax = style.figure("single")
    x = res["bytes"].to_numpy()
    ax.plot(x, res["busbw_GBps"], marker="o", label="simulated", **style.series(0))
    measured = res["measured_busbw_GBps"]
    if measured.notna().any():
        m = res[measured.notna()]
        ax.plot(m["bytes"], m["measured_busbw_GBps"], marker="s", label="measured (nccl-tests)",
                **style.series(1))
    ax.set_xscale("log", base=2)
    ax.set_xticks(x)
    ax.set_xticklabels([size_label(v) for v in x], rotation=30, ha="right")
    ax.set_xlabel(style.axis_label("Message size", "bytes"))
    ax.set_ylabel(style.axis_label("Bus bandwidth", "GB/s"))
    ax.set_ylim(bottom=0)
    style.legend(ax, above=True)
    style.save(fig, out, stem + "-busbw", formats)


def plot_time(res, out, stem, formats):
    fig, ax = style.figure("single")
    x = res["bytes"].to_numpy()
    ax.plot(x, res["time_us"], marker="o", **style.series(0))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(x)
    ax.set_xticklabels([size_label(v) for v in x], rotation=30, ha="right")
    ax.set_xlabel(style.axis_label("Message size", "bytes"))
    ax.set_ylabel(style.axis_label("Completion time", "µs"))
    style.save(fig, out, stem + "-time", formats)


def plot_fabric(fab, out, stem, formats):
    fab = fab.copy()
    fab["tier"] = [tier_of(e) for e in fab["element"]]
    sizes = sorted(fab["bytes"].unique())
    tiers = [t for t in ("leaf", "spine", "nvswitch") if t in set(fab["tier"])]
    fig, (uax, qax, pax) = style.figure("single", rows=3, sharex=True)
    xs = np.arange(len(sizes))
    width = 0.8 / max(len(tiers), 1)
    for i, tier in enumerate(tiers):
        t = fab[fab["tier"] == tier].groupby("bytes")
        util = t["utilization"].mean().reindex(sizes).fillna(0)
        queue = t["max_queue_bytes"].max().reindex(sizes).fillna(0)
        pauses = t["pfc_pauses"].sum().reindex(sizes).fillna(0)
        off = (i - (len(tiers) - 1) / 2) * width
        uax.bar(xs + off, util * 100, width=width, label=tier, **style.bar_style(i))
        qax.bar(xs + off, queue / 1e3, width=width, **style.bar_style(i))
        pax.bar(xs + off, pauses, width=width, **style.bar_style(i))
    uax.set_ylabel(style.axis_label("Mean port util.", "%"))
    qax.set_ylabel(style.axis_label("Max. queue", "KB"))
    pax.set_ylabel(style.axis_label("PFC pauses", "frames"))
    style.count_axis(pax)
    pax.set_xticks(xs)
    pax.set_xticklabels([size_label(s) for s in sizes], rotation=30, ha="right")
    pax.set_xlabel(style.axis_label("Message size", "bytes"))
    style.legend(uax, above=True)
    style.save(fig, out, stem + "-fabric", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0])
    p.add_argument("prefix", help="output prefix of rail-allreduce (or one of its CSV files)")
    args = p.parse_args()
    prefix = common.strip_suffix(args.prefix, [RESULTS, FABRIC])
    formats, stem = common.parse_output(p, args, prefix)
    res = common.read_csv(prefix + "-" + RESULTS + ".csv",
                          ["bytes", "ranks", "time_us", "algbw_GBps", "busbw_GBps"],
                          integer=["bytes", "ranks"], text=["op", "measured_busbw_GBps"])
    res["measured_busbw_GBps"] = res["measured_busbw_GBps"].replace("", np.nan).astype(float)
    fab = common.read_csv(prefix + "-" + FABRIC + ".csv",
                          ["bytes", "utilization", "max_queue_bytes", "pfc_pauses", "ecn_marks",
                           "drops"],
                          integer=["bytes", "max_queue_bytes", "pfc_pauses", "ecn_marks", "drops"],
                          text=["element"])
    res = res.sort_values("bytes")
    plot_busbw(res, args.out, stem, formats)
    plot_time(res, args.out, stem, formats)
    plot_fabric(fab, args.out, stem, formats)
    peak = res["busbw_GBps"].max()
    print("%s: %d sizes, peak simulated busbw %.1f GB/s" % (stem, len(res), peak))


if __name__ == "__main__":
    common.run(main)
