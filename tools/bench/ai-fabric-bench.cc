/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric-bench: fixed scenarios that measure the simulator's own speed.
 *
 * For each scenario it prints one line (and optionally appends a CSV row):
 *   simulated time, wall time (the whole scenario, and "run": inside Simulator::Run, set-up
 *   excluded), events executed, packet-hops (frames put on any link),
 *   packet-hops per wall second, peak resident memory, and the scenario's own result.
 *
 *   ai-fabric-bench --scenario=p2p        one 1 GiB WRITE, two NICs through one switch, 400G
 *   ai-fabric-bench --scenario=incast     64:1 WRITE incast through a two-tier Clos, DCQCN+PFC
 *   ai-fabric-bench --scenario=uet-p2p    the p2p WRITE over Ultra Ethernet (RUD)
 *   ai-fabric-bench --scenario=uet-incast the incast over Ultra Ethernet (RUD, PFC, no CC yet)
 *   ai-fabric-bench --scenario=uet-permutation  UEC htsim's 1024-node permutation (k=16 fat
 *                   tree, 2 MB per flow, NSCC, trimming, REPS over 128 EVs)
 *   ai-fabric-bench --scenario=uet-permutation-rccc  the same with RCCC (receiver credit)
 *   ai-fabric-bench --scenario=allreduce-su  one SuperPOD SU (32 x 8 GPUs) ring AllReduce 256 MiB
 *   ai-fabric-bench --scenario=allreduce-su-nccl  the same AllReduce as NCCL runs it (its
 *                   tuner's algorithm, protocol and channels: NVLSTree at 256 MiB)
 *   ai-fabric-bench --scenario=lb-permutation [--lb=NAME]  a rack-crossing permutation of 128
 *                    hosts (8 ToRs x 16, 16 spines, 400G, DCQCN + PFC, RoCE out-of-order
 *                    placement) under one switch load balancer (ecmp, flowlet, adaptive, ...)
 *   ai-fabric-bench --scenario=fabric-8k  build an 8,192-GPU fabric + ring-neighbour QPs
 *   ai-fabric-bench --scenario=websearch-128  the HPCC-lineage reference: 128 hosts, WebSearch
 *                   at 50 % for 10 ms over DCQCN, run to completion (ClosWorkloadHelper)
 *
 * Run all with tools/bench/run-benchmarks.sh. Timing belongs here, not in the tests.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Frames transmitted on every PfcNetDevice of the simulation (data, ACK, CNP; not PFC).
uint64_t
PacketHops()
{
    uint64_t hops = 0;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            if (auto dev = DynamicCast<PfcNetDevice>((*it)->GetDevice(d)))
            {
                for (auto f : dev->GetCounters().txFrames)
                {
                    hops += f;
                }
            }
        }
    }
    return hops;
}

/// Peak resident set size of this process, bytes.
uint64_t
PeakRss()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return uint64_t(ru.ru_maxrss) * 1024;
}

/// Runs the simulation to its end. \return the wall-clock seconds spent in Simulator::Run (the
/// scenario's set-up excluded), which every scenario that runs stores in its \p runWall.
double
RunSimulation()
{
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Two NICs through one switch; one WRITE of \p bytes. Returns the result line.
std::string
ScenarioP2p(double& runWall, uint64_t bytes)
{
    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("400Gbps"));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.Install(2);
    star.AssignStreams(1);
    auto qp = star.Connect(0, 1)[0];
    RoceWorkCompletion done;
    qp.first->PostWrite(bytes,
                        0,
                        1,
                        MakeCallback(+[](RoceWorkCompletion* d, const RoceWorkCompletion& wc) {
                            *d = wc;
                        }).Bind(&done));
    runWall = RunSimulation();
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << "WRITE " << bytes << " B "
       << RoceWcStatusName(done.status) << ", goodput "
       << bytes * 8.0 / (done.endTime - done.startTime).GetSeconds() / 1e9 << " Gb/s";
    return os.str();
}

