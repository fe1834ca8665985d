/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc-storm: a failure lab. One host stops draining its NIC (a stuck host: nic-stall); with
 * host-side PFC its NIC pauses its leaf for as long as the host is stuck, and the pauses spread
 * tier by tier until every flow of the fabric stops, including the flows that never touch the
 * stuck host. The program shows the propagation per tier, explains it, then runs the same
 * fault with the PFC watchdog on and shows the victims recover.
 *
 *      spine0        spine1       4 leaves x 2 spines, one cable each, 100 Gb/s, 4 MiB of
 *     /|  |  \      /|  |  \      buffer per switch (about a production ToR's 1 MiB per port);
 *  leaf0 leaf1 leaf2 leaf3        2 hosts per leaf (gpu0-1 on leaf0, ..., gpu6-7 on leaf3);
 *                                 RoCE WRITEs on the lossless priority 3, no congestion control
 *
 * Every host writes --bytes to every other host (an all-to-all). At --stall-at gpu0's host
 * stops draining for --stall (ns3::FabricNic::RxDrainRate = 100 Gb/s, the line rate, on every
 * NIC: host-side PFC on, nothing pauses until the stall).
 *
 * Run 1 (PFC watchdog off): the storm stops the fabric until the host resumes. Run 2 (the
 * fix: PfcWatchdogTimeout = --watchdog on every port; production uses ~200 ms, the lab a few
 * ms to stay quick): the watchdog of leaf0's port to gpu0 declares a storm, ignores gpu0's
 * pauses, and the victims finish long before the host resumes. --monitor=FILE and
 * --monitor-off=FILE write run 2's and run 1's FabricMonitor CSV (tools/plots/plot_pfc_storm.py
 * draws the pauses per tier). Exit status 0 when run 1
 * stalled the victims until the stall ended and run 2 let them finish before it, 1
 * otherwise, 2 on bad input.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The four hops of the storm, in the order the pauses travel.
const char* const TIER_NAMES[4] = {"NIC gpu0 pauses leaf0 (leaf0's port to gpu0)",
                                   "leaf0 pauses the spines (spine ports to leaf0)",
                                   "spines pause the leaves (leaf uplinks)",
                                   "leaves pause the senders (NIC ports)"};

/// What one run left behind.
struct RunResult
{
    uint32_t posted{0};                  //!< writes posted
    uint32_t completed{0};               //!< writes completed successfully
    Time victimsDone;                    //!< last completion of a write not involving gpu0
    Time allDone;                        //!< last completion of any write
    std::array<Time, 4> firstPause{};    //!< per tier: first pause received (-1 if none)
    std::array<uint32_t, 4> pausedPorts; //!< per tier: ports paused at least once
    std::vector<std::string> storms;     //!< watchdog storms, "time port", in order
    uint64_t backlog{0};                 //!< gpu0's NIC host backlog 1 ms into the stall
    uint32_t pausedAtEnd{0};             //!< ports paused just before the host resumed
    std::string longest;                 //!< "port, continuous pause" of the longest one
    uint64_t losslessDrops{0};           //!< lossless drops at the switches
    uint64_t portDrops{0};               //!< drops counted by the ports (every reason)
};

/// Per port: its tier and whether it was paused yet.
struct PortWatch
{
    RunResult* r;     //!< the run
    uint32_t tier;    //!< 0..3
    bool seen{false}; //!< paused at least once
};

/// Counts a completion (and when the victims finished).
void
Completed(RunResult* r, bool victim, const RoceWorkCompletion& wc)
{
    r->completed += wc.status == RoceWcStatus::SUCCESS ? 1 : 0;
    r->allDone = std::max(r->allDone, wc.endTime);
    if (victim)
    {
        r->victimsDone = std::max(r->victimsDone, wc.endTime);
    }
}

/// PfcPauseRx sink: the first pause per tier.
void
PauseRx(PortWatch* w, uint8_t, uint16_t quanta)
{
    if (quanta == 0 || w->seen)
    {
        return;
    }
    w->seen = true;
    w->r->pausedPorts[w->tier]++;
    if (w->r->firstPause[w->tier].IsNegative())
    {
        w->r->firstPause[w->tier] = Simulator::Now();
    }
}

/// PfcStorm sink: the watchdog declared a storm on a port.
void
Storm(RunResult* r, std::string port, uint8_t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << Simulator::Now().GetMicroSeconds() / 1000.0
       << " ms " << port;
    r->storms.push_back(os.str());
}

/**
 * Build the fabric, stall gpu0, run the all-to-all.
 * \param watchdog PfcWatchdogTimeout of every port (0: off)
 * \param bytes bytes per write
 * \param stallAt when gpu0's host stops draining
 * \param stall how long it stays stuck
 * \param monitor the FabricMonitor CSV ("" = none)
 * \return what happened
 */
std::unique_ptr<RunResult>
Run(Time watchdog, uint64_t bytes, Time stallAt, Time stall, const std::string& monitor)
{
    auto r = std::make_unique<RunResult>();
    r->firstPause.fill(Time(-1));
    r->pausedPorts.fill(0);
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(watchdog));
    Ptr<ClosTopologyHelper> topo = CreateObject<ClosTopologyHelper>();
    topo->SetAttribute("Hosts", UintegerValue(8));
    topo->SetAttribute("ServersPerRack", UintegerValue(2));
    topo->SetAttribute("TorPorts", UintegerValue(4));
    topo->SetAttribute("Spines", UintegerValue(2));
    topo->SetAttribute("SpinePorts", UintegerValue(4));
    topo->SetAttribute("GpuLinkDataRate", StringValue("100Gbps"));
    topo->SetAttribute("LeafSpineDataRate", StringValue("100Gbps"));
    topo->Install();

    std::vector<std::unique_ptr<PortWatch>> watches;
    std::vector<std::pair<Ptr<PfcNetDevice>, std::string>> ports; // watched ports, named
    auto watch = [&](Ptr<PfcNetDevice> dev, uint32_t port, uint32_t tier) {
        watches.push_back(std::make_unique<PortWatch>(PortWatch{r.get(), tier}));
        dev->TraceConnectWithoutContext("PfcPauseRx",
                                        MakeBoundCallback(&PauseRx, watches.back().get()));
        const std::string name = topo->GetNodeName(dev->GetNode()->GetId());
        ports.emplace_back(dev, name + ":p" + std::to_string(port));
        dev->TraceConnectWithoutContext(
            "PfcStorm",
            MakeBoundCallback(&Storm, r.get(), name + ":p" + std::to_string(port)));
    };
    for (const auto& sw : topo->GetScaleOutSwitches())
    {
        const uint32_t id = sw->GetPort(0)->GetNode()->GetId();
        const bool spine = topo->GetNodeName(id).rfind("spine", 0) == 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<PfcNetDevice> dev = sw->GetPort(p);
            Ptr<PfcChannel> ch = dev->GetPfcChannel();
            Ptr<Node> peer =
                (ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0))->GetNode();
            const std::string peerName = topo->GetNodeName(peer->GetId());
            if (spine)
            {
                watch(dev, p, peerName == "leaf0" ? 1 : 3); // tier 3 never: spines face leaves
            }
            else if (peerName.rfind("spine", 0) == 0)
            {
                watch(dev, p, 2);
            }
            else if (peerName == "gpu0")
            {
                watch(dev, p, 0);
            }
        }
    }
    for (uint32_t g = 1; g < topo->GetNRanks(); ++g)
    {
        watch(topo->GetNicCore(g)->GetPort(0), 0, 3);
    }

    auto faults = CreateObject<FaultHelper>();
    std::ostringstream spec;
    spec << "nic-stall:gpu0@" << stallAt.GetNanoSeconds() << "ns,for=" << stall.GetNanoSeconds()
         << "ns";
    faults->Add(spec.str());
    faults->Install(topo);
    Ptr<FabricNic> nic0 = topo->GetNicCore(0);
    Simulator::Schedule(stallAt + MilliSeconds(1),
                        [&r, nic0]() { r->backlog = nic0->GetRxBacklog(0); });
    Simulator::Schedule(stallAt + stall - NanoSeconds(1), [&r, &ports]() {
        Time longest;
        for (const auto& [dev, name] : ports)
        {
            const PfcPauseReceiver& rx = dev->GetPauseReceiver();
            if (rx.IsPaused(3))
            {
                r->pausedAtEnd++;
                if (Simulator::Now() - rx.GetPauseStart(3) > longest)
                {
                    longest = Simulator::Now() - rx.GetPauseStart(3);
                    r->longest = name + ", " + FaultSpec::FormatTime(longest);
                }
            }
        }
    });
    Ptr<FabricMonitor> mon = FabricMonitor::InstallIfEnabled(topo, monitor);

    for (uint32_t a = 0; a < topo->GetNRanks(); ++a)
    {
        for (uint32_t b = 0; b < topo->GetNRanks(); ++b)
        {
            if (a != b)
            {
                auto q = topo->Connect(a, b, 1).front();
                q.first->PostWrite(bytes,
                                   0,
                                   1,
                                   MakeBoundCallback(&Completed, r.get(), a != 0 && b != 0));
                r->posted++;
            }
        }
    }
    Simulator::Run();

    r->losslessDrops = FabricHealthMonitor::CountLosslessDrops();
    for (const auto& sw : topo->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint64_t n : sw->GetPort(p)->GetCounters().drops)
            {
                r->portDrops += n;
            }
        }
    }
    topo->Dispose();
    Simulator::Destroy();
    return r;
}

