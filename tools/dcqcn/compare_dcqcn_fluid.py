#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""DCQCN against its own theory: examples/dcqcn-incast (N long flows into one port) against the
fluid model of dcqcn_fluid.py, for every combination of --flows, --rates and --presets.

For each configuration it runs the simulation (or reuses <runs>/<preset>-<rate>g-n<N>-*.csv
with --reuse), integrates the model over the same time, and compares the means over the
converged window, the second half (--window) of the time every flow is active (until the
first one finishes): the queue (bytes), the per-flow DCQCN rate Rc (Gb/s on the wire) and the
bottleneck utilization (simulation: goodput x 4178/4096 over C; model: bits served over C).
Writes
  <out>/<stem>.csv            preset,rate_gbps,flows,quantity,sim,model,fixed_point,rel_diff
  <out>/<stem>-n<N>.pdf/png   per N: rate and queue over time, simulation against the model
  <out>/<stem>-summary        model against simulation for every configuration (+-10 % band)
and with --sweep, one parameter at a time around the firmware preset in the issue's incast
(400 Gb/s, 2 flows of --sweep-bytes, default 8 MiB: utilization = the time all bytes need at
line rate over the time they take, simulation and model):
  <out>/<stem>-sweep.csv, <out>/<stem>-sweep.pdf/png
Exits 1 with a message naming the file or value on bad input.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
import style  # noqa: E402  (first: Agg backend, re-runs under Debian's python3 if needed)
import common  # noqa: E402
from common import InputError  # noqa: E402
import dcqcn_fluid as fluid  # noqa: E402

EFFICIENCY = fluid.PAYLOAD_BYTES / fluid.WIRE_BYTES

# One-at-a-time sweep around the firmware preset (400 Gb/s, 2 flows): (label, unit, values,
# example options, model fields) with the value formatted into both.
SWEEP = [
    ("timer T", "µs", [25, 55, 100, 300, 600],
     ["--ns3::DcqcnCongestionOps::RateIncreaseTimer={}us"], {"increase_timer": 1e-6}),
    ("CNP interval", "µs", [1, 4, 10, 20, 50],  # = RateReduceMonitorPeriod
     ["--ns3::DcqcnNotificationPoint::CnpInterval={}us",
      "--ns3::DcqcnCongestionOps::RateReduceMonitorPeriod={}us"],
     {"cnp_interval": 1e-6, "reduce_monitor_period": 1e-6}),
    ("Kmin per 25 Gb/s", "KB", [5, 10, 25, 50, 100],
     ["--ns3::WredEcnMarker::Kmin={}KB", "--ns3::WredEcnMarker::Kmax={}KB@4"],
     {"kmin": 16e3, "kmax": 64e3}),
    ("alpha period K", "µs", [1, 4, 10, 55],
     ["--ns3::DcqcnCongestionOps::AlphaUpdatePeriod={}us"], {"alpha_period": 1e-6}),
    ("byte counter B", "KB", [512, 1024, 2097.152, 10000],
     ["--ns3::DcqcnCongestionOps::ByteCounter={:.0f}@1000"], {"byte_counter": 1e3}),
]