/// Two UetNics through one switch; one RUD WRITE of \p bytes. Returns the result line.
std::string
ScenarioUetP2p(double& runWall, uint64_t bytes)
{
    NodeContainer hosts(2);
    NodeContainer sw(1);
    PfcHelper pfc;
    pfc.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
    pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    SwitchHelper sh;
    UetNicHelper nicHelper;
    std::vector<Ptr<PfcNetDevice>> ports;
    for (uint32_t i = 0; i < 2; ++i)
    {
        ports.push_back(DynamicCast<PfcNetDevice>(pfc.Install(hosts.Get(i), sw.Get(0)).Get(0)));
    }
    Ptr<FabricSwitch> fabric = sh.Install(sw.Get(0));
    std::vector<Ptr<UetEndpoint>> eps;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ipv4Address ip(0x0a000001 + i);
        fabric->GetForwardingTable()->SetRoute(ip, {i});
        eps.push_back(nicHelper.Install(hosts.Get(i), ports[i], ip)->CreateEndpoint(1, 0));
        eps.back()->RegisterMemory(0, bytes);
    }
    nicHelper.AssignStreams(1);
    UetCompletion done;
    eps[0]->PostWrite(
        eps[1]->GetAddress(),
        0,
        0,
        bytes,
        MakeCallback(+[](UetCompletion* d, const UetCompletion& c) { *d = c; }).Bind(&done));
    runWall = RunSimulation();
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << "UET WRITE " << bytes << " B "
       << (done.ok ? "ok" : "FAILED") << ", goodput "
       << bytes * 8.0 / (done.endTime - done.startTime).GetSeconds() / 1e9 << " Gb/s";
    return os.str();
}

/// UEC htsim's permutation benchmark: a k-ary fat tree with htsim's defaults (k = 16: 1024
/// hosts at 100 Gb/s), every host sends \p bytes to another (a random derangement), NSCC (or
/// \p rccc: RCCC, receiver credit) with the fat tree's largest unloaded RTT as BaseRtt,
/// trimming, REPS spraying over 128 EVs.
std::string
ScenarioUetPermutation(double& runWall, uint32_t k, uint64_t bytes, bool rccc = false)
{
    auto fabric = CreateObject<FatTreeTopologyHelper>();
    fabric->SetAttribute("K", UintegerValue(k));
    UetNicHelper& nh = fabric->GetUetNicHelper();
    nh.SetNicAttribute(
        "CongestionControl",
        TypeIdValue(rccc ? RcccCongestionOps::GetTypeId() : NsccCongestionOps::GetTypeId()));
    nh.SetNicAttribute("EvSelector", TypeIdValue(UetRepsEvSelector::GetTypeId()));
    nh.SetNicAttribute("AckOnHole", BooleanValue(false));
    fabric->Install();
    fabric->AssignStreams(1);
    const uint32_t hosts = fabric->GetNHosts();
    std::vector<Ptr<Node>> hostNodes;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<UetNic> nic = fabric->GetUetNic(h);
        nic->GetCongestionPrototype()->SetAttribute("BaseRtt",
                                                    TimeValue(fabric->GetMaxUnloadedRtt()));
        nic->GetEvSelectorPrototype()->SetAttribute("Evs", UintegerValue(128));
        hostNodes.push_back(fabric->GetHost(h));
    }
    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    HtsimConnectionMatrix matrix = HtsimConnectionMatrix::Permutation(hosts, bytes, rng);
    UetMatrixRunner runner(matrix, fabric->GetUetNicHelper().CreateEndpoints(hostNodes, 1));
    runner.Start();
    runWall = RunSimulation();
    const UetFctSummary s = runner.GetSummary();
    const FatTreeCounters c = fabric->GetCounters();
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << "UET permutation " << (rccc ? "(RCCC) " : "")
       << hosts << " x " << bytes << " B: " << s.completed << "/" << s.flows << " done, FCT median "
       << s.median.GetNanoSeconds() / 1e3 << " us, max " << s.max.GetNanoSeconds() / 1e3
       << " us, trims " << c.trims << ", RTOs " << c.rtos;
    return os.str();
}

