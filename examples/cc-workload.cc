/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric example: the congestion-control researcher's workflow. Poisson flows drawn from a
 * published flow-size CDF at a target load run over RoCEv2 on a two-tier Clos of plain hosts;
 * every flow's FCT is compared with its ideal FCT, and the slowdown is summarised per
 * flow-size bucket (median, p95, p99).
 *
 * The defaults are the HPCC-lineage evaluation setup (Li et al., SIGCOMM 2019, and the
 * simulators derived from it): 128 hosts at 25 Gb/s, 8 leaves and 2 spines at 100 Gb/s (2:1),
 * 1 us links, 4 MB shared switch buffers with dynamic threshold alpha 1/8, 1024-byte
 * payloads, PFC on, ECN 100 KB / 400 KB / 0.2 per 25 Gb/s scaled with the port rate, DCQCN
 * with g 1/256, a 900 us rate-increase timer, AI 50 Mb/s, HAI 100 Mb/s and an ACK per
 * packet, WebSearch at 50 % load over 10 ms of arrivals, run to completion. The load is a
 * fraction of each host's share of the leaf uplinks (--load-base=fabric: 12.5 Gb/s at 2:1),
 * which gives the setup's ~590 flows; --load-base=host takes the host link rate.
 *
 *   ./cc-workload --cc=dcqcn --load=0.5 --fct=fct.csv --summary=summary.csv
 *   ./cc-workload --cdf=fb-hadoop --kmin=50KB --kmax=200KB --pmax=0.1
 *   ./cc-workload --cdf=my-sizes.cdf --duration=5ms --cc=none
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

using namespace ns3;

