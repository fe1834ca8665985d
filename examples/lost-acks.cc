/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * lost-acks: a failure lab. One leaf-spine cable loses RoCE ACKs (a drop-class fault: a dirty
 * optic whose errors hit the small frames, modelled as losing one packet class); the data
 * gets through, but the requesters whose ACKs cross that cable wait for a local ACK timeout
 * (LAT) and resend. Every write still completes, only later: the tail latency rises. The
 * program finds the cable from the counters, then runs the fixed fabric (the cable replaced).
 *
 *      spine0        spine1       4 leaves x 2 spines, one cable each, 100 Gb/s; 2 hosts per
 *     /|  |  \      /|  |  \      leaf (gpu0-1 on leaf0, ..., gpu6-7 on leaf3); RoCE WRITEs on
 *  leaf0 leaf1 leaf2 leaf3        the lossless priority 3
 *
 * Every host writes --bytes to every other host (an all-to-all, one QP per ordered pair).
 * Run 1: the cable --cable (leaf0-spine1) drops each ACK it carries with probability --prob,
 * in both directions. Run 2 (the fix): the same without the loss. The local ACK timeout is
 * 4.096 us x 2^--local-ack-timeout (RoCE's encoding; 5: 131 us). --monitor=FILE and
 * --monitor-fixed=FILE write run 1's and run 2's FabricMonitor CSV (with --monitor-probes,
 * latency probes; tools/plots/plot_fabric_monitor.py draws them). Exit status 0 when run 1
 * showed local ACK timeouts, every write completed in both runs and run 2 had no timeout, 1
 * otherwise, 2 on bad input.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// One QP (requester) of the all-to-all.
struct Qp
{
    uint32_t src;              //!< requester's rank
    uint32_t dst;              //!< responder's rank
    Ptr<RoceQueuePair> qp;     //!< the requester QP
    uint64_t timeouts{0};      //!< local ACK timeouts (after the run)
    uint64_t retransmitted{0}; //!< packets resent (after the run)
};

/// What one run left behind.
struct RunResult
{
    uint32_t posted{0};              //!< writes posted
    uint32_t completed{0};           //!< writes completed successfully
    std::vector<Time> fct;           //!< completion times (all posted at 0)
    std::vector<Qp> qps;             //!< the requesters and their counters
    std::vector<std::string> errors; //!< "node:pN (from peer) D rx_error drops", non-zero only
    uint64_t acksDropped{0};         //!< ACKs the fault's filters dropped
};

/// Counts a completion and its time.
void
Completed(RunResult* r, const RoceWorkCompletion& wc)
{
    r->completed += wc.status == RoceWcStatus::SUCCESS ? 1 : 0;
    r->fct.push_back(wc.endTime);
}

/// \return the \p q quantile of \p v (nearest rank), 0 if empty
Time
Quantile(std::vector<Time> v, double q)
{
    if (v.empty())
    {
        return Time(0);
    }
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<size_t>(std::ceil(q * v.size()));
    return v[std::max<size_t>(rank, 1) - 1];
}

/// \return the labs' fabric, installed, with local ACK timeout exponent \p lat
Ptr<ClosTopologyHelper>
Build(uint32_t lat)
{
    Ptr<ClosTopologyHelper> topo = CreateObject<ClosTopologyHelper>();
    topo->SetAttribute("Hosts", UintegerValue(8));
    topo->SetAttribute("ServersPerRack", UintegerValue(2));
    topo->SetAttribute("TorPorts", UintegerValue(4));
    topo->SetAttribute("Spines", UintegerValue(2));
    topo->SetAttribute("SpinePorts", UintegerValue(4));
    topo->SetAttribute("GpuLinkDataRate", StringValue("100Gbps"));
    topo->SetAttribute("LeafSpineDataRate", StringValue("100Gbps"));
    topo->GetNicHelper().SetNicAttribute("LocalAckTimeout", UintegerValue(lat));
    topo->Install();
    return topo;
}

/**
 * Build the fabric, install the loss (or not), run the all-to-all.
 * \param fault the drop-class fault spec ("" = none)
 * \param bytes bytes per write
 * \param lat LocalAckTimeout exponent
 * \param monitor the FabricMonitor CSV ("" = none)
 * \return what happened
 */
std::unique_ptr<RunResult>
Run(const std::string& fault, uint64_t bytes, uint32_t lat, const std::string& monitor)
{
    auto r = std::make_unique<RunResult>();
    Ptr<ClosTopologyHelper> topo = Build(lat);
    Ptr<FabricMonitor> mon = FabricMonitor::InstallIfEnabled(topo, monitor);
    auto faults = CreateObject<FaultHelper>();
    if (!fault.empty())
    {
        faults->Add(fault);
        faults->Install(topo);
    }
    for (uint32_t a = 0; a < topo->GetNRanks(); ++a)
    {
        for (uint32_t b = 0; b < topo->GetNRanks(); ++b)
        {
            if (a != b)
            {
                auto q = topo->Connect(a, b, 1).front();
                q.first->PostWrite(bytes, 0, 1, MakeBoundCallback(&Completed, r.get()));
                r->qps.push_back(Qp{a, b, q.first});
                r->posted++;
            }
        }
    }
    Simulator::Run();

    for (auto& q : r->qps)
    {
        q.timeouts = q.qp->GetCounters().timeouts;
        q.retransmitted = q.qp->GetCounters().retransmittedPackets;
        q.qp = nullptr;
    }
    for (const auto& sw : topo->GetScaleOutSwitches())
    {
        const std::string name = topo->GetNodeName(sw->GetPort(0)->GetNode()->GetId());
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<PfcNetDevice> dev = sw->GetPort(p);
            const uint64_t n = dev->GetCounters().drops[size_t(PfcDropReason::RX_ERROR)];
            if (n > 0)
            {
                Ptr<PfcChannel> ch = dev->GetPfcChannel();
                Ptr<PfcNetDevice> peer =
                    ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
                r->errors.push_back(name + ":p" + std::to_string(p) + " (from " +
                                    topo->GetNodeName(peer->GetNode()->GetId()) + ") " +
                                    std::to_string(n) + " rx_error drops");
            }
        }
    }
    for (Ptr<PacketClassFilter> f : faults->GetPacketClassFilters())
    {
        r->acksDropped += f->GetDrops(FabricPacketClass::ACK);
    }
    topo->Dispose();
    Simulator::Destroy();
    return r;
}

