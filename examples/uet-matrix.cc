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
 * The defaults are htsim's, since these scenarios are compared with htsim: NSCC
 * (--cc=TYPEID chooses another FabricCongestionOps, e.g. ns3::RcccCongestionOps or
 * ns3::FabricNoneCongestionOps), mixed EV spraying over 128 entropies (--ev-strategy=single,
 * oblivious, bitmap, reps, mixed as in the main job), htsim's header model (--htsim-headers,
 * true by default: 4150-byte packets, 64-byte ACKs; false: UET's real headers), NSCC's base RTT
 * the fabric's largest unloaded RTT, and a fat tree sized from the matrix's Nodes (the smallest
 * even k with k^3/4 >= Nodes) unless --k is given. The output says which defaults a run used.
 * Any model attribute is set with --ns3::Class::Attribute=value
 * (e.g. --ns3::UetNic::MpRange=64, --ns3::FatTreeTopologyHelper::Trimming=false).
 * --fail-core-link cuts one aggregation-core cable (pod 0, core 0) in the data plane before
 * the traffic starts, without rerouting: the failure scenario of the load-balancing results.
 * --csv=FILE writes the per-flow rows (UetMatrixRunner::WriteCsv); --write-matrix=FILE writes
 * the traffic as a connection matrix (how the .cm files of examples/data were made). Input
 * errors end the run with status 2 and one line; runs longer than a second report progress on
 * stderr (--quiet: none).
 *
 * One run across MPI processes (a build with MPI, tools/ai-fabric.sh mpi-build):
 * `mpirun -np 4 ns3.48-uet-matrix --order=causal ...` splits the fat tree by leaf
 * (FabricTopologyHelper PartitionBy), each process posts its own hosts' WRITEs, and process 0
 * prints and writes everything (the outcomes and counters gathered): the same bytes as the
 * sequential run with --order=causal. --order chooses the event order instead of --simulator
 * and --scheduler, and is needed across processes.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <chrono>
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
    FABRIC_INPUT_ERROR("--cc=" << name << " is not a congestion control; valid values: " << valid);
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

/// \return the UetNic attribute's default changed from the model's (--ns3::... given)?
bool
DefaultChanged(TypeId tid, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    return tid.LookupAttributeByName(attribute, &info) &&
           info.initialValue->SerializeToString(info.checker) !=
               info.originalInitialValue->SerializeToString(info.checker);
}

/// \return "flows <done> done of <n>" for the progress line
std::string
FlowStatus(const UetMatrixRunner* runner)
{
    uint64_t done = 0;
    for (const auto& f : runner->GetFlows())
    {
        done += f.done;
    }
    return "flows " + std::to_string(done) + " done of " +
           std::to_string(runner->GetFlows().size());
}

/// \return the fraction of the flows done
double
FlowFraction(const UetMatrixRunner* runner)
{
    uint64_t done = 0;
    for (const auto& f : runner->GetFlows())
    {
        done += f.done;
    }
    return runner->GetFlows().empty() ? -1 : double(done) / double(runner->GetFlows().size());
}

/// \return the smallest even radix k >= 2 whose fat tree (k^3/4 hosts) holds \p nodes hosts
uint32_t
RadixFor(uint64_t nodes)
{
    uint32_t k = 2;
    while (uint64_t(k) * k * k / 4 < nodes)
    {
        k += 2;
    }
    return k;
}

/**
 * \param c this process's counters (its switches and NICs)
 * \return every process's counters added up (a collective across MPI processes; \p c without)
 */
