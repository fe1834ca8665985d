#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the outputs of examples/rail-allreduce.cc (the main job).

Reads <prefix>-results.csv (op,bytes,ranks,time_us,algbw_GBps,busbw_GBps,measured_busbw_GBps,
algorithm,protocol,channels,nccl_predicted_us)
and <prefix>-fabric.csv (bytes,element,utilization,active_utilization,max_queue_bytes,pfc_pauses,ecn_marks,drops),
and, when the run was given --plot-data, <prefix>-config.csv (key,value: configuration and the
NIC bottleneck) and <prefix>-links.csv (bytes,direction,ports,active_ports,active_utilization,
max_utilization). Writes:

  <stem>-busbw    bus bandwidth vs message size (log x): simulated, the analytical NIC
                  bottleneck (with --plot-data) and, when the run was given --measured, the
                  real nccl-tests log, labelled with the cluster it was measured on
  <stem>-time     completion time vs message size (log-log)
  <stem>-fabric   per message size: link utilization per direction over the ports that carried
                  traffic (with --plot-data; else the mean over all ports of the busiest rail,
                  spine or NVSwitch group), and the maximum egress queue, PFC pause frames, ECN
                  marks and drops per tier, each panel only if some value is not zero
"""

import os

import style  # first: selects the Agg backend and checks matplotlib/pandas
import common
import matplotlib.ticker
import numpy as np

RESULTS = "results"
FABRIC = "fabric"
CONFIG = "config"
LINKS = "links"

#: Display names of the switch tiers of the fabric CSV and of the node types of the links CSV.
NAMES = {"gpu": "GPU", "nvswitch": "NVSwitch", "leaf": "leaf", "spine": "spine", "core": "core"}

EPILOG = """examples:
  plot_rail_allreduce.py out/rail-allreduce --out out
  plot_rail_allreduce.py out/rail-allreduce --measured-label "measured: my 2 x 8 cluster"
"""


def tier_of(element):
    """rail3 -> leaf, spine0 -> spine, nvswitch -> nvswitch."""
    for prefix, tier in (("rail", "leaf"), ("leaf", "leaf"), ("spine", "spine"),
                         ("nvswitch", "nvswitch")):
        if element.startswith(prefix):
            return tier
    return element


def size_label(b):
    """Binary-prefixed size: 1048576 -> '1 MiB'."""
    for unit, div in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= div:
            return "%g %s" % (b / div, unit)
    return "%d B" % b


def direction_label(direction):
    """'leaf>gpu' -> 'leaf→GPU'."""
    a, _, b = direction.partition(">")
    return "%s→%s" % (NAMES.get(a, a), NAMES.get(b, b))


SIZE_AXIS = "Message size per GPU (binary prefixes: 1 MiB = 2$^{20}$ B)"


def size_axis(ax, sizes):
    """Log-2 x axis with one labelled tick per size (every other one past 8 sizes)."""
    ax.set_xscale("log", base=2)
    ticks = list(sizes)
    while len(ticks) > 8:
        ticks = ticks[::2]
    ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(ticks))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FixedFormatter([size_label(v) for v in ticks]))
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_xlabel(SIZE_AXIS)


def read_config(prefix):
    """key -> value of <prefix>-config.csv, or {} when the run had no --plot-data."""
    path = prefix + "-" + CONFIG + ".csv"
    if not os.path.exists(path):
        return {}
    df = common.read_csv(path, [], text=["key", "value"])
    return dict(zip(df["key"], df["value"]))


def caption(cfg, res):
    """One or two lines that say what was simulated."""
    op = str(res["op"].iloc[0])
    ranks = int(res["ranks"].iloc[0])
    if not cfg:
        return "ai-fabric simulation: %s, %d ranks" % (op, ranks)
    rate = float(cfg.get("nic_rate_bps", "0") or 0) / 1e9
    channels = cfg.get("channels", "?")
    channels = "NCCL's channels" if channels == "0" else "%s channels" % channels
    choice = "algo %s, proto %s" % (cfg.get("algo", "?"), cfg.get("proto", "?"))
    return ("ai-fabric simulation: %s (%s), %d GPUs = %s servers × %s, %s fabric,\n%g Gb/s "
            "RoCEv2 NICs, cc=%s, %s, MTU %s B"
            % (op, choice, ranks, cfg.get("servers", "?"), cfg.get("gpus_per_server", "?"),
               cfg.get("topology", "?"), rate, cfg.get("cc", "?"), channels,
               cfg.get("mtu", "?")))


def measured_label(cfg, given):
    """Legend entry of the measured curve: --measured-label, else what the log's header says
    (hosts x GPUs per host, GPU model, NCCL version), else 'measured (nccl-tests)'."""
    if given:
        return given
    path = cfg.get("measured", "")
    hosts, gpus, model, nccl = [], 0, "", ""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("#  Rank"):
                    # "#  Rank  0 Group  0 Pid  13919 on  pt01 device  0 [0000:04:00] NVIDIA ..."
                    rest = line.partition(" on ")[2]
                    host = rest.split()[0] if rest.split() else ""
                    if host not in hosts:
                        hosts.append(host)
                    gpus += 1
                    model = rest.split("]", 1)[1].strip() if "]" in rest else model
                elif line.startswith("NCCL version"):
                    nccl = line.split()[2].split("+")[0] if len(line.split()) > 2 else ""
    except OSError:
        return "measured (nccl-tests)"
    if not hosts:
        return "measured (nccl-tests)"
    text = "measured: %d × %d %s" % (len(hosts), gpus // len(hosts), model)
    return text + (", NCCL %s" % nccl if nccl else "")


def plot_busbw(res, cfg, label, out, stem, formats):
    fig, ax = style.figure("double", height=2.8)
    x = res["bytes"].to_numpy()
    ax.plot(x, res["busbw_GBps"], marker="o", label="simulated (ai-fabric)", **style.series(0))
    measured = res["measured_busbw_GBps"]
    if measured.notna().any():
        m = res[measured.notna()]
        ax.plot(m["bytes"], m["measured_busbw_GBps"], marker="s", label=label,
                **style.series(1))
    bound = cfg.get("bound_busbw_GBps", "")
    if bound:
        bound = float(bound)
        rate = float(cfg.get("nic_rate_bps", "0") or 0) / 1e9
        ax.axhline(bound, linestyle="--", label="NIC bottleneck %.0f GB/s (%s × %g Gb/s, "
                   "RoCE payload)" % (bound, cfg.get("bound_nics", "?"), rate),
                   **style.reference_line())
    size_axis(ax, x)
    ax.set_ylabel(style.axis_label("Bus bandwidth", "GB/s"))
    ax.set_ylim(0, max(ax.get_ylim()[1], (bound or 0) * 1.08))
    mark_choices(ax, res)
    ax.set_title(caption(cfg, res), loc="left")
    style.legend(ax, loc="lower right")
    style.save(fig, out, stem + "-busbw", formats)


def choice_changes(res):
    """(bytes, "algorithm/protocol") at the first size and wherever the choice changes, from the
    results CSV's algorithm and protocol columns (none when the CSV has no such columns)."""
    if "algorithm" not in res.columns or "protocol" not in res.columns:
        return []
    out = []
    previous = None
    for b, a, p in zip(res["bytes"], res["algorithm"], res["protocol"]):
        choice = "%s/%s" % (a, p)
        if choice != previous:
            out.append((b, choice))
            previous = choice
    return out


