#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""DCQCN fluid model (Zhu et al., "ECN or Delay: Lessons Learnt from Analysis of DCQCN and
TIMELY", CoNEXT 2016) for N symmetric flows through one bottleneck, with the parameters of
ai-fabric's DcqcnCongestionOps / DcqcnNotificationPoint / WredEcnMarker.

State: current rate Rc and target rate Rt (bits/s on the wire, per flow), alpha, and the
bottleneck queue q (bytes). With p = RED(q) seen one feedback delay tau* ago and Rd the per
flow rate then (packets/s), the paper's terms are

  a = 1 - (1-p)^(tau Rd)              P(a CNP in one decrease interval tau)
  b = p / ((1-p)^-B - 1)              byte-counter events per packet (B in packets)
  d = p / ((1-p)^-(T Rd) - 1)         timer events per packet (T in seconds)
  c = b (1-p)^(F B), e = d (1-p)^(F T Rd)   the events past F stages (additive increase)

  dRc/dt = -Rc cut(alpha) a/tau + (Rt - Rc)/2 Rd (b + d)
  dRt/dt = -(Rt - Rc) h a/tau + R_AI Rd (c + e)
  dalpha/dt = g/K (P(CNP in an alpha period K) - alpha)
  dq/dt  = N Rc - C          (q >= 0; the link idles when q = 0 and N Rc < C)