namespace
{

/// Writes each finished flow as a CSV row.
void
WriteRow(std::ostream* os, const FlowFctRecord& r)
{
    FlowFctSummary::WriteRecordCsv(*os, r);
}

/// \return the CDF: a shipped workload's name or a file path
FlowSizeCdf
LoadCdf(const std::string& cdf)
{
    for (const std::string& name : FlowSizeCdf::GetShippedNames())
    {
        if (name == cdf)
        {
            return FlowSizeCdf::LoadShipped(cdf);
        }
    }
    return FlowSizeCdf::Load(cdf); // aborts naming the file and line if it is not a CDF
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint32_t leaves = 8;
    uint32_t hostsPerLeaf = 16;
    uint32_t spines = 2;
    DataRate hostRate("25Gbps");
    DataRate fabricRate("100Gbps");
    Time delay = MicroSeconds(1);
    uint32_t mtu = 1024;
    uint64_t buffer = 4000000;
    std::string cdf = "websearch";
    double load = 0.5;
    std::string loadBase = "fabric";
    Time duration = MilliSeconds(10);
    std::string cc = "dcqcn";
    std::string preset = "hpcc";
    QueueSize kmin("100KB");
    QueueSize kmax("400KB");
    double pmax = 0.2;
    uint32_t seed = 1;
    std::string fctPath;
    std::string summaryPath;

    CommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "Leaf (ToR) switches, >= 1", leaves);
    cmd.AddValue("hosts-per-leaf", "Hosts under each leaf, >= 1", hostsPerLeaf);
    cmd.AddValue("spines", "Spine switches, >= 1", spines);
    cmd.AddValue("host-rate", "Host link rate", hostRate);
    cmd.AddValue("fabric-rate", "Leaf-spine link rate", fabricRate);
    cmd.AddValue("delay", "Propagation delay of every link", delay);
    cmd.AddValue("mtu", "RoCE path MTU, payload bytes (256, 512, 1024, 2048, 4096)", mtu);
    cmd.AddValue("buffer", "Shared buffer per switch, bytes", buffer);
    cmd.AddValue("cdf", "Flow-size CDF: websearch, fb-hadoop, alistorage or a file", cdf);
    cmd.AddValue("load", "Offered load of the host links, (0, 1]", load);
    cmd.AddValue("load-base",
                 "What --load is a fraction of: host (each host link's rate) or fabric (each "
                 "host's share of its leaf's uplinks: host rate / oversubscription, as the "
                 "HPCC-lineage setup counts it: ~590 WebSearch flows in 10 ms)",
                 loadBase);
    cmd.AddValue("duration",
                 "Flow arrivals during this time; the run goes on to completion",
                 duration);
    cmd.AddValue("cc",
                 "RoCE congestion control: dcqcn, none, dctcp, timely, swift or a TypeId name",
                 cc);
    cmd.AddValue("dcqcn-preset",
                 "DCQCN parameters: hpcc (g 1/256, 900 us timer, AI 50 Mb/s, HAI 100 Mb/s), "
                 "firmware (ConnectX defaults) or paper (Zhu et al. 2015)",
                 preset);
    cmd.AddValue("kmin", "ECN Kmin at 25 Gb/s (scaled with the port rate)", kmin);
    cmd.AddValue("kmax", "ECN Kmax at 25 Gb/s (scaled with the port rate)", kmax);
    cmd.AddValue("pmax", "ECN marking probability at Kmax, [0, 1]", pmax);
    cmd.AddValue("seed", "Random run (arrivals, sizes, hosts, ECMP), >= 1", seed);
    cmd.AddValue("fct", "Write one CSV row per flow to this file", fctPath);
    cmd.AddValue("summary", "Write the per-bucket summary CSV to this file", summaryPath);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(leaves == 0 || hostsPerLeaf == 0 || spines == 0,
                    "--leaves=" << leaves << " --hosts-per-leaf=" << hostsPerLeaf
                                << " --spines=" << spines << " are invalid; each must be >= 1");
    NS_ABORT_MSG_IF(!(load > 0 && load <= 1),
                    "--load=" << load << " is invalid; valid range is (0, 1]");
    NS_ABORT_MSG_IF(seed == 0, "--seed=0 is invalid; valid range is 1..4294967295");
    NS_ABORT_MSG_IF(kmin.GetValue() > kmax.GetValue(),
                    "--kmin=" << kmin << " is above --kmax=" << kmax << "; valid is Kmin <= Kmax");
    RngSeedManager::SetRun(seed);
    if (cc == "dcqcn" && preset == "hpcc")
    {
        Config::SetDefault("ns3::DcqcnCongestionOps::RateIncreaseTimer",
                           TimeValue(MicroSeconds(900)));
        Config::SetDefault("ns3::DcqcnCongestionOps::RateAi", DataRateValue(DataRate("50Mbps")));
        Config::SetDefault("ns3::DcqcnCongestionOps::RateHai", DataRateValue(DataRate("100Mbps")));
    }
    else if (cc == "dcqcn")
    {
        DcqcnCongestionOps::SetPresetDefaults(preset); // aborts naming a bad preset
    }

    // The Clos: plain hosts (one NIC, no NVLink), leaf uplinks spread over the spines.
    auto clos = CreateObject<ClosTopologyHelper>();
    clos->SetAttribute("Servers", UintegerValue(leaves * hostsPerLeaf));
    clos->SetAttribute("ServersPerRack", UintegerValue(hostsPerLeaf));
    clos->SetAttribute("GpusPerServer", UintegerValue(1));
    clos->SetAttribute("NvLink", BooleanValue(false));
    clos->SetAttribute("GpuLinkDataRate", DataRateValue(hostRate));
    clos->SetAttribute("GpuLinkDelay", TimeValue(delay));
    clos->SetAttribute("LeafSpineDataRate", DataRateValue(fabricRate));
    clos->SetAttribute("LeafSpineDelay", TimeValue(delay));
    clos->SetAttribute("Spines", UintegerValue(spines));
    const double down = double(hostsPerLeaf) * hostRate.GetBitRate();
    const double up = double(spines) * fabricRate.GetBitRate();
    clos->SetAttribute("Oversubscription", DoubleValue(std::max(1.0, down / up)));
    SwitchHelper& sw = clos->GetSwitchHelper();
    sw.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    sw.SetMmuAttribute("Alpha", DoubleValue(1.0 / 8));
    sw.SetEcnAttribute("Kmin", QueueSizeValue(kmin));
    sw.SetEcnAttribute("Kmax", QueueSizeValue(kmax));
    sw.SetEcnAttribute("Pmax", DoubleValue(pmax));
    RoceNicHelper& nic = clos->GetNicHelper();
    nic.SetCongestionControl(cc); // aborts naming an unknown algorithm
    nic.SetNicAttribute("Mtu", UintegerValue(mtu));
    nic.SetNicAttribute("AckInterval", UintegerValue(1));
    nic.AssignStreams(1);
    clos->Install();
    clos->Print(std::cout);

