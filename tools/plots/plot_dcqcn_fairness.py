#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the outputs of examples/dcqcn-fairness.cc.

Reads <prefix>-rates.csv (time_us,flow,cc_rate_gbps,goodput_gbps,alpha) and <prefix>-queue.csv
(time_us,queue_bytes,pfc_pauses,ecn_marks) and writes:

  <stem>-goodput  per-flow goodput (Gb/s) over time (ms) with the fair-share step line
  <stem>-rate     per-flow DCQCN sending rate (Gb/s) over time (ms) with the fair share
  <stem>-queue    bottleneck queue over time with the ECN thresholds (--kmin/--kmax), and the
                  cumulative ECN marks and PFC pause frames below it

The fair share follows the example's schedule: flow i starts at i x join and stops at
(2N - 1 - i) x join, so N flows give 2N - 1 phases; join is inferred from the last sample
(= (2N - 1) x join) unless --join is given. The goodput fair share is line rate x efficiency
(default 4096/4178, a 4096-byte RoCE payload in a 4178-byte wire frame) / active flows, the
rate fair share line rate / active flows; the line rate is the largest cc_rate_gbps (DCQCN and
cc=none both start at line rate) unless --line-rate is given. Each flow is drawn from its first
to its last sample with goodput (flows drain posted messages after their stop time); --all
draws every sample.
"""

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import numpy as np
from common import InputError

RATES = "rates"
QUEUE = "queue"
EFFICIENCY = 4096.0 / 4178.0

EPILOG = """examples:
  plot_dcqcn_fairness.py out/dcqcn-fairness --out figs
  plot_dcqcn_fairness.py out/dcqcn-fairness --kmin 1.6MB --kmax 6.4MB --out figs"""


def load(prefix):
    rates_path = prefix + "-" + RATES + ".csv"
    queue_path = prefix + "-" + QUEUE + ".csv"
    rates = common.read_csv(rates_path, ["time_us", "flow", "cc_rate_gbps", "goodput_gbps",
                                         "alpha"], integer=["flow"])
    common.nonnegative(rates, rates_path, ["time_us", "flow", "cc_rate_gbps", "goodput_gbps"])
    queue = common.read_csv(queue_path, ["time_us", "queue_bytes", "pfc_pauses", "ecn_marks"],
                            integer=["queue_bytes", "pfc_pauses", "ecn_marks"])
    common.nonnegative(queue, queue_path, ["time_us", "queue_bytes", "pfc_pauses", "ecn_marks"])
    flows = sorted(rates["flow"].unique())
    if flows != list(range(len(flows))):
        raise InputError("%s: column 'flow' holds %s, expected 0..N-1"
                         % (rates_path, ",".join(map(str, flows))))
    counts = rates.groupby("time_us")["flow"].nunique()
    if (counts != len(flows)).any():
        t = counts.index[(counts != len(flows)).to_numpy().nonzero()[0][0]]
        raise InputError("%s: time_us %g has %d flow rows, expected one per flow (%d)"
                         % (rates_path, t, counts[t], len(flows)))
    return rates_path, rates, queue_path, queue, len(flows)


def schedule(rates, n, join_us):
    """(join_us, phase boundaries in µs, active flows per phase)."""
    t_last = rates["time_us"].max()
    if join_us is None:
        join_us = t_last / (2 * n - 1)
        print("join interval %.6g µs inferred from the last sample at %.6g µs and %d flows "
              "(--join to override)" % (join_us, t_last, n))
        # sanity check against the data: flow i must not deliver before i x join
        for i in range(1, n):
            g = rates[(rates["flow"] == i) & (rates["goodput_gbps"] > 0)]
            if not g.empty and g["time_us"].min() < i * join_us * 0.9:
                print("warning: flow %d delivers at %.6g µs, before its inferred start %.6g µs;"
                      " pass --join" % (i, g["time_us"].min(), i * join_us))
                break
    bounds = np.arange(2 * n) * join_us
    active = np.array([p + 1 if p < n else 2 * n - 1 - p for p in range(2 * n - 1)])
    return join_us, bounds, active


def flow_series(rates, flow, column, keep_all, smooth):
    f = rates[rates["flow"] == flow].sort_values("time_us")
    t = f["time_us"].to_numpy()
    v = f[column].to_numpy(dtype=float)
    if smooth > 1:
        v = f[column].rolling(smooth, center=True, min_periods=1).mean().to_numpy()
    if not keep_all:
        busy = (f["goodput_gbps"] > 0).to_numpy().nonzero()[0]
        if len(busy) == 0:
            return t[:0], v[:0]
        sl = slice(max(busy[0] - 1, 0), busy[-1] + 1)  # from the sample before the first data
        t, v = t[sl], v[sl]
    return t, v


def step_line(ax, bounds, values, scale, label):
    """Fair-share step: values[p] over [bounds[p], bounds[p+1])."""
    x = bounds / scale
    y = np.append(values, values[-1])
    ax.step(x, y, where="post", label=label, zorder=5, **style.reference_line(),
            linestyle=(0, (4, 2)))


def plot_flows(rates, n, column, ylabel, fair, bounds, tdiv, tunit, args, suffix, formats,
               stem):
    fig, ax = style.figure("double")
    for i in range(n):
        t, v = flow_series(rates, i, column, args.all, args.smooth)
        ax.plot(t / tdiv, v, label="Flow %d" % i, **style.series(i))
    step_line(ax, bounds, fair, tdiv, "Fair share")
    ax.set_xlabel(style.axis_label("Time", tunit))
    ax.set_ylabel(style.axis_label(ylabel, "Gb/s"))
    ax.set_xlim(0, bounds[-1] / tdiv)
    ax.set_ylim(bottom=0)
    style.legend(ax, above=True, ncol=min(n + 1, 9))
    style.save(fig, args.out, stem + "-" + suffix, formats)


def plot_queue(queue, bounds, tdiv, tunit, args, formats, stem):
    q = queue.sort_values("time_us")
    top = max([q["queue_bytes"].max()] + [k for k in (args.kmin, args.kmax) if k is not None])
    bdiv, bunit = style.bytes_scale(top, None if args.queue_unit == "auto" else args.queue_unit)
    fig, (ax, cax) = style.figure("double", rows=2, sharex=True)
    t = q["time_us"].to_numpy() / tdiv
    ax.plot(t, q["queue_bytes"] / bdiv, label="Queue", **style.series(0))
    dashes = {"kmin": (0, (4, 2)), "kmax": (0, (1, 1.5))}
    for key, name in (("kmin", r"$K_\mathrm{min}$"), ("kmax", r"$K_\mathrm{max}$")):
        k = getattr(args, key)
        if k is not None:
            ax.axhline(k / bdiv, label="%s = %g %s" % (name, k / bdiv, bunit),
                       **style.reference_line(), linestyle=dashes[key])
    ax.set_ylabel(style.axis_label("Queue", bunit))
    ax.set_ylim(bottom=0)
    if args.kmin is not None or args.kmax is not None:
        style.legend(ax, above=True)
    cax.plot(t, q["ecn_marks"], label="ECN marks", **style.series(1))
    cax.plot(t, q["pfc_pauses"], label="PFC pauses", **style.series(2))
    cax.set_ylabel(style.axis_label("Cumulative", "count"))
    style.count_axis(cax)
    cax.set_xlabel(style.axis_label("Time", tunit))
    cax.set_xlim(0, max(bounds[-1], q["time_us"].max()) / tdiv)
    style.legend(cax, loc="upper left")
    style.save(fig, args.out, stem + "-queue", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("prefix", help="output prefix of a run (e.g. out/dcqcn-fairness) or the path "
                                  "of its -rates.csv or -queue.csv")
    p.add_argument("--kmin", type=common.parse_bytes, metavar="BYTES",
                   help="ECN Kmin to draw on the queue plot, bytes (also 400KB, 1.6MB)")
    p.add_argument("--kmax", type=common.parse_bytes, metavar="BYTES",
                   help="ECN Kmax to draw on the queue plot, bytes (also 400KB, 1.6MB)")
    p.add_argument("--join", type=float, metavar="US",
                   help="interval between flow arrivals, µs (default: inferred)")
    p.add_argument("--line-rate", type=float, metavar="GBPS",
                   help="link rate, Gb/s (default: largest cc_rate_gbps)")
    p.add_argument("--efficiency", type=float, default=EFFICIENCY, metavar="F",
                   help="goodput / line rate at saturation (default 4096/4178 = %.4f)"
                        % EFFICIENCY)
    p.add_argument("--smooth", type=int, default=1, metavar="N",
                   help="centred moving average over N samples (default 1: raw samples)")
    p.add_argument("--all", action="store_true",
                   help="draw every sample, also before a flow starts and after it drains")
    p.add_argument("--time-unit", choices=["us", "ms"], default="ms",
                   help="time axis unit (default: ms)")
    p.add_argument("--queue-unit", choices=["auto", "B", "KB", "MB"], default="auto",
                   help="queue axis unit (default: KB below 1 MB, else MB)")
    args = p.parse_args()
    if args.smooth < 1:
        p.error("--smooth must be >= 1")
    if args.join is not None and args.join <= 0:
        p.error("--join must be > 0")
    if args.line_rate is not None and args.line_rate <= 0:
        p.error("--line-rate must be > 0")
    if not 0 < args.efficiency <= 1:
        p.error("--efficiency must be in (0, 1]")
    if args.kmin is not None and args.kmax is not None and args.kmin > args.kmax:
        p.error("--kmin (%.0f B) is above --kmax (%.0f B)" % (args.kmin, args.kmax))
    prefix = common.strip_suffix(args.prefix, [RATES, QUEUE])
    formats, stem = common.parse_output(p, args, prefix)

    _, rates, _, queue, n = load(prefix)
    line = args.line_rate or rates["cc_rate_gbps"].max()
    if line <= 0:
        raise InputError("%s-%s.csv: cc_rate_gbps is 0 everywhere; pass --line-rate"
                         % (prefix, RATES))
    join_us, bounds, active = schedule(rates, n, args.join)
    tdiv, tunit = style.time_scale(0, args.time_unit)

    plot_flows(rates, n, "goodput_gbps", "Goodput", line * args.efficiency / active, bounds,
               tdiv, tunit, args, "goodput", formats, stem)
    rate_name = "DCQCN rate" if (rates["alpha"] > 0).any() else "Sending rate"
    plot_flows(rates, n, "cc_rate_gbps", rate_name, line / active, bounds, tdiv, tunit,
               args, "rate", formats, stem)
    plot_queue(queue, bounds, tdiv, tunit, args, formats, stem)


if __name__ == "__main__":
    common.run(main)