def parse_args(argv):
    """Command line options (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="example: compare_dcqcn_fluid.py --build build "
                                 "--runs out/dcqcn-fluid --out doc/figures --sweep")
    ap.add_argument("--build", default="build", help="build directory with examples/dcqcn-incast")
    ap.add_argument("--runs", default="dcqcn-fluid-runs", help="where simulation CSVs are kept")
    ap.add_argument("--reuse", action="store_true",
                    help="read existing simulation CSVs instead of running the example")
    ap.add_argument("--flows", type=int, nargs="+", default=[2, 8, 16])
    ap.add_argument("--rates", type=float, nargs="+", default=[40, 400], help="Gb/s")
    ap.add_argument("--presets", nargs="+", default=["paper", "firmware"],
                    choices=["paper", "firmware"])
    ap.add_argument("--duration", type=float, default=30.0,
                    help="bytes per flow = this many ms at the fair share (default 30)")
    ap.add_argument("--window", type=float, default=0.5,
                    help="converged window: this last fraction of the all-active time (0.5)")
    ap.add_argument("--show", type=float, default=3.0,
                    help="ms of trajectory shown in the overlays (end of the window; default 3)")
    ap.add_argument("--sweep", action="store_true", help="also the one-parameter sweep")
    ap.add_argument("--sweep-bytes", type=int, default=8 << 20,
                    help="bytes per flow in the sweep (default 8 MiB, as dcqcn-incast)")
    ap.add_argument("--out", default=".", help="output directory (CSV and figures)")
    ap.add_argument("--name", default="dcqcn-fluid", help="file stem (default dcqcn-fluid)")
    ap.add_argument("--format", default="pdf,png", help="figure formats (default pdf,png)")
    args = ap.parse_args(argv)
    for name in ("flows", "rates"):
        for v in getattr(args, name):
            if v <= 0:
                raise InputError(f"--{name} {v} is invalid; valid range: > 0")
    if not 0 < args.window <= 1:
        raise InputError(f"--window {args.window} is invalid; valid range: (0, 1]")
    if args.duration <= 0 or args.show <= 0:
        raise InputError("--duration and --show must be > 0 ms")
    args.format = common_formats(args.format)
    return args


def common_formats(text):
    """Figure formats from 'pdf,png' (InputError naming an unknown one)."""
    try:
        return style.parse_formats(text)
    except ValueError as err:
        raise InputError(str(err))


def run_sim(args, prefix, preset, rate_gbps, flows, extra=(), nbytes=None):
    """Run examples/dcqcn-incast for one configuration into `prefix` (unless --reuse and its
    files exist); each flow sends `nbytes`, default the bytes of --duration ms at its fair
    share."""
    if args.reuse and os.path.exists(prefix + "-summary.csv"):
        return
    exe = os.path.join(args.build, "examples", "dcqcn-incast")
    if not os.access(exe, os.X_OK):
        raise InputError(f"{exe}: not built (cmake --build {args.build} --target dcqcn-incast)")
    nbytes = nbytes or int(rate_gbps * 1e9 / flows * args.duration * 1e-3 / 8)
    sample = 5 if rate_gbps >= 100 else 20
    cmd = [exe, f"--senders={flows}", f"--bytes={nbytes}", f"--rate={rate_gbps:g}Gbps",
           f"--preset={preset}", f"--prefix={prefix}", "--trace-rates=true",
           f"--sample={sample}us", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise InputError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-400:]}")


def load_sim(prefix):
    """The simulation's rates, queue and summary tables of one run (InputError on bad files)."""
    rates = common.read_csv(prefix + "-rates.csv", ["time_us", "flow", "rate_gbps",
                                                    "mean_rate_gbps", "goodput_gbps"],
                            integer=["flow"])
    queue = common.read_csv(prefix + "-queue.csv", ["time_us", "queue_bytes"])
    summary = common.read_csv(prefix + "-summary.csv", ["senders", "fct_min_us"])
    return rates, queue, summary.iloc[0]


def window_of(summary, frac):
    """(t0, t1) in µs: the last `frac` of the time every flow is active."""
    t1 = 0.98 * float(summary["fct_min_us"])
    return t1 * (1 - frac), t1


def sim_metrics(rates, queue, t0, t1, capacity_gbps):
    """Mean queue (bytes), per-flow rate Rc (Gb/s), utilization and Jain's index of the
    per-flow goodput in [t0, t1] µs."""
    r = rates[(rates.time_us > t0) & (rates.time_us <= t1)]
    q = queue[(queue.time_us > t0) & (queue.time_us <= t1)]
    per_flow = r.groupby("flow")["goodput_gbps"].mean()
    jain = per_flow.sum() ** 2 / (len(per_flow) * (per_flow ** 2).sum())
    util = r.groupby("time_us")["goodput_gbps"].sum().mean() / EFFICIENCY / capacity_gbps
    return dict(queue_bytes=q.queue_bytes.mean(), rate_gbps=r.mean_rate_gbps.mean(),
                utilization=util, jain=jain)


