/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric example: the congestion-control researcher's workflow. Poisson flows drawn from a
 * published flow-size CDF at a target load run over RoCEv2 (or, --transport=uet, Ultra
 * Ethernet) on a two-tier Clos of plain hosts;
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
 *   ./cc-workload --transport=uet --uet-cc=nscc --ev-strategy=reps
 *   ./cc-workload --cc=none --timeline=none-timeline.csv   (queues and PFC pauses over time)
 *   ./cc-workload --fault=link-down:leaf3-spine1@2ms --convergence-delay=1ms --fault-log=f.csv
 *   ./cc-workload --monitor=mon.csv --monitor-probes=0-127,64-1   (production-like telemetry:
 *                                                PFC pause time and storms, buffers, ECN/CNP,
 *                                                drops by reason, per-QP OOS and local ACK
 *                                                timeouts, latency probes; tools/plots/
 *                                                plot_fabric_monitor.py draws the timeline)
 *   ./cc-workload --flows=flows.txt --cc=hpcc   (replay a flow list: "src dst size_bytes start_ns"
 *                                                per line; tools/flowtxt_to_flowlist.py converts
 *                                                the HPCC-lineage flow.txt)
 *
 * One run across MPI processes (a build with MPI, tools/ai-fabric.sh mpi-build):
 * `mpirun -np 2 ns3.48-cc-workload --order=causal --transport=uet ...` (or RoCE with
 * --qp-numbering=per-peer) splits the Clos by leaf groups; each process posts its own hosts'
 * flows, and process 0 writes the sequential run's table and files (--fct rows in the order a
 * sequential run finishes them), the same bytes as one process with the same flags.
 * --monitor needs --monitor-delay and --timeline needs --timeline-delay of at least the
 * lookahead across processes (a sequential run with the same delays writes the same rows).
 *
 * --seed sets ns-3's seed and --RngRun its run number (both honoured: tools/sweep.py's
 * --RngRun={seed} gives independent replications, ECMP placement included). Input errors end
 * the run with status 2 and one line; a run in which no flow ran ends with status 1 (an empty
 * summary is not a zero one: empty buckets print "-" and are blank in --summary). Runs longer
 * than a second report progress on stderr (--quiet: none).
 *
 * Every flag is an attribute of ClosWorkloadHelper (--leaves is
 * --ns3::ClosWorkloadHelper::Leaves, ...); anything else is set with --ns3::Class::Attribute,
 * e.g. --ns3::DcqcnCongestionOps::Gd=4.
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// Writes each finished flow as a CSV row.
void
WriteRow(std::ostream* os, const FlowFctRecord& r)
{
    FlowFctSummary::WriteRecordCsv(*os, r);
}

/// Prints one row of the slowdown table ("-" for an empty bucket: no statistics, not 0).
void
PrintRow(const std::string& label, const FlowFctBucketStats& b)
{
    std::cout << std::setw(22) << label << std::setw(7) << b.flows;
    if (b.flows == 0)
    {
        std::cout << std::setw(9) << "-" << std::setw(9) << "-" << std::setw(9) << "-" << '\n';
        return;
    }
    std::cout << std::fixed << std::setprecision(2) << std::setw(9) << b.medianSlowdown
              << std::setw(9) << b.p95Slowdown << std::setw(9) << b.p99Slowdown << '\n';
}

/// \return "flows <done> done / <started> started" for the progress line (across MPI
///         processes, the flows started: the others finish elsewhere)
std::string
FlowStatus(FlowWorkloadRunner* runner, double expected)
{
    std::ostringstream os;
    os << "flows ";
    if (FabricMpi::GetSize() == 1)
    {
        os << runner->GetFinished() << " done / ";
    }
    os << runner->GetStarted() << " started (of ~" << std::llround(expected) << ")";
    return os.str();
}

/// \return the fraction of the expected flows done (across MPI processes: started)
double
FlowFraction(FlowWorkloadRunner* runner, double expected)
{
    const uint64_t n = FabricMpi::GetSize() == 1 ? runner->GetFinished() : runner->GetStarted();
    return expected > 0 ? std::min(1.0, double(n) / expected) : -1;
}

