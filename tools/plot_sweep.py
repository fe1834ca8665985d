#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot one metric of a sweep (the sweep.csv of tools/sweep.py, or any tidy CSV) over its grid.

Heatmap of a metric over two parameters, each cell annotated with its value:

    tools/plot_sweep.py sweeps/ecn/sweep.csv --x kmin --y kmax --metric p99_slowdown \\
        --heatmap --filter cc=dcqcn --filter bucket=all --out ecn-p99.pdf

Lines of a metric against one parameter, one line per value of another (--hue), one panel
per value of a third (--facet):

    tools/plot_sweep.py sweeps/ecn/sweep.csv --x kmin --metric p99_slowdown --hue cc \\
        --facet bucket --agg median --xlabel "Kmin (KB)" --ylabel "p99 FCT slowdown" \\
        --out ecn-lines.png

Every (x[, y], hue, facet) combination must hold one row after ``--filter col=v1[,v2]``
(rows whose column has one of the values are kept), or ``--agg median|mean|min|max`` combines
the rows of a cell (e.g. the seeds of a replicated sweep); otherwise the script names the
columns that still vary so you can filter on them. A column whose values are all numbers is
placed by value (sorted); any other keeps the order of the file (the grid's order). The output
format follows the extension of ``--out`` (.pdf, .png at 300 dpi, .svg; repeat --out for
several). Uses matplotlib (Agg) and pandas with the shared look of tools/plots/style.py.
Errors: exit 1 for an unreadable or malformed CSV, 2 for options that do not fit the data
(an unknown column, with the list of columns; a filter keeping no row; duplicate cells).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots"))
import style  # noqa: E402  (Agg backend; re-runs under /usr/bin/python3 without matplotlib)
import common  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

AGGS = ("median", "mean", "min", "max")


class UsageError(Exception):
    """Options that do not fit the data: exit 2."""


def numeric(series):
    """The column as floats when every value is a number, else None."""
    values = pd.to_numeric(series.str.strip(), errors="coerce")
    return None if values.isna().any() else values


def levels(df, col):
    """Distinct values of ``col`` in plot order: by value for numbers, else first seen."""
    values = list(dict.fromkeys(df[col]))
    num = numeric(pd.Series(values, dtype=str))
    if num is not None:
        values = [v for _, v in sorted(zip(num, values))]
    return values


def check_columns(df, path, names):
    """Every named column must exist; else list the available ones."""
    for n in names:
        if n is not None and n not in df.columns:
            raise UsageError("%s: no column '%s'; available columns: %s"
                             % (path, n, ", ".join(df.columns)))


def apply_filters(df, path, filters):
    """``col=v1[,v2]``: keep the rows whose ``col`` is one of the values (numbers compared by
    value, so 100 matches 100.0)."""
    for f in filters:
        col, sep, text = f.partition("=")
        col = col.strip()
        if not sep or not col or not text:
            raise UsageError("--filter %r: expected column=value[,value...]" % f)
        check_columns(df, path, [col])
        wanted = [v.strip() for v in text.split(",")]
        column = df[col].str.strip()
        keep = column.isin(wanted)
        num = numeric(column)
        wanted_num = pd.to_numeric(pd.Series(wanted), errors="coerce")
        if num is not None:
            keep |= num.isin(wanted_num.dropna().tolist())
        if not keep.any():
            raise UsageError("--filter %s keeps no row; column '%s' has %s"
                             % (f, col, ", ".join(levels(df, col))))
        df = df[keep]
    return df


def reduce_cells(df, path, keys, metric, agg):
    """One value of the metric per combination of ``keys`` (aggregated with ``agg``)."""
    groups = df.groupby(keys, sort=False)[metric]
    sizes = groups.size()
    if (sizes > 1).any() and agg is None:
        varying = [c for c in df.columns if c not in keys and c != metric
                   and (df.groupby(keys, sort=False)[c].nunique() > 1).any()]
        first = sizes[sizes > 1].index[0]
        first = ", ".join("%s=%s" % kv for kv in zip(keys, first if len(keys) > 1 else [first]))
        raise UsageError(
            "%s: %d of %d cells of (%s) have several rows (e.g. %s: %d rows); they differ in "
            "%s. Select one with --filter COLUMN=VALUE, add the column as --hue/--facet, or "
            "aggregate with --agg %s"
            % (path, int((sizes > 1).sum()), len(sizes), ", ".join(keys),
               first, int(sizes[sizes > 1].iloc[0]),
               ", ".join(varying) or "no other column", "|".join(AGGS)))
    return groups.agg(agg or "first").reset_index()


def positions(df, col):
    """(x values for plotting, tick labels or None): numbers by value, else 0..n-1."""
    lv = levels(df, col)
    num = numeric(pd.Series(lv, dtype=str))
    if num is not None:
        return dict(zip(lv, num)), None
    return {v: i for i, v in enumerate(lv)}, lv


def heatmap(ax, cells, x, y, metric, fmt, vmin, vmax, cmap):
    """Pivot ``cells`` to y rows x x columns, draw and annotate every cell; returns the image."""
    xs, ys = levels(cells, x), levels(cells, y)
    grid = cells.pivot(index=y, columns=x, values=metric).reindex(index=ys, columns=xs)
    data = grid.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(data), origin="lower", aspect="auto", cmap=cmap,
                      vmin=vmin, vmax=vmax, interpolation="nearest")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs)
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels(ys)
    ax.grid(False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)
    norm = image.norm
    for i in range(len(ys)):
        for j in range(len(xs)):
            v = data[i, j]
            if np.isnan(v):
                ax.text(j, i, "–", ha="center", va="center", fontsize=6, color="0.4")
                continue
            r, g, b, _ = image.cmap(norm(v))
            dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
            ax.text(j, i, format(v, fmt), ha="center", va="center", fontsize=6,
                    color="white" if dark else "black")
    return image