/// Print what a run did, tier by tier.
void
Print(const RunResult& r, Time stallAt)
{
    std::cout << "  first pause per tier (after the stall at " << FaultSpec::FormatTime(stallAt)
              << "):\n";
    for (uint32_t t = 0; t < 4; ++t)
    {
        std::cout << "    " << std::left << std::setw(48) << TIER_NAMES[t] << std::right;
        if (r.firstPause[t].IsNegative())
        {
            std::cout << "never\n";
            continue;
        }
        std::cout << "+" << std::setw(7) << std::fixed << std::setprecision(1)
                  << (r.firstPause[t] - stallAt).GetNanoSeconds() / 1000.0 << " us  ("
                  << r.pausedPorts[t] << (r.pausedPorts[t] == 1 ? " port" : " ports")
                  << " paused)\n";
    }
    std::cout << "  writes completed: " << r.completed << "/" << r.posted
              << "; the victims' (writes not to or from gpu0) last at "
              << FaultSpec::FormatTime(r.victimsDone) << ", all at "
              << FaultSpec::FormatTime(r.allDone) << "\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint64_t bytes = 1 << 20;
    Time stallAt = MicroSeconds(20);
    Time stall = MilliSeconds(10);
    Time watchdog = MilliSeconds(2);
    std::string monitor;
    std::string monitorOff;
    FabricCommandLine cmd(__FILE__);
    cmd.AddBytes("bytes", "Bytes per WRITE (1 B .. 64 MiB)", bytes, 1, uint64_t(64) << 20);
    cmd.AddValue("stall-at", "When gpu0's host stops draining (>= 0)", stallAt);
    cmd.AddValue("stall", "How long it stays stuck (> 0)", stall);
    cmd.AddValue("watchdog", "PfcWatchdogTimeout of run 2 (> 0, < --stall)", watchdog);
    FabricMonitor::AddCommandLine(cmd, monitor);
    cmd.AddOutput("monitor-off",
                  "FabricMonitor CSV of run 1 (watchdog off; --monitor: run 2)",
                  monitorOff);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(stallAt.IsNegative(),
                          "--stall-at=" << FaultSpec::FormatTime(stallAt)
                                        << " is invalid; it must be >= 0");
    FABRIC_INPUT_ERROR_IF(!stall.IsStrictlyPositive(),
                          "--stall=" << FaultSpec::FormatTime(stall)
                                     << " is invalid; it must be > 0");
    FABRIC_INPUT_ERROR_IF(!watchdog.IsStrictlyPositive() || watchdog >= stall,
                          "--watchdog=" << FaultSpec::FormatTime(watchdog)
                                        << " is invalid; it must be > 0 and below --stall="
                                        << FaultSpec::FormatTime(stall));
    Config::SetDefault("ns3::FabricNic::RxDrainRate", StringValue("100Gbps"));
    Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(4 << 20));

    std::cout << "pfc-storm: 8 hosts on 4 leaves x 2 spines at 100 Gb/s, all-to-all RoCE WRITEs "
                 "of "
              << bytes << " B on lossless priority 3 (PFC); gpu0's host stuck from "
              << FaultSpec::FormatTime(stallAt) << " for " << FaultSpec::FormatTime(stall)
              << " (host-side PFC on: RxDrainRate 100 Gb/s)\n\nRun 1: PFC watchdog off\n";
    auto broken = Run(Time(0), bytes, stallAt, stall, monitorOff);
    Print(*broken, stallAt);

    std::cout << "\nRoot-cause analysis\n"
              << "  What happened: a PFC storm. gpu0's host stopped draining; 1 ms into the stall "
                 "its NIC held\n  "
              << broken->backlog
              << " B (above RxXoffBytes, 512 KiB) and kept leaf0's port to it paused.\n"
                 "  leaf0's buffer filled with packets for gpu0, so leaf0 paused the spines; "
                 "they filled and paused\n  every leaf; the leaves paused every sender. A paused "
                 "port stops all its flows on the priority,\n  so writes that never touch gpu0 "
                 "waited too: the victims finished only after the host resumed.\n"
              << "  Which counters point where: just before the host resumed "
              << broken->pausedAtEnd
              << " ports were paused; the\n  longest continuous pause (pause_continuous_ns; "
                 "pause_storm at any\n  threshold below it): "
              << broken->longest
              << ".\n  Follow the pauses down the tiers to the port paused first and longest: "
                 "its peer sends pauses\n  and never XON, the stuck host.\n"
              << "  The fix: the PFC watchdog (PfcWatchdogTimeout, ~200 ms in production) "
                 "declares a port paused\n  that long stormed and ignores its pauses, so the "
                 "rest of the fabric drains; then find the host\n  (its NIC's rx backlog, "
                 "rx_out_of_buffer) and drain or reboot it.\n";

    std::cout << "\nRun 2 (the fix): PFC watchdog on, timeout " << FaultSpec::FormatTime(watchdog)
              << " (restore 200 ms: pauses ignored that long after a storm)\n";
    auto fixed = Run(watchdog, bytes, stallAt, stall, monitor);
    Print(*fixed, stallAt);
    std::cout << "  watchdog storms: " << fixed->storms.size();
    for (const auto& s : fixed->storms)
    {
        std::cout << (&s == &fixed->storms.front() ? " (" : ", ") << s;
    }
    std::cout << (fixed->storms.empty() ? "" : ")")
              << "\n  drops the watchdog caused: " << fixed->losslessDrops
              << " lossless drops at the switches, " << fixed->portDrops
              << " port drops (run 1: " << broken->losslessDrops << ", " << broken->portDrops
              << ").\n  The watchdog's action here is SONiC's \"forward\": the stormed port "
                 "sends despite the\n  pauses (gpu0's NIC still hands the frames to the "
                 "transport; where a second port storms, what\n  it sends into a full buffer is "
                 "dropped); SONiC's default \"drop\" discards the queue's packets.\n";

    const Time stallEnd = stallAt + stall;
    const bool ok = broken->completed == broken->posted && broken->victimsDone > stallEnd &&
                    !fixed->storms.empty() && fixed->victimsDone < stallEnd &&
                    fixed->completed == fixed->posted;
    std::cout << "\npfc-storm: "
              << (ok ? "storm shown, the watchdog let the victims finish" : "UNEXPECTED OUTCOME")
              << "\n";
    return ok ? 0 : 1;
}