How our attributes map onto it (the paper's model is the special case noted in brackets):

* tau = max(CnpInterval, RateReduceMonitorPeriod): a CNP arrives at most once per CnpInterval
  and the rate drops at most once per monitor period [paper: tau = the CNP interval N];
* cut(alpha) = min(alpha / Gd, 1 - MinDecreaseFactor) [alpha / 2];
* h, the fraction of decreases that set Rt <- Rc: 1 with ClampTargetRate [the paper]; with
  ClampTargetRateAfterTimeInc only a decrease that follows a timer increase clamps, so h is a
  fifth state, the probability that a timer increase happened since the last decrease:
  dh/dt = Rd d (1 - h) - h a/tau (timer events at Rd d per second), h(0) = 1 (the first
  decrease always clamps); with neither option h = 0;
* P(CNP in K) = 1 - (1-p)^(K Rd) if K >= CnpInterval [the paper], else K a_N / N with a_N the
  CNP probability in one CnpInterval N (the notification point limits CNPs, so a short alpha
  period sees at most one CNP per N);
* tau* = base loop delay + (with queue_delay) the queueing delay q/C of the marked packet,
  since our switch marks at enqueue [paper: a constant tau*];
* Rc and Rt never exceed the line rate C; Rc never below MinRate.

Hyper increase (not in the paper's model, which has fast recovery and additive increase only;
hyper=False leaves it out): a sixth state, the mean time u since the last CNP, du/dt =
1 - u lambda_N (CNPs at lambda_N = a_N / N per second), gives both stage counters, u/T and the
bytes u Rc over B; once the smaller exceeds F every increase event adds (min - F) R_HAI:
dRt/dt += R_HAI (min - F)+ (1/T + Rc/B). It matters after a deep cut, when nothing is marked
for many T (paper preset: the rate comes back by hyper, not additive, increase).

Integration: the method of steps with a fixed step (Heun's predictor-corrector, delayed values
linearly interpolated in the stored history; dt default: 1/20 of the shortest time scale).
Units: rates bits/s, sizes bytes, times seconds, unless a name says otherwise.
"""

import argparse
import dataclasses
import math
import os
import re
import sys

try:
    import scipy.optimize
except ImportError as err:  # pragma: no cover - depends on the machine
    # Debian's python3-scipy lives in /usr/bin/python3's path; another python3 first in PATH
    # (pyenv, venv) may not see it. Re-run once under Debian's, as tools/plots does.
    _DEBIAN = "/usr/bin/python3"
    if (os.path.realpath(sys.executable) != os.path.realpath(_DEBIAN)
            and os.access(_DEBIAN, os.X_OK) and not os.environ.get("AI_FABRIC_PLOTS_REEXEC")):
        os.environ["AI_FABRIC_PLOTS_REEXEC"] = "1"
        os.execv(_DEBIAN, [_DEBIAN] + sys.argv)
    sys.stderr.write(f"error: {err} (python {sys.executable}). The DCQCN fluid model needs "
                     "SciPy: on Debian `apt-get install python3-scipy`.\n")
    sys.exit(1)

WIRE_BYTES = 4178  # a 4096-byte RoCEv2 payload on the wire (headers, FCS, preamble, IFG)
PAYLOAD_BYTES = 4096
CNP_WIRE_BYTES = 84  # a minimum frame plus preamble and gap


@dataclasses.dataclass
class Params:
    """Every model parameter, in SI units (bits/s, bytes, seconds).

    Names follow the ns-3 attributes (DcqcnCongestionOps, DcqcnNotificationPoint::CnpInterval,
    WredEcnMarker Kmin/Kmax/Pmax after ScaleWithRate)."""

    flows: int = 2  # N symmetric flows
    capacity: float = 400e9  # C, bottleneck line rate, bits/s on the wire
    kmin: float = 1.6e6  # bytes
    kmax: float = 6.4e6  # bytes
    pmax: float = 0.2
    g: float = 1 / 256
    alpha_period: float = 1e-6  # K (tau'), s
    initial_alpha: float = 1023 / 1024
    cnp_interval: float = 4e-6  # N, s
    reduce_monitor_period: float = 4e-6  # s
    min_decrease_factor: float = 0.5
    gd: float = 2.0
    min_rate: float = 1e6  # bits/s
    increase_timer: float = 300e-6  # T, s
    byte_counter: float = 32767 * 64  # B, payload bytes
    fast_recovery_threshold: int = 1  # F
    rate_ai: float = 5e6  # bits/s
    rate_hai: float = 50e6  # bits/s
    hyper: bool = True  # hyper increase through the CNP age (False: Zhu's model as published)
    clamp_target_rate: bool = False
    clamp_after_time_inc: bool = True
    packet_bytes: float = WIRE_BYTES  # wire bytes per packet (the marking unit)
    payload_bytes: float = PAYLOAD_BYTES  # payload bytes per packet (the byte counter's unit)
    base_delay: float = 4e-6 + 2 * WIRE_BYTES * 8 / 400e9  # tau* without queueing, s
    queue_delay: bool = True  # add q/C to tau*


def preset(name, capacity, flows=2, link_delay=1e-6):
    """Parameters of DcqcnCongestionOps::SetPresetDefaults(name) on a star of links of
    `capacity` bits/s and `link_delay` seconds, with WredEcnMarker's defaults (100 KB / 400 KB /
    0.2 per 25 Gb/s, scaled with the rate). Raises ValueError for an unknown name."""
    scale = capacity / 25e9
    common = dict(flows=flows, capacity=capacity, kmin=round(100e3 * scale),
                  kmax=round(400e3 * scale), pmax=0.2, base_delay=loop_delay(capacity, link_delay))
    if name == "paper":
        return Params(**common, g=1 / 256, alpha_period=55e-6, initial_alpha=1.0,
                      cnp_interval=50e-6, reduce_monitor_period=0.0, min_decrease_factor=0.0,
                      gd=2.0, min_rate=1e6, increase_timer=55e-6, byte_counter=10e6,
                      fast_recovery_threshold=5, rate_ai=40e6, rate_hai=400e6,
                      clamp_target_rate=True, clamp_after_time_inc=True)
    if name == "firmware":
        return Params(**common)
    raise ValueError(f"preset '{name}' is unknown; valid values: paper, firmware")


def loop_delay(capacity, link_delay):
    """Feedback delay (s) without queueing on the star of dcqcn-incast: a packet marked at the
    switch reaches the receiver (one link, one serialization), the CNP returns over two links,
    and the new rate reaches the switch over one more link: 4 link delays, two data and two
    CNP serializations at `capacity` bits/s."""
    return 4 * link_delay + 2 * (WIRE_BYTES + CNP_WIRE_BYTES) * 8 / capacity


def check(p):
    """Raise ValueError naming the first invalid parameter of `p`, its value and valid range."""
    def bad(name, value, valid):
        raise ValueError(f"{name} = {value!r} is invalid; valid range: {valid}")

    if not isinstance(p.flows, int) or p.flows < 1:
        bad("flows", p.flows, "an integer >= 1")
    for name in ("capacity", "packet_bytes", "payload_bytes", "alpha_period", "increase_timer",
                 "byte_counter", "gd", "min_rate", "rate_ai"):
        v = getattr(p, name)
        if not (v > 0 and math.isfinite(v)):
            bad(name, v, "> 0")
    for name in ("kmin", "kmax", "cnp_interval", "reduce_monitor_period", "base_delay",
                 "rate_hai"):
        v = getattr(p, name)
        if not (v >= 0 and math.isfinite(v)):
            bad(name, v, ">= 0")
    if p.kmin > p.kmax:
        bad("kmin", p.kmin, f"<= kmax ({p.kmax})")
    if not 0 <= p.pmax <= 1:
        bad("pmax", p.pmax, "[0, 1]")
    if not 0 < p.g <= 1:
        bad("g", p.g, "(0, 1]")
    if not 0 <= p.initial_alpha <= 1:
        bad("initial_alpha", p.initial_alpha, "[0, 1]")
    if not 0 <= p.min_decrease_factor <= 1:
        bad("min_decrease_factor", p.min_decrease_factor, "[0, 1]")
    if p.gd < 1:
        bad("gd", p.gd, ">= 1")
    if not isinstance(p.fast_recovery_threshold, int) or p.fast_recovery_threshold < 0:
        bad("fast_recovery_threshold", p.fast_recovery_threshold, "an integer >= 0")
    if p.min_rate > p.capacity:
        bad("min_rate", p.min_rate, f"<= capacity ({p.capacity})")
    return p


def mark_probability(p, q):
    """WRED marking probability for a queue of `q` bytes (0 up to Kmin, linear to Pmax at Kmax,
    1 above)."""
    if q <= p.kmin:
        return 0.0
    if q <= p.kmax:
        return p.pmax * (q - p.kmin) / (p.kmax - p.kmin) if p.kmax > p.kmin else p.pmax
    return 1.0


def _survive(prob, packets):
    """(1 - prob)^packets, the probability that `packets` packets all go unmarked."""
    if prob <= 0:
        return 1.0
    if prob >= 1:
        return 0.0 if packets > 0 else 1.0
    return math.exp(packets * math.log1p(-prob))


def _events_per_packet(prob, period):
    """prob / ((1 - prob)^-period - 1): increase events per packet of a counter that fires
    every `period` packets and restarts on a mark (1/period without marks)."""
    if prob <= 0:
        return 1.0 / period
    if prob >= 1:
        return 0.0
    x = -period * math.log1p(-prob)
    return prob / math.expm1(x) if x < 700 else 0.0


def terms(p, prob, rd_bps):
    """The model's feedback terms for marking probability `prob` and a per-flow rate `rd_bps`
    (bits/s): a dict with the decrease event rate (1/s), the increase
    event rates per packet of the byte counter and the timer (b, d) and of their additive
    increase part (c, e), the alpha input P(CNP in K), and the packet rate (packets/s)."""
    pkts = rd_bps / (8 * p.packet_bytes)  # packets/s
    tau = max(p.cnp_interval, p.reduce_monitor_period)
    if tau > 0:
        decrease = (1 - _survive(prob, tau * pkts)) / tau
    else:
        decrease = prob * pkts  # every mark is a CNP and every CNP a decrease
    if p.cnp_interval > 0:
        cnp = (1 - _survive(prob, p.cnp_interval * pkts)) / p.cnp_interval
    else:
        cnp = prob * pkts
    b_pkts = p.byte_counter / p.payload_bytes
    t_pkts = p.increase_timer * pkts
    f = p.fast_recovery_threshold
    b = _events_per_packet(prob, b_pkts)
    d = _events_per_packet(prob, t_pkts) if t_pkts > 0 else 0.0
    c = b * _survive(prob, f * b_pkts)
    e = d * _survive(prob, f * t_pkts)
    if p.alpha_period >= p.cnp_interval:
        alpha_in = 1 - _survive(prob, p.alpha_period * pkts)
    else:
        alpha_in = p.alpha_period * (1 - _survive(prob, p.cnp_interval * pkts)) / p.cnp_interval
    return dict(decrease=decrease, cnp=cnp, b=b, c=c, d=d, e=e, alpha_in=alpha_in, pkts=pkts)


def hyper_drift(p, rc, age):
    """dRt/dt of hyper increase (bits/s/s) for a flow at `rc` bits/s whose last CNP was `age`
    seconds ago: both stage counters past F (0 without the hyper option)."""
    if not p.hyper:
        return 0.0
    payload_rate = rc / 8 * p.payload_bytes / p.packet_bytes  # payload bytes/s
    stages = min(age / p.increase_timer, age * payload_rate / p.byte_counter)
    events = 1 / p.increase_timer + payload_rate / p.byte_counter  # per second
    return p.rate_hai * max(stages - p.fast_recovery_threshold, 0.0) * events


def derivatives(p, rc, rt, alpha, h, age, prob, rd_bps):
    """d/dt of (Rc, Rt, alpha, h, age) in bits/s/s, bits/s/s, 1/s, 1/s and s/s, for the
    current Rc, Rt (bits/s), alpha, clamp probability h and CNP age (s), and the delayed
    marking probability `prob` and rate `rd_bps` (bits/s)."""
    k = terms(p, prob, rd_bps)
    cut = min(alpha / p.gd, 1 - p.min_decrease_factor)
    drc = -rc * cut * k["decrease"] + (rt - rc) / 2 * k["pkts"] * (k["b"] + k["d"])
    drt = (-(rt - rc) * h * k["decrease"] + p.rate_ai * k["pkts"] * (k["c"] + k["e"])
           + hyper_drift(p, rc, age))
    dalpha = p.g / p.alpha_period * (k["alpha_in"] - alpha)
    dh = 0.0
    if not p.clamp_target_rate and p.clamp_after_time_inc:
        dh = k["pkts"] * k["d"] * (1 - h) - h * k["decrease"]
    return drc, drt, dalpha, dh, 1 - age * k["cnp"]


def default_step(p):
    """Integration step (s): 1/20 of the shortest of the decrease interval, alpha's time
    constant K/g, the loop delay and the time the queue takes to fill Kmax - Kmin at C (at
    least 10 ns)."""
    scales = [s for s in (max(p.cnp_interval, p.reduce_monitor_period), p.alpha_period / p.g,
                          p.base_delay, (p.kmax - p.kmin) * 8 / p.capacity) if s > 0]
    return max(min(scales) / 20, 1e-8)


def integrate(p, duration, dt=None, record_every=None, start_rate=None):
    """Integrate the model from t = 0 (every flow at `start_rate` bits/s, default the line rate,
    with Rt the same, alpha = InitialAlpha, empty queue; the same history before 0) for
    `duration` seconds with fixed step `dt` seconds.

    Returns a dict of lists sampled every `record_every` seconds (default 1 us): time (s),
    rc and rt (bits/s per flow), alpha, queue (bytes), served (bits/s through the
    bottleneck: C while q > 0, else min(N Rc, C))."""
    check(p)
    if duration <= 0:
        raise ValueError(f"duration = {duration!r} is invalid; valid range: > 0")
    dt = dt or default_step(p)
    if dt <= 0:
        raise ValueError(f"dt = {dt!r} is invalid; valid range: > 0")
    record = max(1, round((record_every or 1e-6) / dt))
    n = int(math.ceil(duration / dt))
    c, nflows = p.capacity, p.flows
    r0 = c if start_rate is None else start_rate
    if not 0 < r0 <= c:
        raise ValueError(f"start_rate = {r0!r} is invalid; valid range: (0, capacity]")
    hist_rc = [r0] * (n + 1)  # history of Rc and q on the step grid, for the delayed values
    hist_q = [0.0] * (n + 1)
    rc, rt, alpha, q = r0, r0, p.initial_alpha, 0.0
    out = {k: [] for k in ("time", "rc", "rt", "alpha", "queue", "served")}

    def delayed(i_float, last):
        """Linear interpolation of (Rc, q) at fractional step index i_float (history before
        t = 0 is the initial state; later than step `last`, the last stored, is step last)."""
        if i_float <= 0:
            return r0, 0.0
        i = int(i_float)
        w = i_float - i
        if i >= last:
            return hist_rc[last], hist_q[last]
        return (hist_rc[i] * (1 - w) + hist_rc[i + 1] * w,
                hist_q[i] * (1 - w) + hist_q[i + 1] * w)

    hist_exit = [0.0] * (n + 1)  # step at which a packet enqueued at step k leaves (k + q/C)
    cursor = [0]  # the last step whose packet left before the current feedback time

    def feedback(i, last):
        """Delayed marking probability and rate acting at step i (history up to `last`): the
        packet marked on enqueue at step s is dequeued at s + q(s)/C and its CNP acts base
        delay later, so s solves s + q(s)/C = i - base (steps; without queue_delay, s = i -
        base). Exit times never decrease, so a cursor walks forward once over the history."""
        target = i - p.base_delay / dt
        if not p.queue_delay:
            rd, qd = delayed(target, last)
            return mark_probability(p, qd), rd
        k = cursor[0]
        while k + 1 <= last and hist_exit[k + 1] <= target:
            k += 1
        if last == i:
            cursor[0] = k
        if target <= 0 or hist_exit[k] > target:
            return mark_probability(p, 0.0), r0
        if k + 1 <= last and hist_exit[k + 1] > hist_exit[k]:
            w = (target - hist_exit[k]) / (hist_exit[k + 1] - hist_exit[k])
        else:
            w = 0.0
        rd, qd = delayed(k + w, last)
        return mark_probability(p, qd), rd

    def clamp(x):
        return min(max(x, p.min_rate), c)

    h = 1.0 if p.clamp_target_rate or p.clamp_after_time_inc else 0.0
    age = 0.0
    for i in range(n + 1):
        hist_rc[i], hist_q[i] = rc, q
        hist_exit[i] = i + q * 8 / c / dt
        served = c if q > 0 else min(nflows * rc, c)
        if i % record == 0:
            for key, v in zip(out, (i * dt, rc, rt, alpha, q, served)):
                out[key].append(v)
        if i == n:
            break
        # Heun: Euler predictor, then the mean of both slopes (queue held at >= 0).
        prob, rd = feedback(i, i)
        k1 = derivatives(p, rc, rt, alpha, h, age, prob, rd)
        q1 = (nflows * rc - served) / 8
        rc_p, rt_p = clamp(rc + dt * k1[0]), clamp(rt + dt * k1[1])
        alpha_p, h_p, q_p = alpha + dt * k1[2], h + dt * k1[3], max(q + dt * q1, 0.0)
        age_p = max(age + dt * k1[4], 0.0)
        prob2, rd2 = feedback(i + 1, i)
        k2 = derivatives(p, rc_p, rt_p, alpha_p, h_p, age_p, prob2, rd2)
        served_p = c if q_p > 0 else min(nflows * rc_p, c)
        q2 = (nflows * rc_p - served_p) / 8
        rc = clamp(rc + dt / 2 * (k1[0] + k2[0]))
        rt = clamp(rt + dt / 2 * (k1[1] + k2[1]))
        alpha = min(max(alpha + dt / 2 * (k1[2] + k2[2]), 0.0), 1.0)
        h = min(max(h + dt / 2 * (k1[3] + k2[3]), 0.0), 1.0)
        age = max(age + dt / 2 * (k1[4] + k2[4]), 0.0)
        q = max(q + dt / 2 * (q1 + q2), 0.0)
    return out


def equilibrium_h(p, k):
    """The clamp probability h at rest for the feedback terms `k` (see terms()): 1 with
    ClampTargetRate, mu / (mu + lambda) with ClampTargetRateAfterTimeInc (timer events at mu,
    decreases at lambda per second), else 0."""
    if p.clamp_target_rate:
        return 1.0
    if not p.clamp_after_time_inc:
        return 0.0
    mu = k["pkts"] * k["d"]
    return mu / (mu + k["decrease"]) if mu + k["decrease"] > 0 else 1.0


def solve_fixed_point(p):
    """The model's equilibrium with the queue between Kmin and Kmax: every flow at Rc = C/N,
    and the marking probability p that makes every derivative 0 (scipy's brentq on log p in
    (0, Pmax]). Returns a dict: rc, rt (bits/s), alpha, h, prob, queue (bytes), and p_hyper,
    the probability that a flow gets past F stages of both counters (hyper increase, not in
    the model). Raises ValueError if there is no such equilibrium (the decrease never balances
    the increase below Pmax: the queue then sits at Kmax or above)."""
    check(p)
    rc = p.capacity / p.flows

    def state(log_prob):
        """(Rt, alpha, h, net dRc/dt in bits/s/s) at marking probability exp(log_prob)."""
        prob = math.exp(log_prob)
        k = terms(p, prob, rc)
        h = equilibrium_h(p, k)
        age = 1 / k["cnp"] if k["cnp"] > 0 else math.inf
        inc = p.rate_ai * k["pkts"] * (k["c"] + k["e"]) + hyper_drift(p, rc, age)
        # dRt/dt = 0: (Rt - Rc) h lambda = inc
        clamp = h * k["decrease"]
        rt = min(rc + inc / clamp, p.capacity) if clamp > 0 else p.capacity
        alpha = k["alpha_in"]
        return rt, alpha, h, derivatives(p, rc, rt, alpha, h, age, prob, rc)[0]

    lo, hi = math.log(1e-15), math.log(p.pmax) if p.pmax > 0 else 0.0
    if p.pmax <= 0 or state(hi)[3] > 0:
        raise ValueError(
            f"no equilibrium with the queue between Kmin and Kmax: at p = Pmax = {p.pmax} the "
            "rate still grows (the queue settles at Kmax or above)")
    if state(lo)[3] < 0:
        raise ValueError("no equilibrium: the rate falls even at a vanishing marking probability")
    log_prob = scipy.optimize.brentq(lambda x: state(x)[3], lo, hi, xtol=1e-12)
    prob = math.exp(log_prob)
    rt, alpha, h, _ = state(log_prob)
    queue = p.kmin + prob / p.pmax * (p.kmax - p.kmin)
    pkts = rc / (8 * p.packet_bytes)
    f1 = p.fast_recovery_threshold + 1
    p_hyper = _survive(prob, f1 * max(p.byte_counter / p.payload_bytes,
                                      p.increase_timer * pkts))
    return dict(rc=rc, rt=rt, alpha=alpha, h=h, prob=prob, queue=queue, p_hyper=p_hyper)


# --- command line -------------------------------------------------------------------------

_UNITS = {
    "time": {"": 1, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9},
    "rate": {"": 1, "bps": 1, "kbps": 1e3, "mbps": 1e6, "gbps": 1e9},
    "bytes": {"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "kib": 1024, "mib": 1 << 20},
}


def parse_quantity(text, kind):
    """Parse '4us', '400Gbps', '1.6MB' or a plain number in SI base units (s, bits/s, bytes)
    into a float. Raises argparse.ArgumentTypeError naming the text and the valid units."""
    m = re.fullmatch(r"\s*([-+0-9.eE]+)\s*([A-Za-z]*)\s*", text)
    units = _UNITS[kind]
    if m and m.group(2).lower() in units:
        try:
            return float(m.group(1)) * units[m.group(2).lower()]
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(
        f"'{text}' is not a {kind}; use a number with one of the units "
        f"{', '.join(u for u in units if u)} (or none: SI base unit)")


def _quantity(kind):
    return lambda text: parse_quantity(text, kind)


def _onoff(text):
    if text.lower() in ("1", "true", "on", "yes"):
        return True
    if text.lower() in ("0", "false", "off", "no"):
        return False
    raise argparse.ArgumentTypeError(f"'{text}' is not a boolean; use true or false")


# (option, Params field, kind, help)
_OPTIONS = [
    ("--flows", "flows", int, "N symmetric flows"),
    ("--kmin", "kmin", "bytes", "WRED Kmin (default: 100KB x C / 25 Gb/s)"),
    ("--kmax", "kmax", "bytes", "WRED Kmax (default: 400KB x C / 25 Gb/s)"),
    ("--pmax", "pmax", float, "WRED marking probability at Kmax"),
    ("--g", "g", float, "alpha gain G"),
    ("--alpha-period", "alpha_period", "time", "AlphaUpdatePeriod K"),
    ("--initial-alpha", "initial_alpha", float, "InitialAlpha"),
    ("--cnp-interval", "cnp_interval", "time", "notification point CnpInterval"),
    ("--reduce-monitor-period", "reduce_monitor_period", "time", "RateReduceMonitorPeriod"),
    ("--min-decrease-factor", "min_decrease_factor", float, "MinDecreaseFactor"),
    ("--gd", "gd", float, "Gd (Rc <- Rc (1 - alpha / Gd))"),
    ("--min-rate", "min_rate", "rate", "MinRate"),
    ("--increase-timer", "increase_timer", "time", "RateIncreaseTimer T"),
    ("--byte-counter", "byte_counter", "bytes", "ByteCounter B (payload bytes)"),
    ("--fast-recovery-threshold", "fast_recovery_threshold", int, "F"),
    ("--rate-ai", "rate_ai", "rate", "RateAi"),
    ("--rate-hai", "rate_hai", "rate", "RateHai"),
    ("--hyper", "hyper", _onoff, "model hyper increase (false: Zhu et al.'s model as published)"),
    ("--clamp-target-rate", "clamp_target_rate", _onoff, "ClampTargetRate (true/false)"),
    ("--clamp-after-time-inc", "clamp_after_time_inc", _onoff,
     "ClampTargetRateAfterTimeInc (true/false)"),
    ("--packet-bytes", "packet_bytes", "bytes", "wire bytes per packet"),
    ("--payload-bytes", "payload_bytes", "bytes", "payload bytes per packet"),
    ("--base-delay", "base_delay", "time", "feedback delay without queueing "
     "(default: 4 x --link-delay + serializations)"),
    ("--queue-delay", "queue_delay", _onoff, "add the queueing delay to the feedback delay"),
]


def build_parser():
    """The argparse parser of the command line (every Params field is an option)."""
    ap = argparse.ArgumentParser(
        description="Solve the DCQCN fluid model (Zhu et al. CoNEXT 2016) for N symmetric "
        "flows on one bottleneck: the fixed point and/or a trajectory (CSV). Quantities take "
        "units (4us, 400Gbps, 1.6MB) or SI base units.")
    ap.add_argument("--preset", choices=("paper", "firmware"), default="firmware",
                    help="DcqcnCongestionOps preset the options start from (default firmware)")
    ap.add_argument("--capacity", type=_quantity("rate"), default=400e9,
                    help="bottleneck line rate C (default 400Gbps)")
    ap.add_argument("--link-delay", type=_quantity("time"), default=1e-6,
                    help="one link's propagation delay (default 1us, as dcqcn-incast)")
    for opt, field, kind, text in _OPTIONS:
        ap.add_argument(opt, dest=field, type=_quantity(kind) if isinstance(kind, str) else kind,
                        default=None, help=f"{text} (default: the preset's)")
    ap.add_argument("--duration", type=_quantity("time"), default=0.0,
                    help="integrate for this long and write the trajectory (0: fixed point only)")
    ap.add_argument("--dt", type=_quantity("time"), default=None,
                    help="integration step (default: 1/20 of the shortest time scale)")
    ap.add_argument("--record", type=_quantity("time"), default=1e-6,
                    help="trajectory sampling interval (default 1us)")
    ap.add_argument("--csv", default="-", help="trajectory CSV file (default: stdout)")
    return ap


def params_from_args(args):
    """Params from parsed arguments: the preset at --capacity, then every explicit option."""
    p = preset(args.preset, args.capacity, link_delay=args.link_delay)
    for _, field, _, _ in _OPTIONS:
        v = getattr(args, field)
        if v is not None:
            setattr(p, field, v)
    return check(p)


def main(argv=None):
    """Command line entry point: prints the fixed point, writes the trajectory if asked."""
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        p = params_from_args(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    out = sys.stderr if args.csv == "-" and args.duration > 0 else sys.stdout
    try:
        fp = solve_fixed_point(p)
        print(f"fixed point: rate {fp['rc'] / 1e9:.3f} Gb/s per flow, target "
              f"{fp['rt'] / 1e9:.3f} Gb/s, alpha {fp['alpha']:.4f}, marking p {fp['prob']:.3e}, "
              f"queue {fp['queue'] / 1e3:.1f} KB, P(hyper increase) {fp['p_hyper']:.2e}",
              file=out)
    except ValueError as e:
        print(f"fixed point: {e}", file=out)
    if args.duration > 0:
        try:
            tr = integrate(p, args.duration, args.dt, args.record)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        f = sys.stdout if args.csv == "-" else open(args.csv, "w")
        f.write("time_us,rate_gbps,target_gbps,alpha,queue_bytes,served_gbps\n")
        for t, rc, rt, a, q, s in zip(*tr.values()):
            f.write(f"{t * 1e6:.3f},{rc / 1e9:.6f},{rt / 1e9:.6f},{a:.6f},{q:.1f},{s / 1e9:.6f}\n")
        if f is not sys.stdout:
            f.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
