/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * uet-matrix: htsim's reference scenarios (UET.md) over Ultra Ethernet on an htsim-default
 * fat tree.
 *
 *   k-ary 3-tier fat tree (FatTreeTopologyHelper: 100 Gb/s, 1 us per link, 1 BDP queues with
 *   trimming, ECN 0.2..0.8 BDP), one UetNic per host; traffic from an htsim connection matrix
 *
 * The traffic is an htsim connection-matrix file (--matrix=FILE, see HtsimConnectionMatrix)
 * or one of htsim's three reference patterns (--pattern): "single" (node 0 -> the last node),
 * "incast" (--incast-senders nodes -> the last node) or "permutation" (every node sends to
 * another, a random derangement drawn with --seed), with flows of --size bytes starting at 0
 * over --nodes hosts (default all). Each connection is one UET WRITE (RUD) posted at its start
 * time; the program prints one row per flow (id, src, dst, size, start, end, FCT in us) and a
 * summary (first, median, p99 and max FCT; the fabric's trims, drops and ECN marks; the NICs'
 * RTOs and retransmissions), and exits with status 1 if a flow did not complete or the fabric
 * health monitor reported a problem.
 *
 * --cc=TYPEID chooses the UetNic congestion control (a FabricCongestionOps TypeId; default
 * the NIC's current default); any model attribute is set with --ns3::Class::Attribute=value
 * (e.g. --ns3::UetNic::MpRange=64, --ns3::FatTreeTopologyHelper::Trimming=false).
 * --fail-core-link cuts one aggregation-core cable (pod 0, core 0) in the data plane before
 * the traffic starts, without rerouting: the failure scenario of the load-balancing results.
 * --csv=FILE writes the per-flow rows (UetMatrixRunner::WriteCsv); --write-matrix=FILE writes
 * the traffic as a connection matrix (how the .cm files of examples/data were made).
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// \return the TypeId named \p name if it is a congestion control; aborts listing them if not
TypeId
CongestionControl(const std::string& name)
{
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(name, &tid) &&
        tid.IsChildOf(FabricCongestionOps::GetTypeId()) && tid.HasConstructor())
    {
        return tid;
    }
    std::string valid;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId t = TypeId::GetRegistered(i);
        if (t.IsChildOf(FabricCongestionOps::GetTypeId()) && t.HasConstructor())
        {
            valid += (valid.empty() ? "" : ", ") + t.GetName();
        }
    }
    NS_ABORT_MSG("--cc=" << name << " is not a congestion control; valid values: " << valid);
}

/// htsim's packet size, headers included (its MTU), bytes.
constexpr uint32_t HTSIM_PACKET_BYTES = 4150;
/// htsim's header model: every packet carries this many header bytes; ACKs are this size.
constexpr uint32_t HTSIM_HEADER_BYTES = 64;

