#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parameter sweep driver: run a command over a grid of values, in parallel, resumable, and
gather every run's summary CSV into one tidy CSV.

    tools/sweep.py --out sweeps/ecn \\
        --grid kmin=100KB,200KB --grid kmax=400KB,800KB --grid cc=dcqcn,none --seeds 3 \\
        -- build/examples/cc-workload --kmin={kmin} --kmax={kmax} --cc={cc} --seed={seed} \\
           --summary={summary}

Contract with the simulator. A run is the command template with ``{name}`` replaced by the
run's value of grid parameter ``name``, ``{run_dir}`` by the run's own directory (absolute),
``{summary}`` by its summary path and ``{run_id}`` by its id (``{{`` and ``}}`` are literal
braces). The command runs without a shell, in the current directory; it must exit 0 and write
its summary CSV (a header line and one or more rows, e.g. one per flow-size bucket) at the
``--summary`` template's path (default ``{run_dir}/summary.csv``).

The grid. ``--grid name=v1,v2,...`` gives a parameter's values; an item ``start:stop:step``
is a range with stop included (``kmin=100:400:100`` is 100,200,300,400; exact decimal steps).
``--grid-file FILE.json`` reads an object ``{"name": [values] or "v1,v2" or "a:b:s", ...}``
(parameters of the file first, then the --grid ones). ``--zip a,b`` makes a and b vary
together (their lists pair up, same length) instead of forming their product. ``--seeds K``
adds the axis ``seed=1..K`` last, so a run's replications are adjacent: the template passes
it on (``--seed={seed}``, or ns-3's ``--RngRun={seed}``). Runs are the product of the axes in
the order given (last axis fastest); that order is the order of the gathered rows.

Layout of ``--out DIR``: ``runs/<run id>/`` per run (id like
``kmin=100KB_kmax=400KB_cc=dcqcn``; characters other than letters, digits and ``._+-=`` become
``-``, and a hash is appended if that changed the id or it was too long) holding ``cmd.txt`` (the exact command), ``params.json``,
``stdout.txt``, ``stderr.txt`` and, once the run has exited 0 with a well-formed summary,
``done``; a failed run gets ``failed`` (exit code and the last lines of stderr) instead.
``runs.csv`` lists every run's status; ``sweep.csv`` holds the grid parameters followed by
the summary's columns, one line per summary row of every finished run, in grid order.

Resuming. A run with a ``done`` marker is skipped, so running the same command again (after
a crash, a kill or a failure) runs only the unfinished and failed runs, and extending a grid
runs only the new points; ``--force`` reruns everything. A finished run whose command has
changed is an error (use ``--force`` or another ``--out``), so results of two versions of a
command are never mixed silently.

Exit status: 0 when every run finished, 1 when a run failed (the others still run and are
gathered), 2 for bad input (reported before any run starts), 130 when interrupted (running
commands are stopped; they have no ``done`` marker, so the next invocation reruns them).
"""

import argparse
import csv
import decimal
import hashlib
import io
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import string
import subprocess
import sys
import time

RESERVED = ("run_dir", "summary", "run_id")
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_ID = 100  # characters of a readable run id before it is cut and hashed
STDERR_TAIL = 5  # lines of stderr quoted for a failed run
SAFE_RE = re.compile(r"[^A-Za-z0-9._+=-]")


class SweepError(Exception):
    """Bad input (grid, template, options): reported before any run starts, exit 2."""


# ---------------------------------------------------------------------------------------------
# The grid


def _number(text):
    """``text`` as an exact Decimal, or None when it is not a plain decimal number."""
    try:
        d = decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        return None
    return d if d.is_finite() else None


def _format_decimal(d):
    """100 -> "100", 0.50 -> "0.5" (no exponent, no trailing zeros)."""
    text = "{:f}".format(d.normalize())
    return "0" if text in ("-0", "") else text


def expand_item(name, item):
    """One comma-separated item of a value list: a value, or ``start:stop:step`` (stop
    included) expanded to its values."""
    parts = item.split(":")
    numbers = [_number(p) for p in parts]
    if len(parts) == 1 or any(n is None for n in numbers):
        return [item]  # a plain value (colons allowed in non-numeric values)
    if len(parts) != 3:
        raise SweepError("grid %s: range %r needs start:stop:step (stop included)"
                         % (name, item))
    start, stop, step = numbers
    if step <= 0:
        raise SweepError("grid %s: range %r: the step must be positive" % (name, item))
    if stop < start:
        raise SweepError("grid %s: range %r: stop is below start" % (name, item))
    count = int((stop - start) / step) + 1
    if count > 100000:
        raise SweepError("grid %s: range %r has %d values" % (name, item, count))
    return [_format_decimal(start + i * step) for i in range(count)]


def parse_values(name, text):
    """``"v1,v2,a:b:s"`` -> list of value strings; empty items and repeats are errors."""
    if not text.strip():
        raise SweepError("grid %s=%s: no values (expected %s=v1,v2,...)" % (name, text, name))
    values = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise SweepError("grid %s=%s: empty value (a value list is v1,v2,...)"
                             % (name, text))
        values.extend(expand_item(name, item))
    return check_values(name, values)


def check_values(name, values):
    """Refuse an empty list and a value listed twice (two runs would be the same run)."""
    if not values:
        raise SweepError("grid %s: no values" % name)
    seen = set()
    for v in values:
        if v in seen:
            raise SweepError("grid %s: value %r listed twice" % (name, v))
        seen.add(v)
    return values


def check_name(name, origin):
    """A parameter name must be a placeholder name and not one of the reserved ones."""
    if not NAME_RE.match(name):
        raise SweepError("%s: parameter name %r must be letters, digits and _ (not starting "
                         "with a digit)" % (origin, name))
    if name in RESERVED:
        raise SweepError("%s: parameter name %r is reserved (%s are filled in by the sweep)"
                         % (origin, name, ", ".join(RESERVED)))


def parse_grid_arg(text):
    """``--grid name=v1,v2`` -> (name, values)."""
    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise SweepError("--grid %r: expected name=v1,v2,... or name=start:stop:step" % text)
    check_name(name, "--grid %s" % text)
    return name, parse_values(name, rest)


def _json_value(name, v):
    """A JSON scalar as the text a command line gets (booleans as true/false)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v) if not isinstance(v, float) else repr(v)
    raise SweepError("grid file: parameter %s: value %r is not a string or number" % (name, v))


