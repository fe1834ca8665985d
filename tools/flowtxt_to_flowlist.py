#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Convert an HPCC-lineage flow file (flow.txt) into an ai-fabric flow list.

flow.txt (the HPCC simulator and the ns-3 simulators derived from it):

    N                                            first line: the number of flows
    src dst priority dport size start_time_s     one line per flow

ai-fabric flow list (model/traffic/flow-list.h, cc-workload --flows=FILE):

    # ai-fabric flow list: src dst size_bytes start_ns
    src dst size_bytes start_ns                  one line per flow, non-decreasing starts

    tools/flowtxt_to_flowlist.py flow.txt flows.txt
    ./build/examples/cc-workload --flows=flows.txt --cc=hpcc --fct=fct.csv

Starts are converted exactly (decimal seconds to nanoseconds, to the picosecond); flows are
written in start order (a stable sort: equal starts keep the file's order; the script says
when it had to reorder). The destination port is dropped (ai-fabric chooses its own UDP
ports and entropy). ai-fabric runs every flow in the transport's data class, so the priority
column must hold one value for all flows (it is written as a comment); flows of several
priorities are refused unless --ignore-priority. Errors name the file and the line and exit
with status 2.
"""

import argparse
import sys
from decimal import Decimal, InvalidOperation

HEADER = "# ai-fabric flow list: src dst size_bytes start_ns"


class InputError(Exception):
    """A malformed input file (the message names the file and the line)."""


def whole(path, line_no, name, text, lo, hi):
    if not text.isdigit():
        raise InputError("%s:%d: %s %r is not a whole number; expected %d..%d"
                         % (path, line_no, name, text, lo, hi))
    v = int(text)
    if v < lo or v > hi:
        raise InputError("%s:%d: %s %d is out of range; expected %d..%d"
                         % (path, line_no, name, v, lo, hi))
    return v


def convert(path, lines, ignore_priority):
    """Return (flows as (start_ns Decimal, src, dst, size), priorities seen, reordered?)."""
    body = [(i + 1, l.split()) for i, l in enumerate(lines)]
    body = [(n, f) for n, f in body if f and not f[0].startswith("#")]
    if not body:
        raise InputError("%s: empty file; expected the number of flows on the first line"
                         % path)
    n0, first = body[0]
    if len(first) != 1:
        raise InputError("%s:%d: expected the number of flows alone on the first line, got %d "
                         "fields" % (path, n0, len(first)))
    count = whole(path, n0, "flow count", first[0], 0, 2**63)
    flows = []
    priorities = set()
    for n, f in body[1:]:
        if len(f) != 6:
            raise InputError("%s:%d: %d fields; expected 'src dst priority dport size "
                             "start_time_s'" % (path, n, len(f)))
        src = whole(path, n, "src", f[0], 0, 2**32 - 1)
        dst = whole(path, n, "dst", f[1], 0, 2**32 - 1)
        prio = whole(path, n, "priority", f[2], 0, 7)
        whole(path, n, "dport", f[3], 0, 65535)
        size = whole(path, n, "size", f[4], 1, 2**64 - 1)
        if src == dst:
            raise InputError("%s:%d: a flow from host %d to itself" % (path, n, src))
        try:
            start = Decimal(f[5])
        except InvalidOperation:
            raise InputError("%s:%d: start %r is not a number of seconds" % (path, n, f[5]))
        if not start.is_finite() or start < 0:
            raise InputError("%s:%d: start %r is invalid; expected seconds >= 0"
                             % (path, n, f[5]))
        ns = (start * Decimal(10**9)).quantize(Decimal("0.001"))
        if ns > Decimal("9e15"):
            raise InputError("%s:%d: start %s s is too late (the flow list ends at 9e6 s)"
                             % (path, n, f[5]))
        priorities.add(prio)
        flows.append((ns, src, dst, size))
    if len(flows) != count:
        raise InputError("%s:%d: the first line says %d flows but the file has %d"
                         % (path, n0, count, len(flows)))
    if len(priorities) > 1 and not ignore_priority:
        raise InputError("%s: flows of priorities %s; ai-fabric runs every flow in the "
                         "transport's data class (split the file by priority, or pass "
                         "--ignore-priority)" % (path, sorted(priorities)))
    ordered = sorted(flows, key=lambda x: x[0])
    return ordered, priorities, ordered != flows


def fmt_ns(ns):
    text = format(ns.normalize(), "f")
    return text


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("flowtxt", help="the HPCC-lineage flow file (flow.txt)")
    p.add_argument("output", help="the ai-fabric flow list to write ('-': standard output)")
    p.add_argument("--ignore-priority", action="store_true",
                   help="accept flows of several priorities (all run in one data class)")
    args = p.parse_args(argv)
    try:
        with open(args.flowtxt, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        flows, prios, reordered = convert(args.flowtxt, lines, args.ignore_priority)
    except OSError as e:
        print("flowtxt_to_flowlist: error: cannot read %s: %s" % (args.flowtxt, e.strerror),
              file=sys.stderr)
        return 2
    except InputError as e:
        print("flowtxt_to_flowlist: error: %s" % e, file=sys.stderr)
        return 2
    out_lines = [HEADER,
                 "# converted from %s (HPCC flow.txt): %d flows, priority %s"
                 % (args.flowtxt, len(flows), ",".join(str(x) for x in sorted(prios)) or "-")]
    out_lines += ["%d %d %d %s" % (src, dst, size, fmt_ns(ns)) for ns, src, dst, size in flows]
    text = "\n".join(out_lines) + "\n"
    try:
        if args.output == "-":
            sys.stdout.write(text)
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
    except OSError as e:
        print("flowtxt_to_flowlist: error: cannot write %s: %s" % (args.output, e.strerror),
              file=sys.stderr)
        return 2
    if reordered:
        print("flowtxt_to_flowlist: note: flows were not in start order; written sorted by "
              "start", file=sys.stderr)
    if args.output != "-":
        print("wrote %s (%d flows)" % (args.output, len(flows)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
