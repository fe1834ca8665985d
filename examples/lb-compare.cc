/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * lb-compare: the four load-balancing tiers on one fabric, one collective and one flow
 * pattern, under each transport, healthy and with one spine link failed or degraded.
 *
 * Default fabric (small, under a minute): the rail-optimized fabric of roce-vs-uet, 4 servers
 * x 2 GPUs, 2 servers per scalable unit, so 4 leaves and 2 spines, 400 Gb/s everywhere; the
 * AllReduce ring and the permutation cross the spines. Tiers (--lbs, SwitchHelper short
 * names): static ecmp and resilient, dynamic flowlet and adaptive, global conga,
 * traffic-engineered te (a FabricTeController plans each scenario's flow matrix). Scenarios
 * (--scenarios): a ring AllReduce of --bytes, a pairwise AlltoAll of --bytes (with PXN, so
 * the network carries rail traffic, between scalable units across the spines), and a
 * permutation of --flow-bytes elephants.
 * Fabric states (--failures): none, down (the leaf0-spine0 cable cut, routes recomputed),
 * degrade (that cable at --degrade x its rate). Transports (--configs): RoCEv2 + DCQCN and
 * Ultra Ethernet + NSCC with REPS spraying. One table row per run: busbw or FCTs, PFC
 * pauses, trims, drops, retransmissions, out-of-sequence arrivals and the leaf-to-spine
 * utilization imbalance (max / mean); --csv for tools/plots/plot_lb_compare.py.
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
    std::string lbs = "ecmp,resilient,flowlet,adaptive,conga,te";
    std::string configs = "roce-dcqcn,uet-nscc";
    std::string scenarios = "allreduce,alltoall,permutation";
    std::string failures = "none,down,degrade";
    uint64_t bytes = 16 << 20;
    uint64_t flowBytes = 4000000;
    double degrade = 0.25;
    uint32_t seed = 1;
    std::string csv;

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("servers", "Servers (>= 2)", servers);
    cmd.AddValue("gpus-per-server", "GPUs (rails) per server", gpus, 1);
    cmd.AddValue("servers-per-su", "Servers per scalable unit", serversPerSu, 1);
    cmd.AddValue("spines", "Spine switches (0 = automatic)", spines);
    cmd.AddValue("lbs", "Load balancers: " + SwitchHelper::GetLoadBalancerNamesText(), lbs);
    cmd.AddValue("configs", "Transports: roce-dcqcn, roce-pfc, uet-<cc>[-<ev>]", configs);
    cmd.AddValue("scenarios", "allreduce, alltoall, incast, permutation", scenarios);
    cmd.AddValue("failures", "Fabric states: none, down, degrade", failures);
    cmd.AddBytes("bytes", "AllReduce and AlltoAll size", bytes, 1, 1ull << 40);
    cmd.AddBytes("flow-bytes", "Bytes per permutation flow", flowBytes, 1, 0xFFFFFFFFull);
    cmd.AddValue("degrade", "Rate of the degraded cable, fraction (0, 1)", degrade);
    cmd.AddSeed(seed, "Random seed: permutation, hashes, flowlet draws, EVs");
    cmd.AddOutput("csv", "Write every row to this CSV file", csv);
    cmd.Parse(argc, argv, []() { DcqcnCongestionOps::SetPresetDefaults("firmware"); });
    FABRIC_INPUT_ERROR_IF(servers < 2,
                          "--servers=" << servers << " is invalid; valid range is >= 2");
    FABRIC_INPUT_ERROR_IF(!(degrade > 0 && degrade < 1),
                          "--degrade=" << degrade << " is invalid; valid range is (0, 1)");
    const std::vector<std::string> states = text::Split(failures, ',');
    for (const auto& f : states)
    {
        FABRIC_INPUT_ERROR_IF(f != "none" && f != "down" && f != "degrade",
                              "--failures: \"" << f
                                               << "\" is invalid; valid values are none, down, "
                                                  "degrade");
    }
    for (const auto& lb : text::Split(lbs, ','))
    {
        SwitchHelper::CheckLoadBalancerName(lb, "--lbs");
    }
    for (const auto& c : text::Split(configs, ','))
    {
        TransportComparison::MakeConfig(c, "--configs");
    }
    for (const auto& s : text::Split(scenarios, ','))
    {
        TransportComparison::CheckScenario(s, "--scenarios");
        FABRIC_INPUT_ERROR_IF(s.find("-failure") != std::string::npos,
                              "--scenarios=" << s << ": give fabric states with --failures");
    }
    SetSimulatorImpl("ns3::FabricSimulatorImpl");
    SetEventScheduler("ns3::DelayClassScheduler");

    std::cout << "# lb-compare: load-balancing tiers x transports x fabric states (seed " << seed
              << ")\n";
    std::vector<TransportComparisonRow> rows;
    for (const auto& state : states)
    {
        auto cmp = CreateObject<TransportComparison>();
        cmp->SetTopologyAttribute("Servers", UintegerValue(servers));
        cmp->SetTopologyAttribute("GpusPerServer", UintegerValue(gpus));
        cmp->SetTopologyAttribute("ServersPerSu", UintegerValue(serversPerSu));
        cmp->SetTopologyAttribute("Spines", UintegerValue(spines));
        cmp->SetAttribute("Configurations", StringValue(configs));
        std::string s = scenarios;
        const std::string failure = state == "none" ? states.back() : state;
        if (failure != "none")
        {
            // (also for "none": Describe names the failure the other states apply)
            cmp->SetAttribute("Failure", StringValue(failure));
            cmp->SetAttribute("DegradeFactor", DoubleValue(degrade));
        }
        if (state != "none")
        {
            s.clear();
            for (const auto& base : text::Split(scenarios, ','))
            {
                s += (s.empty() ? "" : ",") + base + "-failure";
            }
        }
        cmp->SetAttribute("Scenarios", StringValue(s));
        cmp->SetAttribute("LoadBalancers", StringValue(lbs));
        cmp->SetAttribute("MinBytes", UintegerValue(bytes));
        cmp->SetAttribute("MaxBytes", UintegerValue(bytes));
        cmp->SetAttribute("FlowBytes", UintegerValue(flowBytes));
        if (state == states.front())
        {
            cmp->Describe(std::cout);
        }
        cmp->SetProgressReports(!cmd.IsQuiet(), "lb-compare");
        for (auto& r : cmp->Run())
        {
            const auto at = r.scenario.find("-failure");
            if (at != std::string::npos)
            {
                r.scenario = r.scenario.substr(0, at) + "-" + state;
            }
            rows.push_back(r);
        }
    }
    return TransportComparison::WriteResults(std::cout, rows, csv);
}