def model_run(params, t1_us):
    """Integrate the model to t1 µs (trajectory sampled every µs)."""
    return fluid.integrate(params, t1_us * 1e-6, record_every=1e-6)


def model_metrics(tr, t0, t1, capacity):
    """Mean queue (bytes), per-flow rate (Gb/s) and utilization of a trajectory in [t0, t1] µs."""
    idx = [i for i, t in enumerate(tr["time"]) if t0 < t * 1e6 <= t1]
    mean = lambda key: sum(tr[key][i] for i in idx) / len(idx)  # noqa: E731
    return dict(queue_bytes=mean("queue"), rate_gbps=mean("rc") / 1e9,
                utilization=mean("served") / capacity)


def compare(args):
    """Run every configuration; return the tidy rows and the data for the overlays."""
    rows, traces = [], {}
    os.makedirs(args.runs, exist_ok=True)
    for preset in args.presets:
        for rate in args.rates:
            for n in args.flows:
                prefix = os.path.join(args.runs, f"{preset}-{rate:g}g-n{n}")
                run_sim(args, prefix, preset, rate, n)
                rates, queue, summary = load_sim(prefix)
                t0, t1 = window_of(summary, args.window)
                sim = sim_metrics(rates, queue, t0, t1, rate)
                params = fluid.preset(preset, rate * 1e9, flows=n)
                tr = model_run(params, t1)
                mod = model_metrics(tr, t0, t1, rate * 1e9)
                try:
                    fp = fluid.solve_fixed_point(params)
                    fixed = dict(queue_bytes=fp["queue"], rate_gbps=fp["rc"] / 1e9,
                                 utilization=1.0)
                except ValueError:
                    fixed = dict(queue_bytes=float("nan"), rate_gbps=float("nan"),
                                 utilization=float("nan"))
                for qty in ("queue_bytes", "rate_gbps", "utilization"):
                    rows.append(dict(preset=preset, rate_gbps=rate, flows=n, quantity=qty,
                                     sim=sim[qty], model=mod[qty], fixed_point=fixed[qty],
                                     rel_diff=(mod[qty] - sim[qty]) / sim[qty]
                                     if sim[qty] else float("nan")))
                rows.append(dict(preset=preset, rate_gbps=rate, flows=n, quantity="jain",
                                 sim=sim["jain"], model=1.0, fixed_point=1.0,
                                 rel_diff=(1.0 - sim["jain"]) / sim["jain"]))
                traces[(preset, rate, n)] = (rates, queue, tr, t0, t1)
                print(f"{preset:8s} {rate:5g} Gb/s N={n:2d}: queue sim {sim['queue_bytes'] / 1e3:8.1f}"
                      f" model {mod['queue_bytes'] / 1e3:8.1f} KB, rate sim {sim['rate_gbps']:7.2f}"
                      f" model {mod['rate_gbps']:7.2f} Gb/s, util sim {sim['utilization']:.3f}"
                      f" model {mod['utilization']:.3f}")
    return rows, traces


def write_csv(path, rows, keys):
    """Write `rows` (dicts) with columns `keys` to `path`."""
    with open(path, "w") as f:
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(f"{r[k]:.6g}" if isinstance(r[k], float) else str(r[k])
                             for k in keys) + "\n")
    print(f"wrote {path}")


