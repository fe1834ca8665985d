/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tutorial-first-experiment: the program of the doc's tutorial ("Your first experiment").
 * The test suite builds and runs it (test/tutorial-test.cc), so the tutorial cannot rot.
 *
 * A small rail-optimized cluster (--servers servers x --gpus GPUs, one 400 Gb/s RoCEv2 NIC
 * per GPU, one leaf switch per rail, DCQCN and PFC) runs a ring AllReduce at each size from
 * --min-bytes to --max-bytes (x4 steps). A sink connected to the communicator's
 * CollectiveComplete trace source writes one CSV row per collective to --csv:
 *
 *   bytes,time_us,busbw_GBps,bound_GBps,ecn_marks,pfc_pauses
 *
 * bound_GBps is the analytical bottleneck (one ring per rail, each limited by one NIC's RoCE
 * payload rate); ecn_marks and pfc_pauses are the switches' counters during that collective.
 */

// [includes]
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <fstream>
#include <iostream>
// [includes]

using namespace ns3;

// [sink]
/// What the trace sink needs: the output file, the switches and their counters so far.
struct Experiment
{
    std::ofstream csv;                    //!< one row per collective
    double boundGBps{0};                  //!< analytical busbw bottleneck
    uint64_t marks{0};                    //!< ECN marks counted so far
    uint64_t pauses{0};                   //!< PFC pause frames counted so far
    std::vector<Ptr<FabricSwitch>> leafs; //!< the leaf (rail) switches
};

/**
 * Trace sink of CollectiveCommunicator::CollectiveComplete: writes the collective's row.
 * \param exp the experiment (bound with MakeBoundCallback)
 * \param rec the finished collective
 */
void
CollectiveDone(Experiment* exp, const CollectiveRecord& rec)
{
    uint64_t marks = 0;
    uint64_t pauses = 0;
    for (const auto& sw : exp->leafs)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            marks += sw->GetCounters().ecnMarks[p];
            for (uint64_t n : sw->GetPort(p)->GetCounters().pauseTx)
            {
                pauses += n;
            }
        }
    }
    exp->csv << rec.bytes << "," << rec.GetDuration().GetSeconds() * 1e6 << "," << rec.busBw << ","
             << exp->boundGBps << "," << marks - exp->marks << "," << pauses - exp->pauses << "\n";
    exp->marks = marks;
    exp->pauses = pauses;
}

// [sink]

int
main(int argc, char* argv[])
{
    // [setup]
    Time::SetResolution(Time::PS); // a byte lasts 20 ps at 400 Gb/s
    uint32_t servers = 2;
    uint32_t gpus = 4;
    uint64_t minBytes = 1 << 20;
    uint64_t maxBytes = 16 << 20;
    std::string csvPath = "tutorial-first-experiment.csv";
    FabricCommandLine cmd(__FILE__); // ns-3's CommandLine: strict values, errors exit 2
    cmd.AddValue("servers", "Servers (>= 2)", servers, 2);
    cmd.AddValue("gpus", "GPUs (and rails) per server (>= 1)", gpus, 1);
    cmd.AddBytes("min-bytes", "Smallest AllReduce size, bytes (> 0)", minBytes, 1);
    cmd.AddBytes("max-bytes", "Largest AllReduce size, bytes (>= min-bytes)", maxBytes, 1);
    cmd.AddOutput("csv", "Output CSV file", csvPath);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(maxBytes < minBytes,
                          "--min-bytes=" << minBytes << " / --max-bytes=" << maxBytes
                                         << " are invalid; need 0 < min-bytes <= max-bytes");
    // [setup]

    // [topology]
    // The fabric: servers x GPUs, one 400 Gb/s NIC per GPU, one leaf switch per rail
    // (GPU i of every server on leaf i), NVSwitch inside each server; DCQCN on every NIC.
    Ptr<RailOptimizedTopologyHelper> topo = CreateObject<RailOptimizedTopologyHelper>();
    topo->SetAttribute("Servers", UintegerValue(servers));
    topo->SetAttribute("GpusPerServer", UintegerValue(gpus));
    topo->GetNicHelper().SetCongestionControl("dcqcn");
    topo->Install();
    topo->Print(std::cout);
    // [topology]

    // [collective]
    // One communicator over every GPU, one ring (channel) per rail, QPs through the fabric.
    // The ring is forced (NCCL_ALGO=Ring): NCCL's own choice could be NVLSTree here.
    CollectiveHelper coll;
    coll.SetTopology(topo);
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
    coll.SetCommunicatorAttribute("Channels", UintegerValue(gpus));
    coll.AssignStreams(1);
    Ptr<CollectiveCommunicator> world = coll.CreateWorldCommunicator("world");
    for (uint64_t bytes = minBytes; bytes <= maxBytes; bytes *= 4)
    {
        world->Enqueue(CollectiveOp::ALL_REDUCE, bytes);
    }
    // [collective]

    // [trace]
    Experiment exp;
    exp.csv.open(csvPath);
    FABRIC_INPUT_ERROR_IF(!exp.csv, "cannot write --csv=" << csvPath);
    exp.csv << "bytes,time_us,busbw_GBps,bound_GBps,ecn_marks,pfc_pauses\n";
    for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
    {
        exp.leafs.push_back(topo->GetLeaf(i)->GetObject<FabricSwitch>());
    }
    // Each ring crosses one NIC per rail: busbw <= rails x the NIC's RoCE payload rate
    // (a 4096-byte payload travels in a 4178-byte frame with its headers).
    double nicBytesPerSecond = 400e9 / 8 * 4096.0 / 4178.0;
    exp.boundGBps = gpus * nicBytesPerSecond / 1e9;
    world->TraceConnectWithoutContext("CollectiveComplete",
                                      MakeBoundCallback(&CollectiveDone, &exp));
    // [trace]

    // [run]
    Simulator::Run();
    std::cout << "tutorial-first-experiment: " << world->GetRecords().size()
              << " AllReduce collectives on " << topo->GetNRanks() << " GPUs, simulated "
              << Simulator::Now().As(Time::US) << "; wrote " << csvPath << "\n";
    bool failed = world->HasFailed();
    Simulator::Destroy();
    return failed ? 1 : 0;
    // [run]
}