FatTreeCounters
GatherCounters(const FatTreeCounters& c)
{
    const std::vector<uint64_t> sums = FabricMpi::SumEach(
        {c.trims, c.lastHopTrims, c.drops, c.ecnMarks, c.rtos, c.retransmissions, c.trimNacks});
    FatTreeCounters all;
    all.trims = sums[0];
    all.lastHopTrims = sums[1];
    all.drops = sums[2];
    all.ecnMarks = sums[3];
    all.rtos = sums[4];
    all.retransmissions = sums[5];
    all.trimNacks = sums[6];
    return all;
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
    std::string cc = "ns3::NsccCongestionOps";
    std::string ev = "mixed";
    std::string csvPath;
    bool failCoreLink = false;
    bool htsimHeaders = true;
    std::string writeMatrix;
    std::string scheduler = "ns3::DelayClassScheduler";
    std::string simulator = "ns3::FabricSimulatorImpl";
    std::string order;

    FabricCommandLine cmd(__FILE__);
    FabricMpi::Enable(&argc, &argv); // MPI, when started by mpirun
    cmd.AddValue("k",
                 "Fat tree radix (even, >= 2): k^3/4 hosts (default: the smallest that holds "
                 "the matrix's Nodes, as htsim; 4 for --pattern)",
                 k,
                 2,
                 254);
    cmd.AddValue("matrix", "htsim connection-matrix file (instead of --pattern)", matrixPath);
    cmd.AddValue("pattern",
                 "Reference pattern: single, incast or permutation (default single)",
                 pattern);
    cmd.AddValue("nodes", "Hosts the pattern uses (2..k^3/4; 0 = all)", nodes);
    cmd.AddValue("size", "Flow size of the pattern, bytes (1..4294967295)", size);
    cmd.AddValue("incast-senders", "Senders of the incast pattern (1..nodes-1)", senders);
    cmd.AddSeed(seed, "Random seed: permutation, EVs, switch hash seeds");
    cmd.AddValue("cc",
                 "UetNic congestion control TypeId (htsim's default: ns3::NsccCongestionOps; "
                 "ns3::RcccCongestionOps, ns3::FabricNoneCongestionOps for none)",
                 cc);
    cmd.AddValue("ev-strategy",
                 "Entropy (EV) selection: single, oblivious, bitmap, reps, mixed (htsim's "
                 "default: mixed spraying)",
                 ev);
    cmd.AddValue("fail-core-link",
                 "Cut pod 0's first aggregation switch's cable to core 0 in the data plane "
                 "before the traffic (routes not recomputed: packets on it vanish)",
                 failCoreLink);
    cmd.AddValue("htsim-headers",
                 "htsim's header model (default): 4150-byte packets of 4086 payload bytes + 64 "
                 "header bytes, 64-byte ACKs; false: UET's real headers, 4218 bytes on the wire",
                 htsimHeaders);
    cmd.AddOutput("csv", "Write one row per flow to this file", csvPath);
    cmd.AddOutput("write-matrix", "Write the traffic as an htsim connection matrix", writeMatrix);
    cmd.AddValue("scheduler", "ns-3 event scheduler (same results with any)", scheduler);
    cmd.AddValue("simulator",
                 "ns-3 simulator engine (same results with ns3::DefaultSimulatorImpl; "
                 "ns3::FabricSimulatorImpl runs fewer events)",
                 simulator);
    cmd.AddValue("order",
                 "Event order, instead of --simulator/--scheduler: causal (the same results "
                 "sequentially and across MPI processes) | fast; needed across processes",
                 order);
    cmd.Parse(argc, argv);
    FabricMpi::SelectEngine(cmd, order, simulator, scheduler); // names a bad value

    FABRIC_INPUT_ERROR_IF(k % 2 != 0,
                          "--k=" << k
                                 << " is invalid; valid values are even numbers >= 2 (4: 16 "
                                    "hosts, 16: 1024 hosts)");
    const TypeId ccType = CongestionControl(cc);
    Ptr<UetEvSelector> evSelector = UetEvSelector::CreateByName(ev); // input error if unknown
    Config::SetDefault("ns3::UetNic::CongestionControl", TypeIdValue(ccType));
    if (htsimHeaders)
    {
        for (const char* mtu :
             {"ns3::UetNic::Mtu", "ns3::NsccCongestionOps::Mtu", "ns3::RcccCongestionOps::Mtu"})
        {
            Config::SetDefault(mtu, UintegerValue(HTSIM_PACKET_BYTES - HTSIM_HEADER_BYTES));
        }
    }

    // The traffic: a file, or a reference pattern over the first --nodes hosts.
    HtsimConnectionMatrix matrix;
    FABRIC_INPUT_ERROR_IF(!matrixPath.empty() && !pattern.empty(),
                          "--matrix and --pattern=" << pattern << " exclude each other; give one");
    if (!matrixPath.empty())
    {
        for (const char* f : {"nodes", "size", "incast-senders"})
        {
            FABRIC_INPUT_ERROR_IF(cmd.IsGiven(f),
                                  "--" << f << " applies to --pattern only; the matrix file "
                                       << matrixPath << " gives the flows");
        }
        matrix = HtsimConnectionMatrix::Load(matrixPath);
        pattern = "file " + matrixPath;
        if (!cmd.IsGiven("k"))
        {
            k = RadixFor(matrix.GetNNodes()); // htsim sizes its fat tree from Nodes
        }
    }
    else if (!cmd.IsGiven("k") && nodes > 16)
    {
        k = RadixFor(nodes);
    }
    auto fabric = CreateObject<FatTreeTopologyHelper>();
    fabric->SetAttribute("K", UintegerValue(k));
    fabric->SetAttribute("HeaderModelBytes", UintegerValue(htsimHeaders ? HTSIM_HEADER_BYTES : 0));
    const uint32_t hosts = fabric->GetNHosts();
    if (matrixPath.empty())
    {
        pattern = pattern.empty() ? "single" : pattern;
        const uint32_t n = nodes == 0 ? hosts : nodes;
        FABRIC_INPUT_ERROR_IF(n < 2 || n > hosts,
                              "--nodes=" << nodes << " is invalid for --k=" << k
                                         << "; valid range is 2.." << hosts
                                         << " (or 0: all hosts)");
        FABRIC_INPUT_ERROR_IF(size == 0 || size > 0xFFFFFFFFull,
                              "--size=" << size
                                        << " is invalid; valid range is 1..4294967295 bytes");
        if (pattern == "single")
        {
            matrix = HtsimConnectionMatrix::Single(n, size, 0, n - 1);
        }
        else if (pattern == "incast")
        {
            FABRIC_INPUT_ERROR_IF(senders == 0 || senders > n - 1,
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
            FABRIC_INPUT_ERROR("--pattern=" << pattern
                                            << " is invalid; valid values are single, incast, "
                                               "permutation");
        }
    }
    FABRIC_INPUT_ERROR_IF(matrix.GetNNodes() > hosts,
                          pattern << " has Nodes " << matrix.GetNNodes() << " but the --k=" << k
                                  << " fat tree has " << hosts
                                  << " hosts; valid is Nodes <= k^3/4 (raise --k, or leave it "
                                     "out: it is then sized from Nodes)");
    if (!writeMatrix.empty() && FabricMpi::GetSystemId() == 0)
    {
        matrix.Save(writeMatrix);
    }

    // htsim's spraying: per-packet EVs over 128 entropies, ACKs not triggered by holes; its
    // NSCC base RTT is the fabric's largest unloaded RTT (as the validation against htsim).
    const bool spraying = ev != "single";
    UetNicHelper& nh = fabric->GetUetNicHelper();
    nh.SetNicAttribute("EvSelector", TypeIdValue(evSelector->GetInstanceTypeId()));
    if (spraying && !DefaultChanged(UetNic::GetTypeId(), "AckOnHole"))
    {
        nh.SetNicAttribute("AckOnHole", BooleanValue(false));
    }
    fabric->Install();
    fabric->AssignStreams(1);
    if (failCoreLink)
    {
        fabric->GetLinkChannel(fabric->GetAggCoreLink(0, 0))->SetLinkUp(false);
    }
    const bool nscc = ccType == NsccCongestionOps::GetTypeId();
    std::vector<Ptr<Node>> hostNodes;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<UetNic> nic = fabric->GetUetNic(h);
        if (nscc && !DefaultChanged(NsccCongestionOps::GetTypeId(), "BaseRtt"))
        {
            nic->GetCongestionPrototype()->SetAttribute("BaseRtt",
                                                        TimeValue(fabric->GetMaxUnloadedRtt()));
        }
        if (spraying)
        {
            nic->GetEvSelectorPrototype()->SetAttributeFailSafe("Evs", UintegerValue(128));
        }
        hostNodes.push_back(fabric->GetHost(h));
    }
    UetMatrixRunner runner(matrix, fabric->GetUetNicHelper().CreateEndpoints(hostNodes, 1));
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet() && FabricMpi::GetSystemId() == 0)
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("uet-matrix");
        // Bound as the functions' own type (ns-3's Callback downcasts to exactly that).
        const UetMatrixRunner* watched = &runner;
        progress->SetStatusCallback(MakeBoundCallback(&FlowStatus, watched));
        progress->SetFractionCallback(MakeBoundCallback(&FlowFraction, watched));
        progress->Watch(fabric->GetHealthMonitor());
    }
    runner.Start();
    const auto run0 = std::chrono::steady_clock::now();
    Simulator::Run();
    FabricMpi::ReportProcess(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count(),
        fabric->GetObject<PfcRemoteExchange>());
    const bool healthy =
        FabricMpi::Sum(fabric->GetHealthMonitor()->ReportEndOfRun(std::cerr) ? 0 : 1) == 0;
    runner.Gather(); // across processes: every flow's outcome at process 0
    const FatTreeCounters c = GatherCounters(fabric->GetCounters());
    if (FabricMpi::GetSystemId() != 0)
    {
        Simulator::Destroy();
        FabricMpi::Disable();
        return 0; // process 0 writes the outputs and gives the exit status
    }

    TypeIdValue ccValue;
    fabric->GetUetNic(0)->GetAttribute("CongestionControl", ccValue);
    std::cout << "uet-matrix: " << *fabric;
    std::cout << "  UET: Mtu " << fabric->GetUetNic(0)->GetMtu() << " B, RtoMin "
              << Us(fabric->GetUetNic(0)->GetRtoMin()) << " us, cc " << ccValue.Get().GetName()
              << ", EV " << ev << (htsimHeaders ? ", htsim header model" : ", UET headers")
              << "; traffic: " << pattern << ", Nodes " << matrix.GetNNodes() << ", "
              << matrix.GetNConnections() << " connection(s)\n";
    std::cout << "  defaults follow htsim (what these scenarios are compared with): NSCC, mixed "
                 "EV spraying, its header model, the fat tree sized from Nodes; this run: "
              << (cmd.IsGiven("cc") ? "--cc " : "")
              << (cmd.IsGiven("ev-strategy") ? "--ev-strategy " : "")
              << (cmd.IsGiven("htsim-headers") ? "--htsim-headers " : "")
              << (cmd.IsGiven("k") ? "--k " : "")
              << (cmd.IsGiven("cc") || cmd.IsGiven("ev-strategy") || cmd.IsGiven("htsim-headers") ||
                          cmd.IsGiven("k")
                      ? "given"
                      : "all defaults")
              << "\n";
    std::cout
        << "        id     src     dst       size_B      start_us        end_us        fct_us\n";
    for (const auto& f : runner.GetFlows())
    {
        std::cout << std::setw(10) << f.id << ' ' << std::setw(7) << f.src << ' ' << std::setw(7)
                  << f.dst << ' ' << std::setw(12) << f.bytes << ' ' << std::setw(13) << Us(f.start)
                  << ' ' << std::setw(13) << (f.done ? Us(f.end) : "-") << ' ' << std::setw(13)
                  << (f.done ? Us(f.GetFct()) : "-") << (f.done && !f.ok ? "  " + f.error : "")
                  << "\n";
    }
    const UetFctSummary s = runner.GetSummary();
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
        FABRIC_INPUT_ERROR_IF(!csv, "--csv=" << csvPath << ": cannot write the file");
        runner.WriteCsv(csv);
        std::cout << "  wrote " << csvPath << "\n";
    }
    if (s.flows == 0)
    {
        std::cerr << "uet-matrix: error: the traffic has no flow; nothing ran\n";
    }
    Simulator::Destroy();
    FabricMpi::Disable();
    return runner.AllCompleted() && healthy && s.flows > 0 ? 0 : 1;
}