def lines(ax, cells, x, metric, hue, hue_levels, xpos):
    """One line (markers at the points) per hue value."""
    for i, h in enumerate(hue_levels if hue else [None]):
        part = cells if hue is None else cells[cells[hue] == h]
        if part.empty:
            continue
        part = part.assign(_x=part[x].map(xpos)).sort_values("_x")
        ax.plot(part["_x"], part[metric].astype(float), marker="o", label=h, **style.series(i))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", help="the sweep's sweep.csv (or any tidy CSV)")
    p.add_argument("--metric", required=True, help="column to plot (numbers)")
    p.add_argument("--x", required=True, help="column on the x axis")
    p.add_argument("--y", help="column on the y axis of a heatmap")
    p.add_argument("--heatmap", action="store_true", help="heatmap of the metric over x and y")
    p.add_argument("--hue", help="one line per value of this column (line plot)")
    p.add_argument("--facet", help="one panel per value of this column")
    p.add_argument("--filter", action="append", default=[], metavar="COL=V[,V]",
                   help="keep rows whose COL is one of the values; repeatable")
    p.add_argument("--agg", choices=AGGS, help="combine the rows of a cell (e.g. seeds)")
    p.add_argument("--out", action="append", required=True, metavar="FILE",
                   help="output file, format from its extension (.pdf, .png, .svg); repeatable")
    p.add_argument("--xlabel", help="x axis label, with its unit (default: the column name)")
    p.add_argument("--ylabel", help="y axis label (heatmap: of --y; lines: of the metric)")
    p.add_argument("--zlabel", help="colour bar label of a heatmap (default: the metric)")
    p.add_argument("--title", help="figure title")
    p.add_argument("--logx", action="store_true", help="logarithmic x axis (line plot)")
    p.add_argument("--logy", action="store_true", help="logarithmic metric axis (line plot)")
    p.add_argument("--fmt", default=".3g", help="format of the heatmap annotations (.3g)")
    p.add_argument("--cmap", default="viridis", help="heatmap colour map (viridis)")
    p.add_argument("--width", choices=("single", "double"), default=None,
                   help="figure width: one column (3.5 in) or two (7.16 in); default by panels")
    return p.parse_args(argv)


def check_options(args):
    """Option combinations, before reading the data."""
    if args.heatmap and not args.y:
        raise UsageError("--heatmap needs --y COLUMN")
    if args.y and not args.heatmap:
        raise UsageError("--y is for --heatmap (a line plot takes --hue for a second column)")
    if args.heatmap and args.hue:
        raise UsageError("--hue is for line plots; a heatmap shows --x and --y (use --facet)")
    used = [c for c in (args.x, args.y, args.hue, args.facet) if c]
    if len(set(used)) != len(used) or args.metric in used:
        raise UsageError("--metric, --x, --y, --hue and --facet must be different columns")
    for out in args.out:
        ext = os.path.splitext(out)[1].lower().lstrip(".")
        if ext not in style.FORMATS:
            raise UsageError("--out %s: the extension must be one of %s"
                             % (out, ", ".join("." + f for f in style.FORMATS)))