def mark_choices(ax, res):
    """A dotted vertical line where NCCL's algorithm or protocol changes, labelled with the new
    choice at the top of the axes (the first size is labelled without a line)."""
    top = ax.get_ylim()[1]
    for i, (b, choice) in enumerate(choice_changes(res)):
        if i > 0:
            ax.axvline(b, linestyle=":", **style.reference_line())
        ax.text(b, top * 0.98, " " + choice, rotation=90, va="top", ha="left", fontsize=6)


def plot_time(res, cfg, out, stem, formats):
    fig, ax = style.figure("double", height=2.4)
    x = res["bytes"].to_numpy()
    ax.plot(x, res["time_us"], marker="o", **style.series(0))
    size_axis(ax, x)
    ax.set_yscale("log")
    # Ticks at 1, 2 and 5 of every decade, so that a short range still has several labels.
    ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))
    ax.set_ylabel(style.axis_label("Completion time", "µs"))
    ax.set_title(caption(cfg, res), loc="left")
    style.save(fig, out, stem + "-time", formats)


def utilization(fab, links, sizes):
    """The utilization series to draw, their y label and the names of the idle ones: per link
    direction over its busy ports when the links CSV exists, else per tier the busiest group's
    mean over all its ports. Series that are zero at every size are left out (named as idle)."""
    series, idle = [], []
    if links is not None:
        for d in dict.fromkeys(links["direction"]):
            rows = links[links["direction"] == d].groupby("bytes")
            util = rows["active_utilization"].max().reindex(sizes).fillna(0)
            busy = int(rows["active_ports"].max().max())
            total = int(rows["ports"].max().max())
            if util.max() > 0:
                series.append(("%s (%d of %d ports)" % (direction_label(d), busy, total),
                               util * 100))
            else:
                idle.append("%s (%d ports)" % (direction_label(d), total))
        return series, "Util. of busy ports", idle
    for tier in ("leaf", "spine", "nvswitch"):
        t = fab[fab["tier"] == tier].groupby("bytes")
        if not len(t):
            continue
        util = t["utilization"].max().reindex(sizes).fillna(0)
        if util.max() > 0:
            series.append((NAMES[tier], util * 100))
        else:
            idle.append(NAMES[tier])
    return series, "Util., all ports", idle