/// More flows than this make a run long: said before it starts.
constexpr double MANY_FLOWS = 100000;

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint32_t seed = 1;
    std::string fctPath;
    std::string summaryPath;
    std::string countersPath;
    std::string queuesPath;
    std::string timelinePath;
    std::string faultLogPath;
    std::vector<std::string> faultSpecs;
    std::string monitorPath;
    std::string scheduler = "ns3::DelayClassScheduler";
    std::string simulator = "ns3::FabricSimulatorImpl";
    std::string order;

    FabricCommandLine cmd(__FILE__);
    FabricMpi::Enable(&argc, &argv); // MPI, when started by mpirun
    const std::string h = "ns3::ClosWorkloadHelper::";
    cmd.AddAttribute("leaves", h + "Leaves");
    cmd.AddAttribute("hosts-per-leaf", h + "HostsPerLeaf");
    cmd.AddAttribute("spines", h + "Spines");
    cmd.AddAttribute("host-rate", h + "HostLinkDataRate");
    cmd.AddAttribute("fabric-rate", h + "FabricLinkDataRate");
    cmd.AddAttribute("delay", h + "LinkDelay");
    cmd.AddAttribute("mtu", h + "Mtu");
    cmd.AddAttribute("buffer", h + "BufferSize");
    cmd.AddAttribute("cdf", h + "Workload");
    cmd.AddAttribute("load", h + "Load");
    cmd.AddAttribute("load-base", h + "LoadBase");
    cmd.AddAttribute("duration", h + "Duration");
    cmd.AddAttribute("flows", h + "FlowFile");
    cmd.AddAttribute("cc", h + "CongestionControl");
    cmd.AddAttribute("transport", h + "Transport");
    cmd.AddAttribute("uet-cc", h + "UetCongestionControl");
    cmd.AddAttribute("ev-strategy", h + "EvStrategy");
    cmd.AddAttribute("lb", h + "LoadBalancer");
    cmd.AddAttribute("dcqcn-preset", h + "DcqcnPreset");
    cmd.AddAttribute("qp-numbering", "ns3::RoceTransportPlugin::QpNumbering");
    cmd.AddAttribute("kmin", h + "Kmin");
    cmd.AddAttribute("kmax", h + "Kmax");
    cmd.AddAttribute("pmax", h + "Pmax");
    cmd.AddAttribute("spine-buffer", h + "SpineBufferSize");
    cmd.AddAttribute("spine-kmin", h + "SpineKmin");
    cmd.AddAttribute("spine-kmax", h + "SpineKmax");
    cmd.AddAttribute("spine-pmax", h + "SpinePmax");
    cmd.AddSeed(seed, "Random seed (arrivals, sizes, hosts, ECMP)");
    cmd.AddOutput("fct", "Write one CSV row per flow to this file", fctPath);
    cmd.AddOutput("summary", "Write the per-bucket summary CSV to this file", summaryPath);
    cmd.AddOutput("counters",
                  "Write the fabric's counters per tier (tier,counter,value) to this file",
                  countersPath);
    cmd.AddOutput("queues",
                  "Write switch egress queue statistics per tier (max, p50/p95/p99) to this file",
                  queuesPath);
    cmd.AddOutput("timeline",
                  "Write the switch queues and PFC activity per tier over time (every 10 us: "
                  "time_us,tier,queue_max_bytes,queue_sum_bytes,pfc_pause_frames,paused_ports) "
                  "to this file",
                  timelinePath);
    cmd.AddAttribute("timeline-delay", "ns3::ClosWorkloadHelper::TimelineDelay");
    FaultHelper::AddCommandLine(cmd, faultSpecs);
    cmd.AddOutput("fault-log",
                  "Write every change the faults made (time_ns,kind,target,detail) to this file",
                  faultLogPath);
    FabricMonitor::AddCommandLine(cmd, monitorPath);
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
    const bool writer = FabricMpi::GetSystemId() == 0; // the process that writes the outputs

    auto exp = CreateObject<ClosWorkloadHelper>();
    // Flags that do not apply to this run are refused, not ignored.
    StringValue transport;
    exp->GetAttribute("Transport", transport);
    const bool uet = transport.Get() == "uet";
    for (const char* f : {"uet-cc", "ev-strategy"})
    {
        FABRIC_INPUT_ERROR_IF(!uet && cmd.IsGiven(f),
                              "--" << f << " applies to --transport=uet only; this run is "
                                   << "RoCE (--transport=" << transport.Get() << ")");
    }
    for (const char* f : {"cc",
                          "dcqcn-preset",
                          "qp-numbering",
                          "kmin",
                          "kmax",
                          "pmax",
                          "spine-kmin",
                          "spine-kmax",
                          "spine-pmax"})
    {
        FABRIC_INPUT_ERROR_IF(uet && cmd.IsGiven(f),
                              "--" << f << " applies to --transport=roce only (UET runs "
                                   << "--uet-cc on its own ECN thresholds); this run is UET");
    }
    for (const char* f : {"cdf", "load", "load-base", "duration"})
    {
        FABRIC_INPUT_ERROR_IF(cmd.IsGiven("flows") && cmd.IsGiven(f),
                              "--" << f << " does not apply with --flows (the flow list gives "
                                   << "every flow's size and start); give one of them");
    }
    exp->Install(); // an input error naming a bad value
    Ptr<FaultHelper> faults = CreateObject<FaultHelper>();
    for (const std::string& f : faultSpecs)
    {
        faults->Add(f);
    }
    faults->Install(exp->GetTopology()); // an input error naming a bad node or cable
    std::unique_ptr<std::ostream> timeline;
    if (!timelinePath.empty())
    {
        if (FabricMpi::GetSize() > 1)
        {
            TimeValue delay;
            exp->GetAttribute("TimelineDelay", delay);
            const Time lookahead = exp->GetTopology()->GetPartition().GetLookahead();
            FABRIC_INPUT_ERROR_IF(delay.Get() < lookahead,
                                  "--timeline-delay=" << delay.Get().As(Time::NS) << " across "
                                                      << FabricMpi::GetSize()
                                                      << " MPI processes is below the lookahead "
                                                         "between them ("
                                                      << lookahead.As(Time::NS)
                                                      << "); --timeline needs at least that");
        }
        if (writer)
        {
            auto file = std::make_unique<std::ofstream>(timelinePath);
            FABRIC_INPUT_ERROR_IF(!*file,
                                  "--timeline=" << timelinePath
                                                << ": cannot open the file for writing");
            timeline = std::move(file);
        }
        else
        {
            timeline = std::make_unique<std::ostringstream>(); // process 0 writes the rows
        }
        exp->SetTimelineStream(timeline.get()); // rows streamed (across processes: gathered)
    }
    // Opt-in monitoring (--monitor=FILE): nothing is created or scheduled without it.
    Ptr<FabricMonitor> monitor = FabricMonitor::InstallIfEnabled(exp->GetTopology(), monitorPath);
    if (writer)
    {
        exp->GetTopology()->Print(std::cout);
        faults->Print(std::cout);
        if (FabricMpi::GetSize() > 1)
        {
            const FabricPartition& part = exp->GetTopology()->GetPartition();
            std::cout << "processes " << FabricMpi::GetSize()
                      << " (partition: " << part.GetCrossingCables()
                      << " cables between processes, lookahead "
                      << part.GetLookahead().GetNanoSeconds() << " ns)\n";
        }
    }
    FlowWorkloadRunner& runner = exp->GetRunner();
    std::unique_ptr<std::ofstream> fct;
    if (!fctPath.empty() && writer)
    {
        fct = std::make_unique<std::ofstream>(fctPath);
        FABRIC_INPUT_ERROR_IF(!*fct, "--fct=" << fctPath << ": cannot open the file for writing");
        FlowFctSummary::WriteRecordCsvHeader(*fct);
        runner.SetRecordCallback(
            MakeBoundCallback(&WriteRow, static_cast<std::ostream*>(fct.get())));
    }
    const double expected = exp->GetExpectedFlows();
    if (expected > MANY_FLOWS && writer)
    {
        std::cerr << "cc-workload: warning: this workload will start about "
                  << std::llround(expected) << " flows"
                  << (cmd.IsGiven("flows") ? " (the flow list)"
                                           : " (hosts x load / mean size "
                                             "x --duration)")
                  << "; a run that large may take long (progress below, --quiet hides it)\n";
    }
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet() && writer)
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("cc-workload");
        progress->SetStatusCallback(MakeBoundCallback(&FlowStatus, &runner, expected));
        progress->SetFractionCallback(MakeBoundCallback(&FlowFraction, &runner, expected));
        progress->Watch(exp->GetTopology()->GetHealthMonitor());
    }
    exp->Start();
    const auto run0 = std::chrono::steady_clock::now();
    Simulator::Run();
    FabricMpi::ReportProcess(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count(),
        exp->GetTopology()->GetObject<PfcRemoteExchange>());
    const bool healthy =
        FabricMpi::Sum(exp->GetTopology()->GetHealthMonitor()->ReportEndOfRun(std::cerr) ? 0 : 1) ==
        0;
    exp->Gather();    // across processes: every flow and queue sample at process 0
    faults->Gather(); // and the fault log's counts summed
    if (monitor)
    {
        monitor->Gather(); // and the monitor's rows, in the sequential order
    }
    FabricAggregateCounters counters = exp->GetTopology()->GetAggregateCounters();
    counters.Gather();
    if (!writer)
    {
        Simulator::Destroy();
        FabricMpi::Disable();
        return 0; // process 0 writes the outputs and gives the exit status
    }

    const FlowFctSummary& s = runner.GetSummary();
    StringValue cc;
    exp->GetAttribute("CongestionControl", cc);
    std::string label = cc.Get();
    if (runner.GetTransport() == "uet")
    {
        StringValue uetCc;
        StringValue ev;
        exp->GetAttribute("UetCongestionControl", uetCc);
        exp->GetAttribute("EvStrategy", ev);
        label = uetCc.Get() + " over UET (EV " + ev.Get() + ")";
    }
    std::cout << "workload: " << s.GetFlows() << " flows (load base "
              << exp->GetLoadBaseRate().GetBitRate() / 1e9 << " Gb/s per host), cc " << label
              << ": " << s.GetFailed() << " failed, goodput " << std::fixed << std::setprecision(2)
              << s.GetGoodputBps() / 1e9 << " Gb/s, at most " << runner.GetMaxActive()
              << " flows in flight";
    if (runner.GetTransport() == "roce")
    {
        std::cout << ", " << runner.GetQpPairs() << " QP pairs";
    }
    std::cout << '\n';
    std::cout << "FCT slowdown per flow size (bytes):\n"
              << std::setw(22) << "size" << std::setw(7) << "flows" << std::setw(9) << "median"
              << std::setw(9) << "p95" << std::setw(9) << "p99" << '\n';
    for (const FlowFctBucketStats& b : s.GetBuckets())
    {
        const std::string hi = b.hiBytes == UINT64_MAX ? "inf" : std::to_string(b.hiBytes);
        PrintRow(std::to_string(b.loBytes) + ".." + hi, b);
    }
    PrintRow("all", s.GetOverall());
    // PFC, ECN, CNPs and drops per tier (host, leaf, spine).
    std::cout << "fabric:";
    for (FabricNodeType tier : {FabricNodeType::GPU, FabricNodeType::LEAF, FabricNodeType::SPINE})
    {
        const FabricTierCounters& c = counters.Get(tier);
        std::cout << ' ' << FabricAggregateCounters::GetTierName(tier) << " pauses " << c.pfcPauseTx
                  << " (paused " << c.pausedTime.As(Time::US) << "), ECN marks " << c.ecnMarks
                  << ';';
    }
    std::cout << " CNPs " << counters.total.cnpTx << ", lossless drops "
              << counters.total.losslessDrops << ", drops "
              << counters.total.GetSwitchDrops() + counters.total.GetPortDrops() +
                     counters.total.GetNicDrops()
              << '\n';
    Ptr<SwitchQueueSampler> queues = exp->GetQueueSampler();
    std::cout << "switch egress queues (bytes, sampled every 10 us):";
    for (const std::string& tier : queues->GetTiers())
    {
        const SwitchQueueStats q = queues->GetStats(tier);
        std::cout << ' ' << tier << " p50 " << q.p50 << " p99 " << q.p99 << " max " << q.max << ';';
    }
    std::cout << '\n';
    if (!queuesPath.empty())
    {
        std::ofstream out(queuesPath);
        FABRIC_INPUT_ERROR_IF(!out, "--queues=" << queuesPath << ": cannot open the file");
        queues->WriteCsv(out);
    }
    if (!faultLogPath.empty())
    {
        faults->WriteCsv(faultLogPath);
    }
    if (!countersPath.empty())
    {
        std::ofstream out(countersPath);
        FABRIC_INPUT_ERROR_IF(!out, "--counters=" << countersPath << ": cannot open the file");
        counters.Print(out);
    }
    if (!summaryPath.empty())
    {
        std::ofstream out(summaryPath);
        FABRIC_INPUT_ERROR_IF(!out,
                              "--summary=" << summaryPath << ": cannot open the file for writing");
        s.WriteCsv(out);
    }
    uint32_t empty = 0;
    for (const FlowFctBucketStats& b : s.GetBuckets())
    {
        empty += b.flows == 0;
    }
    if (s.GetFlows() == 0)
    {
        std::cerr << "cc-workload: error: no flow ran (the workload started " << runner.GetStarted()
                  << " flows): the summary is empty, not zero; raise --duration or --load, or "
                     "check the CDF's sizes\n";
    }
    else if (empty > 0)
    {
        std::cerr << "cc-workload: warning: " << empty << " of " << s.GetBuckets().size()
                  << " size buckets have no flow (\"-\" above, blank in --summary)\n";
    }
    Simulator::Destroy();
    FabricMpi::Disable();
    return healthy && runner.AllCompleted() && s.GetFlows() > 0 ? 0 : 1;
}
