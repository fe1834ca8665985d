#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Self-test of dcqcn_fluid.py (run by CTest as dcqcn-fluid-selftest): the fixed point against a
hand-computed one, conservation at equilibrium, the trajectory converging to the fixed point,
the marking curve, and the errors for bad parameters. Needs SciPy (python3-scipy)."""

import contextlib
import io
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dcqcn_fluid as fluid  # noqa: E402  (re-runs under /usr/bin/python3 if SciPy is missing)


def small_p_case():
    """40 Gb/s, 2 flows, timer off, F = 0, tiny R_AI: the marking probability is small, so the
    equilibrium has a closed form (see test_fixed_point_matches_hand_computation)."""
    p = fluid.preset("paper", 40e9, flows=2)
    p.increase_timer = 1e3  # s: no timer events
    p.fast_recovery_threshold = 0
    p.rate_ai = 1e4  # bits/s
    p.hyper = False
    return p


class FixedPoint(unittest.TestCase):
    def test_fixed_point_matches_hand_computation(self):
        """With p << 1/B, 1/(tau pkts) and 1/(K pkts): decreases at p pkts per second cut
        Rc alpha/2 with alpha = K pkts p; byte-counter events at pkts/B per second, all of them
        additive (F = 0), so Rt - Rc = R_AI / (p B) and dRc/dt = 0 gives
        p^3 = R_AI / (Rc K pkts B^2)."""
        p = small_p_case()
        rc = 20e9
        pkts = rc / (8 * 4178)  # 598,372 packets/s
        b_pkts = 10e6 / 4096  # 2441.4 packets
        hand = (1e4 / (rc * 55e-6 * pkts * b_pkts ** 2)) ** (1 / 3)
        self.assertAlmostEqual(hand, 1.37e-5, delta=0.01e-5)
        fp = fluid.solve_fixed_point(p)
        self.assertLess(abs(fp["prob"] / hand - 1), 0.02)  # p B = 0.033: ~1 % approximation
        self.assertAlmostEqual(fp["rt"] - fp["rc"], 1e4 / (fp["prob"] * b_pkts),
                               delta=0.03 * (fp["rt"] - fp["rc"]))
        kmin, kmax = 160e3, 640e3
        self.assertAlmostEqual(fp["queue"], kmin + fp["prob"] / 0.2 * (kmax - kmin), delta=1)

    def test_conservation_and_convergence(self):
        """Paper preset at 40 Gb/s, 2 flows, is stable: started 10 % above the fair share and
        integrated for 12 ms, the sum of the rates equals C within 1 %, the queue settles
        between Kmin and Kmax and agrees with the fixed point within 5 %."""
        p = fluid.preset("paper", 40e9, flows=2)
        fp = fluid.solve_fixed_point(p)
        self.assertEqual(fp["rc"] * 2, 40e9)
        tr = fluid.integrate(p, 12e-3, record_every=10e-6, start_rate=22e9)
        tail = range(len(tr["time"]) - 100, len(tr["time"]))  # the last 1 ms
        total = sum(2 * tr["rc"][i] for i in tail) / len(tail)
        queue = sum(tr["queue"][i] for i in tail) / len(tail)
        self.assertLess(abs(total / 40e9 - 1), 0.01)
        self.assertTrue(p.kmin < queue < p.kmax, queue)
        self.assertLess(abs(queue / fp["queue"] - 1), 0.05)

    def test_no_equilibrium_below_pmax(self):
        """Pmax so small that the decrease never balances the increase: a clear error."""
        p = fluid.preset("firmware", 400e9, flows=2)
        p.pmax = 1e-9
        with self.assertRaisesRegex(ValueError, "no equilibrium"):
            fluid.solve_fixed_point(p)


class Marking(unittest.TestCase):
    def test_red_curve(self):
        p = fluid.Params(kmin=100, kmax=300, pmax=0.2)
        self.assertEqual(fluid.mark_probability(p, 100), 0.0)
        self.assertAlmostEqual(fluid.mark_probability(p, 200), 0.1)
        self.assertAlmostEqual(fluid.mark_probability(p, 300), 0.2)
        self.assertEqual(fluid.mark_probability(p, 301), 1.0)

    def test_preset_maps_attributes(self):
        """ECN thresholds scale with the rate (100 KB / 400 KB per 25 Gb/s); the decrease
        interval is the CNP interval or the monitor period."""
        p = fluid.preset("firmware", 400e9)
        self.assertEqual((p.kmin, p.kmax, p.pmax), (1.6e6, 6.4e6, 0.2))
        self.assertEqual((p.cnp_interval, p.reduce_monitor_period, p.increase_timer),
                         (4e-6, 4e-6, 300e-6))
        self.assertEqual(p.byte_counter, 32767 * 64)
        q = fluid.preset("paper", 40e9)
        self.assertEqual((q.kmin, q.alpha_period, q.fast_recovery_threshold), (160e3, 55e-6, 5))
        self.assertTrue(q.clamp_target_rate)


class BadInput(unittest.TestCase):
    def check_rejects(self, field, value, text):
        p = fluid.preset("firmware", 400e9)
        setattr(p, field, value)
        with self.assertRaises(ValueError) as ctx:
            fluid.check(p)
        self.assertIn(field, str(ctx.exception))
        self.assertIn(text, str(ctx.exception))

    def test_parameters(self):
        self.check_rejects("g", -0.1, "(0, 1]")
        self.check_rejects("kmin", 7e6, "<= kmax")
        self.check_rejects("pmax", 1.5, "[0, 1]")
        self.check_rejects("flows", 0, ">= 1")
        self.check_rejects("rate_ai", -5e6, "> 0")
        self.check_rejects("gd", 0.5, ">= 1")
        self.check_rejects("min_decrease_factor", 2.0, "[0, 1]")
        self.check_rejects("cnp_interval", -1e-6, ">= 0")

    def test_command_line(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = fluid.main(["--kmin", "7MB", "--kmax", "6MB"])
        self.assertEqual(rc, 1)
        self.assertIn("kmin = 7000000.0 is invalid; valid range: <= kmax", err.getvalue())
        with contextlib.redirect_stderr(io.StringIO()) as err2:
            with self.assertRaises(SystemExit) as ctx:
                fluid.main(["--g", "x"])
        self.assertEqual(ctx.exception.code, 2)
        with contextlib.redirect_stderr(io.StringIO()) as err3:
            with self.assertRaises(SystemExit):
                fluid.main(["--increase-timer", "5parsecs"])
        self.assertIn("'5parsecs' is not a time", err3.getvalue())
        self.assertIn("argument --g", err2.getvalue())
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(fluid.main(["--preset", "paper", "--capacity", "40Gbps"]), 0)
        self.assertIn("fixed point: rate 20.000 Gb/s per flow", out.getvalue())

    def test_units(self):
        self.assertEqual(fluid.parse_quantity("4us", "time"), 4e-6)
        self.assertEqual(fluid.parse_quantity("400Gbps", "rate"), 400e9)
        self.assertEqual(fluid.parse_quantity("2MiB", "bytes"), 2 << 20)
        self.assertEqual(fluid.parse_quantity("1e3", "bytes"), 1e3)
        with self.assertRaises(ValueError):
            fluid.integrate(fluid.preset("paper", 40e9), -1.0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