/// \return \p t in microseconds, 3 decimals
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetPicoSeconds() / 1e6;
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    uint32_t k = 4;
    std::string matrixPath;
    std::string pattern;
    uint32_t nodes = 0;
    uint64_t size = 2000000;
    uint32_t senders = 15;
    uint32_t seed = 1;
    std::string cc;
    std::string csvPath;
    bool failCoreLink = false;
    bool htsimHeaders = false;
    std::string writeMatrix;
    std::string scheduler = "ns3::DelayClassScheduler";
    std::string simulator = "ns3::FabricSimulatorImpl";

    FabricResolveInheritedAttributes(argc, argv);
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Fat tree radix (even, >= 2): k^3/4 hosts", k);
    cmd.AddValue("matrix", "htsim connection-matrix file (instead of --pattern)", matrixPath);
    cmd.AddValue("pattern",
                 "Reference pattern: single, incast or permutation (default single)",
                 pattern);
    cmd.AddValue("nodes", "Hosts the pattern uses (2..k^3/4; 0 = all)", nodes);
    cmd.AddValue("size", "Flow size of the pattern, bytes (1..4294967295)", size);
    cmd.AddValue("incast-senders", "Senders of the incast pattern (1..nodes-1)", senders);
    cmd.AddValue("seed", "Random seed (>= 1): permutation, EVs, switch hash seeds", seed);
    cmd.AddValue("cc", "UetNic congestion control TypeId (default: the NIC's default)", cc);
    cmd.AddValue("fail-core-link",
                 "Cut pod 0's first aggregation switch's cable to core 0 in the data plane "
                 "before the traffic (routes not recomputed: packets on it vanish)",
                 failCoreLink);
    cmd.AddValue("htsim-headers",
                 "htsim's header model: 4150-byte packets of 4086 payload bytes + 64 header "
                 "bytes, 64-byte ACKs (default: UET's real headers, 4218 bytes on the wire)",
                 htsimHeaders);
    cmd.AddValue("csv", "Write one row per flow to this file", csvPath);
    cmd.AddValue("write-matrix", "Write the traffic as an htsim connection matrix", writeMatrix);
    cmd.AddValue("scheduler", "ns-3 event scheduler (same results with any)", scheduler);
    cmd.AddValue("simulator",
                 "ns-3 simulator engine (same results with ns3::DefaultSimulatorImpl; "
                 "ns3::FabricSimulatorImpl runs fewer events)",
                 simulator);
    cmd.Parse(argc, argv);
    SetSimulatorImpl(simulator);  // aborts naming a bad --simulator
    SetEventScheduler(scheduler); // aborts naming a bad --scheduler

    NS_ABORT_MSG_IF(k < 2 || k % 2 != 0,
                    "--k=" << k
                           << " is invalid; valid values are even numbers >= 2 (4: 16 hosts, "
                              "16: 1024 hosts)");
    NS_ABORT_MSG_IF(seed == 0, "--seed=0 is invalid; valid range is 1..4294967295");
    RngSeedManager::SetSeed(seed);
    if (!cc.empty())
    {
        Config::SetDefault("ns3::UetNic::CongestionControl", TypeIdValue(CongestionControl(cc)));
    }
    if (htsimHeaders)
    {
        for (const char* mtu :
             {"ns3::UetNic::Mtu", "ns3::NsccCongestionOps::Mtu", "ns3::RcccCongestionOps::Mtu"})
        {
            Config::SetDefault(mtu, UintegerValue(HTSIM_PACKET_BYTES - HTSIM_HEADER_BYTES));
        }
    }
    auto fabric = CreateObject<FatTreeTopologyHelper>();
    fabric->SetAttribute("K", UintegerValue(k));
    fabric->SetAttribute("HeaderModelBytes", UintegerValue(htsimHeaders ? HTSIM_HEADER_BYTES : 0));
    const uint32_t hosts = fabric->GetNHosts();

    // The traffic: a file, or a reference pattern over the first --nodes hosts.
    HtsimConnectionMatrix matrix;
    NS_ABORT_MSG_IF(!matrixPath.empty() && !pattern.empty(),
                    "--matrix and --pattern=" << pattern << " exclude each other; give one");
    if (!matrixPath.empty())
    {
        matrix = HtsimConnectionMatrix::Load(matrixPath);
        pattern = "file " + matrixPath;
    }
    else
    {
        pattern = pattern.empty() ? "single" : pattern;
        const uint32_t n = nodes == 0 ? hosts : nodes;
        NS_ABORT_MSG_IF(n < 2 || n > hosts,
                        "--nodes=" << nodes << " is invalid for --k=" << k << "; valid range is 2.."
                                   << hosts << " (or 0: all hosts)");
        NS_ABORT_MSG_IF(size == 0 || size > 0xFFFFFFFFull,
                        "--size=" << size << " is invalid; valid range is 1..4294967295 bytes");
        if (pattern == "single")
        {
            matrix = HtsimConnectionMatrix::Single(n, size, 0, n - 1);
        }
        else if (pattern == "incast")
        {
            NS_ABORT_MSG_IF(senders == 0 || senders > n - 1,
                            "--incast-senders=" << senders << " is invalid for " << n
                                                << " nodes; valid range is 1.." << n - 1);
            matrix = HtsimConnectionMatrix::Incast(n, senders, size, n - 1);
        }
        else if (pattern == "permutation")
        {
            auto rng = CreateObject<UniformRandomVariable>();
            rng->SetStream(0);
            matrix = HtsimConnectionMatrix::Permutation(n, size, rng);
        }
        else
        {
            NS_ABORT_MSG("--pattern=" << pattern
                                      << " is invalid; valid values are single, incast, "
                                         "permutation");
        }
    }
    NS_ABORT_MSG_IF(matrix.GetNNodes() > hosts,
                    pattern << " has Nodes " << matrix.GetNNodes() << " but the --k=" << k
                            << " fat tree has " << hosts
                            << " hosts; valid is Nodes <= k^3/4 (raise --k)");
    if (!writeMatrix.empty())
    {
        matrix.Save(writeMatrix);
    }

    fabric->Install();
    fabric->AssignStreams(1);
    if (failCoreLink)
    {
        fabric->GetLinkChannel(fabric->GetAggCoreLink(0, 0))->SetLinkUp(false);
    }
    std::vector<Ptr<Node>> hostNodes;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        hostNodes.push_back(fabric->GetHost(h));
    }
    UetMatrixRunner runner(matrix, fabric->GetUetNicHelper().CreateEndpoints(hostNodes, 1));
    runner.Start();
    Simulator::Run();
    const bool healthy = fabric->GetHealthMonitor()->ReportEndOfRun(std::cerr);

    TypeIdValue ccType;
    fabric->GetUetNic(0)->GetAttribute("CongestionControl", ccType);
    std::cout << "uet-matrix: " << *fabric;
    std::cout << "  UET: Mtu " << fabric->GetUetNic(0)->GetMtu() << " B, RtoMin "
              << Us(fabric->GetUetNic(0)->GetRtoMin()) << " us, cc " << ccType.Get().GetName()
              << "; traffic: " << pattern << ", Nodes " << matrix.GetNNodes() << ", "
              << matrix.GetNConnections() << " connection(s)\n";
    std::cout << "      id    src    dst      size_B     start_us       end_us       fct_us\n";
    for (const auto& f : runner.GetFlows())
    {
        std::cout << std::setw(8) << f.id << std::setw(7) << f.src << std::setw(7) << f.dst
                  << std::setw(12) << f.bytes << std::setw(13) << Us(f.start) << std::setw(13)
                  << (f.done ? Us(f.end) : "-") << std::setw(13) << (f.done ? Us(f.GetFct()) : "-")
                  << (f.done && !f.ok ? "  " + f.error : "") << "\n";
    }
    const UetFctSummary s = runner.GetSummary();
    const FatTreeCounters c = fabric->GetCounters();
    std::cout << "  summary: " << s.completed << "/" << s.flows << " flows completed";
    if (s.completed > 0)
    {
        std::cout << "; FCT first " << Us(s.min) << ", median " << Us(s.median) << ", p99 "
                  << Us(s.p99) << ", max " << Us(s.max) << " us";
    }
    std::cout << "\n  fabric: trims " << c.trims << " (last hop " << c.lastHopTrims << "), drops "
              << c.drops << ", ECN marks " << c.ecnMarks << "; NICs: RTOs " << c.rtos
              << ", retransmissions " << c.retransmissions << "\n";
    if (!csvPath.empty())
    {
        std::ofstream csv(csvPath);
        NS_ABORT_MSG_IF(!csv, "--csv=" << csvPath << ": cannot write the file");
        runner.WriteCsv(csv);
        std::cout << "  wrote " << csvPath << "\n";
    }
    Simulator::Destroy();
    return runner.AllCompleted() && healthy ? 0 : 1;
}