def plot_overlays(args, traces):
    """Per N: a 2 x (presets x rates) grid, per-flow rate (top) and queue (bottom) over the last
    --show ms of the window, simulation (every flow, thin) against the model (dashed)."""
    for n in args.flows:
        keys = [(p, r) for p in args.presets for r in args.rates]
        fig, axes = style.figure("double", rows=2, cols=len(keys), height=3.2)
        axes = axes if isinstance(axes, list) else [axes]
        for col, (preset, rate) in enumerate(keys):
            rates, queue, tr, t0, t1 = traces[(preset, rate, n)]
            lo = max(t0, t1 - args.show * 1e3)
            ax_r, ax_q = axes[col], axes[len(keys) + col]
            r = rates[(rates.time_us > lo) & (rates.time_us <= t1)]
            for i, (_, flow) in enumerate(r.groupby("flow")):
                ax_r.plot((flow.time_us - lo) / 1e3, flow.mean_rate_gbps, lw=0.5, alpha=0.6,
                          color=style.COLORS[0], label="simulation (each flow)" if i == 0 else None)
            q = queue[(queue.time_us > lo) & (queue.time_us <= t1)]
            ax_q.plot((q.time_us - lo) / 1e3, q.queue_bytes / 1e6, lw=0.6, color=style.COLORS[0])
            tm = [t * 1e3 - lo / 1e3 for t in tr["time"]]
            sel = [i for i, t in enumerate(tr["time"]) if lo < t * 1e6 <= t1]
            ax_r.plot([tm[i] for i in sel], [tr["rc"][i] / 1e9 for i in sel], ls="--",
                      color=style.COLORS[1], label="fluid model")
            ax_q.plot([tm[i] for i in sel], [tr["queue"][i] / 1e6 for i in sel], ls="--",
                      color=style.COLORS[1])
            ax_r.axhline(rate / n, **style.reference_line(), ls=":", label="fair share")
            ax_r.set_title(f"{preset}, {rate:g} Gb/s, N = {n}")
            ax_r.set_ylim(bottom=0)
            ax_q.set_ylim(bottom=0)
            ax_q.set_xlabel(style.axis_label("time", "ms"))
            if col == 0:
                ax_r.set_ylabel(style.axis_label("rate per flow", "Gb/s"))
                ax_q.set_ylabel(style.axis_label("queue", "MB"))
        style.legend(axes[0], loc="lower left")
        style.save(fig, args.out, f"{args.name}-n{n}", args.format)


def plot_summary(args, rows):
    """Model against simulation, one point per configuration, for the queue, the per-flow rate
    (over the fair share) and the utilization, with the 1:1 line and a +-10 % band."""
    fig, axes = style.figure("double", rows=1, cols=3, height=2.3)
    specs = [("queue_bytes", "mean queue", "MB", 1e6), ("rate_gbps", "rate / fair share", "1",
                                                         None), ("utilization", "utilization", "1", 1)]
    markers = {"paper": "o", "firmware": "s"}
    for ax, (qty, label, unit, scale) in zip(axes, specs):
        pts = [r for r in rows if r["quantity"] == qty]
        for i, rate in enumerate(args.rates):
            for preset in args.presets:
                sel = [r for r in pts if r["rate_gbps"] == rate and r["preset"] == preset]
                div = [(scale or r["rate_gbps"] / r["flows"]) for r in sel]
                ax.scatter([r["sim"] / d for r, d in zip(sel, div)],
                           [r["model"] / d for r, d in zip(sel, div)], marker=markers[preset],
                           color=style.COLORS[i], s=14, label=f"{preset}, {rate:g} Gb/s")
        lim = ax.get_xlim()[1] * 1.05, ax.get_ylim()[1] * 1.05
        top = max(lim)
        ax.plot([0, top], [0, top], **style.reference_line())
        ax.fill_between([0, top], [0, 0.9 * top], [0, 1.1 * top], color="0.9", zorder=0,
                        label="±10 %")
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel(style.axis_label(f"simulation: {label}", unit))
        ax.set_ylabel(style.axis_label(f"model: {label}", unit))
    handles, labels = axes[0].get_legend_handles_labels()
    style.figure_legend(fig, handles, labels, ncol=5)
    style.save(fig, args.out, f"{args.name}-summary", args.format)