def read_grid_file(path):
    """``{"name": [values] | "v1,v2" | "a:b:s", ...}`` -> list of (name, values)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as err:
        raise SweepError("--grid-file %s: %s" % (path, err.strerror or err))
    except json.JSONDecodeError as err:
        raise SweepError("--grid-file %s: not valid JSON (%s)" % (path, err))
    if not isinstance(data, dict):
        raise SweepError("--grid-file %s: expected an object {\"name\": [values], ...}" % path)
    grid = []
    for name, raw in data.items():
        check_name(name, "--grid-file %s" % path)
        if isinstance(raw, str):
            values = parse_values(name, raw)
        elif isinstance(raw, list):
            values = check_values(name, [_json_value(name, v) for v in raw])
        else:
            values = check_values(name, [_json_value(name, raw)])
        grid.append((name, values))
    return grid


def build_axes(grid, zips):
    """Axes of the product: each is (names, list of value tuples); zipped parameters share
    one axis at the place of the first of them."""
    names = [n for n, _ in grid]
    values = dict(grid)
    zipped = {}
    for spec in zips:
        group = [n.strip() for n in spec.split(",")]
        if len(group) < 2 or any(not n for n in group):
            raise SweepError("--zip %r: expected two or more parameter names, e.g. kmin,kmax"
                             % spec)
        for n in group:
            if n not in values:
                raise SweepError("--zip %s: %r is not a grid parameter (grid: %s)"
                                 % (spec, n, ", ".join(names) or "none"))
            if n in zipped:
                raise SweepError("--zip %s: %r is already zipped" % (spec, n))
            zipped[n] = group
        lengths = {n: len(values[n]) for n in group}
        if len(set(lengths.values())) != 1:
            raise SweepError("--zip %s: the value lists differ in length (%s)" % (
                spec, ", ".join("%s: %d" % kv for kv in lengths.items())))
    axes, placed = [], set()
    for n in names:
        if n in placed:
            continue
        group = zipped.get(n, [n])
        placed.update(group)
        axes.append((group, list(zip(*(values[g] for g in group)))))
    return axes


def expand_runs(axes):
    """Every grid point as an ordered dict name -> value, in product order."""
    runs = []
    for combo in itertools.product(*(vals for _, vals in axes)):
        point = {}
        for (group, _), tup in zip(axes, combo):
            point.update(zip(group, tup))
        runs.append(point)
    return runs


# ---------------------------------------------------------------------------------------------
# Templates and run ids


def template_fields(text, what):
    """Placeholder names in a ``str.format`` template; raises SweepError when malformed."""
    try:
        fields = [f for _, f, spec, conv in string.Formatter().parse(text) if f is not None]
    except ValueError as err:
        raise SweepError("%s %r: %s (write {{ and }} for literal braces)" % (what, text, err))
    for f in fields:
        if not NAME_RE.match(f):
            raise SweepError("%s %r: placeholder {%s} is not a parameter name" % (what, text, f))
    return fields


def check_templates(command, summary, names):
    """Every placeholder must be a grid parameter or a reserved name, and every grid
    parameter must reach the command (else its runs would all be the same command)."""
    known = set(names) | set(RESERVED)
    used = set()
    for token in command:
        for f in template_fields(token, "command argument"):
            if f not in known:
                raise SweepError("command argument %r: placeholder {%s} is not a grid parameter "
                                 "(grid: %s; also %s)" % (token, f, ", ".join(names) or "none",
                                                          ", ".join("{%s}" % r for r in RESERVED)))
            used.add(f)
    summary_fields = template_fields(summary, "--summary")
    for f in summary_fields:
        if f not in known or f == "summary":
            raise SweepError("--summary %r: placeholder {%s} is not a grid parameter or "
                             "{run_dir}/{run_id}" % (summary, f))
    if "summary" in used:
        used.update(summary_fields)
    unused = [n for n in names if n not in used]
    if unused:
        raise SweepError("grid parameter%s %s not in the command template: the runs would "
                         "repeat the same command (add --%s={%s} or similar)"
                         % ("s" if len(unused) > 1 else "", ", ".join(unused),
                            unused[0], unused[0]))


def run_id(point):
    """Readable, stable id of a grid point: ``a=1_b=x``; unsafe characters become ``-`` and a
    hash of the exact values is added when that changed anything or the id was too long."""
    raw = "_".join("%s=%s" % kv for kv in point.items()) or "run"
    safe = SAFE_RE.sub("-", raw)
    if safe == raw and len(raw) <= MAX_ID:
        return raw
    return "%s_%s" % (safe[:MAX_ID], point_hash(point))


def point_hash(point):
    """10 hex digits of SHA-1 over the grid point's exact names and values."""
    return hashlib.sha1(json.dumps(list(point.items())).encode("utf-8")).hexdigest()[:10]


