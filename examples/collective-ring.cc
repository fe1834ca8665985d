/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * collective-ring: an NCCL-style collective over RoCEv2 NICs on one switch, reported like
 * nccl-tests.
 *
 *   rank 0 (RoceNic) ──┐
 *   rank 1 (RoceNic) ──┤ 400G
 *        ...           ├── switch
 *   rank n-1 ──────────┘
 *
 * Runs 2 x --iters collectives of --size bytes (--op allreduce, allgather, reducescatter,
 * broadcast, alltoall; --algo ring, tree, hierarchical for AllReduce) over --ranks ranks with
 * --channels channels and --qps QPs per connection, and prints an nccl-tests row (size, count,
 * type, redop, root, then time, algbw, busbw, #wrong for the first --iters runs as
 * "out-of-place" and the next --iters as "in-place"; #wrong is N/A since no data is
 * computed) through NcclTestsFormat, plus the alpha-beta estimate of REFERENCE "Collectives"
 * for ring and pairwise algorithms. --servers=m groups the ranks into m servers (locations for
 * rail-aware rings, hierarchical AllReduce and PXN; the fabric is still one switch). Writes a CSV
 * of every collective (--csv). --size takes a byte count with an optional binary unit (4096,
 * 1MiB, 1G); input errors end the run with status 2 and one line; runs longer than a second
 * report progress on stderr (--quiet: none).
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// \return the fraction of the \p total collectives done
double
Fraction(Ptr<CollectiveCommunicator> world, uint32_t total)
{
    uint32_t done = 0;
    for (const CollectiveRecord& c : world->GetRecords())
    {
        done += c.completed;
    }
    return double(done) / total;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    uint32_t ranks = 8;
    uint64_t bytes = 64ull << 20;
    std::string opName = "allreduce";
    std::string algo = "ring";
    std::string proto = "simple";
    uint32_t channels = 2;
    uint32_t qps = 1;
    uint32_t iters = 5;
    uint32_t servers = 0;
    uint64_t chunk = 2 * 1024 * 1024;
    std::string rate = "400Gbps";
    Time delay = MicroSeconds(1);
    bool pxn = false;
    std::string csv = "collective-ring.csv";

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("ranks", "Number of ranks (GPUs), each with one 400G NIC", ranks, 1, 65536);
    cmd.AddBytes("size",
                 "Collective size (nccl-tests convention), e.g. 4096, 1MiB, 1G",
                 bytes,
                 1,
                 1ull << 40);
    cmd.AddValue("op", "allreduce, allgather, reducescatter, broadcast, alltoall", opName);
    cmd.AddValue("algo",
                 "Algorithm: auto (NCCL's tuner), ring, tree, hierarchical (AllReduce)",
                 algo);
    cmd.AddValue("proto", "NCCL protocol: auto (NCCL's tuner), ll, ll128, simple", proto);
    cmd.AddValue("channels", "Channels (rings in parallel), 1..32", channels, 1, 32);
    cmd.AddValue("qps", "QPs per connection, 1..64", qps, 1, 64);
    cmd.AddValue("iters", "Runs per nccl-tests column group (time is their average)", iters, 1);
    cmd.AddValue("servers", "Group the ranks into this many servers (0 = no locations)", servers);
    cmd.AddBytes("chunk", "Pipelining chunk in bytes (0 = store-and-forward steps)", chunk);
    cmd.AddRate("rate", "Link rate", rate);
    cmd.AddValue("delay", "Cable delay", delay);
    cmd.AddValue("pxn", "Relay cross-rail sends through NVLink (needs --servers)", pxn);
    cmd.AddOutput("csv", "Per-collective CSV output", csv);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(servers > 0 && ranks % servers != 0,
                          "--servers=" << servers
                                       << " is invalid; it must divide --ranks=" << ranks);
    FABRIC_INPUT_ERROR_IF(pxn && servers == 0,
                          "--pxn needs --servers (PXN relays through the ranks of a server; "
                          "without servers there is none)");
    FABRIC_INPUT_ERROR_IF(delay.IsNegative(),
                          "--delay=" << delay.As(Time::US) << " is invalid; it must be >= 0");
    CollectiveCommunicator::AlgorithmChoice algoChoice;
    CollectiveCommunicator::ProtocolChoice protoChoice;
    FABRIC_INPUT_ERROR_IF(!CollectiveCommunicator::ParseAlgorithm(algo, &algoChoice) ||
                              algoChoice == CollectiveCommunicator::ALGORITHM_NVLS ||
                              algoChoice == CollectiveCommunicator::ALGORITHM_NVLS_TREE,
                          "--algo=" << algo << " is invalid; valid values are auto, ring, tree, "
                                    << "hierarchical (this example has no NVSwitch)");
    FABRIC_INPUT_ERROR_IF(!CollectiveCommunicator::ParseProtocol(proto, &protoChoice),
                          "--proto=" << proto << " is invalid; valid values are auto, ll, ll128, "
                                     << "simple");
    // The names CollectiveOpFromName() knows, checked here so that a bad one is an input error.
    std::string key = opName;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    key.erase(std::remove(key.begin(), key.end(), '_'), key.end());
    const std::vector<std::string> known = {"allreduce",
                                            "ar",
                                            "allgather",
                                            "ag",
                                            "reducescatter",
                                            "rs",
                                            "broadcast",
                                            "bcast",
                                            "alltoall",
                                            "a2a"};
    FABRIC_INPUT_ERROR_IF(std::find(known.begin(), known.end(), key) == known.end(),
                          "--op=" << opName
                                  << " is invalid; valid values are allreduce (ar), allgather "
                                     "(ag), reducescatter (rs), broadcast (bcast), alltoall "
                                     "(a2a)");
    CollectiveOp op = CollectiveOpFromName(opName);
    FABRIC_INPUT_ERROR_IF(algo != "ring" && algo != "auto" && op != CollectiveOp::ALL_REDUCE,
                          "--algo=" << algo << " applies to --op=allreduce only");
    FABRIC_INPUT_ERROR_IF(proto == "ll128" && op == CollectiveOp::ALL_TO_ALL,
                          "--proto=ll128 cannot carry --op=alltoall (NCCL point-to-point: ll "
                          "or simple)");

    // One switch, one 400G cable per rank.
    NodeContainer hosts(ranks);
    Ptr<Node> swNode = CreateObject<Node>();
    PfcHelper pfc;
    pfc.SetDeviceAttribute("DataRate", StringValue(rate));
    pfc.SetChannelAttribute("Delay", TimeValue(delay));
    std::vector<Ptr<PfcNetDevice>> ports;
    for (uint32_t i = 0; i < ranks; ++i)
    {
        ports.push_back(DynamicCast<PfcNetDevice>(pfc.Install(hosts.Get(i), swNode).Get(0)));
    }
    Ptr<FabricSwitch> sw = SwitchHelper().Install(swNode);
    RoceNicHelper nicHelper;
    std::vector<Ptr<RoceNic>> nics;
    for (uint32_t i = 0; i < ranks; ++i)
    {
        Ipv4Address ip(0x0a000001 + i);
        sw->GetForwardingTable()->SetRoute(ip, {i});
        nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], ip));
    }
    sw->AssignStreams(1);

    Ptr<FabricHealthMonitor> health = CreateObject<FabricHealthMonitor>(); // ends a stalled run
    health->Install(hosts);

    CollectiveHelper coll;
    coll.SetNics(nics);
    coll.SetHealthMonitor(health);
    if (servers > 0)
    {
        std::vector<CollectiveRankLocation> locs(ranks);
        uint32_t g = ranks / servers;
        for (uint32_t i = 0; i < ranks; ++i)
        {
            locs[i].server = i / g;
            locs[i].local = i % g;
        }
        coll.SetRankLocations(locs);
    }
    coll.SetCommunicatorAttribute("Channels", UintegerValue(channels));
    coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(chunk));
    coll.SetCommunicatorAttribute("Pxn", BooleanValue(pxn));
    coll.SetCommunicatorAttribute("Algorithm", EnumValue(algoChoice));
    coll.SetCommunicatorAttribute("Protocol", EnumValue(protoChoice));
    coll.SetTransportAttribute("QpsPerConnection", UintegerValue(qps));
    coll.AssignStreams(10);
    Ptr<CollectiveCommunicator> world = coll.CreateWorldCommunicator("world");
    for (uint32_t i = 0; i < 2 * iters; ++i)
    {
        world->Enqueue(op, bytes, 0);
    }
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("collective-ring");
        progress->SetFractionCallback(MakeBoundCallback(&Fraction, world, 2 * iters));
        progress->Watch(health);
    }
    Simulator::Run();
    health->ReportEndOfRun(std::cerr);

    // nccl-tests style: the first half of the runs is reported as out-of-place, the second as
    // in-place (the model moves the same bytes either way).
    const auto& records = world->GetRecords();
    std::string algorithm = records.empty() ? "?" : records[0].algorithm;
    std::cout << "collective-ring: " << CollectiveOpName(op) << " over " << ranks << " ranks ("
              << algorithm << ", " << channels << " channel(s), " << qps
              << " QP(s)/connection, chunk " << chunk << " B), " << rate << " links, "
              << delay.As(Time::US) << " cables\n";
    NcclTestsResult half[2];
    for (uint32_t h = 0; h < 2; ++h)
    {
        Time total;
        for (uint32_t i = h * iters; i < (h + 1) * iters; ++i)
        {
            if (i >= records.size() || !records[i].completed)
            {
                std::cout << "  FAILED: "
                          << (i < records.size() ? records[i].reason : "collective missing")
                          << "\n";
                Simulator::Destroy();
                return 1;
            }
            total += records[i].GetDuration();
        }
        half[h].timeUs = total.GetSeconds() * 1e6 / iters;
        half[h].algbwGBs = double(bytes) / (half[h].timeUs * 1e-6) / 1e9;
        half[h].busbwGBs = half[h].algbwGBs * CollectiveBusBwFactor(op, ranks);
        half[h].wrong = -1; // no data is computed: N/A, as nccl-tests without -c
    }
    NcclTestsRow row;
    row.sizeBytes = bytes;
    // nccl-tests prints the per-rank count for AllGather, ReduceScatter and AlltoAll.
    row.count = bytes / world->GetElementSize();
    if (op == CollectiveOp::ALL_GATHER || op == CollectiveOp::REDUCE_SCATTER ||
        op == CollectiveOp::ALL_TO_ALL)
    {
        row.count /= ranks;
    }
    row.type = "float";
    row.redop =
        (op == CollectiveOp::ALL_REDUCE || op == CollectiveOp::REDUCE_SCATTER) ? "sum" : "none";
    row.root = op == CollectiveOp::BROADCAST ? 0 : -1;
    row.outOfPlace = half[0];
    row.inPlace = half[1];
    NcclTestsFormat::Write(std::cout, {row});

    // Alpha-beta estimate for ring / pairwise without chunk pipelining.
    CollectiveExecution exec = world->Choose(op, bytes);
    double lineBytesPerSec = DataRate(rate).GetBitRate() / 8.0;
    uint32_t mtu = nics[0]->GetMtu();
    double beta = lineBytesPerSec * mtu / (mtu + 82.0); // RoCEv2 goodput, bytes/s
    double alpha =
        exec.networkLatency.GetSeconds() + 2 * delay.GetSeconds() + (mtu + 82.0) / lineBytesPerSec;
    double n = ranks;
    double steps = 0;
    double perRank = 0;
    if (algorithm == "ring" && op != CollectiveOp::BROADCAST)
    {
        steps = op == CollectiveOp::ALL_REDUCE ? 2 * (n - 1) : n - 1;
        perRank = steps / n * double(bytes);
    }
    else if (algorithm == "pairwise")
    {
        steps = n - 1;
        perRank = (n - 1) / n * double(bytes);
    }
    if (steps > 0)
    {
        double t = exec.baseLatency.GetSeconds() + steps * alpha + perRank / beta;
        std::cout << std::fixed << std::setprecision(1) << "# alpha-beta: " << t * 1e6
                  << " us = base " << exec.baseLatency.GetSeconds() * 1e6 << " + " << steps
                  << " x alpha " << alpha * 1e6 << " us + " << perRank << " B / beta "
                  << std::setprecision(2) << beta / 1e9 << " GB/s"
                  << "\n";
        if (channels > 1 || (chunk > 0 && bytes / (ranks * channels) > chunk))
        {
            std::cout << "#   (several channels desynchronize and chunks pipeline across steps: "
                         "the simulation may beat this store-and-forward estimate)\n";
        }
    }
    coll.WriteCsv(csv);
    std::cout << "# wrote " << csv << " (" << records.size() << " collectives)\n";
    Simulator::Destroy();
    return 0;
}
