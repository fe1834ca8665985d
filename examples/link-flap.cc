/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * link-flap: a failure lab. A spine cable flaps under a training job: each down loses the
 * frames on the cable and, until routing converges, the frames the other leaves still hash
 * onto the spine that lost the path; RoCE recovers them by go-back-N and the job slows down.
 * The program runs the job across the flapping cable, prints the busbw per iteration beside
 * the fault log (cable down / up, routes converged), a root-cause analysis (which counters
 * point at the cable), then runs the fix: the cable taken out of service (link-down before
 * the job: the routes avoid it) and shows the job back at full, steady speed.
 *
 *          spine0 ------ spine1         4 leaves x 2 spines, one server (2 GPUs, NVLink)
 *         / |  |  \    / |  |  \        per leaf, 400 Gb/s everywhere, RoCEv2 + DCQCN, PFC
 *    leaf0 leaf1 leaf2 leaf3 (each to both spines)
 *
 * The job: one ring AllReduce channel, --iters times --bytes; every hop between servers
 * crosses two leaves and a spine. The flap: --cable (leaf1-spine0) goes down at --start,
 * every --period for --count cycles (down half a period, up half); routes converge
 * --convergence-delay after each change. Exit status 0 when the flap cost retransmissions and
 * route-down drops and every iteration still completed, and the fixed run lost nothing and
 * was faster; 1 otherwise; 2 on bad input.
 */

#include "failure-lab.h"

#include <cmath>
#include <iostream>

using namespace ns3;

namespace
{

/// The counters that matter for a flap, summed over the fabric.
struct FlapCounters
{
    uint64_t routeDown{0}; //!< frames switches dropped as "route down"
    uint64_t linkDown{0};  //!< frames lost on cut cables (ports' "link down")
    uint64_t retx{0};      //!< RoCE retransmissions
    uint64_t timeouts{0};  //!< RoCE local ACK timeouts
};

/// \return the flap counters of \p lab now
FlapCounters
Count(const FailureLab& lab)
{
    FlapCounters c;
    Ptr<ClosTopologyHelper> topo = lab.GetTopology();
    for (const auto& sw : topo->GetScaleOutSwitches())
    {
        c.routeDown += sw->GetCounters().drops[size_t(SwitchDropReason::ROUTE_DOWN)];
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            c.linkDown += sw->GetPort(p)->GetCounters().drops[size_t(PfcDropReason::LINK_DOWN)];
        }
    }
    for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
    {
        const FabricTransportCounters t = lab.GetRankCounters(r);
        c.retx += t.retransmissions;
        c.timeouts += t.timeouts;
    }
    return c;
}