def fill(template, point, extra):
    """Substitute a run's values into a template."""
    return template.format(**point, **extra)


# ---------------------------------------------------------------------------------------------
# Runs


class Run:
    """One grid point: its id, directory, command and, once run, its outcome."""

    def __init__(self, index, point, rid, out_dir, command, summary, cwd):
        self.index = index
        self.point = point
        self.id = rid
        self.dir = os.path.join(out_dir, "runs", self.id)
        extra = {"run_dir": self.dir, "run_id": self.id}
        self.summary = os.path.join(cwd, fill(summary, point, extra))
        extra["summary"] = self.summary
        self.argv = [fill(t, point, extra) for t in command]
        self.cmd_text = shlex.join(self.argv)
        self.status = "pending"  # pending, skipped, done, failed
        self.returncode = None
        self.seconds = None
        self.message = ""
        self.proc = None

    def path(self, name):
        return os.path.join(self.dir, name)

    def finished(self):
        """A ``done`` marker and a summary that is still there and well-formed."""
        return os.path.exists(self.path("done")) and check_summary(self.summary) is None

    def recorded_command(self):
        try:
            with open(self.path("cmd.txt"), encoding="utf-8") as f:
                return f.read().rstrip("\n")
        except OSError:
            return None


def check_summary(path):
    """None when ``path`` is a CSV with a header and >= 1 row of as many fields; else why not."""
    if not os.path.isfile(path):
        return "no summary at %s" % path
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = [r for r in csv.reader(f) if r]
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        return "summary %s unreadable (%s)" % (path, err)
    if len(rows) < 2:
        return "summary %s has no data row after its header" % path
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(rows[0]):
            return "summary %s: line %d has %d fields, the header %d" % (
                path, i, len(r), len(rows[0]))
    return None


