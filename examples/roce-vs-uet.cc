/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * roce-vs-uet: RoCEv2 and Ultra Ethernet side by side on the same rail-optimized fabric.
 *
 * Default fabric (small, < 1 min): 4 servers x 2 GPUs (rails), 2 servers per scalable unit,
 * so 4 leaves (one per rail and SU) and 2 spines, 400 Gb/s NICs and leaf-spine cables, NVLink
 * inside each server. Scenarios (--scenarios): a ring AllReduce of --min-bytes..--max-bytes
 * (the training collective), an incast (every rank of the other servers WRITEs --flow-bytes
 * to rank 0), a permutation across servers, and the AllReduce and the permutation again with
 * the leaf0-spine0 cable degraded to --degrade x its rate (--failure=down cuts it). Each
 * runs under every configuration (--configs):
 *   roce-dcqcn  RoCEv2, DCQCN, PFC (the topology's lossless priority 3)
 *   roce-pfc    RoCEv2 without congestion control: PFC only
 *   uet-nscc    Ultra Ethernet, NSCC, REPS spraying, lossy priority 1 trimmed at 1 BDP
 *   uet-rccc    the same with RCCC (receiver credit) instead of NSCC
 * (uet-<cc>[-<ev>] for the others: uet-none, uet-both, uet-nscc-single, ...). It prints what every
 * configuration sets and one table: busbw for the collective, median / p99 / max FCT for the
 * flow patterns, PFC pauses, trims, drops and retransmissions, ok (completed; UET: every byte
 * posted delivered). --csv=FILE writes every counter per row for
 * tools/plots/plot_roce_vs_uet.py. Any model attribute: --ns3::Class::Attribute=value
 * (e.g. --ns3::UetTransportPlugin::QueueBdp=2).
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint32_t servers = 4;
    uint32_t gpus = 2;
    uint32_t serversPerSu = 2;
    uint32_t spines = 2;
    std::string configs = "roce-dcqcn,roce-pfc,uet-nscc,uet-rccc";
    std::string scenarios = "allreduce,incast,permutation,allreduce-failure,permutation-failure";
    uint64_t minBytes = 1 << 20;
    uint64_t maxBytes = 64 << 20;
    uint32_t channelsPerRail = 2;
    uint64_t flowBytes = 8000000;
    uint32_t incastSenders = 0;
    std::string failure = "degrade";
    double degrade = 0.25;
    uint32_t seed = 1;
    std::string csv;

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("servers", "Servers (>= 2)", servers);
    cmd.AddValue("gpus-per-server", "GPUs (rails) per server", gpus, 1);
    cmd.AddValue("servers-per-su",
                 "Servers per scalable unit (one leaf per rail each)",
                 serversPerSu,
                 1);
    cmd.AddValue("spines", "Spine switches (0 = automatic)", spines);
    cmd.AddValue("configs", "Configurations: roce-dcqcn, roce-pfc, uet-<cc>[-<ev>]", configs);
    cmd.AddValue("scenarios",
                 "allreduce, incast, permutation, each optionally with -failure",
                 scenarios);
    cmd.AddBytes("min-bytes", "Smallest AllReduce size", minBytes, 1);
    cmd.AddBytes("max-bytes", "Largest AllReduce size (x4 steps)", maxBytes, 1, 1ull << 40);
    cmd.AddValue("channels-per-rail",
                 "AllReduce channels (rings) per rail, 1..16 (NCCL runs several per NIC)",
                 channelsPerRail);
    cmd.AddBytes("flow-bytes", "Bytes per incast / permutation flow", flowBytes);
    cmd.AddValue("incast-senders",
                 "Incast senders (0 = every rank of the other servers)",
                 incastSenders);
    cmd.AddValue("failure",
                 "What -failure does to the leaf0-spine0 cable: degrade | down",
                 failure);
    cmd.AddValue("degrade", "Rate of the degraded cable, fraction (0, 1)", degrade);
    cmd.AddSeed(seed, "Random seed: permutation, start PSNs, EVs, hashes");
    cmd.AddOutput("csv", "Write every row and counter to this CSV file", csv);
    // The firmware DCQCN preset (as rail-allreduce) goes in before the attribute settings:
    // explicit --ns3::... values win.
    cmd.Parse(argc, argv, []() { DcqcnCongestionOps::SetPresetDefaults("firmware"); });
    FABRIC_INPUT_ERROR_IF(servers < 2,
                          "--servers=" << servers << " is invalid; valid range is >= 2");
    FABRIC_INPUT_ERROR_IF(channelsPerRail == 0 || channelsPerRail > 16,
                          "--channels-per-rail=" << channelsPerRail
                                                 << " is invalid; valid range is 1..16");
    FABRIC_INPUT_ERROR_IF(channelsPerRail * gpus > 32,
                          "--gpus-per-server=" << gpus
                                               << " x --channels-per-rail=" << channelsPerRail
                                               << " channels is invalid; valid is 1..32 channels "
                                                  "(NCCL's MAXCHANNELS)");
    FABRIC_INPUT_ERROR_IF(failure != "degrade" && failure != "down",
                          "--failure=" << failure << " is invalid; valid values are degrade, down");
    FABRIC_INPUT_ERROR_IF(!(degrade > 0 && degrade < 1),
                          "--degrade=" << degrade << " is invalid; valid range is (0, 1)");
    FABRIC_INPUT_ERROR_IF(failure == "down" && cmd.IsGiven("degrade"),
                          "--degrade applies to --failure=degrade only");
    FABRIC_INPUT_ERROR_IF(maxBytes < minBytes,
                          "--min-bytes=" << minBytes << " / --max-bytes=" << maxBytes
                                         << " are invalid; need 0 < min <= max");
    FABRIC_INPUT_ERROR_IF(flowBytes == 0 || flowBytes > 0xFFFFFFFFull,
                          "--flow-bytes=" << flowBytes
                                          << " is invalid; valid range is 1..4294967295");
    SetSimulatorImpl("ns3::FabricSimulatorImpl");
    SetEventScheduler("ns3::DelayClassScheduler");

    auto cmp = CreateObject<TransportComparison>();
    cmp->SetTopologyAttribute("Servers", UintegerValue(servers));
    cmp->SetTopologyAttribute("GpusPerServer", UintegerValue(gpus));
    cmp->SetTopologyAttribute("ServersPerSu", UintegerValue(serversPerSu));
    cmp->SetTopologyAttribute("Spines", UintegerValue(spines));
    cmp->SetAttribute("Configurations", StringValue(configs));
    cmp->SetAttribute("Scenarios", StringValue(scenarios));
    cmp->SetAttribute("MinBytes", UintegerValue(minBytes));
    cmp->SetAttribute("MaxBytes", UintegerValue(maxBytes));
    cmp->SetAttribute("Channels", UintegerValue(channelsPerRail * gpus));
    cmp->SetAttribute("FlowBytes", UintegerValue(flowBytes));
    cmp->SetAttribute("IncastSenders", UintegerValue(incastSenders));
    cmp->SetAttribute("Failure", StringValue(failure));
    cmp->SetAttribute("DegradeFactor", DoubleValue(degrade));
    for (const auto& c : cmp->GetConfigurations())
    {
        TransportComparison::MakeConfig(c, "--configs"); // bad names abort before any run
    }
    for (const auto& s : cmp->GetScenarios())
    {
        TransportComparison::CheckScenario(s, "--scenarios");
    }

    std::cout << "# roce-vs-uet: RoCEv2 vs Ultra Ethernet on one fabric (seed " << seed << ")\n";
    cmp->Describe(std::cout);
    cmp->SetProgressReports(!cmd.IsQuiet());
    std::vector<TransportComparisonRow> rows = cmp->Run();
    return TransportComparison::WriteResults(std::cout, rows, csv);
}