def plot(args):
    check_options(args)
    path = args.csv
    df = common.read_csv(path, columns=[])
    check_columns(df, path, [args.metric, args.x, args.y, args.hue, args.facet])
    df = apply_filters(df, path, args.filter)
    keys = [c for c in (args.facet, args.y, args.hue, args.x) if c]
    raw = df[args.metric].str.strip()
    metric = pd.to_numeric(raw, errors="coerce")
    # Empty points (a size bucket without flows: blank or NaN, or a row with flows = 0 from
    # older outputs that wrote 0) are skipped, never drawn as 0.
    empty = raw.eq("") | raw.str.lower().isin(["nan", "-"])
    if "flows" in df.columns and args.metric != "flows":
        empty |= pd.to_numeric(df["flows"].str.strip(), errors="coerce").eq(0)
    bad = metric.isna() & ~empty
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        raise common.InputError("%s: line %d: column '%s' is %r, expected a number" % (
            path, int(df.index[i]) + 2, args.metric, df[args.metric].iloc[i]))
    if empty.any():
        print("plot_sweep: skipped %d empty point(s) (no flows: '%s' is blank)"
              % (int(empty.sum()), args.metric), file=sys.stderr)
    df = df.assign(**{args.metric: metric})[~empty]
    if df.empty:
        raise UsageError("%s: every point of '%s' is empty (no flows); nothing to plot"
                         % (path, args.metric))
    cells = reduce_cells(df, path, keys, args.metric, args.agg)

    facets = levels(cells, args.facet) if args.facet else [None]
    n = len(facets)
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    width = args.width or ("single" if cols == 1 else "double")
    height = style.PANEL_HEIGHT * rows + (0.3 if rows > 1 else 0)
    if args.heatmap:
        height = max(height, 0.35 * len(levels(cells, args.y)) * rows + 0.8)
    fig, axes = style.figure(width=width, rows=rows, cols=cols, height=height,
                             sharey=not args.heatmap)
    axes = axes if isinstance(axes, list) else [axes]
    zlabel = args.zlabel or args.metric
    vmin, vmax = cells[args.metric].min(), cells[args.metric].max()
    hue_levels = levels(cells, args.hue) if args.hue else []
    xpos, xticks = positions(cells, args.x)
    image = None
    for k, (ax, f) in enumerate(zip(axes, facets)):
        part = cells if f is None else cells[cells[args.facet] == f]
        if args.heatmap:
            image = heatmap(ax, part, args.x, args.y, args.metric, args.fmt, vmin, vmax,
                            args.cmap)
        else:
            lines(ax, part, args.x, args.metric, args.hue, hue_levels, xpos)
            if args.logx:
                ax.set_xscale("log")
            if args.logy:
                ax.set_yscale("log")
            if xticks is not None:  # categories
                ax.set_xticks(range(len(xticks)))
                ax.set_xticklabels(xticks)
            elif len(xpos) <= 8:  # a few grid values: a tick at each, labelled as in the CSV
                ax.set_xticks(sorted(xpos.values()))
                ax.set_xticklabels([str(v) for v in levels(cells, args.x)])
                ax.xaxis.set_minor_locator(style.matplotlib.ticker.NullLocator())
        if f is not None:
            ax.set_title("%s = %s" % (args.facet, f))
        if k // cols == rows - 1 or k + cols >= n:
            ax.set_xlabel(args.xlabel or args.x)
        if k % cols == 0:
            ax.set_ylabel((args.ylabel or args.y) if args.heatmap else (args.ylabel or zlabel))
    for ax in axes[n:]:
        ax.set_visible(False)
    if args.heatmap:
        fig.colorbar(image, ax=axes[:n], label=zlabel, shrink=0.9)
    elif args.hue:
        handles, labels = axes[0].get_legend_handles_labels()
        for ax in axes[1:n]:
            for h, l in zip(*ax.get_legend_handles_labels()):
                if l not in labels:
                    handles.append(h)
                    labels.append(l)
        order = [labels.index(h) for h in hue_levels if h in labels]
        if n == 1:
            style.legend(axes[0], title=args.hue)
        elif order:  # one legend above the panels (as style.figure_legend, with a title)
            leg = fig.legend([handles[i] for i in order], [labels[i] for i in order],
                             title=args.hue, loc="upper center", bbox_to_anchor=(0.5, 1.0),
                             ncol=min(len(order), 4), frameon=False, borderaxespad=0.2)
            height = leg.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi
            fig.get_layout_engine().set(rect=(0, 0, 1, 1 - height / fig.get_figheight()))
    if args.title:
        fig.suptitle(args.title)
    for out in args.out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        fig.savefig(out, format=os.path.splitext(out)[1].lower().lstrip("."), dpi=style.DPI)
        print("wrote %s" % out)
    style.plt.close(fig)


def main():
    args = parse_args(sys.argv[1:])
    try:
        common.run(lambda: plot(args))
    except UsageError as err:
        sys.stderr.write("%s: error: %s\n" % (os.path.basename(sys.argv[0]), err))
        sys.exit(2)


if __name__ == "__main__":
    main()