    // The workload: Poisson arrivals at the target load of the host links.
    auto flows = CreateObject<FlowArrivalGenerator>();
    flows->SetAttribute("Load", DoubleValue(load));
    NS_ABORT_MSG_IF(loadBase != "host" && loadBase != "fabric",
                    "--load-base=" << loadBase << " is invalid; valid values are host, fabric");
    const double share = loadBase == "host" ? 1.0 : std::min(1.0, up / down);
    flows->SetAttribute("HostLinkRate",
                        DataRateValue(DataRate(uint64_t(share * double(hostRate.GetBitRate())))));
    flows->SetAttribute("StopTime", TimeValue(duration));
    flows->SetFlowSizeCdf(LoadCdf(cdf));
    flows->SetNHosts(clos->GetNRanks());
    flows->AssignStreams(100);

    FlowWorkloadRunner runner(clos, flows);
    std::unique_ptr<std::ofstream> fct;
    if (!fctPath.empty())
    {
        fct = std::make_unique<std::ofstream>(fctPath);
        NS_ABORT_MSG_IF(!*fct, "--fct=" << fctPath << ": cannot open the file for writing");
        FlowFctSummary::WriteRecordCsvHeader(*fct);
        runner.SetRecordCallback(
            MakeBoundCallback(&WriteRow, static_cast<std::ostream*>(fct.get())));
    }
    runner.Start();
    Simulator::Run();
    const bool healthy = clos->GetHealthMonitor()->ReportEndOfRun(std::cerr);

    const FlowFctSummary& s = runner.GetSummary();
    std::cout << "workload: " << cdf << " at load " << load << " for " << duration.As(Time::MS)
              << ", cc " << cc << ": " << s.GetFlows() << " flows, " << s.GetFailed()
              << " failed, goodput " << std::fixed << std::setprecision(2)
              << s.GetGoodputBps() / 1e9 << " Gb/s, at most " << runner.GetMaxActive()
              << " in flight, " << runner.GetQpPairs() << " QP pairs\n";
    std::cout << "FCT slowdown per flow size (bytes):\n";
    std::cout << std::setw(24) << "size" << std::setw(8) << "flows" << std::setw(10) << "median"
              << std::setw(10) << "p95" << std::setw(10) << "p99\n";
    auto print = [](const std::string& label, const FlowFctBucketStats& b) {
        std::cout << std::setw(24) << label << std::setw(8) << b.flows << std::setw(10)
                  << b.medianSlowdown << std::setw(10) << b.p95Slowdown << std::setw(10)
                  << b.p99Slowdown << '\n';
    };
    for (const FlowFctBucketStats& b : s.GetBuckets())
    {
        const std::string hi = b.hiBytes == UINT64_MAX ? "inf" : std::to_string(b.hiBytes);
        print(std::to_string(b.loBytes) + ".." + hi, b);
    }
    print("all", s.GetOverall());
    if (!summaryPath.empty())
    {
        std::ofstream out(summaryPath);
        NS_ABORT_MSG_IF(!out, "--summary=" << summaryPath << ": cannot open the file for writing");
        s.WriteCsv(out);
    }
    Simulator::Destroy();
    return healthy && runner.AllCompleted() ? 0 : 1;
}
