#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the production-like monitoring CSV of a run (FabricMonitor: examples rail-allreduce
and cc-workload --monitor=FILE) as a timeline of what operators watch.

Reads the tidy CSV (time_us,level,node,node_name,port,peer,priority,qp,metric,value: one row
per observation; a missing row is 0) and writes:

  <stem>-monitor  stacked panels sharing the time axis, each only if it has data:
                  PFC pause time per sample interval (µs, summed over the selected ports and
                  priorities) with the samples where a priority was paused continuously past
                  the storm threshold shaded; the fullest switch buffer (% of BufferSize) and
                  the largest egress queue; ECN marks and CNPs sent per interval; drops per
                  interval by reason; out-of-sequence packets and local ACK timeouts per
                  interval; probe latency per pair against its unloaded baseline

--nodes keeps the rows of some nodes (names or shell patterns: leaf1, 'gpu*'), --priority
the rows of some priorities (rows without a priority are kept); probes are kept when their
source matches. --selftest plots a synthetic file and checks the figure and the errors.
"""

import fnmatch
import os
import sys
import tempfile

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import pandas as pd
from common import InputError

NUMBERS = ["time_us", "value"]
TEXT = ["level", "node", "node_name", "port", "peer", "priority", "qp", "metric"]
LEVELS = {"node", "port", "queue", "qp", "probe"}

EPILOG = """examples:
  cc-workload --monitor=mon.csv --monitor-interval=5us --monitor-probes=0-127,64-1
  plot_fabric_monitor.py mon.csv --out figs
  plot_fabric_monitor.py mon.csv --nodes 'leaf*' gpu3 --priority 3 --name leaves"""


def load(path):
    """The rows of a monitor CSV, checked."""
    df = common.read_csv(path, NUMBERS, text=TEXT)
    common.nonnegative(df, path, ["time_us"])
    bad = ~df["level"].isin(LEVELS)
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        raise InputError("%s: line %d: column 'level' is %r, expected one of %s"
                         % (path, i + 2, df["level"].iloc[i], ", ".join(sorted(LEVELS))))
    empty = df["metric"] == ""
    if empty.any():
        raise InputError("%s: line %d: column 'metric' is empty"
                         % (path, int(empty.to_numpy().nonzero()[0][0]) + 2))
    return df


def select(df, nodes, priorities):
    """Keep the rows of the nodes matching ``nodes`` (patterns) and of ``priorities``."""
    if nodes:
        names = df["node_name"].unique()
        keep = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in nodes)]
        if not keep:
            raise InputError("--nodes: no node matches %s (found: %s)"
                             % (", ".join("'%s'" % p for p in nodes),
                                ", ".join(sorted(names)[:12])))
        df = df[df["node_name"].isin(keep)]
    if priorities:
        df = df[(df["priority"] == "") | df["priority"].isin([str(p) for p in priorities])]
    return df


def series(df, times, level, metric=None, prefix=None, agg="sum"):
    """One value per sample time: ``agg`` of the rows of ``level`` whose metric is ``metric``
    (or starts with ``prefix``), 0 where no row was written."""
    rows = df[df["level"] == level]
    rows = rows[rows["metric"].str.startswith(prefix)] if prefix else rows[rows["metric"] == metric]
    s = rows.groupby("time_us")["value"].agg(agg)
    return s.reindex(times, fill_value=0)


def plot(df, args, formats, stem):
    """Draw the panels that have data; returns the number of panels."""
    samples = df[df["level"] != "probe"]
    times = pd.Index(sorted(samples["time_us"].unique()), name="time_us")
    probes = df[df["level"] == "probe"]
    span = max(df["time_us"].max(), 1e-3)
    t_div, t_unit = style.time_scale(span)
    t = times.to_series() / t_div

    panels = []
    pause = series(samples, times, "port", "pause_ns") / 1e3
    storm = series(samples, times, "port", "pause_storm", agg="max")
    if pause.any():
        panels.append("pause")
    buf = series(samples, times, "node", "buffer_fraction", agg="max") * 100
    queue = series(samples, times, "queue", "egress_bytes", agg="max")
    if buf.any() or queue.any():
        panels.append("buffer")
    ecn = series(samples, times, "port", "ecn_marks")
    cnp = series(samples, times, "node", "np_cnp_sent")
    if ecn.any() or cnp.any():
        panels.append("ecn")
    drop_rows = samples[samples["metric"].str.startswith("drop:") &
                        samples["level"].isin(["node", "port"])]
    reasons = sorted(drop_rows.loc[drop_rows["value"] > 0, "metric"].unique())
    if reasons:
        panels.append("drops")
    oos = series(samples, times, "node", "out_of_sequence")
    lat = series(samples, times, "node", "local_ack_timeout_err")
    if oos.any() or lat.any():
        panels.append("oos")
    if not probes.empty:
        panels.append("probes")
    if not panels:
        raise InputError("%s: nothing to plot: no pause, buffer, ECN, CNP, drop, OOS, "
                         "timeout or probe row%s" % (args.monitor,
                                                     " for --nodes/--priority"
                                                     if args.nodes or args.priority else ""))

    fig, axes = style.figure("single", rows=len(panels), sharex=True)
    axes = axes if isinstance(axes, list) else [axes]
    for ax, panel in zip(axes, panels):
        if panel == "pause":
            ax.step(t, pause, where="post", color=style.series(0)["color"], linewidth=0.9,
                    label="paused")
            for x in t[storm > 0]:
                ax.axvspan(x, x + (t.diff().median() if len(t) > 1 else 0), color="#D55E00",
                           alpha=0.25, linewidth=0)
            if storm.any():
                ax.plot([], [], color="#D55E00", alpha=0.4, linewidth=4, label="storm")
            ax.set_ylabel(style.axis_label("PFC paused", "µs / sample"))
            style.legend(ax)
        elif panel == "buffer":
            q_div, q_unit = style.bytes_scale(queue.max())
            if buf.any():
                ax.step(t, buf, where="post", color=style.series(0)["color"], linewidth=0.9,
                        label="fullest buffer")
                ax.set_ylabel(style.axis_label("buffer", "%"))
            if queue.any():
                axq = ax.twinx() if buf.any() else ax
                axq.step(t, queue / q_div, where="post", color=style.series(1)["color"],
                         linewidth=0.9, linestyle="--", label="max egress queue")
                axq.set_ylabel(style.axis_label("queue", q_unit))
                axq.set_ylim(bottom=0)
                if axq is not ax:
                    h1, l1 = ax.get_legend_handles_labels()
                    h2, l2 = axq.get_legend_handles_labels()
                    ax.legend(h1 + h2, l1 + l2, loc="best")
                else:
                    style.legend(ax)
            else:
                style.legend(ax)
        elif panel == "ecn":
            ax.step(t, ecn, where="post", color=style.series(0)["color"], linewidth=0.9,
                    label="ECN marks")
            ax.step(t, cnp, where="post", color=style.series(1)["color"], linewidth=0.9,
                    linestyle="--", label="CNPs sent")
            ax.set_ylabel(style.axis_label("ECN / CNP", "packets"))
            style.count_axis(ax)
            style.legend(ax)
        elif panel == "drops":
            for i, r in enumerate(reasons):
                s = series(drop_rows, times, "port", r) + series(drop_rows, times, "node", r)
                ax.step(t, s, where="post", linewidth=0.9, label=r[5:].replace("_", " "),
                        **style.series(i))
            ax.set_ylabel(style.axis_label("drops", "packets"))
            style.count_axis(ax)
            style.legend(ax)
        elif panel == "oos":
            ax.step(t, oos, where="post", color=style.series(0)["color"], linewidth=0.9,
                    label="out of sequence")
            ax.step(t, lat, where="post", color=style.series(1)["color"], linewidth=0.9,
                    linestyle="--", label="local ACK timeouts")
            ax.set_ylabel(style.axis_label("OOS / LAT", "events"))
            style.count_axis(ax)
            style.legend(ax)
        elif panel == "probes":
            pairs = probes.assign(pair=probes["node_name"] + ">" + probes["peer"])
            for i, (pair, rows) in enumerate(pairs.groupby("pair", sort=True)):
                lat_rows = rows[rows["metric"] == "probe_latency_ns"]
                base = rows[rows["metric"] == "probe_baseline_ns"]
                st = style.series(i)
                ax.plot(lat_rows["time_us"] / t_div, lat_rows["value"] / 1e3, marker=".",
                        markersize=3, linewidth=0.8, color=st["color"], label=pair)
                if not base.empty:
                    ax.axhline(base["value"].iloc[0] / 1e3, color=st["color"], linewidth=0.6,
                               linestyle=":")
            ax.set_ylabel(style.axis_label("probe latency", "µs"))
            ax.set_ylim(bottom=0)
            style.legend(ax, title="dotted: unloaded")
        if panel != "probes":
            ax.set_ylim(bottom=0)
    axes[-1].set_xlabel(style.axis_label("time", t_unit))
    style.save(fig, args.out, stem + "-monitor", formats)
    return len(panels)


def main(argv=None):
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("monitor", nargs="?", help="the monitor CSV (--monitor=FILE)")
    p.add_argument("--nodes", nargs="+", metavar="NAME",
                   help="keep these nodes (names or shell patterns, e.g. leaf1 'gpu*')")
    p.add_argument("--priority", nargs="+", type=int, metavar="P",
                   help="keep these priorities (0..7; rows without one are kept)")
    p.add_argument("--selftest", action="store_true",
                   help="plot a synthetic file into a temporary directory and check it")
    args = p.parse_args(argv)
    if args.selftest:
        return selftest()
    if not args.monitor:
        p.error("the monitor CSV is required (or --selftest)")
    for prio in args.priority or []:
        if not 0 <= prio <= 7:
            p.error("--priority %d is invalid; valid priorities are 0..7" % prio)
    formats, stem = common.parse_output(p, args, args.monitor.rsplit(".csv", 1)[0])
    df = select(load(args.monitor), args.nodes, args.priority)
    return plot(df, args, formats, stem)


SYNTHETIC = """time_us,level,node,node_name,port,peer,priority,qp,metric,value
0.000,node,4,leaf1,,,,,buffer_bytes,1000
0.000,node,4,leaf1,,,,,buffer_fraction,0.1
1.000,port,4,leaf1,2,gpu2,3,,pause_ns,1000
1.000,port,4,leaf1,2,gpu2,3,,pause_continuous_ns,1000
1.000,queue,4,leaf1,2,gpu2,3,,egress_bytes,50000
1.000,port,4,leaf1,2,gpu2,,,ecn_marks,7
1.000,node,0,gpu0,,,,,np_cnp_sent,3
2.000,port,4,leaf1,2,gpu2,3,,pause_ns,1000
2.000,port,4,leaf1,2,gpu2,3,,pause_continuous_ns,2000
2.000,port,4,leaf1,2,gpu2,3,,pause_storm,1
2.000,port,4,leaf1,2,gpu2,,,drop:rx_error,2
2.000,node,1,gpu1,,,,,local_ack_timeout_err,1
2.000,qp,1,gpu1,0,,3,17,local_ack_timeout_err,1
2.500,probe,2,gpu2,0,gpu3,,,probe_latency_ns,4000
2.500,probe,2,gpu2,0,gpu3,,,probe_baseline_ns,2000
2.500,probe,2,gpu2,0,gpu3,,,probe_ratio,2
3.000,port,4,leaf1,2,gpu2,3,,pause_ns,0
3.000,port,4,leaf1,2,gpu2,3,,pause_continuous_ns,0
3.000,port,4,leaf1,2,gpu2,3,,pause_storm,0
3.000,port,4,leaf1,2,gpu2,,,drop:rx_error,0
3.000,node,0,gpu0,,,,,out_of_sequence,4
"""


def selftest():
    """Plot SYNTHETIC (all panels, then a node filter) and check the errors; exit status."""
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mon.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SYNTHETIC)
        n = main([path, "--out", tmp, "--name", "all"])
        if n != 6:
            failed.append("expected 6 panels, got %s" % n)
        for fmt in ("pdf", "png"):
            out = os.path.join(tmp, "all-monitor." + fmt)
            if not os.path.exists(out) or os.path.getsize(out) < 1000:
                failed.append("%s missing or empty" % out)
        n = main([path, "--out", tmp, "--name", "gpu", "--nodes", "gpu*", "--format", "png"])
        if n != 3:  # ECN/CNP, OOS/LAT, probes
            failed.append("--nodes 'gpu*': expected 3 panels, got %s" % n)
        cut = os.path.join(tmp, "cut.csv")
        with open(cut, "w", encoding="utf-8") as f:
            f.write("\n".join(",".join(line.split(",")[:9])
                              for line in SYNTHETIC.splitlines()) + "\n")
        for argv, text in (([cut, "--out", tmp], "missing column 'value'"),
                           ([path, "--out", tmp, "--nodes", "spine9"], "no node matches")):
            try:
                main(argv)
                failed.append("%s: no error" % " ".join(argv))
            except InputError as err:
                if text not in str(err):
                    failed.append("%s: message %r lacks %r" % (" ".join(argv), str(err), text))
    for f in failed:
        sys.stderr.write("selftest: FAIL %s\n" % f)
    print("plot_fabric_monitor selftest: %s" % ("FAILED" if failed else "passed"))
    if failed:
        sys.exit(1)
    return 0


if __name__ == "__main__":
    common.run(lambda: main())
