#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Self-test of sweep.py and plot_sweep.py (run by CTest as sweep-selftest).

A tiny fake simulator (written to a temporary directory) sleeps briefly, logs its start and
end to a file and writes a two-row summary CSV from its arguments; it fails for one chosen
value and can be made slow through an environment variable. The tests check the runs and
their commands, parallel execution, skipping finished runs, rerunning an unfinished one and
after an interrupt, a failure recorded while the other runs complete, the exact gathered
CSV, the grid errors, and that plot_sweep.py draws a heatmap and a line plot and names a
missing column. The sweep driver needs only the standard library; the plots need Debian's
python3-matplotlib and python3-pandas (plot_sweep.py re-runs itself under /usr/bin/python3
when the first python3 lacks them).
"""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP = os.path.join(HERE, "sweep.py")
PLOT = os.path.join(HERE, "plot_sweep.py")
sys.path.insert(0, HERE)
import sweep  # noqa: E402

FAKE = r'''
import argparse, os, sys, time
p = argparse.ArgumentParser()
p.add_argument("--alpha", required=True)
p.add_argument("--mode", default="-")
p.add_argument("--seed", default="0")
p.add_argument("--summary", required=True)
p.add_argument("--log", required=True)
a = p.parse_args()
def log(what):
    fd = os.open(a.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, ("%s %s %s %s %d %.6f\n" % (what, a.alpha, a.mode, a.seed, os.getpid(),
                                             time.time())).encode())
    os.close(fd)
log("start")
slow = os.environ.get("FAKE_SLOW_ALPHA")
time.sleep(60 if slow == a.alpha else float(os.environ.get("FAKE_SLEEP", "0.2")))
if a.alpha == os.environ.get("FAKE_FAIL_ALPHA"):
    sys.stdout.write("simulating alpha=%s\n" % a.alpha)
    sys.stderr.write("warming up\nfake: alpha=%s is not supported\n" % a.alpha)
    log("fail")
    sys.exit(3)
with open(a.summary, "w") as f:
    f.write("bucket,flows,p99_slowdown\n")
    f.write("small,10,%s\n" % (float(a.alpha) * 2))
    f.write("large,%d,%s.5\n" % (len(a.mode), a.alpha))
log("end")
'''


class SweepCase(unittest.TestCase):
    """A temporary directory with the fake simulator and helpers to run the scripts."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sweep-selftest-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.fake = os.path.join(self.tmp, "fake_sim.py")
        with open(self.fake, "w") as f:
            f.write(FAKE)
        self.log = os.path.join(self.tmp, "invocations.log")
        self.out = os.path.join(self.tmp, "out")
        self.env = dict(os.environ)
        for k in ("FAKE_SLOW_ALPHA", "FAKE_FAIL_ALPHA", "FAKE_SLEEP"):
            self.env.pop(k, None)

    def command(self, mode=True, seed=False):
        """The fake simulator's command template (after --)."""
        cmd = [sys.executable, self.fake, "--alpha={alpha}"]
        if mode:
            cmd += ["--mode", "{mode}"]
        if seed:
            cmd += ["--seed={seed}"]
        return cmd + ["--summary={summary}", "--log", self.log]

    def sweep(self, *args, command=None, popen=False):
        """Run sweep.py with ``args`` then -- command; returns CompletedProcess (or Popen)."""
        argv = [sys.executable, SWEEP, "--out", self.out] + list(args) + ["--"] + (
            command or self.command())
        if popen:
            return subprocess.Popen(argv, cwd=self.tmp, env=self.env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        return subprocess.run(argv, cwd=self.tmp, env=self.env, capture_output=True,
                              text=True, timeout=60)

    def invocations(self, what="start"):
        """(alpha, mode, seed, pid, time) of every logged ``what`` line of the fake."""
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            rows = [line.split() for line in f if line.startswith(what + " ")]
        return [(r[1], r[2], r[3], int(r[4]), float(r[5])) for r in rows]

    def read(self, *parts):
        with open(os.path.join(self.out, *parts)) as f:
            return f.read()

    def status(self):
        """The rows of runs.csv."""
        with open(os.path.join(self.out, "runs.csv"), newline="") as f:
            return list(csv.DictReader(f))

    def run_dirs(self):
        runs = os.path.join(self.out, "runs")
        return sorted(os.listdir(runs)) if os.path.isdir(runs) else []


class Runs(SweepCase):
    GRID = ["--grid", "alpha=1:2:1", "--grid", "mode=x,yy"]
    IDS = ["alpha=1_mode=x", "alpha=1_mode=yy", "alpha=2_mode=x", "alpha=2_mode=yy"]
    SWEEP_CSV = ("alpha,mode,bucket,flows,p99_slowdown\n"
                 "1,x,small,10,2.0\n"
                 "1,x,large,1,1.5\n"
                 "1,yy,small,10,2.0\n"
                 "1,yy,large,2,1.5\n"
                 "2,x,small,10,4.0\n"
                 "2,x,large,1,2.5\n"
                 "2,yy,small,10,4.0\n"
                 "2,yy,large,2,2.5\n")

    def test_runs_in_parallel_gathers_and_resumes(self):
        """4 runs at once: each gets its directory, exact command, logs and done marker, they
        overlap in time, and sweep.csv holds the parameters then the summary, in grid order.
        A second invocation runs nothing; one without a done marker is rerun alone; --force
        reruns all."""
        self.env["FAKE_SLEEP"] = "2.0"  # overlap even when python starts slowly (busy CI)
        r = self.sweep("--jobs", "4", *self.GRID)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.run_dirs(), self.IDS)
        starts, ends = self.invocations("start"), self.invocations("end")
        self.assertEqual(sorted((a, m) for a, m, *_ in starts),
                         [("1", "x"), ("1", "yy"), ("2", "x"), ("2", "yy")])
        self.assertLess(max(t for *_, t in starts), min(t for *_, t in ends),
                        "the 4 runs did not overlap: not run in parallel")
        run_dir = os.path.join(self.out, "runs", "alpha=2_mode=yy")
        self.assertEqual(self.read("runs", "alpha=2_mode=yy", "cmd.txt"), " ".join([
            sys.executable, self.fake, "--alpha=2", "--mode", "yy",
            "--summary=%s/summary.csv" % run_dir, "--log", self.log]) + "\n")
        for name in ("done", "stdout.txt", "stderr.txt", "summary.csv", "params.json"):
            self.assertTrue(os.path.exists(os.path.join(run_dir, name)), name)
        self.assertEqual(json.loads(self.read("runs", "alpha=2_mode=yy", "params.json")),
                         {"alpha": "2", "mode": "yy"})
        self.assertEqual(self.read("sweep.csv"), self.SWEEP_CSV)
        status = self.status()
        self.assertEqual([(s["run_id"], s["status"]) for s in status],
                         [(i, "done") for i in self.IDS])
        self.assertIn("4 ran, 0 already finished, 0 failed; 8 rows", r.stdout)

        self.env["FAKE_SLEEP"] = "0.05"
        r = self.sweep(*self.GRID)  # everything finished: nothing runs
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(self.invocations()), 4)
        self.assertIn("0 ran, 4 already finished", r.stdout)
        self.assertEqual(self.read("sweep.csv"), self.SWEEP_CSV)

        os.remove(os.path.join(self.out, "runs", "alpha=1_mode=yy", "done"))  # killed mid-run
        r = self.sweep(*self.GRID)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([(a, m) for a, m, *_ in self.invocations()[4:]], [("1", "yy")])
        self.assertEqual(self.read("sweep.csv"), self.SWEEP_CSV)

        r = self.sweep("--force", *self.GRID)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(self.invocations()), 9)
        self.assertEqual(self.read("sweep.csv"), self.SWEEP_CSV)

    def test_extended_grid_runs_only_new_points(self):
        """Adding a value keeps the finished runs (stable ids) and runs the new ones."""
        r = self.sweep("--grid", "alpha=1", "--grid", "mode=x,yy")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.sweep(*self.GRID)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted((a, m) for a, m, *_ in self.invocations()[2:]),
                         [("2", "x"), ("2", "yy")])
        self.assertEqual(self.read("sweep.csv"), self.SWEEP_CSV)

    def test_changed_command_is_refused(self):
        """A finished run whose command template changed is an error, not a silent mix."""
        self.assertEqual(self.sweep("--grid", "alpha=1", "--grid", "mode=x").returncode, 0)
        cmd = self.command() + ["--extra"]
        r = self.sweep("--grid", "alpha=1", "--grid", "mode=x", command=cmd)
        self.assertEqual(r.returncode, 2)
        self.assertIn("had another command", r.stderr)
        self.assertEqual(len(self.invocations()), 1)

    def test_failure_recorded_others_complete(self):
        """alpha=2 exits 3: the other runs finish and are gathered, the failure is recorded
        (exit code, stderr tail) and reported, the exit status is 1; the next invocation
        reruns only the failed run."""
        self.env["FAKE_FAIL_ALPHA"] = "2"
        r = self.sweep("--jobs", "2", "--grid", "alpha=1,2,3", "--grid", "mode=x")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual(self.read("sweep.csv"),
                         "alpha,mode,bucket,flows,p99_slowdown\n"
                         "1,x,small,10,2.0\n1,x,large,1,1.5\n"
                         "3,x,small,10,6.0\n3,x,large,1,3.5\n")
        failed = self.read("runs", "alpha=2_mode=x", "failed")
        self.assertEqual(failed, "exit code 3\nwarming up\nfake: alpha=2 is not supported\n")
        self.assertFalse(os.path.exists(os.path.join(self.out, "runs", "alpha=2_mode=x", "done")))
        self.assertIn("1 run failed", r.stderr)
        self.assertIn("alpha=2_mode=x: exit code 3", r.stderr)
        self.assertIn("| fake: alpha=2 is not supported", r.stderr)
        self.assertIn("FAILED: exit code 3", r.stdout)
        status = {s["run_id"]: s for s in self.status()}
        failed_run = status["alpha=2_mode=x"]
        self.assertEqual((failed_run["status"], failed_run["exit_code"]), ("failed", "3"))
        self.assertEqual(status["alpha=3_mode=x"]["status"], "done")

        del self.env["FAKE_FAIL_ALPHA"]
        r = self.sweep("--grid", "alpha=1,2,3", "--grid", "mode=x")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([a for a, *_ in self.invocations()[3:]], ["2"])
        self.assertIn("2,x,small,10,4.0\n", self.read("sweep.csv"))

    def test_missing_summary_is_a_failure(self):
        """Exit 0 without a summary is no success: no done marker."""
        cmd = [sys.executable, "-c", "print('{alpha}')"]
        r = self.sweep("--grid", "alpha=1", command=cmd)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no summary at", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, "runs", "alpha=1", "done")))

    def test_interrupt_then_resume(self):
        """SIGINT while alpha=2 runs: the sweep stops it, exits 130, leaves it without a done
        marker; the next invocation runs only alpha=2."""
        self.env["FAKE_SLOW_ALPHA"] = "2"
        p = self.sweep("--jobs", "2", "--grid", "alpha=1,2", "--grid", "mode=x", popen=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.invocations("end") and len(self.invocations("start")) == 2 and os.path.exists(
                    os.path.join(self.out, "runs", "alpha=1_mode=x", "done")):
                break
            time.sleep(0.05)
        slow_pid = [pid for a, _, _, pid, _ in self.invocations() if a == "2"][0]
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 130, err)
        self.assertIn("interrupted", err)
        time.sleep(0.2)
        with self.assertRaises(ProcessLookupError):  # the slow run was stopped
            os.kill(slow_pid, 0)
        self.assertFalse(os.path.exists(os.path.join(self.out, "runs", "alpha=2_mode=x", "done")))

        del self.env["FAKE_SLOW_ALPHA"]
        r = self.sweep("--grid", "alpha=1,2", "--grid", "mode=x")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([a for a, *_ in self.invocations()[2:]], ["2"])
        self.assertEqual(self.read("sweep.csv").count("\n"), 5)

    def test_dry_run_zip_seeds(self):
        """--dry-run prints the commands in grid order and runs nothing; --zip pairs values;
        --seeds adds seed=1..K as the last axis."""
        r = self.sweep("--dry-run", "--grid", "alpha=1,2", "--grid", "mode=a,b",
                       "--zip", "alpha,mode", "--seeds", "2",
                       command=self.command(seed=True))
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 5)
        expect = [("1", "a", "1"), ("1", "a", "2"), ("2", "b", "1"), ("2", "b", "2")]
        for line, (a, m, s) in zip(lines, expect):
            self.assertIn("--alpha=%s --mode %s --seed=%s --summary=" % (a, m, s), line)
            self.assertIn("/runs/alpha=%s_mode=%s_seed=%s/summary.csv" % (a, m, s), line)
        self.assertIn("4 runs: 4 to run", lines[-1])
        self.assertFalse(os.path.exists(self.out))
        self.assertEqual(self.invocations(), [])


