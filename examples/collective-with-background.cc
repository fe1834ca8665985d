/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * collective-with-background: a training job's AllReduce and background flows (storage,
 * other tenants) on the same fabric, and what each does to the other.
 *
 *   host 0 .. host n-1 (RoceNic, MTU 4096, --cc) ── leaves ── spines     (two-tier Clos)
 *
 * The job: a ring AllReduce of --size bytes over every host, --iters times back to back (one
 * NCCL-style communicator, CollectiveHelper). The background: Poisson flows with sizes from a
 * flow-size CDF (--cdf) at --bg-load of each host link (FlowArrivalGenerator), run by
 * FlowWorkloadRunner on the same NICs; they arrive until the job's last AllReduce finished
 * (FlowWorkloadRunner::StopArrivals), then the flows in flight complete.
 *
 * The program runs the job twice with the same seeds, alone and beside the background, and
 * prints the job's time and busbw (nccl-tests' definition) for both, then the background's
 * FCT slowdown (median, p95, p99 per flow-size bucket). --bg-load=0 runs the job alone only.
 *
 *   ./collective-with-background
 *   ./collective-with-background --bg-load=0.5 --cdf=alistorage --size=16777216
 *   ./collective-with-background --leaves=4 --hosts-per-leaf=8 --cc=none
 *
 * --seed sets ns-3's seed, --RngRun its run (both honoured: replications differ in arrivals,
 * sizes, hosts and ECMP placement). Input errors end the run with status 2 and one line; a
 * job or background flow that does not complete, status 1. Empty size buckets print "-".
 * Runs longer than a second report progress on stderr (--quiet: none).
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// What the command line chooses.
struct JobConfig
{
    uint32_t leaves = 2;                //!< leaf switches
    uint32_t hostsPerLeaf = 4;          //!< hosts under each leaf
    uint32_t spines = 2;                //!< spine switches
    std::string hostRate = "100Gbps";   //!< host link rate
    std::string fabricRate = "200Gbps"; //!< leaf-spine link rate
    uint64_t size = 4 << 20;            //!< AllReduce size, bytes
    uint32_t iters = 4;                 //!< AllReduces back to back
    uint32_t channels = 2;              //!< rings in parallel
    double bgLoad = 0.3;                //!< background load, fraction of a host link
    std::string cdf = "fb-hadoop";      //!< background flow sizes: a shipped CDF or a file
    FlowSizeCdf sizes;                  //!< the CDF, loaded
    std::string cc = "dcqcn";           //!< congestion control of every QP
    uint32_t seed = 1;                  //!< random run
};

/// The job's time (first start to last end) and its busbw averaged over the iterations.
struct JobResult
{
    bool ok{false};  //!< the job (and the background) completed, the run was healthy
    Time time;       //!< the whole job
    double busBw{0}; //!< GB/s, nccl-tests' busbw of the mean iteration
};

/// \return the job's and the background's progress, for the progress line
std::string
JobStatus(Ptr<CollectiveCommunicator> job, uint32_t iters, FlowWorkloadRunner* bg)
{
    uint32_t done = 0;
    for (const CollectiveRecord& c : job->GetRecords())
    {
        done += c.completed;
    }
    std::ostringstream os;
    os << "AllReduce " << done << " of " << iters << " done";
    if (bg->GetStarted() > 0)
    {
        os << ", background flows " << bg->GetFinished() << " done / " << bg->GetStarted()
           << " started";
    }
    return os.str();
}

/// \return the fraction of the job's AllReduces done
double
JobFraction(Ptr<CollectiveCommunicator> job, uint32_t iters)
{
    uint32_t done = 0;
    for (const CollectiveRecord& c : job->GetRecords())
    {
        done += c.completed;
    }
    return double(done) / iters;
}

/// The job's last AllReduce finished: no new background flow.
void
StopBackground(FlowWorkloadRunner* bg, const CollectiveRecord&)
{
    bg->StopArrivals();
}

