/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc-deadlock: a failure lab. Routes that break up-down routing deadlock a lossless fabric;
 * the PFC deadlock detector names the cycle of switch ports, the program explains it, then
 * runs the fixed routes and shows the traffic complete.
 *
 *          spine0            spine1          3 leaves x 2 spines, one cable each, 100 Gb/s;
 *         /  |   \          /  |   \         2 hosts per leaf (gpu0-1 on leaf0, gpu2-3 on
 *    leaf0  leaf1  leaf2  (every leaf to      leaf1, gpu4-5 on leaf2); RoCE WRITEs on the
 *                          both spines)      lossless priority 3, no congestion control
 *
 * The story: the cables leaf2-spine0 and leaf1-spine1 failed, and a controller pinned detours
 * to keep every host reachable without waiting for routing (static routes win over the routing
 * protocol): spine0 reaches leaf2 through leaf1 and spine1, spine1 reaches leaf1 through leaf2
 * and spine0, and leaf1 / leaf2 send to each other through the spine that still had the path.
 * The cables were repaired; the detours stayed. Each spine detour goes down to a leaf and up
 * again, and together they close the loop spine0 -> leaf1 -> spine1 -> leaf2 -> spine0. Every
 * host then writes --bytes to every host of the other leaves.
 *
 * Run 1 (pinned detours): the buffers along the loop fill, each switch pauses the previous
 * one, and nothing moves: the PfcDeadlockDetector reports the cycle after --detection-time and
 * stops the run. Run 2 (the fix: the detours removed, routes recomputed up-down): every write
 * completes. Exit status 0 when run 1 deadlocked and run 2 completed, 1 otherwise, 2 on bad
 * input.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// What one run left behind.
struct RunResult
{
    uint32_t posted{0};                 //!< writes posted
    uint32_t completed{0};              //!< writes completed successfully
    Time end;                           //!< simulated time at the end of the run
    std::vector<PfcDeadlockCycle> dead; //!< deadlocks declared
    uint64_t pauses{0};                 //!< PFC pause frames sent by the switches
    uint64_t losslessDrops{0};          //!< packets dropped in lossless priorities
    std::ostringstream counters;        //!< the counters of the cycle's ports (run 1)
};

/// Counts successful completions.
void
Completed(RunResult* r, const RoceWorkCompletion& wc)
{
    r->completed += wc.status == RoceWcStatus::SUCCESS ? 1 : 0;
}

/// \return the port at the other end of \p dev's cable
Ptr<PfcNetDevice>
Peer(Ptr<PfcNetDevice> dev)
{
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    return ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
}

/// Write, for every port of a cycle, what its counters say.
void
DescribeCycle(const PfcDeadlockCycle& c, FabricTopologyHelper& topo, std::ostream& os)
{
    const uint8_t q = c.priority;
    for (const auto& h : c.hops)
    {
        Ptr<FabricSwitch> sw = NodeList::GetNode(h.nodeId)->GetObject<FabricSwitch>();
        Ptr<PfcNetDevice> port = sw->GetPort(h.port);
        Ptr<PfcNetDevice> peer = Peer(port);
        Ptr<FabricSwitch> next = peer->GetNode()->GetObject<FabricSwitch>();
        const uint32_t peerPort = next->GetPortIndex(peer);
        os << "    " << h.nodeName << ":p" << h.port << " (to " << topo.GetNodeName(h.peerNodeId)
           << "): " << port->GetCounters().pauseRx[q] << " pauses received, "
           << port->GetTxQueue(q).GetNBytes() << " B queued on priority " << unsigned(q)
           << ", paused until " << port->GetPausedUntil(q).As(Time::US) << "; "
           << topo.GetNodeName(h.peerNodeId) << ":p" << peerPort << " holds it in XOFF ("
           << next->GetCounters().xoffSent[peerPort][q] << " XOFF decisions)\n";
    }
}

/**
 * Build the fabric, pin the detours or not, post the writes and run.
 * \param pinned true: the detours of the failure (run 1); false: computed up-down routes
 * \param bytes bytes per write
 * \param qps QPs (and writes) per ordered pair of hosts
 * \return what happened
 */
