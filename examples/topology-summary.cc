/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * topology-summary: build an AI cluster fabric with one of the topology helpers and print its
 * summary (switches, links per tier, bisection bandwidth, oversubscription), the wall time of
 * each build phase and the peak resident memory; optionally export the links as CSV and the
 * graph as GraphViz dot.
 *
 *   ./topology-summary                                  # one DGX H100 SuperPOD SU, 256 GPUs
 *   ./topology-summary --sus=4                          # 4 SUs: 32 leaves, 16 spines
 *   ./topology-summary --servers=1024 --spine-ports=256 # 8,192 GPUs (32 SUs, 32 spines)
 *   ./topology-summary --topology=rail-only --csv=links.csv
 *   ./topology-summary --topology=clos --tiers=3 --servers=256 --dot=clos.dot
 *
 * Every attribute of the helpers can also be set directly, e.g.
 * --ns3::RailOptimizedTopologyHelper::LeafSpineDataRate=800Gbps, or for the attributes common
 * to every topology --ns3::FabricTopologyHelper::GpuLinkDataRate=800Gbps (the derived spelling
 * --ns3::RailOptimizedTopologyHelper::GpuLinkDataRate=800Gbps is accepted too), except those
 * the options above set (Servers, GpusPerServer, NicPortsPerGpu, Spines, SpinePorts, LeafPorts,
 * TorPorts, Tiers, Oversubscription): use the options for them.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Peak resident set size of this process, MiB (getrusage; Linux reports KiB).
double
PeakRssMiB()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    std::string topology = "rail-optimized";
    uint32_t servers = 0;
    uint32_t gpusPerServer = 8;
    uint32_t nicPorts = 1;
    uint32_t sus = 1;
    uint32_t spines = 0;
    uint32_t spinePorts = 64;
    uint32_t leafPorts = 64;
    double oversubscription = 1.0;
    uint32_t tiers = 2;
    std::string csv;
    std::string dot;

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("topology", "rail-optimized | rail-only | clos", topology);
    cmd.AddValue("servers", "Servers (0 = sus x 32)", servers);
    cmd.AddValue("gpus-per-server", "GPUs per server", gpusPerServer, 1);
    cmd.AddValue("nic-ports",
                 "Scale-out NIC ports per GPU (2 = dual-port, two planes)",
                 nicPorts,
                 1);
    cmd.AddValue("sus", "Scalable units of 32 servers (used when --servers=0)", sus, 1);
    cmd.AddValue("spines", "Spine switches (0 = automatic)", spines);
    cmd.AddValue("spine-ports", "Ports per spine switch", spinePorts, 1);
    cmd.AddValue("leaf-ports", "Ports per leaf / ToR switch", leafPorts, 1);
    cmd.AddValue("oversubscription",
                 "Leaf (ToR) downlink / uplink bandwidth, >= 1",
                 oversubscription);
    cmd.AddValue("tiers", "Clos only: 2 or 3", tiers, 2, 3);
    cmd.AddOutput("csv", "Write the link list to this CSV file", csv);
    cmd.AddOutput("dot", "Write the graph to this GraphViz file", dot);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(!(oversubscription >= 1),
                          "--oversubscription=" << oversubscription
                                                << " is invalid; valid range is >= 1");
    FABRIC_INPUT_ERROR_IF(
        topology != "clos" && cmd.IsGiven("tiers"),
        "--tiers applies to --topology=clos only; --topology=" << topology << " has its own tiers");
    FABRIC_INPUT_ERROR_IF(topology == "rail-only" &&
                              (cmd.IsGiven("spines") || cmd.IsGiven("spine-ports") ||
                               cmd.IsGiven("oversubscription")),
                          "--spines, --spine-ports and --oversubscription do not apply to "
                          "--topology=rail-only (it has no spines)");
    FABRIC_INPUT_ERROR_IF(topology == "clos" && tiers == 3 && cmd.IsGiven("spines"),
                          "--spines does not apply to a 3-tier clos (--tiers=3 sizes its "
                          "spines and cores from the ports)");
    FABRIC_INPUT_ERROR_IF(cmd.IsGiven("servers") && cmd.IsGiven("sus") && servers != 0,
                          "--sus is used only with --servers=0; give one of them");
    if (servers == 0)
    {
        servers = sus * 32;
    }

    Ptr<FabricTopologyHelper> fabric;
    if (topology == "rail-optimized")
    {
        fabric = CreateObject<RailOptimizedTopologyHelper>();
        fabric->SetAttribute("Spines", UintegerValue(spines));
        fabric->SetAttribute("SpinePorts", UintegerValue(spinePorts));
        fabric->SetAttribute("LeafPorts", UintegerValue(leafPorts));
        fabric->SetAttribute("Oversubscription", DoubleValue(oversubscription));
    }
    else if (topology == "rail-only")
    {
        fabric = CreateObject<RailOnlyTopologyHelper>();
        fabric->SetAttribute("LeafPorts", UintegerValue(leafPorts));
    }
    else if (topology == "clos")
    {
        fabric = CreateObject<ClosTopologyHelper>();
        fabric->SetAttribute("Tiers", UintegerValue(tiers));
        fabric->SetAttribute("Spines", UintegerValue(tiers == 2 ? spines : 0));
        fabric->SetAttribute("SpinePorts", UintegerValue(spinePorts));
        fabric->SetAttribute("TorPorts", UintegerValue(leafPorts));
        fabric->SetAttribute("Oversubscription", DoubleValue(oversubscription));
    }
    else
    {
        FABRIC_INPUT_ERROR("--topology=" << topology
                                         << " is invalid; valid values are rail-optimized, "
                                            "rail-only, clos");
    }
    fabric->SetAttribute("Servers", UintegerValue(servers));
    fabric->SetAttribute("GpusPerServer", UintegerValue(gpusPerServer));
    fabric->SetAttribute("NicPortsPerGpu", UintegerValue(nicPorts));

    double rssBefore = PeakRssMiB();
    auto start = std::chrono::steady_clock::now();
    fabric->Install();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double rssAfter = PeakRssMiB();

    std::cout << *fabric;
    const FabricBuildStats& st = fabric->GetBuildStats();
    std::cout << std::fixed << std::setprecision(3) << "  build: " << wall << " s wall (nodes "
              << st.nodesSeconds << ", links " << st.linksSeconds << ", switches "
              << st.switchesSeconds << ", NICs " << st.nicsSeconds << ", routes "
              << st.routesSeconds << ")\n"
              << std::setprecision(1) << "  memory: peak RSS " << rssAfter << " MiB ("
              << rssAfter - rssBefore << " MiB for the fabric); forwarding tables "
              << st.forwardingTableBytes / 1048576.0 << " MiB for " << st.routes << " routes\n";
    if (!csv.empty())
    {
        fabric->WriteLinksCsv(csv);
        std::cout << "  wrote " << csv << "\n";
    }
    if (!dot.empty())
    {
        fabric->WriteDot(dot);
        std::cout << "  wrote " << dot << "\n";
    }
    Simulator::Destroy();
    return 0;
}