class GridErrors(SweepCase):
    CASES = [
        (["--grid", "alpha"], "--grid 'alpha': expected name=v1,v2"),
        (["--grid", "alpha="], "grid alpha=: no values"),
        (["--grid", "alpha=1,,2"], "grid alpha=1,,2: empty value"),
        (["--grid", "alpha=1,2,1"], "grid alpha: value '1' listed twice"),
        (["--grid", "alpha=1:3"], "range '1:3' needs start:stop:step"),
        (["--grid", "alpha=1:3:0"], "range '1:3:0': the step must be positive"),
        (["--grid", "alpha=3:1:1"], "range '3:1:1': stop is below start"),
        (["--grid", "alpha=1", "--grid", "alpha=2"], "grid parameter 'alpha' given twice"),
        (["--grid", "al-pha=1"], "parameter name 'al-pha' must be letters"),
        (["--grid", "run_dir=1"], "parameter name 'run_dir' is reserved"),
        (["--grid", "alpha=1", "--grid", "mode=x", "--grid", "beta=2"],
         "grid parameter beta not in the command template"),
        (["--grid", "alpha=1"], "placeholder {mode} is not a grid parameter (grid: alpha;"),
        (["--grid", "alpha=1,2", "--grid", "mode=x", "--zip", "alpha,mode"],
         "--zip alpha,mode: the value lists differ in length (alpha: 2, mode: 1)"),
        (["--grid", "alpha=1", "--grid", "mode=x", "--zip", "alpha,gamma"],
         "--zip alpha,gamma: 'gamma' is not a grid parameter"),
        (["--grid", "alpha=1", "--grid", "mode=x", "--seeds", "0"], "--seeds 0"),
        ([], "no grid"),
    ]

    def test_bad_grids_exit_2_before_any_run(self):
        for args, message in self.CASES:
            with self.subTest(args=args):
                r = self.sweep(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertFalse(os.path.exists(self.out))
        self.assertEqual(self.invocations(), [])

    def test_grid_file(self):
        path = os.path.join(self.tmp, "grid.json")
        with open(path, "w") as f:
            f.write('{"alpha": [1, 2.5], "mode": "x,y"}')
        r = self.sweep("--dry-run", "--grid-file", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--alpha=2.5 --mode y", r.stdout.splitlines()[3])
        with open(path, "w") as f:
            f.write('{"alpha": [], "mode": "x"}')
        r = self.sweep("--grid-file", path)
        self.assertEqual(r.returncode, 2)
        self.assertIn("grid alpha: no values", r.stderr)


class Functions(unittest.TestCase):
    def test_ranges_are_exact_and_include_stop(self):
        self.assertEqual(sweep.parse_values("p", "0.1:0.3:0.1"), ["0.1", "0.2", "0.3"])
        self.assertEqual(sweep.parse_values("k", "100:400:100,1000"),
                         ["100", "200", "300", "400", "1000"])
        self.assertEqual(sweep.parse_values("t", "10us,a:b"), ["10us", "a:b"])
        self.assertEqual(sweep.parse_values("x", "-1:1:0.5"), ["-1", "-0.5", "0", "0.5", "1"])

    def test_run_ids(self):
        self.assertEqual(sweep.run_id({"kmin": "100KB", "cc": "dcqcn"}), "kmin=100KB_cc=dcqcn")
        rid = sweep.run_id({"cdf": "data/web search.txt"})
        self.assertRegex(rid, r"^cdf=data-web-search\.txt_[0-9a-f]{10}$")
        self.assertNotEqual(rid, sweep.run_id({"cdf": "data/web-search.txt"}))
        long_id = sweep.run_id({"x": "v" * 300})
        self.assertLessEqual(len(long_id), sweep.MAX_ID + 11)


class Plots(SweepCase):
    CSV = ("kmin,kmax,cc,seed,bucket,p99_slowdown\n" + "".join(
        "%d,%d,%s,%d,%s,%.2f\n" % (kmin, kmax, cc, seed, b,
                                   1 + kmin / kmax + (cc == "none") + seed / 10)
        for kmin in (50, 100, 200) for kmax in (400, 800) for cc in ("dcqcn", "none")
        for seed in (1, 2) for b in ("small", "large")))

    def setUp(self):
        super().setUp()
        self.csv = os.path.join(self.tmp, "sweep.csv")
        with open(self.csv, "w") as f:
            f.write(self.CSV)

    def plot(self, *args):
        return subprocess.run([sys.executable, PLOT, self.csv] + list(args), cwd=self.tmp,
                              capture_output=True, text=True, timeout=120)

    def assertPng(self, path):
        with open(path, "rb") as f:
            head = f.read(8)
        self.assertEqual(head, b"\x89PNG\r\n\x1a\n")
        self.assertGreater(os.path.getsize(path), 5000)

    def test_heatmap(self):
        png = os.path.join(self.tmp, "figs", "heat.png")
        r = self.plot("--x", "kmin", "--y", "kmax", "--metric", "p99_slowdown", "--heatmap",
                      "--filter", "bucket=small", "--facet", "cc", "--agg", "median",
                      "--xlabel", "Kmin (KB)", "--ylabel", "Kmax (KB)", "--out", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertPng(png)

    def test_lines(self):
        png, pdf = os.path.join(self.tmp, "lines.png"), os.path.join(self.tmp, "lines.pdf")
        r = self.plot("--x", "kmin", "--metric", "p99_slowdown", "--hue", "cc",
                      "--filter", "kmax=800", "--filter", "bucket=small,large", "--facet",
                      "bucket", "--agg", "mean", "--out", png, "--out", pdf)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertPng(png)
        with open(pdf, "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")

    def test_errors(self):
        r = self.plot("--x", "kmin", "--metric", "p99", "--out", "x.png")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no column 'p99'; available columns: kmin, kmax, cc, seed, bucket, "
                      "p99_slowdown", r.stderr)
        r = self.plot("--x", "kmin", "--y", "kmax", "--metric", "p99_slowdown", "--heatmap",
                      "--filter", "cc=dcqcn", "--out", "x.png")
        self.assertEqual(r.returncode, 2)
        self.assertIn("have several rows", r.stderr)
        self.assertIn("they differ in seed, bucket", r.stderr)
        self.assertIn("--agg median|mean|min|max", r.stderr)
        r = self.plot("--x", "kmin", "--metric", "p99_slowdown", "--filter", "cc=cubic",
                      "--out", "x.png")
        self.assertEqual(r.returncode, 2)
        self.assertIn("keeps no row; column 'cc' has dcqcn, none", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.png")))

    def test_empty_points_are_skipped_not_zero(self):
        # Issue 39: an empty size bucket (blank, or flows = 0 in older outputs) is no point.
        with open(self.csv, "w") as f:
            f.write("kmin,bucket,flows,p99_slowdown\n50,0,0,\n100,0,3,2.5\n200,0,0,0.000000\n"
                    "50,all,9,3.0\n100,all,9,3.5\n200,all,9,4.0\n")
        png = os.path.join(self.tmp, "empty.png")
        r = self.plot("--x", "kmin", "--metric", "p99_slowdown", "--facet", "bucket",
                      "--out", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("skipped 2 empty point(s)", r.stderr)
        self.assertPng(png)
        r = self.plot("--x", "kmin", "--metric", "p99_slowdown", "--filter", "bucket=0",
                      "--filter", "kmin=50,200", "--out", png)
        self.assertEqual(r.returncode, 2)
        self.assertIn("every point of 'p99_slowdown' is empty", r.stderr)

    def test_help_example_filter_is_valid(self):
        # The --help text's own example filters on a bucket the summaries have.
        r = subprocess.run([sys.executable, PLOT, "--help"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--filter bucket=all", r.stdout)
        self.assertNotIn("bucket=small", r.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