def model_completion_utilization(params, total_bytes):
    """Line-rate time of `total_bytes` payload (their wire bits over C) over the time the model
    takes to serve them (integrating up to 50 times the line-rate time)."""
    ideal = total_bytes * 8 / EFFICIENCY / params.capacity
    tr = fluid.integrate(params, 50 * ideal, record_every=ideal / 1000)
    served, step = 0.0, tr["time"][1] - tr["time"][0]
    for t, s in zip(tr["time"], tr["served"]):
        served += s * step
        if served >= total_bytes * 8 / EFFICIENCY:
            return ideal / t
    return ideal / tr["time"][-1]


def sweep(args):
    """One parameter at a time around the firmware preset, 400 Gb/s, 2 flows of --sweep-bytes:
    completion-time utilization in the simulation and in the model. Returns the rows."""
    rows = []
    for label, unit, values, options, fields in SWEEP:
        for v in values:
            extra = [o.split("@")[0].format(v * int(o.split("@")[1]) if "@" in o else v)
                     for o in options]
            tag = label.split()[0].lower()
            prefix = os.path.join(args.runs, f"sweep-{tag}-{v:g}")
            run_sim(args, prefix, "firmware", 400, 2, extra, nbytes=args.sweep_bytes)
            _, _, summary = load_sim(prefix)
            ideal_us = 2 * args.sweep_bytes * 8 / EFFICIENCY / 400e9 * 1e6
            sim = ideal_us / float(summary["fct_max_us"])
            params = fluid.preset("firmware", 400e9, flows=2)
            for field, unit_scale in fields.items():
                setattr(params, field, v * unit_scale)
            mod = model_completion_utilization(params, 2 * args.sweep_bytes)
            rows.append(dict(parameter=label, unit=unit, value=v, sim=sim, model=mod))
            print(f"sweep {label} = {v:g} {unit}: utilization sim {sim:.3f} model {mod:.3f}")
    fig, axes = style.figure("double", rows=1, cols=len(SWEEP), height=2.0, sharey=True)
    for ax, (label, unit, values, _, _) in zip(axes, SWEEP):
        sel = [r for r in rows if r["parameter"] == label]
        ax.plot([r["value"] for r in sel], [r["sim"] for r in sel], marker="o",
                color=style.COLORS[0], label="simulation")
        ax.plot([r["value"] for r in sel], [r["model"] for r in sel], marker="s", ls="--",
                color=style.COLORS[1], label="fluid model")
        default = {"timer T": 300, "CNP interval": 4, "Kmin per 25 Gb/s": 100,
                   "alpha period K": 1, "byte counter B": 2097.152}[label]
        ax.axvline(default, ls=":", **style.reference_line())
        ax.set_xscale("log")
        ax.set_xlabel(style.axis_label(label, unit))
        ax.set_ylim(0, 1.05)
    axes[0].set_ylabel(style.axis_label("utilization", "1"))
    style.legend(axes[0], loc="lower left")
    style.save(fig, args.out, f"{args.name}-sweep", args.format)
    return rows


def main():
    """Entry point (errors end in common.run's one-line message and exit 1)."""
    args = parse_args(sys.argv[1:])
    os.makedirs(args.out, exist_ok=True)
    rows, traces = compare(args)
    write_csv(os.path.join(args.out, f"{args.name}.csv"), rows,
              ["preset", "rate_gbps", "flows", "quantity", "sim", "model", "fixed_point",
               "rel_diff"])
    plot_overlays(args, traces)
    plot_summary(args, rows)
    if args.sweep:
        write_csv(os.path.join(args.out, f"{args.name}-sweep.csv"), sweep(args),
                  ["parameter", "unit", "value", "sim", "model"])


if __name__ == "__main__":
    common.run(main)