def tail(path, lines):
    """The last ``lines`` non-blank lines of a text file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = [l.rstrip("\n") for l in f if l.strip()]
    except OSError:
        return []
    return text[-lines:]


def write_file(path, text):
    """Write atomically (a marker is complete or absent, never half-written)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def start(run, cwd):
    """Clear the run's directory (a stale summary must not count), record the command and
    start it in its own process group."""
    if os.path.isdir(run.dir):
        shutil.rmtree(run.dir)
    os.makedirs(run.dir)
    if os.path.exists(run.summary):  # a summary outside the run directory
        os.remove(run.summary)
    write_file(run.path("cmd.txt"), run.cmd_text + "\n")
    write_file(run.path("params.json"), json.dumps(run.point, indent=1) + "\n")
    out = open(run.path("stdout.txt"), "wb")
    err = open(run.path("stderr.txt"), "wb")
    run.started = time.monotonic()
    try:
        run.proc = subprocess.Popen(run.argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    cwd=cwd, start_new_session=True)
    except OSError as e:
        run.proc = None
        run.returncode = 127
        run.message = "cannot start %s: %s" % (run.argv[0], e.strerror or e)
    finally:
        out.close()
        err.close()


def finish(run):
    """Record the outcome of an exited run: ``done`` or ``failed`` marker."""
    run.seconds = time.monotonic() - run.started
    if run.proc is not None:
        run.returncode = run.proc.returncode
    why = run.message
    if not why and run.returncode != 0:
        why = ("exit code %d" % run.returncode if run.returncode > 0
               else "killed by signal %d" % -run.returncode)
    if not why:
        why = check_summary(run.summary)
    if why:
        run.status = "failed"
        run.message = why
        lines = tail(run.path("stderr.txt"), STDERR_TAIL)
        write_file(run.path("failed"), "%s\n%s" % (why, "".join(l + "\n" for l in lines)))
    else:
        run.status = "done"
        write_file(run.path("done"), "%.3f s\n" % run.seconds)