/// 64 senders on 8 leaves, 8 spines, receiver on another leaf, at 400G: RoCE with DCQCN + PFC,
/// or (\p uet) Ultra Ethernet RUD with PFC and no congestion control yet.
std::string
ScenarioIncast(double& runWall, uint32_t senders, uint64_t bytes, bool uet = false)
{
    const uint32_t perLeaf = 8;
    const uint32_t leaves = (senders + perLeaf - 1) / perLeaf + 1; // + the receiver's leaf
    const uint32_t spines = 8;
    NodeContainer hosts(senders + 1);
    NodeContainer leafNodes(leaves);
    NodeContainer spineNodes(spines);
    PfcHelper pfc;
    pfc.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
    pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    std::vector<Ptr<PfcNetDevice>> hostPort;
    std::vector<uint32_t> hostLeaf;
    for (uint32_t h = 0; h <= senders; ++h)
    {
        uint32_t leaf = h < senders ? h / perLeaf : leaves - 1;
        hostLeaf.push_back(leaf);
        hostPort.push_back(
            DynamicCast<PfcNetDevice>(pfc.Install(hosts.Get(h), leafNodes.Get(leaf)).Get(0)));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            pfc.Install(leafNodes.Get(l), spineNodes.Get(s));
        }
    }
    SwitchHelper sh;
    std::vector<Ptr<FabricSwitch>> leafSw;
    std::vector<Ptr<FabricSwitch>> spineSw;
    for (uint32_t l = 0; l < leaves; ++l)
    {
        leafSw.push_back(sh.Install(leafNodes.Get(l)));
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        spineSw.push_back(sh.Install(spineNodes.Get(s)));
    }
    // Leaf ports: hosts first (in creation order), then one uplink per spine.
    std::vector<uint32_t> hostsOnLeaf(leaves, 0);
    std::vector<uint32_t> downPort(senders + 1);
    for (uint32_t h = 0; h <= senders; ++h)
    {
        downPort[h] = hostsOnLeaf[hostLeaf[h]]++;
    }
    RoceNicHelper nicHelper;
    nicHelper.SetCongestionControl("dcqcn");
    UetNicHelper uetHelper;
    std::vector<Ptr<RoceNic>> nics;
    std::vector<Ptr<UetEndpoint>> eps;
    for (uint32_t h = 0; h <= senders; ++h)
    {
        Ipv4Address ip(0x0a000001 + h);
        if (uet)
        {
            eps.push_back(uetHelper.Install(hosts.Get(h), hostPort[h], ip)->CreateEndpoint(1, 0));
            eps.back()->RegisterMemory(0, bytes);
        }
        else
        {
            nics.push_back(nicHelper.Install(hosts.Get(h), hostPort[h], ip));
        }
        for (uint32_t l = 0; l < leaves; ++l)
        {
            if (l == hostLeaf[h])
            {
                leafSw[l]->GetForwardingTable()->SetRoute(ip, {downPort[h]});
            }
            else
            {
                std::vector<uint32_t> up;
                for (uint32_t s = 0; s < spines; ++s)
                {
                    up.push_back(hostsOnLeaf[l] + s);
                }
                leafSw[l]->GetForwardingTable()->SetRoute(ip, up);
            }
        }
        for (uint32_t s = 0; s < spines; ++s)
        {
            spineSw[s]->GetForwardingTable()->SetRoute(ip, {hostLeaf[h]});
        }
    }
    nicHelper.AssignStreams(1);
    uetHelper.AssignStreams(1);
    uint32_t doneCount = 0;
    Time last;
    for (uint32_t h = 0; uet && h < senders; ++h)
    {
        eps[h]->PostWrite(eps[senders]->GetAddress(),
                          0,
                          0,
                          bytes,
                          MakeCallback(+[](uint32_t* n, Time* t, const UetCompletion& c) {
                              *n += c.ok ? 1 : 0;
                              *t = std::max(*t, c.endTime);
                          }).Bind(&doneCount, &last));
    }
    for (uint32_t h = 0; !uet && h < senders; ++h)
    {
        auto qp = nicHelper.Connect(nics[h], nics[senders])[0];
        qp.first->PostWrite(bytes,
                            0,
                            1,
                            MakeCallback(+[](uint32_t* n, Time* t, const RoceWorkCompletion& wc) {
                                ++*n;
                                *t = std::max(*t, wc.endTime);
                            }).Bind(&doneCount, &last));
    }
    runWall = RunSimulation();
    uint64_t pauses = 0;
    for (auto& l : leafSw)
    {
        for (uint32_t p = 0; p < l->GetNPorts(); ++p)
        {
            pauses += l->GetPort(p)->GetCounters().pauseTx[3];
        }
    }
    std::ostringstream os;
    os << doneCount << "/" << senders << " WRITEs of " << bytes << " B done, last at "
       << last.GetSeconds() * 1e6 << " us, " << pauses << " PFC pauses from leaves";
    if (uet)
    {
        uint64_t retx = 0;
        uint64_t rto = 0;
        for (const auto& ep : eps)
        {
            retx += ep->GetNic()->GetCounters().retransmissions;
            rto += ep->GetNic()->GetCounters().rtoExpirations;
        }
        os << ", " << retx << " retransmissions (" << rto << " RTOs)";
    }
    return os.str();
}

