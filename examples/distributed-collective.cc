/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric example: NCCL-style collectives in one simulation across MPI processes.
 *
 * An nccl-tests-style series of one collective (NCCL's tuner picks algorithm, protocol and
 * channels per size) on a two-tier Clos of servers with --gpusPerServer GPUs each (NVLink
 * inside a server when > 1), RoCEv2 with DCQCN and PFC, or Ultra Ethernet (--transport=uet).
 * Run sequentially or split across MPI processes on ns-3's distributed engine: each process
 * simulates a group of racks (FabricTopologyHelper PartitionBy=Leaf) with their servers'
 * ranks, and some spines. Process 0 prints the table, the same at every process count:
 *
 *   ./distributed-collective                         one process (no MPI needed)
 *   mpirun -np 2 ./distributed-collective            two (a build with MPI:
 *                                                    tools/ai-fabric.sh mpi-build)
 *
 * What a run across processes needs, and this example sets for every process count (so that
 * the sequential run is the one it is compared with): every connection opened up front
 * (CollectiveCommunicator PreConnect) and sends that complete where the sender can see it
 * (CollectiveApplication SendCompletion, --send-completion=posted|acknowledged; delivery, the
 * sequential default, is refused across processes). All collectives are enqueued before the
 * run: each rank runs them one after the other, as one NCCL stream.
 *
 * Flags: --racks, --serversPerRack, --gpusPerServer, --spines, --op (allreduce, allgather,
 * reducescatter, alltoall), --minbytes, --maxbytes, --factor, --iters (per size), --transport
 * (roce, uet), --csv=FILE (the merged per-collective records, written by process 0), --order
 * (causal, fast), --seed / --RngRun.
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t racks = 4;
    uint32_t perRack = 2;
    uint32_t gpus = 2;
    uint32_t spines = 2;
    std::string op = "allreduce";
    uint64_t minBytes = 1 << 20;
    uint64_t maxBytes = 16 << 20;
    uint32_t factor = 4;
    uint32_t iters = 2;
    std::string transport = "roce";
    std::string completion = "posted";
    std::string order = "causal";
    std::string csvPath;
    uint32_t seed = 1;
    // ns-3's default resolution, set explicitly: ns-3 then stops keeping a registry of every
    // Time built before the run (millions at 1,024 GPUs: 66 MB and seconds of set-up).
    Time::SetResolution(Time::NS);
    FabricCommandLine cmd(__FILE__); // from here on, input errors exit 2 with one line
    FabricMpi::Enable(&argc, &argv); // first: MPI (when started by mpirun)

    cmd.AddValue("racks", "Racks (leaves), >= 2", racks, 2, 1024);
    cmd.AddValue("serversPerRack", "Servers per rack", perRack, 1, 256);
    cmd.AddValue("gpusPerServer", "GPUs per server (NVLink inside when > 1)", gpus, 1, 16);
    cmd.AddValue("spines", "Spine switches", spines, 1, 256);
    cmd.AddValue("op", "Collective: allreduce, allgather, reducescatter, alltoall", op);
    cmd.AddBytes("minbytes", "Smallest size, bytes", minBytes, 4, 1ull << 40);
    cmd.AddBytes("maxbytes", "Largest size, bytes", maxBytes, 4, 1ull << 40);
    cmd.AddValue("factor", "Size factor between sizes", factor, 2, 1024);
    cmd.AddValue("iters", "Collectives per size", iters, 1, 1000);
    cmd.AddValue("transport", "roce (RoCEv2, DCQCN, PFC) or uet (Ultra Ethernet)", transport);
    cmd.AddValue("send-completion",
                 "When a send completes: posted or acknowledged (CollectiveApplication "
                 "SendCompletion)",
                 completion);
    cmd.AddValue("order",
                 "Order of simultaneous events: causal (the same results sequentially and with "
                 "any process count) or fast (ns-3's order)",
                 order);
    cmd.AddOutput("csv", "Per-collective records (CollectiveRecord columns), process 0", csvPath);
    cmd.AddSeed(seed, "Random seed of the switches' ECMP hashes and the start PSNs");
    cmd.Parse(argc, argv);

    static const std::map<std::string, CollectiveOp> ops = {
        {"allreduce", CollectiveOp::ALL_REDUCE},
        {"allgather", CollectiveOp::ALL_GATHER},
        {"reducescatter", CollectiveOp::REDUCE_SCATTER},
        {"alltoall", CollectiveOp::ALL_TO_ALL}};
    FABRIC_INPUT_ERROR_IF(!ops.count(op),
                          "--op=" << op
                                  << " is invalid; use allreduce, allgather, reducescatter or "
                                     "alltoall");
    FABRIC_INPUT_ERROR_IF(transport != "roce" && transport != "uet",
                          "--transport=" << transport << " is invalid; use roce or uet");
    FABRIC_INPUT_ERROR_IF(completion != "posted" && completion != "acknowledged",
                          "--send-completion=" << completion
                                               << " is invalid; use posted or acknowledged");
    FABRIC_INPUT_ERROR_IF(minBytes > maxBytes,
                          "--minbytes=" << minBytes << " is above --maxbytes=" << maxBytes);
    FabricMpi::SelectEngine(order);

    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(racks * perRack));
    t->SetAttribute("GpusPerServer", UintegerValue(gpus));
    t->SetAttribute("NvLink", BooleanValue(gpus > 1));
    t->SetAttribute("ServersPerRack", UintegerValue(perRack));
    t->SetAttribute("Spines", UintegerValue(spines));
    t->SetAttribute("Transports", StringValue(transport));
    if (transport == "roce")
    {
        t->GetNicHelper().SetCongestionControl("dcqcn");
    }
    t->Install();

    CollectiveHelper coll;
    coll.SetTopology(t);
    coll.SetCommunicatorAttribute("PreConnect", BooleanValue(true));
    coll.SetApplicationAttribute("SendCompletion",
                                 StringValue(completion == "posted" ? "Posted" : "Acknowledged"));
    coll.AssignStreams(100);
    Ptr<CollectiveCommunicator> world = coll.CreateWorldCommunicator("world");
    uint32_t enqueued = 0;
    for (uint64_t bytes = minBytes; bytes <= maxBytes; bytes *= factor)
    {
        const uint64_t size = bytes / 4 * 4; // whole 4-byte elements
        for (uint32_t i = 0; i < iters; ++i, ++enqueued)
        {
            world->Enqueue(ops.at(op), size);
        }
        if (bytes > maxBytes / factor)
        {
            break;
        }
    }
    const auto runStart = std::chrono::steady_clock::now();
    Simulator::Run();
    FabricMpi::ReportProcess(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count(),
        t->GetObject<PfcRemoteExchange>());
    const std::vector<CollectiveRecord> records = coll.GatherRecords();
    if (FabricMpi::GetSystemId() == 0)
    {
        const FabricPartition& part = t->GetPartition();
        std::cout << "distributed-collective: " << op << " on " << t->GetNRanks() << " ranks ("
                  << racks << " racks x " << perRack << " servers x " << gpus << " GPUs, " << spines
                  << " spines), " << transport << ", sends complete when " << completion
                  << "\nprocesses " << FabricMpi::GetSize()
                  << " (partition: " << part.GetCrossingCables()
                  << " cables between processes, lookahead " << part.GetLookahead().GetNanoSeconds()
                  << " ns)\n";
        std::cout << std::setw(12) << "size" << std::setw(12) << "algorithm" << std::setw(10)
                  << "protocol" << std::setw(14) << "time_us" << std::setw(10) << "algbw"
                  << std::setw(10) << "busbw"
                  << "\n";
        uint32_t completed = 0;
        for (const auto& r : records)
        {
            completed += r.completed ? 1 : 0;
            std::cout << std::setw(12) << r.bytes << std::setw(12) << r.algorithm << std::setw(10)
                      << r.protocol << std::setw(14) << std::fixed << std::setprecision(3)
                      << r.GetDuration().GetSeconds() * 1e6 << std::setw(10) << std::setprecision(2)
                      << r.algBw << std::setw(10) << r.busBw << "\n";
        }
        std::cout << "completed " << completed << " / " << enqueued << "\n" << std::flush;
        if (std::getenv("AI_FABRIC_MPI_DEBUG") && !records.empty())
        {
            // Simulated time, for tools/bench/mpi-projection.py.
            std::cerr << "last at " << std::fixed << std::setprecision(3)
                      << records.back().end.GetSeconds() * 1e6 << " us" << std::endl;
        }
        if (!csvPath.empty())
        {
            std::ofstream out(csvPath);
            CollectiveRecord::WriteCsvHeader(out);
            for (const auto& r : records)
            {
                r.WriteCsvRow(out);
            }
        }
    }
    Simulator::Destroy();
    FabricMpi::Disable();
    return 0;
}