std::unique_ptr<RunResult>
Run(bool pinned, uint64_t bytes, uint32_t qps)
{
    auto r = std::make_unique<RunResult>();
    Ptr<ClosTopologyHelper> topo = CreateObject<ClosTopologyHelper>();
    topo->SetAttribute("Hosts", UintegerValue(6));
    topo->SetAttribute("ServersPerRack", UintegerValue(2));
    topo->SetAttribute("TorPorts", UintegerValue(4));
    topo->SetAttribute("Spines", UintegerValue(2));
    topo->SetAttribute("SpinePorts", UintegerValue(3));
    topo->SetAttribute("GpuLinkDataRate", StringValue("100Gbps"));
    topo->SetAttribute("LeafSpineDataRate", StringValue("100Gbps"));
    topo->SetAttribute("DeadlockDetection", BooleanValue(true));
    topo->Install();
    Ptr<PfcDeadlockDetector> detector = topo->GetDeadlockDetector();
    detector->SetStream(&std::cout);

    Ptr<Node> leaf1 = topo->GetLeaf(1);
    Ptr<Node> leaf2 = topo->GetLeaf(2);
    Ptr<Node> spine0 = topo->GetSpine(0);
    Ptr<Node> spine1 = topo->GetSpine(1);
    if (pinned)
    {
        topo->SetStaticRoute(spine0, leaf2, leaf1); // down to leaf1, up to spine1: a valley
        topo->SetStaticRoute(leaf1, leaf2, spine1);
        topo->SetStaticRoute(spine1, leaf1, leaf2); // down to leaf2, up to spine0: a valley
        topo->SetStaticRoute(leaf2, leaf1, spine0);
    }

    for (uint32_t a = 0; a < 6; ++a)
    {
        for (uint32_t b = a + 1; b < 6; ++b)
        {
            if (a / 2 == b / 2)
            {
                continue; // same leaf: no spine involved
            }
            for (const auto& q : topo->Connect(a, b, qps))
            {
                q.first->PostWrite(bytes, 0, 1, MakeBoundCallback(&Completed, r.get()));
                q.second->PostWrite(bytes, 0, 1, MakeBoundCallback(&Completed, r.get()));
                r->posted += 2;
            }
        }
    }
    Simulator::Run();

    r->end = Simulator::Now();
    r->dead = detector->GetDeadlocks();
    r->losslessDrops = FabricHealthMonitor::CountLosslessDrops();
    for (const auto& sw : topo->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint64_t n : sw->GetPort(p)->GetCounters().pauseTx)
            {
                r->pauses += n;
            }
        }
    }
    for (const auto& c : r->dead)
    {
        DescribeCycle(c, *topo, r->counters);
    }
    topo->Dispose();
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint64_t bytes = 2 << 20;
    uint32_t qps = 8;
    FabricCommandLine cmd(__FILE__);
    cmd.AddBytes("bytes", "Bytes per WRITE (1 B .. 1 GiB)", bytes, 1, uint64_t(1) << 30);
    cmd.AddValue("qps", "QPs (one WRITE each) per ordered pair of hosts (1..64)", qps, 1, 64);
    cmd.AddAttribute("detection-time", "ns3::PfcDeadlockDetector::DetectionTime");
    cmd.AddAttribute("check-interval", "ns3::PfcDeadlockDetector::CheckInterval");
    cmd.Parse(argc, argv);
    CreateObject<PfcDeadlockDetector>()->Install(NodeContainer()); // checks its attributes

    std::cout << "pfc-deadlock: 6 hosts on 3 leaves x 2 spines at 100 Gb/s, RoCE WRITEs of "
              << bytes << " B on lossless priority 3 (PFC), " << qps
              << " QPs per pair of hosts on different leaves\n\n"
              << "Run 1: detours pinned after the failures of leaf2-spine0 and leaf1-spine1 "
                 "(cables since repaired):\n"
              << "  spine0: leaf2's hosts via leaf1   leaf1: leaf2's hosts via spine1\n"
              << "  spine1: leaf1's hosts via leaf2   leaf2: leaf1's hosts via spine0\n";
    auto broken = Run(true, bytes, qps);
    std::cout << "  writes completed: " << broken->completed << "/" << broken->posted
              << "; run stopped at " << broken->end.As(Time::MS) << "\n\n";

    std::cout << "Root-cause analysis\n";
    if (broken->dead.empty())
    {
        std::cout << "  no deadlock formed this time (try a larger --bytes or more --qps)\n";
    }
    else
    {
        const PfcDeadlockCycle& c = broken->dead.front();
        std::cout
            << "  What happened: a PFC deadlock. From " << c.since.As(Time::MS)
            << " every port of the cycle\n    " << c.ToString()
            << "\n  was paused by the next switch while holding packets for it, and sent nothing "
               "for the\n  detection time: each switch's buffer for the previous switch was "
               "full of packets waiting\n  for the next paused port, so no buffer could drain "
               "(a cyclic buffer dependency).\n"
            << "  Which counters point where (per port of the cycle: PFC pauses received, bytes "
               "stuck,\n  and the XOFF decisions of the switch that pauses it):\n"
            << broken->counters.str() << "  Lossless drops: " << broken->losslessDrops
            << " (PFC kept the fabric lossless; it stopped instead of dropping).\n"
            << "  Why: the pinned spine routes go down to a leaf and up again (spine0 -> leaf1 -> "
               "spine1,\n  spine1 -> leaf2 -> spine0). Up-down routing (climb, then descend) "
               "cannot close a loop of\n  buffer dependencies; these two valleys do.\n"
            << "  The fix: remove routes through the failed links once routing converges (keep "
               "every path\n  up-down; FabricTopologyHelper::ClearStaticRoutes), and keep the "
               "PFC watchdog\n  (PfcWatchdogTimeout) as the last resort that breaks a deadlock "
               "by dropping.\n";
    }

    std::cout << "\nRun 2 (the fix): detours removed, routes recomputed up-down:\n";
    auto fixed = Run(false, bytes, qps);
    std::cout << "  writes completed: " << fixed->completed << "/" << fixed->posted << " in "
              << fixed->end.As(Time::MS) << "; " << fixed->pauses
              << " PFC pause frames sent by the switches; deadlocks: " << fixed->dead.size()
              << "; lossless drops: " << fixed->losslessDrops << "\n";

    const bool ok =
        !broken->dead.empty() && fixed->dead.empty() && fixed->completed == fixed->posted;
    std::cout << "\npfc-deadlock: " << (ok ? "deadlock found and fixed" : "UNEXPECTED OUTCOME")
              << "\n";
    return ok ? 0 : 1;
}