/// One DGX SuperPOD SU (32 servers x 8 GPUs, rail-optimized) AllReduce of \p bytes: the ring
/// (8 channels, Simple, 2 MiB chunks), or with \p nccl as NCCL's tuner runs it.
std::string
ScenarioAllReduceSu(double& runWall, uint64_t bytes, bool nccl = false)
{
    Ptr<RailOptimizedTopologyHelper> topo = CreateObject<RailOptimizedTopologyHelper>();
    topo->GetNicHelper().SetCongestionControl("dcqcn");
    topo->Install();
    CollectiveHelper coll;
    coll.SetTopology(topo);
    if (!nccl)
    {
        // The network benchmark of NCCL (NCCL_ALGO=RING, Simple): the same work in every build.
        coll.SetCommunicatorAttribute("Channels", UintegerValue(topo->GetGpusPerServer()));
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
        coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(2 * 1024 * 1024));
    }
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    CollectiveRecord rec;
    comm->Enqueue(CollectiveOp::ALL_REDUCE,
                  bytes,
                  0,
                  MakeCallback(+[](CollectiveRecord* r, const CollectiveRecord& done) {
                      *r = done;
                  }).Bind(&rec));
    runWall = RunSimulation();
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << "AllReduce " << bytes << " B on "
       << topo->GetNRanks() << " ranks (" << rec.algorithm << "/" << rec.protocol << ") "
       << (rec.completed ? "completed" : "FAILED") << " in " << rec.GetDuration().GetSeconds() * 1e6
       << " us, busbw " << rec.busBw << " GB/s";
    return os.str();
}

/// The HPCC-lineage reference scenario (ClosWorkloadHelper defaults: 128 hosts, WebSearch at
/// 50 % for \p duration, DCQCN), run to completion.
std::string
ScenarioWebsearch128(double& runWall, Time duration)
{
    auto exp = CreateObject<ClosWorkloadHelper>();
    exp->SetAttribute("Duration", TimeValue(duration));
    exp->Install();
    exp->Start();
    runWall = RunSimulation();
    FlowWorkloadRunner& run = exp->GetRunner();
    const FlowFctSummary& s = run.GetSummary();
    const FlowFctBucketStats all = s.GetOverall();
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << s.GetFlows() << " WebSearch flows, "
       << s.GetFailed() << " failed" << (run.AllCompleted() ? "" : " (NOT all completed)")
       << ", slowdown median " << all.medianSlowdown << " p95 " << all.p95Slowdown << " p99 "
       << all.p99Slowdown << ", at most " << run.GetMaxActive() << " in flight, "
       << run.GetQpPairs() << " QP pairs";
    return os.str();
}

