#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the outputs of examples/switch-incast.cc.

Reads <prefix>-flows.csv (sender,src_ip,bytes,start_us,fct_us) and <prefix>-switch.csv
(SwitchCsvMonitor rows: time_us,node,port,priority,queue_bytes,tx_bytes,pfc_xoff_tx,
pfc_pause_rx,ecn_marks,drops) of one or more runs and writes, overlaying the runs:

  <stem>-fct     flow completion time per sender (bars) or its CDF
  <stem>-queue   egress queue depth (MB) over time (µs)
  <stem>-pfc     cumulative PFC pause frames sent by the switch over time, plus cumulative
                 drops in a second panel when a run dropped packets

SwitchCsvMonitor writes a row only when it has something to say (queue non-empty or a counter
moved), so the series are rebuilt on the sampling grid: a missing row means queue 0 and
counters unchanged. The egress port is the one that transmitted the most bytes (--port to
choose another); queue depth sums the priorities present in the file (--priority to pick one).
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import numpy as np
from common import InputError

FLOWS = "flows"
SWITCH = "switch"
SWITCH_COUNTERS = ["tx_bytes", "pfc_xoff_tx", "pfc_pause_rx", "ecn_marks", "drops"]
SWITCH_COLUMNS = ["time_us", "node", "port", "priority", "queue_bytes"] + SWITCH_COUNTERS

EPILOG = """examples:
  plot_switch_incast.py out/switch-incast --out figs
  plot_switch_incast.py lossless lossy --labels "lossless (PFC)" "lossy" --out figs"""


class Run:
    """One simulation run: its flows and rebuilt switch time series."""

    def __init__(self, prefix, label):
        self.prefix = prefix
        self.label = label
        self.flows_path = prefix + "-" + FLOWS + ".csv"
        self.switch_path = prefix + "-" + SWITCH + ".csv"
        self.flows = common.read_csv(self.flows_path, ["sender", "bytes", "start_us", "fct_us"],
                                     integer=["sender", "bytes"], text=["src_ip"])
        common.nonnegative(self.flows, self.flows_path, ["sender", "bytes", "start_us"])
        self.switch = common.read_csv(self.switch_path, SWITCH_COLUMNS,
                                      integer=SWITCH_COLUMNS[1:])
        common.nonnegative(self.switch, self.switch_path, SWITCH_COLUMNS)


def sample_grid(times):
    """The monitor's sampling instants: a regular grid from the first to the last row's time
    at the smallest spacing seen, or the rows' own times if they are not on such a grid."""
    t = np.unique(times)
    if len(t) < 2:
        return t
    dt = np.diff(t).min()
    k = np.round((t - t[0]) / dt)
    if np.abs(t - t[0] - k * dt).max() > 1e-3 * dt or k.max() > 10_000_000:
        return t
    return t[0] + np.arange(int(k.max()) + 1) * dt


def grid_index(grid, times):
    """Index of the grid point nearest to each time."""
    i = np.clip(np.searchsorted(grid, times), 1, len(grid) - 1) if len(grid) > 1 else None
    if i is None:
        return np.zeros(len(times), dtype=int)
    left = grid[i - 1]
    return np.where(np.abs(times - left) <= np.abs(grid[i] - times), i - 1, i)


def gauge(grid, rows, column):
    """Sum of an instantaneous column over the given rows, 0 where no row was written."""
    out = np.zeros(len(grid))
    np.add.at(out, grid_index(grid, rows["time_us"].to_numpy()), rows[column].to_numpy())
    return out


def cumulative(grid, rows, column, keys):
    """Sum over ``keys`` groups of a cumulative column, held between rows (0 before the first)."""
    total = np.zeros(len(grid))
    for _, g in rows.groupby(keys if len(keys) > 1 else keys[0]):
        series = np.full(len(grid), np.nan)
        series[grid_index(grid, g["time_us"].to_numpy())] = g[column].to_numpy()
        # forward fill, 0 before the first row
        idx = np.where(np.isnan(series), 0, np.arange(len(grid)))
        np.maximum.accumulate(idx, out=idx)
        filled = series[idx]
        filled[np.isnan(filled)] = 0
        total += filled
    return total


def pick_egress(run, node, port, priority):
    """(node, port) of the egress: the requested one, or the port with the most bytes sent."""
    sw = run.switch
    if priority is not None:
        sw = sw[sw["priority"] == priority]
        if sw.empty:
            raise InputError("%s: no rows for --priority %d (priorities present: %s)"
                             % (run.switch_path, priority,
                                ",".join(map(str, sorted(run.switch["priority"].unique())))))
    if node is not None:
        if not (sw["node"] == node).any():
            raise InputError("%s: no rows for --node %d (nodes present: %s)"
                             % (run.switch_path, node,
                                ",".join(map(str, sorted(sw["node"].unique())))))
        sw = sw[sw["node"] == node]
    if port is not None:
        if not (sw["port"] == port).any():
            raise InputError("%s: no rows for --port %d (ports present: %s)"
                             % (run.switch_path, port,
                                ",".join(map(str, sorted(sw["port"].unique())))))
        sw = sw[sw["port"] == port]
    sent = sw.groupby(["node", "port", "priority"])["tx_bytes"].max().groupby(
        level=["node", "port"]).sum()
    best = sent.idxmax()
    return int(best[0]), int(best[1]), sw