/// Print one run's completions, tail latency and timeouts.
void
Print(const RunResult& r)
{
    uint64_t timeouts = 0;
    uint64_t resent = 0;
    uint32_t hit = 0;
    for (const auto& q : r.qps)
    {
        timeouts += q.timeouts;
        resent += q.retransmitted;
        hit += q.timeouts > 0 ? 1 : 0;
    }
    std::cout << "  writes completed: " << r.completed << "/" << r.posted
              << "; completion time p50 " << FaultSpec::FormatTime(Quantile(r.fct, 0.5)) << ", p99 "
              << FaultSpec::FormatTime(Quantile(r.fct, 0.99)) << "\n"
              << "  local ACK timeouts: " << timeouts << " on " << hit << " of " << r.qps.size()
              << " QPs; packets resent: " << resent << "; ACKs lost on the cable: " << r.acksDropped
              << "\n";
    if (r.completed < r.posted)
    {
        std::cout << "  " << r.posted - r.completed
                  << " writes failed: RetryCount local ACK timeouts in a row (RETRY_EXCEEDED)\n";
    }
}

/**
 * \param cable "A-B" or "A-B#k", one end a leaf or a GPU
 * \param[out] name what is below the cable: "leaf2 (gpu4-5)" or "gpu3"
 * \return the ranks below the cable's lower end (2 hosts per leaf: leaf n has 2n, 2n + 1)
 */
