# SPDX-License-Identifier: GPL-2.0-only
"""Shared look of every ai-fabric plot: sizes, fonts, colours, grid, layout and saving.

Every plot script imports this module first; it selects the headless Agg backend and applies
the rcParams below, so the scripts themselves carry no styling code. Conventions:

* Figure widths follow two-column papers (IEEE/ACM): ``SINGLE`` = 3.5 in, ``DOUBLE`` = 7.16 in.
* Colours are the Okabe-Ito palette (safe for the common colour-vision deficiencies); series
  past the eighth also change line style, so every series stays distinct in grey print too.
* Every quantitative axis label carries a unit: build it with ``axis_label(name, unit)``;
  categorical axes use ``category_label(name)``.
* Units are decimal (SI), as the examples print them: 1 KB = 10^3 B, 1 MB = 10^6 B,
  1 Gb/s = 10^9 bit/s.
* ``save()`` writes PDF (TrueType fonts embedded, as publishers ask) and/or PNG at 300 dpi.
"""

import os
import sys

try:
    import importlib

    import matplotlib

    matplotlib.use("Agg")  # headless: never needs a display
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    importlib.import_module("pandas")  # checked here so a missing package is reported once
except ImportError as err:  # pragma: no cover - depends on the machine
    # Debian's python3-matplotlib/python3-pandas live in /usr/bin/python3's path; another
    # python3 first in PATH (pyenv, venv) does not see them. Re-run once under Debian's.
    debian = "/usr/bin/python3"
    if (os.path.realpath(sys.executable) != os.path.realpath(debian) and os.access(debian, os.X_OK)
            and not os.environ.get("AI_FABRIC_PLOTS_REEXEC")):
        os.environ["AI_FABRIC_PLOTS_REEXEC"] = "1"
        os.execv(debian, [debian] + sys.argv)
    sys.stderr.write(
        "error: %s (python %s). The plot scripts need matplotlib and pandas: on Debian "
        "`apt-get install python3-matplotlib python3-pandas`.\n" % (err, sys.executable))
    sys.exit(1)

# ---------------------------------------------------------------------------------------------
# Sizes (inches)

SINGLE = 3.5  #: one column of a two-column paper
DOUBLE = 7.16  #: full text width of a two-column paper
PANEL_HEIGHT = 2.1  #: height of a figure with one row of axes
STACKED_HEIGHT = 1.5  #: height per row of a figure with stacked (shared-x) rows
DPI = 300  #: raster resolution

# ---------------------------------------------------------------------------------------------
# Colours and line styles

#: Okabe & Ito (2008) colour-blind-safe palette, ordered for contrast on white (yellow last).
COLORS = [
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#F0E442",  # yellow
]
LINESTYLES = ["-", "--", "-.", ":"]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]
#: colour of reference lines (fair share, thresholds): neutral, not in the series palette
REFERENCE_COLOR = "0.35"