/// A rack-crossing permutation on a two-tier Clos of 8 ToRs x 16 hosts and 16 spines at 400
/// Gb/s: every host WRITEs \p bytes to another rack's host at once, under the switch load
/// balancer \p lb (SwitchHelper::SetLoadBalancerByName; "te" also plans the permutation with a
/// FabricTeController); RoCE with DCQCN, PFC and
/// out-of-order placement (so that per-packet balancers are not charged go-back-N).
std::string
ScenarioLbPermutation(double& runWall, uint64_t bytes, const std::string& lb)
{
    const uint32_t hosts = 128;
    const uint32_t perRack = 16;
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(hosts));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->SetAttribute("ServersPerRack", UintegerValue(perRack));
    t->SetAttribute("Spines", UintegerValue(16));
    t->GetSwitchHelper().SetLoadBalancerByName(lb, "--lb");
    t->GetNicHelper().SetCongestionControl("dcqcn");
    t->GetNicHelper().SetNicAttribute("OutOfOrderWindow", UintegerValue(4096));
    t->Install();
    // A fixed permutation whose every pair crosses racks (the same in every build): host s of
    // rack r sends to rack r + 1 + (s mod 7), at a slot shuffled per destination rack.
    const uint32_t racks = hosts / perRack;
    std::mt19937 gen(12345);
    std::vector<std::vector<uint32_t>> slot(racks, std::vector<uint32_t>(perRack));
    for (auto& v : slot)
    {
        std::iota(v.begin(), v.end(), 0);
        std::shuffle(v.begin(), v.end(), gen);
    }
    std::vector<uint32_t> dst(hosts);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        const uint32_t r = i / perRack;
        const uint32_t s = i % perRack;
        const uint32_t to = (r + 1 + s % (racks - 1)) % racks;
        dst[i] = to * perRack + slot[to][s];
    }
    Ptr<FabricTeController> te;
    if (lb == "te")
    {
        // Traffic engineering plans the permutation: every flow at the NIC rate.
        te = CreateObject<FabricTeController>();
        te->SetTopology(t);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            te->AddDemand(i, dst[i], DataRate("400Gbps"));
        }
        te->Plan();
    }
    std::vector<Time> fct;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        t->Connect(i, dst[i])[0].first->PostWrite(
            bytes,
            0,
            1,
            MakeCallback(+[](std::vector<Time>* v, const RoceWorkCompletion& wc) {
                if (wc.status == RoceWcStatus::SUCCESS)
                {
                    v->push_back(Simulator::Now());
                }
            }).Bind(&fct));
    }
    runWall = RunSimulation();
    std::sort(fct.begin(), fct.end());
    RoceQpCounters c;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        RoceQpCounters q = t->GetNic(i)->GetTotalQpCounters();
        c.outOfOrderRx += q.outOfOrderRx;
        c.retransmittedPackets += q.retransmittedPackets;
    }
    // Uplink imbalance: max / mean bytes over the ToRs' uplinks.
    double maxBytes = 0;
    double sumBytes = 0;
    uint32_t uplinks = 0;
    for (uint32_t l = 0; l < t->GetNLeaves(); ++l)
    {
        Ptr<FabricSwitch> sw = t->GetLeaf(l)->GetObject<FabricSwitch>();
        for (uint32_t p = perRack; p < sw->GetNPorts(); ++p)
        {
            const PfcPortCounters& pc = sw->GetPort(p)->GetCounters();
            double b = 0;
            for (uint8_t q = 0; q < 8; ++q)
            {
                b += double(pc.txBytes[q]);
            }
            maxBytes = std::max(maxBytes, b);
            sumBytes += b;
            ++uplinks;
        }
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << "lb " << lb << ": " << fct.size() << "/" << hosts
       << " WRITEs of " << bytes << " B, FCT median "
       << (fct.empty() ? 0.0 : fct[fct.size() / 2].GetSeconds() * 1e6) << " us, max "
       << (fct.empty() ? 0.0 : fct.back().GetSeconds() * 1e6) << " us; uplink max/mean "
       << std::setprecision(2) << (sumBytes > 0 ? maxBytes / (sumBytes / uplinks) : 0.0)
       << "; out of sequence " << c.outOfOrderRx << ", retransmitted " << c.retransmittedPackets;
    return os.str();
}

/// Build-only: an 8,192-GPU rail-optimized fabric plus one QP to each ring neighbour.
std::string
ScenarioFabric8k()
{
    Ptr<RailOptimizedTopologyHelper> topo = CreateObject<RailOptimizedTopologyHelper>();
    topo->SetAttribute("Servers", UintegerValue(1024));
    topo->SetAttribute("SpinePorts", UintegerValue(256));
    topo->Install();
    uint32_t n = topo->GetNRanks();
    for (uint32_t r = 0; r < n; ++r)
    {
        topo->Connect(r, (r + 1) % n);
    }
    std::ostringstream os;
    os << n << " GPUs, " << topo->GetNLeaves() << " leaves, " << topo->GetNSpines() << " spines, "
       << n << " ring QP pairs; fabric built in " << topo->GetBuildStats().totalSeconds << " s";
    return os.str();
}

} // namespace