std::set<uint32_t>
HostsBelow(const std::string& cable, std::string& name)
{
    const std::string ends = cable.substr(0, cable.find('#'));
    const std::string a = ends.substr(0, ends.find('-'));
    const std::string b = ends.substr(ends.find('-') + 1);
    for (const std::string& e : {a, b})
    {
        if (e.rfind("gpu", 0) == 0)
        {
            name = e;
            return {uint32_t(std::stoul(e.substr(3)))};
        }
    }
    const std::string leaf = a.rfind("leaf", 0) == 0 ? a : b;
    const uint32_t n = std::stoul(leaf.substr(4));
    name = leaf + " (gpu" + std::to_string(2 * n) + "-" + std::to_string(2 * n + 1) + ")";
    return {2 * n, 2 * n + 1};
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint64_t bytes = 256 << 10;
    uint32_t lat = 5;
    double prob = 0.3;
    std::string cable = "leaf0-spine1";
    std::string monitor;
    std::string monitorFixed;
    FabricCommandLine cmd(__FILE__);
    cmd.AddBytes("bytes", "Bytes per WRITE (1 B .. 64 MiB)", bytes, 1, uint64_t(64) << 20);
    cmd.AddValue("local-ack-timeout",
                 "LocalAckTimeout exponent k: 4.096 us x 2^k (0..31)",
                 lat,
                 0,
                 31);
    cmd.AddValue("prob", "Probability that the cable drops an ACK, in (0, 1]", prob);
    cmd.AddValue("cable", "The cable that loses ACKs, A-B (node names)", cable);
    FabricMonitor::AddCommandLine(cmd, monitor);
    cmd.AddOutput("monitor-fixed", "FabricMonitor CSV of run 2 (--monitor: run 1)", monitorFixed);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(!(prob > 0 && prob <= 1),
                          "--prob=" << prob << " is invalid; valid range is (0, 1]");
    std::ostringstream spec;
    spec << "drop-class:" << cable << "@0s,class=ack,prob=" << prob;
    {
        // Check the cable on the fabric before anything runs (a bad name exits with status 2).
        Ptr<ClosTopologyHelper> topo = Build(lat);
        auto check = CreateObject<FaultHelper>();
        check->Add(spec.str());
        check->Install(topo);
        topo->Dispose();
        Simulator::Destroy();
    }

    std::cout << "lost-acks: 8 hosts on 4 leaves x 2 spines at 100 Gb/s, all-to-all RoCE WRITEs "
                 "of "
              << bytes << " B, one QP per ordered pair; local ACK timeout 4.096 us x 2^" << lat
              << " = " << FaultSpec::FormatTime(NanoSeconds(4096) * (int64_t(1) << lat))
              << "\n\nRun 1: the cable " << cable << " drops ACKs with probability " << prob
              << " (both directions)\n";
    auto broken = Run(spec.str(), bytes, lat, monitor);
    Print(*broken);

    std::cout
        << "\nRoot-cause analysis\n"
        << "  What happened: ACKs were lost. The data arrived, but a requester that misses "
           "the ACK of its\n  last packets waits for the local ACK timeout, then resends "
           "from the last acknowledged packet\n  (go-back-N): the write completes, later (unless "
           "every resend loses its ACKs too and\n  RetryCount runs out: RETRY_EXCEEDED).\n"
        << "  Which counters point where: per port, receive errors (rx_error drops) only at the "
           "ends of one\n  cable:\n";
    for (const auto& e : broken->errors)
    {
        std::cout << "    " << e << "\n";
    }
    std::cout << "  and per QP, the local ACK timeouts (local_ack_timeout_err):\n";
    uint32_t hit = 0;
    std::string below;
    const std::set<uint32_t> under = HostsBelow(cable, below);
    bool crossing = true; // every QP with timeouts has exactly one end below the cable
    for (const auto& q : broken->qps)
    {
        if (q.timeouts > 0)
        {
            crossing = crossing && (under.count(q.src) != under.count(q.dst));
            std::cout << (hit % 4 == 0 ? "    " : "  ") << "gpu" << q.src << "->gpu" << q.dst
                      << ": " << q.timeouts << (hit % 4 == 3 ? "\n" : "");
            ++hit;
        }
    }
    std::cout << (hit % 4 == 0 ? "" : "\n") << "  Every QP with timeouts has "
              << (crossing
                      ? "one end under " + below +
                            " and the other elsewhere:\n  their ACKs can cross the cable "
                            "(a QP whose ACKs hash to another path sees none),\n  and "
                            "the receive errors name it.\n"
                      : std::string("not one end under ") + below + ": look for a second cause.\n")
              << "  The fix: replace the optic or cable (FEC / symbol-error counters and "
                 "optical power confirm it).\n  Until then a smaller LocalAckTimeout shortens "
                 "each stall (4.096 us x 2^k: k 4 = 65.5 us,\n  production NICs ship k 14-20, "
                 "67 ms-4.3 s, so each lost tail ACK costs that long); too small\n  and queueing "
                 "delays fire spurious timeouts and resends (here k 4 does, even without "
                 "loss).\n";

    std::cout << "\nRun 2 (the fix): the cable replaced, no loss\n";
    auto fixed = Run("", bytes, lat, monitorFixed);
    Print(*fixed);

    uint64_t brokenTimeouts = 0;
    uint64_t fixedTimeouts = 0;
    for (const auto& q : broken->qps)
    {
        brokenTimeouts += q.timeouts;
    }
    for (const auto& q : fixed->qps)
    {
        fixedTimeouts += q.timeouts;
    }
    const bool ok = brokenTimeouts > 0 && fixedTimeouts == 0 &&
                    broken->completed == broken->posted && fixed->completed == fixed->posted;
    std::cout << "\nlost-acks: " << (ok ? "lost ACKs found and fixed" : "UNEXPECTED OUTCOME")
              << "\n";
    return ok ? 0 : 1;
}