/// \return \p t in microseconds, rounded to 0.1 us, for printing
double
Us(Time t)
{
    return std::round(t.GetSeconds() * 1e7) / 10;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint64_t bytes = 16 << 20;
    uint32_t iters = 8;
    std::string cable = "leaf1-spine0";
    Time start = MicroSeconds(200);
    Time period = MicroSeconds(400);
    uint32_t count = 4;
    Time convergence = MicroSeconds(100);
    std::string monitor;
    FabricCommandLine cmd(__FILE__);
    cmd.AddBytes("bytes", "AllReduce size (1 KiB .. 1 GiB)", bytes, 1 << 10, uint64_t(1) << 30);
    cmd.AddValue("iters", "Iterations of the job (1..100)", iters, 1, 100);
    cmd.AddValue("cable", "The flapping cable, A-B (leafN-spineM)", cable);
    cmd.AddValue("start", "First down (>= 0)", start);
    cmd.AddValue("period", "One down + up cycle (> 0)", period);
    cmd.AddValue("count", "Cycles (1..1000)", count, 1, 1000);
    cmd.AddValue("convergence-delay", "Routing convergence after each change (>= 0)", convergence);
    FabricMonitor::AddCommandLine(cmd, monitor);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(start.IsNegative(),
                          "--start=" << start.As(Time::US) << " is invalid; valid range is >= 0");
    FABRIC_INPUT_ERROR_IF(!period.IsStrictlyPositive(),
                          "--period=" << period.As(Time::US) << " is invalid; valid range is > 0");
    FABRIC_INPUT_ERROR_IF(convergence.IsNegative(),
                          "--convergence-delay=" << convergence.As(Time::US)
                                                 << " is invalid; valid range is >= 0");
    std::cout << std::fixed << std::setprecision(1);
    const std::string outage = "link-down:" + cable + "@0s"; // the fix; checks --cable's syntax
    FaultSpec flap = FaultHelper::Parse(outage).front();
    flap.kind = FaultKind::LINK_FLAP;
    flap.at = start;
    flap.period = period;
    flap.count = count;

    FlapCounters bad;
    FlapCounters good;
    double badBw = 0;
    double goodBw = 0;
    Time badTime;
    Time goodTime;
    bool done = true;
    {
        FailureLab lab(2, "400Gbps", 8);
        Ptr<FaultHelper> faults = CreateObject<FaultHelper>();
        faults->SetConvergenceDelay(convergence);
        faults->Add(flap);
        faults->Install(lab.GetTopology()); // checks the cable's names before anything runs
        std::cout << "link-flap: 8 GPUs (4 servers x 2, one server per leaf) on 4 leaves x 2 "
                     "spines, 400 Gb/s RoCEv2 + DCQCN;\n  job: "
                  << iters << " x ring AllReduce of " << bytes << " B (1 channel, Simple)\n\n"
                  << "Run 1: the cable flaps\n";
        faults->Print(std::cout);
        FabricMonitor::InstallIfEnabled(lab.GetTopology(), monitor);
        lab.RunJob(bytes, iters, 1);
        std::cout << "  timeline (iterations, then the fault log: what the cable and the routes "
                     "did):\n";
        lab.PrintIterations(std::cout);
        for (const auto& e : faults->GetEvents())
        {
            std::cout << "    " << std::setw(7) << Us(e.time) << " us  " << e.kind << " "
                      << e.target << ": " << e.detail << "\n";
        }
        bad = Count(lab);
        badBw = lab.GetMeanBusBw();
        done = lab.Completed(iters);
        badTime = lab.GetJobTime();
        std::cout << "  mean busbw " << badBw << " GB/s; the job took " << Us(badTime) << " us"
                  << "\n\nRoot-cause analysis\n"
                  << "  What happened: the iterations during the flap took longer; after it "
                     "the iterations come at\n  the healthy pace again, but the ranks stay "
                     "skewed, so each iteration's span (first start\n  to last end) stays "
                     "longer than in a healthy run.\n"
                  << "  Which counters point where:\n";
        lab.PrintSwitches(std::cout);
        lab.PrintGpus(std::cout);
        std::cout << "  Lost frames: " << bad.linkDown << " on the cable itself (its ports' link "
                  << "down drops: local repair stops\n  both ends using it at once), "
                  << bad.routeDown << " as route down at the spine that lost the path, sent "
                  << "by the other leaves\n  until the routes converged ("
                  << FaultSpec::FormatTime(convergence) << " after each change). The senders "
                  << "resent them by go-back-N:\n  " << bad.retx << " retransmissions, "
                  << bad.timeouts << " local ACK timeouts (a lost message tail is noticed only "
                  << "after the\n  timeout: 4.096 us x 2^8 = 1.05 ms here, 67 ms at the usual "
                     "exponent 14); that is where\n  the time went.\n"
                  << "  Why: the fault log shows one cable, " << cable << ", going down and up "
                  << count
                  << " times; every down\n  and every up moves the flows (routes "
                     "recomputed twice per cycle).\n"
                  << "  The fix: take the cable out of service (shut the port; replace the "
                     "optic or cable), or\n  dampen it (hold a flapping port down instead of "
                     "bringing it back at once).\n";
    }

    std::cout << "\nRun 2 (the fix): " << cable << " out of service before the job (" << outage
              << "):\n";
    {
        FailureLab lab(2, "400Gbps", 8);
        Ptr<FaultHelper> faults = CreateObject<FaultHelper>();
        faults->Add(outage);
        faults->Install(lab.GetTopology());
        lab.RunJob(bytes, iters, 1);
        lab.PrintIterations(std::cout);
        good = Count(lab);
        goodBw = lab.GetMeanBusBw();
        done = done && lab.Completed(iters);
        goodTime = lab.GetJobTime();
        std::cout << "  mean busbw " << goodBw << " GB/s; the job took " << Us(goodTime) << " us"
                  << "; route down " << good.routeDown << ", link down " << good.linkDown
                  << ", retransmissions " << good.retx << "\n";
    }
    std::cout << "\nbusbw: " << badBw << " GB/s with the flapping cable, " << goodBw
              << " GB/s with it out of service; "
              << "the flap cost the job " << Us(badTime - goodTime) << " us\n";

    const bool ok = done && bad.retx > 0 && bad.routeDown > 0 && good.retx == 0 &&
                    good.routeDown + good.linkDown == 0 && goodBw > badBw && goodTime < badTime;
    std::cout << "link-flap: " << (ok ? "flapping cable found and fixed" : "UNEXPECTED OUTCOME")
              << "\n";
    return ok ? 0 : 1;
}