def series(i):
    """Line style of series ``i``: colour cycles over COLORS, then the dash pattern changes."""
    return {
        "color": COLORS[i % len(COLORS)],
        "linestyle": LINESTYLES[(i // len(COLORS)) % len(LINESTYLES)],
    }


def bar_style(i):
    """Fill of bar series ``i``: colour plus a hatch past the palette (and for grey print)."""
    return {
        "color": COLORS[i % len(COLORS)],
        "hatch": HATCHES[(i // len(COLORS)) % len(HATCHES)],
        "edgecolor": "white",
        "linewidth": 0.5,
    }


def reference_line():
    """Style of reference lines (fair share, ECN thresholds)."""
    return {"color": REFERENCE_COLOR, "linewidth": 1.0}


# ---------------------------------------------------------------------------------------------
# rcParams

RC = {
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "mathtext.fontset": "dejavusans",
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "legend.title_fontsize": 7,
    "legend.frameon": True,
    "legend.framealpha": 0.85,
    "legend.edgecolor": "0.8",
    "legend.fancybox": False,
    "legend.borderpad": 0.3,
    "legend.handlelength": 1.8,
    "legend.columnspacing": 1.0,
    "axes.prop_cycle": matplotlib.cycler(color=COLORS),
    "axes.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "0.85",
    "grid.linewidth": 0.5,
    "grid.linestyle": "-",
    "lines.linewidth": 1.2,
    "lines.markersize": 3,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.major.size": 3,
    "ytick.major.size": 3,
    "figure.dpi": 100,
    "figure.constrained_layout.use": True,  # tight layout that also accounts for legends
    "savefig.dpi": DPI,
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.02,
    "pdf.fonttype": 42,  # embed TrueType, not Type 3 (IEEE PDF eXpress rejects Type 3)
    "ps.fonttype": 42,
    "axes.formatter.useoffset": False,
    "axes.formatter.limits": (-4, 6),
}

matplotlib.rcParams.update(RC)

# ---------------------------------------------------------------------------------------------
# Figures, labels, saving

FORMATS = ("pdf", "png", "svg")


def figure(width="single", rows=1, cols=1, height=None, sharex=False, sharey=False):
    """A figure of one or two columns' width with ``rows`` x ``cols`` axes.

    Returns (fig, axes) where axes is a single Axes for 1 x 1 and a flat list otherwise.
    """
    w = {"single": SINGLE, "double": DOUBLE}[width]
    h = height if height is not None else (
        PANEL_HEIGHT if rows == 1 else STACKED_HEIGHT * rows + 0.3)
    fig, axes = plt.subplots(rows, cols, figsize=(w, h), sharex=sharex, sharey=sharey,
                             squeeze=False)
    flat = [ax for row in axes for ax in row]
    return fig, (flat[0] if len(flat) == 1 else flat)


def axis_label(name, unit):
    """``"name (unit)"``; a quantitative axis without a unit is a programming error."""
    if not unit:
        raise ValueError("axis label %r needs a unit" % name)
    return "%s (%s)" % (name, unit)


def category_label(name):
    """Label of a categorical axis (sender index, congestion control): no unit applies."""
    return name


def legend(ax, above=False, **kwargs):
    """A legend with the shared look; does nothing when the axes has no labelled artist.

    ``above=True`` puts it in one row (or ``ncol`` columns) above the axes, outside the data,
    which is where run overlays keep their legend.
    """
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if above:
        kwargs.setdefault("loc", "lower center")
        kwargs.setdefault("bbox_to_anchor", (0.5, 1.0))
        kwargs.setdefault("ncol", min(len(handles), 4))
        kwargs.setdefault("frameon", False)
        kwargs.setdefault("borderaxespad", 0.2)
    kwargs.setdefault("loc", "best")
    return ax.legend(**kwargs)


def figure_legend(fig, handles, labels, ncol=None):
    """One legend centred above all axes of ``fig`` (e.g. shared by side-by-side panels); the
    constrained layout is told to keep that strip free."""
    if not handles:
        return None
    leg = fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 1.0),
                     ncol=ncol or min(len(handles), 4), frameon=False, borderaxespad=0.2)
    height = leg.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi
    fig.get_layout_engine().set(rect=(0, 0, 1, 1 - height / fig.get_figheight()))
    return leg


def count_axis(ax):
    """Integer ticks on the y axis of counts; an all-zero series gets the range 0..1."""
    ax.yaxis.set_major_locator(
        matplotlib.ticker.MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))
    if ax.get_ylim()[1] < 1:
        ax.set_ylim(-0.05, 1)


def parse_formats(text):
    """``"pdf,png"`` -> ["pdf", "png"]; raises ValueError naming an unknown format."""
    formats = [f.strip().lower().lstrip(".") for f in text.split(",") if f.strip()]
    if not formats:
        raise ValueError("--format is empty; use one or more of %s" % ",".join(FORMATS))
    for f in formats:
        if f not in FORMATS:
            raise ValueError("unknown format %r; use one or more of %s (comma-separated)"
                             % (f, ",".join(FORMATS)))
    return list(dict.fromkeys(formats))


def save(fig, out_dir, stem, formats=("pdf", "png")):
    """Write ``out_dir/stem.<format>`` for each format (raster at 300 dpi), close the figure,
    print and return the paths."""
    os.makedirs(out_dir, exist_ok=True)
    fig.align_ylabels()  # stacked panels: y labels in one column
    paths = []
    for fmt in formats:
        path = os.path.join(out_dir, "%s.%s" % (stem, fmt))
        fig.savefig(path, format=fmt, dpi=DPI)
        paths.append(path)
        print("wrote %s" % path)
    plt.close(fig)
    return paths


# ---------------------------------------------------------------------------------------------
# Unit choice


def time_scale(max_us, prefer=None):
    """(divisor, unit) to show a time given in µs: µs up to 10 ms, else ms.

    ``prefer`` ("us" or "ms") forces one.
    """
    if prefer == "us" or (prefer is None and max_us <= 10000):
        return 1.0, "µs"
    return 1000.0, "ms"


def bytes_scale(max_bytes, prefer=None):
    """(divisor, unit) to show a byte count: B, KB or MB (decimal), or ``prefer``."""
    units = {"B": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9}
    if prefer:
        return units[prefer], prefer
    if max_bytes >= 1e6:
        return 1e6, "MB"
    if max_bytes >= 1e3:
        return 1e3, "KB"
    return 1.0, "B"