def prepare(run, args):
    """Attach the time series of the run: t, queue (bytes), pauses, drops."""
    node, port, sw = pick_egress(run, args.node, args.port, args.priority)
    run.egress = (node, port)
    run.t = sample_grid(run.switch["time_us"].to_numpy())
    egress_rows = sw[(sw["node"] == node) & (sw["port"] == port)]
    run.queue = gauge(run.t, egress_rows, "queue_bytes")
    scoped = run.switch if args.priority is None else run.switch[
        run.switch["priority"] == args.priority]
    run.pauses = cumulative(run.t, scoped, "pfc_xoff_tx", ["node", "port", "priority"])
    # drops: whole-switch counter repeated on each row of that switch -> one series per node
    per_node = run.switch.groupby(["node", "time_us"], as_index=False)["drops"].max()
    run.drops = cumulative(run.t, per_node, "drops", ["node"])
    print("%s: egress node %d port %d, peak queue %.3f MB, %d pause frames, %d drops"
          % (run.label, node, port, run.queue.max() / 1e6, run.pauses[-1], run.drops[-1]))


def plot_fct(runs, mode, out, stem, formats):
    if mode == "auto":
        mode = "bar" if max(len(r.flows) for r in runs) <= 32 else "cdf"
    fig, ax = style.figure("single")
    width = 0.8 / len(runs)
    for i, r in enumerate(runs):
        f = r.flows.sort_values("sender")
        done = f[f["fct_us"] > 0]
        if len(done) < len(f):
            print("note: %s: %d sender(s) with fct_us <= 0 (nothing delivered) left out"
                  % (r.flows_path, len(f) - len(done)))
        if mode == "bar":
            x = done["sender"].to_numpy() + (i - (len(runs) - 1) / 2) * width
            ax.bar(x, done["fct_us"], width=width, label=r.label, **style.bar_style(i))
        else:
            v = np.sort(done["fct_us"].to_numpy())
            y = np.arange(1, len(v) + 1) / len(v)
            ax.step(np.concatenate([[v[0]], v]) if len(v) else v,
                    np.concatenate([[0], y]) if len(v) else y,
                    where="post", label=r.label, **style.series(i))
    if mode == "bar":
        senders = sorted(set().union(*(set(r.flows["sender"]) for r in runs)))
        step = max(1, int(np.ceil(len(senders) / 16)))
        ax.set_xticks(senders[::step])
        ax.set_xlabel(style.category_label("Sender"))
        ax.set_ylabel(style.axis_label("Flow completion time", "µs"))
        ax.grid(axis="x", visible=False)
        if len(runs) > 1:
            style.legend(ax, above=True)
    else:
        ax.set_xlabel(style.axis_label("Flow completion time", "µs"))
        ax.set_ylabel(style.axis_label("CDF of senders", "fraction"))
        ax.set_ylim(0, 1.02)
        if len(runs) > 1:
            style.legend(ax, above=True)
    style.save(fig, out, stem + "-fct", formats)


def plot_queue(runs, unit, out, stem, formats):
    scale, bunit = style.bytes_scale(max(r.queue.max() for r in runs), unit)
    fig, ax = style.figure("single")
    for i, r in enumerate(runs):
        ax.plot(r.t, r.queue / scale, label=r.label, **style.series(i))
    ax.set_xlabel(style.axis_label("Time", "µs"))
    ax.set_ylabel(style.axis_label("Egress queue depth", bunit))
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    if len(runs) > 1:
        style.legend(ax, above=True)
    style.save(fig, out, stem + "-queue", formats)


def plot_pfc(runs, out, stem, formats):
    with_drops = any(r.drops.max() > 0 for r in runs)
    fig, axes = style.figure("single", rows=2 if with_drops else 1, sharex=True)
    ax = axes[0] if with_drops else axes
    for i, r in enumerate(runs):
        ax.plot(r.t, r.pauses, label=r.label, **style.series(i))
    ax.set_ylabel(style.axis_label("Cum. PFC pauses", "frames"))
    style.count_axis(ax)
    ax.set_xlim(left=0)
    if len(runs) > 1:
        style.legend(ax, above=True)
    if with_drops:
        dax = axes[1]
        for i, r in enumerate(runs):
            dax.plot(r.t, r.drops, label=r.label, **style.series(i))
        dax.set_ylabel(style.axis_label("Cum. drops", "packets"))
        style.count_axis(dax)
        ax = dax
    ax.set_xlabel(style.axis_label("Time", "µs"))
    style.save(fig, out, stem + "-pfc", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("prefix", nargs="+",
                   help="output prefix of a run (e.g. out/switch-incast) or the path of its "
                        "-flows.csv or -switch.csv; give two to overlay e.g. lossless and lossy")
    p.add_argument("--labels", nargs="+", metavar="LABEL",
                   help="legend label per prefix (default: the prefixes' base names)")
    p.add_argument("--fct", choices=["auto", "bar", "cdf"], default="auto",
                   help="FCT plot: bars per sender, CDF, or auto (bars up to 32 senders)")
    p.add_argument("--node", type=int, help="switch node id of the egress port (default: auto)")
    p.add_argument("--port", type=int, help="egress port index (default: most bytes sent)")
    p.add_argument("--priority", type=int, choices=range(8), metavar="0-7",
                   help="only this priority (default: all priorities in the file)")
    p.add_argument("--queue-unit", choices=["B", "KB", "MB"], default="MB",
                   help="unit of the queue axis (default: MB)")
    args = p.parse_args()
    prefixes = [common.strip_suffix(a, [FLOWS, SWITCH]) for a in args.prefix]
    formats, stem = common.parse_output(p, args, prefixes[0])
    labels = common.labels_for(prefixes, args.labels)
    runs = [Run(pf, lb) for pf, lb in zip(prefixes, labels)]
    for r in runs:
        prepare(r, args)
    plot_fct(runs, args.fct, args.out, stem, formats)
    plot_queue(runs, args.queue_unit, args.out, stem, formats)
    plot_pfc(runs, args.out, stem, formats)


if __name__ == "__main__":
    common.run(main)
