#!/usr/bin/env python3
"""Project the wall time of one ai-fabric simulation across P MPI processes from two measured
runs of it: with 1 process and with 2 (the per-process lines that AI_FABRIC_MPI_DEBUG=1 makes
distributed-permutation, distributed-collective, rail-allreduce and uet-matrix print on
stderr, and their stdout).

Model (per process p, dedicated cores, every process waits for the slowest at each
synchronization):
    T(P) = max_p [ E_p * c_event + X_p * c_frame ] + W * c_sync
    E_p  = E / P                 events of the process (the partition deals whole racks)
    X_p  = 2 * L * (P - 1) / P^2 frames it sends and receives across processes: a leaf-spine
                                 frame crosses when its ends are in different processes,
                                 (P - 1) / P of the L leaf-spine frames, shared by P processes
    W    = simulated time / lookahead, the synchronizations
c_event is the 1-process run's time per event; L comes from the 2-process run (its crossing
frames are L / 2); c_frame is what the 2-process run took beyond its events, per frame sent or
received (it includes the 2-process run's synchronizations: conservative). c_sync, the cost of
one synchronization (an MPI all-gather of the processes' next event times), cannot be measured
on one machine for many processes: --sync-us gives it (default 20 us, an all-gather of 16-64
processes on a cluster network; shared memory on one machine takes a few us).

Usage: mpi-projection.py NP1_STDOUT NP1_STDERR NP2_STDOUT NP2_STDERR [--units N] [--sync-us US]
Prints the measured constants and a table for P = 1, 2, 4, ..., 64 (at most --units, the
partitionable units: the racks of distributed-permutation).
"""
import argparse
import re
import sys

PROC = re.compile(r"process (\d+): (\d+) events, Simulator::Run ([0-9.e+-]+) s, (\d+) frames")
LAST = re.compile(r"last at ([0-9.]+) us")
SIMULATED = re.compile(r"simulated \+([0-9.]+)ms")  # rail-allreduce's last line (stderr)
LOOK = re.compile(r"lookahead (\d+) ns")


def processes(path):
    """The per-process (events, run seconds, frames sent) of one run's stderr."""
    text = open(path).read()
    rows = {int(m.group(1)): (int(m.group(2)), float(m.group(3)), int(m.group(4)))
            for m in PROC.finditer(text)}
    if not rows:
        sys.exit(f"mpi-projection: {path} has no 'process N: ... events' lines "
                 "(run with AI_FABRIC_MPI_DEBUG=1)")
    return [rows[k] for k in sorted(rows)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("np1_out")
    ap.add_argument("np1_err")
    ap.add_argument("np2_out")
    ap.add_argument("np2_err")
    ap.add_argument("--units", type=int, default=64, help="partitionable units (racks)")
    ap.add_argument("--sync-us", type=float, default=20.0, help="one synchronization, us")
    a = ap.parse_args()
    one = processes(a.np1_err)
    two = processes(a.np2_err)
    if len(one) != 1 or len(two) != 2:
        sys.exit(f"mpi-projection: expected runs of 1 and 2 processes, got {len(one)} and "
                 f"{len(two)}")
    out2 = open(a.np2_out).read()
    # The simulated time: distributed-permutation's table says it, distributed-collective's
    # debug output on stderr.
    last = LAST.search(open(a.np1_out).read()) or LAST.search(open(a.np1_err).read())
    simulated = SIMULATED.search(open(a.np1_err).read())
    if not last and not simulated:
        sys.exit("mpi-projection: the 1-process run says no 'last at ... us' and no "
                 "'simulated +... ms'")
    sim_us = float(last.group(1)) if last else float(simulated.group(1)) * 1000.0
    look = LOOK.search(out2) or LOOK.search(open(a.np2_err).read())
    if not look or int(look.group(1)) <= 0:
        sys.exit("mpi-projection: the 2-process run says no 'lookahead N ns'")
    lookahead_us = int(look.group(1)) / 1000.0
    events, t1, _ = one[0]
    c_event = t1 / events
    crossing = sum(p[2] for p in two)   # frames sent across, both processes
    leaf_spine = 2 * crossing           # half of them cross with 2 processes
    slowest = max(two, key=lambda p: p[1])
    extra = slowest[1] - slowest[0] * c_event
    c_frame = max(extra, 0.0) / crossing  # each process sends or receives every crossing frame
    windows = sim_us / lookahead_us
    c_sync = a.sync_us * 1e-6
    print(f"measured: {events} events in {t1:.2f} s with 1 process ({c_event * 1e9:.0f} ns per "
          f"event); 2 processes: {crossing} frames across, slowest process {slowest[1]:.2f} s "
          f"({c_frame * 1e9:.0f} ns per frame sent or received beyond its events); "
          f"{windows:.0f} synchronizations ({sim_us:.1f} us simulated / {lookahead_us:.3f} us "
          f"lookahead), {a.sync_us:g} us each assumed")
    print(f"{'P':>4} {'events/P':>10} {'frames/P':>10} {'events s':>9} {'frames s':>9} "
          f"{'sync s':>7} {'T(P) s':>8} {'speed-up':>9}")
    p = 1
    while p <= min(64, a.units):
        e_p = events / p
        x_p = 2 * leaf_spine * (p - 1) / (p * p)
        te = e_p * c_event
        tf = x_p * c_frame
        ts = windows * c_sync if p > 1 else 0.0
        total = te + tf + ts
        print(f"{p:>4} {e_p / 1e6:>9.2f}M {x_p / 1e6:>9.2f}M {te:>9.2f} {tf:>9.2f} {ts:>7.2f} "
              f"{total:>8.2f} {t1 / total:>8.1f}x")
        p *= 2


if __name__ == "__main__":
    main()
