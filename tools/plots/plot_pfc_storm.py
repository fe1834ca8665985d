#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot how a PFC storm spreads tier by tier (the pfc-storm lab: --monitor-off=FILE for the
run without the PFC watchdog, --monitor=FILE for the run with it).

Reads FabricMonitor CSVs (one panel each, sharing the time axis) and draws, per tier of
paused ports, the PFC paused time per sample interval divided by the interval (the number of
ports paused, 0..ports of the tier), with the samples where a port of the tier was paused
continuously past the monitor's storm threshold (pause_storm) as a bar under the curves and
the PFC watchdog's storm declarations (pfc_watchdog_storms) as dashed vertical lines. A
port's tier comes from its node and the node across its cable (the paused port's peer is
the one that pauses it):

  leaf -> gpu    a NIC pauses its leaf (the stuck host)
  spine -> leaf  a leaf pauses the spines
  leaf -> spine  the spines pause the leaves
  gpu -> leaf    the leaves pause the senders

--selftest plots a synthetic file and checks the figure and the errors.
"""

import os
import sys
import tempfile

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
from common import InputError
from plot_fabric_monitor import load

TIERS = [("leaf", "gpu", "NIC pauses its leaf"),
         ("spine", "leaf", "leaf pauses the spines"),
         ("leaf", "spine", "spines pause the leaves"),
         ("gpu", "leaf", "leaves pause the senders")]

EPILOG = """examples:
  pfc-storm --monitor-off=off.csv --monitor=on.csv --monitor-interval=20us \\
      --monitor-storm-threshold=1ms --monitor-levels=port
  plot_pfc_storm.py off.csv on.csv --labels 'watchdog off' 'watchdog 2 ms' --out figs"""


def kind(name):
    """The kind of a node from its fabric name: 'gpu3' -> 'gpu'."""
    return str(name).rstrip("0123456789")


def tiers(df):
    """Per sample time and tier: ports paused (pause_ns / interval), storm flag, watchdog."""
    port = df[df["level"] == "port"].copy()
    if port.empty:
        raise InputError("no port rows (run with --monitor-levels including port)")
    times = sorted(df["time_us"].unique())
    steps = sorted(b - a for a, b in zip(times, times[1:]))
    interval = steps[len(steps) // 2] if steps else 1.0  # the sampling interval (the last
    # sample, at the run's end, may come sooner)
    port["tier"] = [next((i for i, (n, p, _) in enumerate(TIERS)
                          if kind(a) == n and kind(b) == p), -1)
                    for a, b in zip(port["node_name"], port["peer"])]
    port = port[port["tier"] >= 0]
    out = {}
    for metric in ("pause_ns", "pause_storm", "pfc_watchdog_storms"):
        rows = port[port["metric"] == metric]
        table = rows.pivot_table(index="time_us", columns="tier", values="value",
                                 aggfunc="sum").reindex(times).fillna(0)
        out[metric] = table
    out["pause_ns"] = out["pause_ns"] / (interval * 1000.0)
    out["interval"] = interval
    return out


def plot(paths, labels, out_dir, stem, formats):
    """One panel per CSV; returns the files written."""
    frames = [tiers(load(p)) for p in paths]
    fig, axes = style.figure("single", rows=len(paths), sharex=True,
                             height=1.9 * len(paths) + 0.6)
    axes = list(axes) if len(paths) > 1 else [axes]
    for ax, data, label in zip(axes, frames, labels):
        top = 0.0
        for t, (_, _, name) in enumerate(TIERS):
            if t in data["pause_ns"].columns:
                series = data["pause_ns"][t]
                ax.step(series.index, series.values, where="post", label=name,
                        **style.series(t))
                top = max(top, float(series.max()))
        for t in range(len(TIERS)):
            if t in data["pause_storm"].columns:
                on = data["pause_storm"][t] > 0
                spans = [(x, data["interval"]) for x in data["pause_storm"].index[on]]
                ax.broken_barh(spans, (-0.35 - 0.25 * t, 0.2),
                               color=style.series(t)["color"])
        for t in data["pfc_watchdog_storms"].columns:
            for x in data["pfc_watchdog_storms"].index[data["pfc_watchdog_storms"][t] > 0]:
                ax.axvline(x, color=style.series(t)["color"], linestyle="--", linewidth=0.8)
        ax.set_ylim(-0.4 - 0.25 * len(TIERS), max(top, 1.0) * 1.1)
        ax.set_ylabel("ports paused")
        ax.set_title(label, fontsize="small", loc="left")
    axes[-1].text(0.99, 0.02, "bars: paused past the storm threshold\n"
                  "dashed: PFC watchdog storm", transform=axes[-1].transAxes,
                  ha="right", va="bottom", fontsize="x-small")
    style.legend(axes[0], fontsize="x-small")
    axes[-1].set_xlabel(style.axis_label("time", "µs"))
    return style.save(fig, out_dir, stem, formats)


def selftest():
    """Plot a synthetic storm and check the figure and an input error."""
    rows = ["time_us,level,node,node_name,port,peer,priority,qp,metric,value"]
    for i in range(1, 40):
        t = 10.0 * i
        for name, port, peer, start in (("leaf0", 0, "gpu0", 2), ("spine0", 0, "leaf0", 5),
                                        ("leaf1", 2, "spine0", 8), ("gpu2", 0, "leaf1", 10)):
            on = start <= i < 30
            rows.append("%.3f,port,1,%s,%d,%s,3,,pause_ns,%d" % (t, name, port, peer,
                                                                 10000 if on else 0))
            rows.append("%.3f,port,1,%s,%d,%s,3,,pause_storm,%d" % (t, name, port, peer,
                                                                    1 if on and i > 20 else 0))
        if i == 30:
            rows.append("%.3f,port,1,leaf0,0,gpu0,3,,pfc_watchdog_storms,1" % t)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mon.csv")
        with open(path, "w") as f:
            f.write("\n".join(rows) + "\n")
        written = plot([path, path], ["a", "b"], tmp, "storm", ("png",))
        assert written and all(os.path.getsize(w) > 0 for w in written), written
        bad = os.path.join(tmp, "bad.csv")
        with open(bad, "w") as f:
            f.write(rows[0] + "\n1.000,node,1,leaf0,,,,,buffer_bytes,5\n")
        try:
            plot([bad], ["x"], tmp, "bad", ("png",))
            raise AssertionError("a file without port rows was accepted")
        except InputError as e:
            assert "no port rows" in str(e), e
    print("plot_pfc_storm selftest: ok")


def main(argv):
    parser = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    parser.add_argument("monitor", nargs="*", help="FabricMonitor CSVs, one panel each")
    parser.add_argument("--labels", nargs="+", help="panel titles (default: the file names)")
    parser.add_argument("--selftest", action="store_true", help="check the script and exit")
    args = parser.parse_args(argv)
    if args.selftest:
        selftest()
        return
    if not args.monitor:
        raise InputError("give at least one monitor CSV")
    formats, stem = common.parse_output(parser, args, args.monitor[0])
    out_dir = args.out
    labels = common.labels_for(args.monitor, args.labels)
    plot(args.monitor, labels, out_dir, stem if args.name else stem + "-pfc-storm", formats)


if __name__ == "__main__":
    common.run(lambda: main(sys.argv[1:]))
