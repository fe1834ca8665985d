# SPDX-License-Identifier: GPL-2.0-only
"""Input handling shared by the plot scripts: prefixes, CSV validation, options, errors.

No styling here (that is style.py). Errors in the input raise InputError with a message that
names the file and, where it applies, the column and line; ``run()`` prints it and exits 1.
"""

import argparse
import csv
import os
import sys

import style  # noqa: F401  (selects the Agg backend / checks the packages before pandas)
import pandas as pd


class InputError(Exception):
    """A missing, unreadable or malformed input file, or an inconsistent option."""


def run(main):
    """Run ``main()``; report InputError (and a broken output directory) as one line, exit 1."""
    prog = os.path.basename(sys.argv[0])
    try:
        main()
    except InputError as err:
        sys.stderr.write("%s: error: %s\n" % (prog, err))
        sys.exit(1)
    except OSError as err:  # e.g. --out not writable
        where = ("%s: " % err.filename) if err.filename else ""
        sys.stderr.write("%s: error: %s%s\n" % (prog, where, err.strerror or err))
        sys.exit(1)


def strip_suffix(arg, suffixes):
    """Accept a prefix or the path of one of its files: ``out/x-flows.csv`` -> ``out/x``."""
    for s in suffixes:
        if arg.endswith("-" + s + ".csv"):
            return arg[: -len(s) - 5]
    return arg


def check_fields(path):
    """Every non-blank line must have as many fields as the header (pandas would otherwise
    take an extra field for an index column, or fill a short line with blanks)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                return
            for row in reader:
                if row and len(row) != len(header):
                    raise InputError("%s: line %d has %d fields, the header has %d"
                                     % (path, reader.line_num, len(row), len(header)))
    except UnicodeDecodeError as err:
        raise InputError("%s: not a text CSV file (%s)" % (path, err.reason))
    except csv.Error as err:
        raise InputError("%s: not a valid CSV file (%s)" % (path, err))
    except OSError as err:
        raise InputError("%s: cannot read (%s)" % (path, err.strerror or err))


def read_csv(path, columns, integer=(), text=(), allow_empty=False):
    """Read a CSV whose ``columns`` must exist and be numeric (``integer`` ones integral) and
    whose ``text`` columns must exist (kept as strings, stripped).

    Other columns are kept as read. Raises InputError naming the file, the column and the
    line (1-based, header = line 1) of the first bad value.
    """
    if not os.path.exists(path):
        raise InputError("%s: no such file" % path)
    if os.path.isdir(path):
        raise InputError("%s: is a directory, expected a CSV file" % path)
    check_fields(path)
    try:
        df = pd.read_csv(path, skipinitialspace=True, dtype=str, keep_default_na=False,
                         index_col=False)
    except pd.errors.EmptyDataError:
        raise InputError("%s: empty file (expected a header line with columns %s)"
                         % (path, ",".join(columns)))
    except (pd.errors.ParserError, UnicodeDecodeError) as err:
        raise InputError("%s: not a valid CSV file (%s)" % (path, str(err).strip()))
    except OSError as err:
        raise InputError("%s: cannot read (%s)" % (path, err.strerror or err))
    df.columns = [str(c).strip() for c in df.columns]
    missing = [c for c in list(columns) + list(text) if c not in df.columns]
    if missing:
        raise InputError("%s: missing column%s %s (found: %s)"
                         % (path, "s" if len(missing) > 1 else "",
                            ", ".join("'%s'" % c for c in missing), ",".join(df.columns)))
    if df.empty and not allow_empty:
        raise InputError("%s: no data rows after the header" % path)
    for c in text:
        bad = df[c].isna()
        if bad.any():
            i = int(bad.to_numpy().nonzero()[0][0])
            raise InputError("%s: line %d: column '%s' is missing" % (path, i + 2, c))
        df[c] = df[c].str.strip()
    for c in columns:
        text = df[c].str.strip()
        values = pd.to_numeric(text, errors="coerce")
        bad = values.isna()
        if c in integer:
            bad |= values.notna() & (values != values.round())
        if bad.any():
            i = int(bad.to_numpy().nonzero()[0][0])
            what = "an integer" if c in integer else "a number"
            got = text.iloc[i]
            got = "missing" if not isinstance(got, str) else ("empty" if not got else repr(got))
            raise InputError("%s: line %d: column '%s' is %s, expected %s"
                             % (path, i + 2, c, got, what))
        df[c] = values.astype("int64") if c in integer else values.astype("float64")
    return df


def nonnegative(df, path, columns):
    """Raise InputError if one of ``columns`` holds a negative value."""
    for c in columns:
        neg = df[c] < 0
        if neg.any():
            i = int(neg.to_numpy().nonzero()[0][0])
            raise InputError("%s: line %d: column '%s' is %s, expected >= 0"
                             % (path, int(df.index[i]) + 2, c, df[c].iloc[i]))


def labels_for(prefixes, labels):
    """Legend labels of the runs: --labels if given (one per prefix), else the prefixes'
    base names, or the prefixes as given when base names would repeat."""
    if labels:
        if len(labels) != len(prefixes):
            raise InputError("--labels has %d entries for %d inputs"
                             % (len(labels), len(prefixes)))
        return list(labels)
    base = [os.path.basename(p.rstrip("/")) or p for p in prefixes]
    return base if len(set(base)) == len(base) else list(prefixes)


def output_parser(description, epilog=None):
    """An ArgumentParser with the options every script shares (--out, --format, --name)."""
    p = argparse.ArgumentParser(description=description, epilog=epilog,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=".", metavar="DIR",
                   help="output directory, created if needed (default: current directory)")
    p.add_argument("--format", default="pdf,png", metavar="FMT[,FMT]",
                   help="comma-separated output formats: pdf, png, svg (default: pdf,png)")
    p.add_argument("--name", metavar="STEM",
                   help="output file stem (default: base name of the first input prefix)")
    return p


def parse_output(parser, args, first_prefix):
    """Validate the shared options: returns (formats, stem)."""
    try:
        formats = style.parse_formats(args.format)
    except ValueError as err:
        parser.error(str(err))
    stem = args.name or os.path.basename(first_prefix.rstrip("/")) or "plot"
    return formats, stem


def parse_bytes(text):
    """``"1600000"``, ``"400KB"``, ``"1.6MB"``, ``"64KiB"`` -> bytes (decimal K/M/G as in ns-3)."""
    units = {"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KIB": 1024, "MIB": 1024 ** 2,
             "GIB": 1024 ** 3}
    t = str(text).strip().upper()
    num = t.rstrip("KMGIB")
    unit = t[len(num):]
    try:
        value = float(num) * units[unit]
    except (ValueError, KeyError):
        raise argparse.ArgumentTypeError(
            "%r is not a byte count (e.g. 400000, 400KB, 1.6MB)" % text)
    if value < 0:
        raise argparse.ArgumentTypeError("%r is negative" % text)
    return value