def kill(run, sig):
    """Signal a running command's whole process group."""
    try:
        os.killpg(run.proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def execute(todo, jobs, cwd, timeout, report):
    """Run ``todo`` with at most ``jobs`` at once, in order; ``report(run)`` after each.
    On KeyboardInterrupt, stop the running commands (TERM, then KILL after 5 s) and re-raise."""
    pending = list(todo)
    running = []
    try:
        while pending or running:
            while pending and len(running) < jobs:
                run = pending.pop(0)
                start(run, cwd)
                if run.proc is None:
                    finish(run)
                    report(run)
                else:
                    running.append(run)
            time.sleep(0.02)
            for run in list(running):
                if run.proc.poll() is None:
                    if timeout and time.monotonic() - run.started > timeout:
                        kill(run, signal.SIGKILL)
                        run.proc.wait()
                        run.message = "timed out after %g s" % timeout
                    else:
                        continue
                running.remove(run)
                finish(run)
                report(run)
    except KeyboardInterrupt:
        for run in running:
            run.status = "interrupted"
            kill(run, signal.SIGTERM)
        deadline = time.monotonic() + 5
        for run in running:
            try:
                run.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                kill(run, signal.SIGKILL)
                run.proc.wait()
        raise


# ---------------------------------------------------------------------------------------------
# Gathering


def gather(runs, names, path):
    """Write the tidy CSV: grid parameters, then the union of the summaries' columns (in the
    order first seen), one line per summary row of every finished run, in grid order.
    Returns the number of rows."""
    columns, rows = [], []
    for run in runs:
        if run.status not in ("done", "skipped"):
            continue
        with open(run.summary, newline="", encoding="utf-8") as f:
            table = [r for r in csv.reader(f) if r]
        header = [h.strip() for h in table[0]]
        for h in header:
            if h not in columns and h not in names:
                columns.append(h)
        for r in table[1:]:
            record = dict(zip(header, r))
            for n in names:  # a summary that repeats a parameter: the grid's value wins
                if n in record and record[n] != run.point[n]:
                    sys.stderr.write("sweep: warning: %s: column %s is %r, the grid's value %r "
                                     "kept\n" % (run.summary, n, record[n], run.point[n]))
            record.update(run.point)
            rows.append(record)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(list(names) + columns)
    for record in rows:
        w.writerow([record.get(c, "") for c in list(names) + columns])
    write_file(path, buf.getvalue())
    return len(rows)


def write_status(runs, names, path):
    """``runs.csv``: every run's parameters, id, status, exit code, seconds and message."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(list(names) + ["run_id", "status", "exit_code", "seconds", "message"])
    for run in runs:
        w.writerow([run.point[n] for n in names] + [
            run.id, run.status, "" if run.returncode is None else run.returncode,
            "" if run.seconds is None else "%.3f" % run.seconds, run.message])
    write_file(path, buf.getvalue())


# ---------------------------------------------------------------------------------------------
# Command line


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="%(prog)s --out DIR --grid name=v1,v2 [...] [options] -- COMMAND [ARG...]")
    p.add_argument("--out", required=True, metavar="DIR", help="sweep directory (created)")
    p.add_argument("--grid", action="append", default=[], metavar="NAME=VALUES",
                   help="a parameter and its values: v1,v2,... and/or start:stop:step "
                        "(stop included); repeat for each parameter")
    p.add_argument("--grid-file", metavar="FILE.json",
                   help='parameters from a JSON object {"name": [values], ...}')
    p.add_argument("--zip", action="append", default=[], metavar="A,B",
                   help="parameters that vary together (equal-length lists), not as a product")
    p.add_argument("--seeds", type=int, metavar="K",
                   help="add the axis seed=1..K (replications; pass {seed} to the command)")
    p.add_argument("--cmd", metavar="TEMPLATE",
                   help="the command template as one string (split like a shell would, no "
                        "shell runs it); instead of the words after --")
    p.add_argument("--summary", default="{run_dir}/summary.csv", metavar="TEMPLATE",
                   help="where a run writes its summary CSV (default: {run_dir}/summary.csv)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="runs at once (default: one per core, %d here)" % default_jobs())
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="kill a run after this long and count it failed (default: none)")
    p.add_argument("--force", action="store_true", help="rerun finished runs too")
    p.add_argument("--dry-run", action="store_true",
                   help="print the commands that would run (and list finished ones); run none")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARG...]")
    args = p.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    return p, args


def default_jobs():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def plan(args):
    """Validate everything and build the runs; raises SweepError."""
    if args.cmd is not None and args.command:
        raise SweepError("give the command either with --cmd or after --, not both")
    if args.cmd is not None:
        try:
            command = shlex.split(args.cmd)
        except ValueError as err:
            raise SweepError("--cmd %r: %s" % (args.cmd, err))
    else:
        command = list(args.command)
    if not command:
        raise SweepError("no command: put it after -- (e.g. -- build/examples/cc-workload "
                         "--kmin={kmin} --summary={summary})")
    if args.jobs is not None and args.jobs < 1:
        raise SweepError("--jobs %d: need at least 1" % args.jobs)
    if args.timeout is not None and args.timeout <= 0:
        raise SweepError("--timeout %g: must be positive" % args.timeout)
    grid = read_grid_file(args.grid_file) if args.grid_file else []
    grid += [parse_grid_arg(g) for g in args.grid]
    if args.seeds is not None:
        if args.seeds < 1:
            raise SweepError("--seeds %d: need at least 1" % args.seeds)
        grid.append(("seed", [str(s) for s in range(1, args.seeds + 1)]))
    names = [n for n, _ in grid]
    for n in names:
        if names.count(n) > 1:
            raise SweepError("grid parameter %r given twice%s" % (
                n, " (--seeds adds seed)" if n == "seed" and args.seeds else ""))
    if not grid:
        raise SweepError("no grid: give --grid name=v1,v2 (or --grid-file, --seeds)")
    check_templates(command, args.summary, names)
    points = expand_runs(build_axes(grid, args.zip))
    out_dir = os.path.abspath(args.out)
    cwd = os.getcwd()
    ids = [run_id(pt) for pt in points]
    for i, pt in enumerate(points):  # unique unless values differ only in replaced characters
        if ids.index(ids[i]) != i:
            ids[i] = "%s_%s" % (ids[i], point_hash(pt))
    runs = [Run(i, pt, ids[i], out_dir, command, args.summary, cwd)
            for i, pt in enumerate(points)]
    summaries = {}
    for run in runs:
        if run.summary in summaries:
            raise SweepError("--summary %r: runs %s and %s would write the same file %s "
                             "(use {run_dir})" % (args.summary, summaries[run.summary].id,
                                                  run.id, run.summary))
        summaries[run.summary] = run
    return names, runs, out_dir, cwd


def _interrupt(signum, frame):
    """SIGTERM handler: stop like Ctrl-C."""
    raise KeyboardInterrupt


def main(argv=None):
    parser, args = parse_args(sys.argv[1:] if argv is None else argv)
    prog = "sweep"
    try:
        names, runs, out_dir, cwd = plan(args)
    except SweepError as err:
        sys.stderr.write("%s: error: %s\n" % (prog, err))
        return 2
    changed = [r for r in runs if r.finished() and not args.force
               and r.recorded_command() != r.cmd_text]
    if changed:
        sys.stderr.write(
            "%s: error: %d finished run%s in %s had another command; rerun them with --force "
            "or use another --out. First: %s\n  was: %s\n  now: %s\n"
            % (prog, len(changed), "s" if len(changed) > 1 else "", out_dir, changed[0].id,
               changed[0].recorded_command(), changed[0].cmd_text))
        return 2
    for run in runs:
        if run.finished() and not args.force:
            run.status = "skipped"
    todo = [r for r in runs if r.status == "pending"]
    jobs = args.jobs or default_jobs()
    if args.dry_run:
        for run in runs:
            if run.status == "skipped":
                print("# finished: %s" % run.id)
            else:
                print(run.cmd_text)
        print("# %d runs: %d to run, %d finished (--jobs %d)"
              % (len(runs), len(todo), len(runs) - len(todo), jobs))
        return 0
    os.makedirs(os.path.join(out_dir, "runs"), exist_ok=True)
    print("sweep: %d runs in %s: %d to run, %d already finished; %d at once"
          % (len(runs), out_dir, len(todo), len(runs) - len(todo), jobs), flush=True)
    counter = [0]

    def report(run):
        counter[0] += 1
        what = ("done (%.1f s)" % run.seconds if run.status == "done"
                else "FAILED: %s" % run.message)
        print("[%d/%d] %s %s" % (counter[0], len(todo), run.id, what), flush=True)

    # SIGTERM (e.g. a job scheduler's kill) stops the runs like Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        execute(todo, jobs, cwd, args.timeout, report)
    except KeyboardInterrupt:
        write_status(runs, names, os.path.join(out_dir, "runs.csv"))
        sys.stderr.write("%s: interrupted; the unfinished runs rerun when the same command is "
                         "given again\n" % prog)
        return 130
    write_status(runs, names, os.path.join(out_dir, "runs.csv"))
    sweep_csv = os.path.join(out_dir, "sweep.csv")
    rows = gather(runs, names, sweep_csv)
    failed = [r for r in runs if r.status == "failed"]
    ran = sum(r.status == "done" for r in runs)
    print("sweep: %d runs: %d ran, %d already finished, %d failed; %d rows in %s"
          % (len(runs), ran, len(runs) - len(todo), len(failed), rows, sweep_csv))
    if failed:
        sys.stderr.write("%s: %d run%s failed (not in sweep.csv; the next invocation reruns "
                         "them):\n" % (prog, len(failed), "s" if len(failed) > 1 else ""))
        for run in failed:
            sys.stderr.write("  %s: %s (%s)\n" % (run.id, run.message, run.dir))
            for line in tail(run.path("stderr.txt"), STDERR_TAIL):
                sys.stderr.write("    | %s\n" % line)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