/// Build the fabric, run the job (and the background if \p bgLoad > 0), return the job's
/// result; \p bgSummary receives the background's FCT summary.
JobResult
Run(const JobConfig& cfg, double bgLoad, FlowFctSummary* bgSummary, bool quiet)
{
    auto clos = CreateObject<ClosTopologyHelper>();
    clos->SetAttribute("Hosts", UintegerValue(cfg.leaves * cfg.hostsPerLeaf));
    clos->SetAttribute("ServersPerRack", UintegerValue(cfg.hostsPerLeaf));
    clos->SetAttribute("Spines", UintegerValue(cfg.spines));
    clos->SetAttribute("GpuLinkDataRate", StringValue(cfg.hostRate));
    clos->SetAttribute("LeafSpineDataRate", StringValue(cfg.fabricRate));
    clos->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    clos->GetNicHelper().SetCongestionControl(cfg.cc); // aborts naming an unknown one
    clos->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(4096));
    clos->GetNicHelper().AssignStreams(1);
    clos->Install();

    // The job: one communicator over every host, ring AllReduce.
    CollectiveHelper coll;
    coll.SetTopology(clos);
    coll.SetCommunicatorAttribute("Channels", UintegerValue(cfg.channels));
    coll.AssignStreams(10);
    Ptr<CollectiveCommunicator> job = coll.CreateWorldCommunicator("job");

    // The background: Poisson arrivals at bgLoad of each host link, from the CDF.
    auto arrivals = CreateObject<FlowArrivalGenerator>();
    FlowWorkloadRunner bg(clos, arrivals);
    if (bgLoad > 0)
    {
        arrivals->SetAttribute("Load", DoubleValue(bgLoad));
        arrivals->SetAttribute("HostLinkRate", StringValue(cfg.hostRate));
        arrivals->SetAttribute("StopTime", TimeValue(Seconds(10))); // or the job's end
        arrivals->SetFlowSizeCdf(cfg.sizes);
        arrivals->SetNHosts(clos->GetNRanks());
        arrivals->AssignStreams(100);
        bg.Start();
    }
    for (uint32_t i = 0; i < cfg.iters; ++i)
    {
        const bool last = i + 1 == cfg.iters;
        job->Enqueue(CollectiveOp::ALL_REDUCE,
                     cfg.size,
                     0,
                     last ? MakeBoundCallback(&StopBackground, &bg)
                          : CollectiveCommunicator::DoneCallback());
    }
    Ptr<FabricProgressReporter> progress;
    if (!quiet)
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName(bgLoad > 0 ? "collective-with-background (beside the background)"
                                     : "collective-with-background (job alone)");
        progress->SetStatusCallback(MakeBoundCallback(&JobStatus, job, cfg.iters, &bg));
        progress->SetFractionCallback(MakeBoundCallback(&JobFraction, job, cfg.iters));
        progress->Watch(clos->GetHealthMonitor());
    }
    Simulator::Run();
    const bool healthy = clos->GetHealthMonitor()->ReportEndOfRun(std::cerr);

    const auto& records = job->GetRecords();
    JobResult r;
    r.ok = healthy && records.size() == cfg.iters && records.back().completed &&
           (bgLoad == 0 || bg.AllCompleted());
    if (!r.ok)
    {
        std::cerr << "collective-with-background: error: "
                  << (bgLoad > 0 && !bg.AllCompleted() ? "a background flow" : "the job")
                  << " did not complete (see above)\n";
        Simulator::Destroy();
        return r;
    }
    r.time = records.back().end - records.front().start;
    Time sum;
    for (const CollectiveRecord& c : records)
    {
        sum += c.GetDuration();
    }
    const double meanSeconds = sum.GetSeconds() / cfg.iters;
    r.busBw = double(cfg.size) / meanSeconds / 1e9 *
              CollectiveBusBwFactor(CollectiveOp::ALL_REDUCE, clos->GetNRanks());
    *bgSummary = bg.GetSummary();
    Simulator::Destroy();
    return r;
}