def plot_fabric(fab, links, res, cfg, out, stem, formats):
    fab = fab.copy()
    fab["tier"] = [tier_of(e) for e in fab["element"]]
    sizes = sorted(fab["bytes"].unique())
    tiers = [t for t in ("leaf", "spine", "nvswitch") if t in set(fab["tier"])]
    util, util_label, idle = utilization(fab, links, sizes)
    # Counter panels (column, name, y label, scale, aggregate over a tier's groups); drawn only
    # when not zero everywhere.
    counters = [("max_queue_bytes", "queues", style.axis_label("Max. queue", "KB"), 1e-3, "max"),
                ("pfc_pauses", "PFC pauses", style.axis_label("PFC pauses", "frames"), 1, "sum"),
                ("ecn_marks", "ECN marks", style.axis_label("ECN marks", "packets"), 1, "sum"),
                ("drops", "drops", style.axis_label("Drops", "packets"), 1, "sum")]
    panels, quiet = [], []
    for column, name, ylabel, scale, agg in counters:
        per_tier = []
        for tier in tiers:
            t = fab[fab["tier"] == tier].groupby("bytes")[column]
            v = (t.max() if agg == "max" else t.sum()).reindex(sizes).fillna(0) * scale
            if v.max() > 0:
                per_tier.append((NAMES[tier], v))
        if per_tier:
            panels.append((ylabel, per_tier, column == "max_queue_bytes"))
        else:
            quiet.append(name)
    rows = 1 + len(panels)
    fig, axes = style.figure("double", rows=rows, sharex=True,
                             height=style.STACKED_HEIGHT * rows + 0.8)
    axes = axes if rows > 1 else [axes]
    xs = np.arange(len(sizes))
    uax = axes[0]
    width = 0.8 / max(len(util), 1)
    for i, (label, v) in enumerate(util):
        off = (i - (len(util) - 1) / 2) * width
        uax.bar(xs + off, v, width=width, label=label, **style.bar_style(i))
    uax.set_ylabel(style.axis_label(util_label, "%"))
    uax.set_ylim(0, 100)
    style.legend(uax, above=True, ncol=min(len(util), 2))
    # Tiers take palette entries 3-5, apart from the link directions above.
    colors = {tier: 3 + i for i, tier in enumerate(("leaf", "spine", "nvswitch"))}
    for ax, (ylabel, per_tier, _) in zip(axes[1:], panels):
        width = 0.8 / len(per_tier)
        for i, (name, v) in enumerate(per_tier):
            off = (i - (len(per_tier) - 1) / 2) * width
            tier = next(t for t, n in NAMES.items() if n == name)
            ax.bar(xs + off, v, width=width, label=name, **style.bar_style(colors[tier]))
        ax.set_ylabel(ylabel)
        style.legend(ax, loc="upper left", fontsize=6)
        values = [x for _, v in per_tier for x in v if x > 0]
        if max(values) / min(values) > 100:
            # Tiers far apart (a few frames in a leaf, megabytes in an NVSwitch): log scale,
            # so the small ones stay visible.
            ax.set_yscale("log")
            ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))
        elif "queue" not in ylabel:
            style.count_axis(ax)
    bottom = axes[-1]
    bottom.set_xticks(xs)
    bottom.set_xticklabels([size_label(s) for s in sizes])
    bottom.set_xlabel(SIZE_AXIS)
    note = caption(cfg, res)
    if idle:
        note += "\nno traffic at any size (not drawn): " + ", ".join(idle)
    if quiet:
        note += "\nzero at every size (not drawn): " + ", ".join(quiet)
    if links is None:
        note += ("\nutilization: mean over all ports of the busiest group, idle ones included "
                 "(rail-allreduce --plot-data: busy ports only)")
    uax.set_title(note, loc="left", pad=14)
    style.save(fig, out, stem + "-fabric", formats)


def main():
    p = common.output_parser(__doc__.split("\n\n")[0], EPILOG)
    p.add_argument("prefix", help="output prefix of rail-allreduce (or one of its CSV files)")
    p.add_argument("--measured-label", metavar="TEXT",
                   help="legend entry of the measured curve (default: from the log's header)")
    args = p.parse_args()
    prefix = common.strip_suffix(args.prefix, [RESULTS, FABRIC, CONFIG, LINKS])
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
    links = None
    if os.path.exists(prefix + "-" + LINKS + ".csv"):
        links = common.read_csv(prefix + "-" + LINKS + ".csv",
                                ["bytes", "ports", "active_ports", "active_utilization",
                                 "max_utilization"],
                                integer=["bytes", "ports", "active_ports"], text=["direction"])
    cfg = read_config(prefix)
    res = res.sort_values("bytes")
    plot_busbw(res, cfg, measured_label(cfg, args.measured_label), args.out, stem, formats)
    plot_time(res, cfg, args.out, stem, formats)
    plot_fabric(fab, links, res, cfg, args.out, stem, formats)
    peak = res["busbw_GBps"].max()
    print("%s: %d sizes, peak simulated busbw %.1f GB/s" % (stem, len(res), peak))


if __name__ == "__main__":
    common.run(main)