#ifndef AI_FABRIC_PGO_MODE
#define AI_FABRIC_PGO_MODE "unknown" ///< how the library was built (AI_FABRIC_PGO, +LTO)
#endif

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string scenario = "p2p";
    std::string csv;
    uint64_t bytes = 0;
    uint32_t k = 16;
    std::string scheduler = "ns3::DelayClassScheduler";
    std::string simulator = "ns3::FabricSimulatorImpl";
    std::string lb = "ecmp";

    CommandLine cmd(__FILE__);
    cmd.AddValue("scenario",
                 "p2p | incast | uet-p2p | uet-incast | uet-permutation | uet-permutation-rccc | "
                 "allreduce-su | allreduce-su-nccl | lb-permutation | fabric-8k | websearch-128",
                 scenario);
    cmd.AddValue("lb",
                 "lb-permutation: switch load balancer (" +
                     SwitchHelper::GetLoadBalancerNamesText() + ")",
                 lb);
    cmd.AddValue("bytes",
                 "Override the scenario's message size (0 = default; websearch-128: the "
                 "arrival time in ns, default 10 ms)",
                 bytes);
    cmd.AddValue("k", "uet-permutation(-rccc): fat tree radix (even, >= 2; 16 = 1024 hosts)", k);
    cmd.AddValue(
        "scheduler",
        "ns-3 event scheduler type (ns3::DelayClassScheduler, ns3::QuaternaryHeapScheduler, "
        "ns3::CalendarScheduler, ...)",
        scheduler);
    cmd.AddValue("simulator",
                 "ns-3 simulator engine (ns3::FabricSimulatorImpl or ns3::DefaultSimulatorImpl; "
                 "same results, fewer events with FabricSimulatorImpl)",
                 simulator);
    cmd.AddValue("csv", "Append a result row to this CSV file", csv);
    cmd.Parse(argc, argv);

    SetSimulatorImpl(simulator);  // aborts naming a bad --simulator
    SetEventScheduler(scheduler); // aborts naming a bad --scheduler

    auto t0 = std::chrono::steady_clock::now();
    double runWall = 0; // seconds in Simulator::Run (fabric-8k only builds: 0)
    std::string result;
    if (scenario == "p2p")
    {
        result = ScenarioP2p(runWall, bytes ? bytes : (1ull << 30));
    }
    else if (scenario == "incast")
    {
        result = ScenarioIncast(runWall, 64, bytes ? bytes : (4ull << 20));
    }
    else if (scenario == "uet-p2p")
    {
        result = ScenarioUetP2p(runWall, bytes ? bytes : (1ull << 30));
    }
    else if (scenario == "uet-incast")
    {
        result = ScenarioIncast(runWall, 64, bytes ? bytes : (4ull << 20), true);
    }
    else if (scenario == "uet-permutation")
    {
        NS_ABORT_MSG_IF(k < 2 || k % 2 != 0,
                        "--k=" << k << " is invalid; valid values are even numbers >= 2");
        result = ScenarioUetPermutation(runWall, k, bytes ? bytes : 2000000);
    }
    else if (scenario == "uet-permutation-rccc")
    {
        NS_ABORT_MSG_IF(k < 2 || k % 2 != 0,
                        "--k=" << k << " is invalid; valid values are even numbers >= 2");
        result = ScenarioUetPermutation(runWall, k, bytes ? bytes : 2000000, true);
    }
    else if (scenario == "allreduce-su")
    {
        result = ScenarioAllReduceSu(runWall, bytes ? bytes : (256ull << 20));
    }
    else if (scenario == "allreduce-su-nccl")
    {
        result = ScenarioAllReduceSu(runWall, bytes ? bytes : (256ull << 20), true);
    }
    else if (scenario == "lb-permutation")
    {
        SwitchHelper::CheckLoadBalancerName(lb, "--lb");
        result = ScenarioLbPermutation(runWall, bytes ? bytes : (8ull << 20), lb);
    }
    else if (scenario == "fabric-8k")
    {
        result = ScenarioFabric8k();
    }
    else if (scenario == "websearch-128")
    {
        result = ScenarioWebsearch128(runWall, bytes ? NanoSeconds(bytes) : MilliSeconds(10));
    }
    else
    {
        NS_ABORT_MSG("--scenario="
                     << scenario
                     << " is unknown; use p2p, incast, uet-p2p, uet-incast, "
                        "uet-permutation, uet-permutation-rccc, allreduce-su, "
                        "allreduce-su-nccl, lb-permutation, fabric-8k or websearch-128");
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t events = Simulator::GetEventCount();
    uint64_t hops = PacketHops();
    double simSeconds = Simulator::Now().GetSeconds();
    uint64_t rss = PeakRss();
    std::cout << std::fixed << std::setprecision(3) << scenario << ": sim " << simSeconds * 1e3
              << " ms, wall " << wall << " s, run " << runWall << " s, events " << events << " ("
              << events / wall / 1e6 << " M/s), packet-hops " << hops << " (" << hops / wall / 1e6
              << " M/s), peak RSS " << rss / 1048576.0 << " MiB | " << result << "\n";
    if (!csv.empty())
    {
        bool fresh = !std::ifstream(csv).good();
        std::ofstream out(csv, std::ios::app);
        NS_ABORT_MSG_IF(!out, "cannot write --csv file " << csv);
        if (fresh)
        {
            out << "scenario,sim_s,wall_s,run_s,events,packet_hops,hops_per_s,peak_rss_bytes,pgo,"
                   "result\n";
        }
        out << scenario << "," << simSeconds << "," << wall << "," << runWall << "," << events
            << "," << hops << "," << hops / wall << "," << rss << "," << AI_FABRIC_PGO_MODE << ",\""
            << result << "\"\n";
    }
    Simulator::Destroy();
    return 0;
}