/// Print one row of the job table.
void
PrintJob(const std::string& label, const JobResult& r, const JobResult& alone)
{
    std::cout << "  " << std::left << std::setw(22) << label << std::right << std::fixed
              << std::setprecision(1) << std::setw(11) << r.time.GetSeconds() * 1e6
              << std::setprecision(2) << std::setw(14) << r.busBw << std::setw(10)
              << r.time.GetSeconds() / alone.time.GetSeconds() << "x\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    JobConfig cfg;
    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "Leaf switches, >= 1", cfg.leaves, 1);
    cmd.AddValue("hosts-per-leaf",
                 "Hosts under each leaf, >= 1 (>= 2 hosts in all)",
                 cfg.hostsPerLeaf,
                 1);
    cmd.AddValue("spines", "Spine switches, >= 1", cfg.spines, 1);
    cmd.AddRate("host-rate", "Host link rate", cfg.hostRate);
    cmd.AddRate("fabric-rate", "Leaf-spine link rate", cfg.fabricRate);
    cmd.AddBytes("size", "AllReduce size in bytes, a multiple of 4 (float), >= 4", cfg.size, 4);
    cmd.AddValue("iters", "AllReduces of the job, back to back, >= 1", cfg.iters, 1);
    cmd.AddValue("channels", "Rings in parallel, >= 1", cfg.channels, 1);
    cmd.AddValue("bg-load",
                 "Background load, fraction of each host link, [0, 1]; 0 = none",
                 cfg.bgLoad);
    cmd.AddValue("cdf",
                 "Background flow sizes: websearch, fb-hadoop, alistorage or a CDF file",
                 cfg.cdf);
    cmd.AddValue("cc", "Congestion control: dcqcn, none, dctcp, timely, swift, hpcc", cfg.cc);
    cmd.AddSeed(cfg.seed, "Random seed (arrivals, sizes, hosts, ECMP)");
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(cfg.leaves * cfg.hostsPerLeaf < 2,
                          "--leaves=" << cfg.leaves << " --hosts-per-leaf=" << cfg.hostsPerLeaf
                                      << " --spines=" << cfg.spines
                                      << " are invalid; each must be >= 1, with >= 2 hosts in "
                                         "all");
    FABRIC_INPUT_ERROR_IF(cfg.size % 4 != 0,
                          "--size=" << cfg.size
                                    << " is invalid; valid sizes are multiples of 4 >= 4");
    FABRIC_INPUT_ERROR_IF(!(cfg.bgLoad >= 0 && cfg.bgLoad <= 1),
                          "--bg-load=" << cfg.bgLoad << " is invalid; valid range is [0, 1]");
    FABRIC_INPUT_ERROR_IF(cfg.bgLoad == 0 && cmd.IsGiven("cdf"),
                          "--cdf applies to the background only; --bg-load=0 runs none");
    const auto shipped = FlowSizeCdf::GetShippedNames();
    cfg.sizes = std::find(shipped.begin(), shipped.end(), cfg.cdf) != shipped.end()
                    ? FlowSizeCdf::LoadShipped(cfg.cdf)
                    : FlowSizeCdf::Load(cfg.cdf); // an input error naming a bad file
    RoceNicHelper().SetCongestionControl(cfg.cc); // an input error naming an unknown one

    const uint32_t hosts = cfg.leaves * cfg.hostsPerLeaf;
    std::cout << "collective-with-background: " << hosts << " hosts (" << cfg.leaves << " leaves x "
              << cfg.hostsPerLeaf << ", " << cfg.spines << " spines), " << cfg.hostRate
              << " hosts, " << cfg.fabricRate << " uplinks, cc " << cfg.cc
              << "\n  job: ring AllReduce of " << cfg.size << " B over " << hosts << " ranks, "
              << cfg.iters << " iterations, " << cfg.channels << " channel(s)\n";
    FlowFctSummary none;
    const JobResult alone = Run(cfg, 0, &none, cmd.IsQuiet());
    if (!alone.ok)
    {
        return 1;
    }
    std::cout << "  " << std::left << std::setw(22) << "job" << std::right << std::setw(11)
              << "time (us)" << std::setw(14) << "busbw (GB/s)" << std::setw(11) << "vs alone"
              << '\n';
    PrintJob("alone", alone, alone);
    if (cfg.bgLoad == 0)
    {
        return 0;
    }
    FlowFctSummary bg;
    const JobResult beside = Run(cfg, cfg.bgLoad, &bg, cmd.IsQuiet());
    if (!beside.ok)
    {
        return 1;
    }
    std::ostringstream label;
    label << "beside " << cfg.bgLoad * 100 << " % " << cfg.cdf;
    PrintJob(label.str(), beside, alone);

    std::cout << "background: " << bg.GetFlows() << " " << cfg.cdf << " flows (" << bg.GetFailed()
              << " failed) while the job ran, goodput " << std::setprecision(2)
              << bg.GetGoodputBps() / 1e9 << " Gb/s\n  FCT slowdown per flow size (bytes):\n"
              << std::setw(24) << "size" << std::setw(7) << "flows" << std::setw(9) << "median"
              << std::setw(9) << "p95" << std::setw(9) << "p99" << '\n';
    std::vector<FlowFctBucketStats> rows = bg.GetBuckets();
    rows.push_back(bg.GetOverall());
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        const FlowFctBucketStats& b = rows[i];
        const std::string hi = b.hiBytes == UINT64_MAX ? "inf" : std::to_string(b.hiBytes);
        std::cout << std::setw(24)
                  << (i + 1 == rows.size() ? "all" : std::to_string(b.loBytes) + ".." + hi)
                  << std::setw(7) << b.flows;
        if (b.flows == 0) // empty: no statistics, not 0
        {
            std::cout << std::setw(9) << "-" << std::setw(9) << "-" << std::setw(9) << "-" << '\n';
            continue;
        }
        std::cout << std::setw(9) << b.medianSlowdown << std::setw(9) << b.p95Slowdown
                  << std::setw(9) << b.p99Slowdown << '\n';
    }
    if (bg.GetFlows() == 0)
    {
        std::cerr << "collective-with-background: warning: no background flow ran while the job "
                     "ran (the comparison shows the job alone twice); raise --bg-load or use "
                     "smaller --cdf sizes\n";
    }
    return 0;
}
