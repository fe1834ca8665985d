/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rail-allreduce: the main job. An nccl-tests-style sweep of a collective on a rail-optimized
 * RoCEv2 cluster (DGX H100-like servers, DCQCN + PFC on priority 3), with the fabric's view.
 *
 * Default: "life of a training job": 4 servers x 8 GPUs = 32 ranks, one leaf per rail,
 * spines, 400 Gb/s NICs, NVLink 370.8 GB/s per direction (NVLS on the NVSwitches), ECN
 * thresholds scaled to 400 Gb/s, AllReduce from 1 MiB to 1 GiB in x4 steps with the algorithm
 * and protocol NCCL's tuner picks per size, one warm-up iteration excluded (as nccl-tests: at
 * the largest size, then at the smallest, before the sweep; --warmup-every-size also warms up
 * before every size).
 *
 * Outputs (prefix --prefix, default rail-allreduce):
 *   stdout and <prefix>-nccl.txt   the nccl-tests table (size count type redop root time
 *                                  algbw busbw #wrong, out-of-place then in-place)
 *   <prefix>-results.csv           op,bytes,ranks,time_us,algbw_GBps,busbw_GBps,
 *                                  measured_busbw_GBps (from --measured, empty otherwise)
 *   <prefix>-fabric.csv            per size and element (rail leaf, spine, NVSwitch tier):
 *                                  utilization (all ports), active_utilization (ports that
 *                                  sent anything), max queue, PFC pauses, ECN marks, drops
 *   <prefix>-nic.csv               per size: CNPs, retransmissions, timeouts, NAKs
 * With --plot-data (tools/ai-fabric.sh main sets it), for the plot script:
 *   <prefix>-links.csv             per size and link direction (switch type > peer type,
 *                                  e.g. leaf>gpu): ports, ports that sent anything, mean
 *                                  utilization of those, busiest port's utilization
 *   <prefix>-config.csv            key,value: the configuration, the NIC bottleneck of busbw
 *                                  and the --measured file
 * --transport=uet runs the same job over Ultra Ethernet instead (FabricTransportConfig: UetNics
 * on a lossy priority trimmed at 1 BDP, --uet-cc=nscc|none, --ev-strategy=reps|single|
 * oblivious|bitmap|mixed); the table keeps its shape, the fabric CSV gets a trims column and
 * the NIC CSV UET's counters (trim NACKs, NACKs, retransmissions, RTOs, CE received). The
 * default (RoCE) output is unchanged.
 * --fault=SPEC (repeatable; FaultHelper) injects faults, e.g. --fault=link-down:leaf3-spine1@2ms;
 * --convergence-delay=200ms lets routing converge that long after each change. The faults are
 * listed in the run header and every change is logged in <prefix>-faults.csv
 * (time_ns,kind,target,detail).
 * --monitor=FILE (FabricMonitor) writes production-like samples (PFC pause time and storms,
 * buffers, ECN/CNP, drops by reason, per-QP OOS and local ACK timeouts; --monitor-interval,
 * --monitor-probes=0-9,... for latency probes) as one tidy CSV for
 * tools/plots/plot_fabric_monitor.py; off by default. Across MPI processes it needs
 * --monitor-delay of at least the lookahead (a sequential run with the same delay writes the
 * same rows); latency probes run sequentially only.
 * --measured=FILE reads a real all_reduce_perf log (nccl-tests text format) and puts its
 * busbw next to the simulated one. tools/plots/plot_rail_allreduce.py draws the figures (with
 * the --plot-data files when present: the bottleneck, a caption, and utilization over busy
 * ports only, so that idle ports do not dilute busy ones).
 */

#include "rail-allreduce-view.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// Command-line configuration.
struct SweepConfig
{
    uint32_t servers{4};
    uint32_t gpusPerServer{8};
    uint32_t spines{0};
    double oversubscription{1.0};
    std::string topology{"rail-optimized"};
    std::string cc{"dcqcn"};
    std::string transport{"roce"};
    std::string uetCc{"nscc"};
    std::string evStrategy{"reps"};
    std::string lb{"ecmp"};
    std::string op{"allreduce"};
    std::string algo{"auto"};
    std::string proto{"auto"};
    uint32_t channels{0};
    uint32_t qpsPerConnection{1};
    uint32_t mtu{4096};
    uint32_t seed{1};
    uint64_t minBytes{1 << 20};
    uint64_t maxBytes{1ull << 30};
    uint32_t factor{4};
    uint32_t warmupIters{1};
    bool warmupEverySize{false};
    uint32_t iters{1};
    std::string measured;
    std::string prefix{"rail-allreduce"};
    bool plotData{false};
    bool pcap{false};
    std::string scheduler{"ns3::DelayClassScheduler"};
    std::string simulator{"ns3::FabricSimulatorImpl"};
    std::vector<std::string> faults;
    std::string monitor; //!< --monitor: FabricMonitor CSV ("" = off)
    Time barrier;        //!< --barrier: from a collective's end to the next one's start
    std::string sendCompletion{"delivery"}; //!< --send-completion
    std::string order; //!< --order: causal | fast ("" = --simulator and --scheduler)
};

CollectiveOp
ParseOp(const std::string& op)
{
    static const std::map<std::string, CollectiveOp> ops = {
        {"allreduce", CollectiveOp::ALL_REDUCE},
        {"allgather", CollectiveOp::ALL_GATHER},
        {"reducescatter", CollectiveOp::REDUCE_SCATTER},
        {"alltoall", CollectiveOp::ALL_TO_ALL}};
    auto it = ops.find(op);
    FABRIC_INPUT_ERROR_IF(it == ops.end(),
                          "--op=" << op
                                  << " is invalid; use allreduce, allgather, reducescatter or "
                                     "alltoall");
    return it->second;
}

/**
 * \param cfg the configuration
 * \return the transport set-up of --transport, --cc, --uet-cc and --ev-strategy
 */
Ptr<FabricTransportConfig>
MakeTransportConfig(const SweepConfig& cfg)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue(cfg.transport));
    if (cfg.transport == "uet")
    {
        tc->SetTransportAttribute("CongestionControl", StringValue(cfg.uetCc));
        tc->SetTransportAttribute("EvStrategy", StringValue(cfg.evStrategy));
    }
    else
    {
        tc->SetTransportAttribute("CongestionControl", StringValue(cfg.cc));
    }
    return tc;
}

Ptr<FabricTopologyHelper>
BuildFabric(const SweepConfig& cfg, Ptr<FabricTransportConfig> tc)
{
    Ptr<FabricTopologyHelper> topo;
    if (cfg.topology == "rail-optimized")
    {
        topo = CreateObject<RailOptimizedTopologyHelper>();
        topo->SetAttribute("Spines", UintegerValue(cfg.spines));
        topo->SetAttribute("Oversubscription", DoubleValue(cfg.oversubscription));
    }
    else if (cfg.topology == "rail-only")
    {
        topo = CreateObject<RailOnlyTopologyHelper>();
    }
    else if (cfg.topology == "clos")
    {
        topo = CreateObject<ClosTopologyHelper>();
        topo->SetAttribute("Oversubscription", DoubleValue(cfg.oversubscription));
        if (cfg.spines)
        {
            topo->SetAttribute("Spines", UintegerValue(cfg.spines));
        }
    }
    else
    {
        FABRIC_INPUT_ERROR("--topology=" << cfg.topology
                                         << " is invalid; use rail-optimized, rail-only or clos");
    }
    topo->SetAttribute("Servers", UintegerValue(cfg.servers));
    topo->SetAttribute("GpusPerServer", UintegerValue(cfg.gpusPerServer));
    topo->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(cfg.mtu));
    topo->GetUetNicHelper().SetNicAttribute("Mtu", UintegerValue(cfg.mtu));
    topo->GetSwitchHelper().SetLoadBalancerByName(cfg.lb, "--lb");
    tc->Configure(topo); // RoCE: --cc on the RoceNics; UET: NICs, trimming, ECN class
    topo->Install();
    tc->Finish(topo); // UET: queue and ECN sizes from the BDP, RtoMin, NSCC's BaseRtt
    return topo;
}

/**
 * \param cfg the configuration
 * \return the nccl-tests sweep of --min-bytes, --max-bytes, --factor, --warmup-iters,
 *         --warmup-every-size, --iters and --barrier
 */
Ptr<CollectiveSweep>
MakeSweep(const SweepConfig& cfg)
{
    auto sweep = CreateObject<CollectiveSweep>();
    sweep->SetAttribute("MinBytes", UintegerValue(cfg.minBytes));
    sweep->SetAttribute("MaxBytes", UintegerValue(cfg.maxBytes));
    sweep->SetAttribute("Factor", UintegerValue(cfg.factor));
    sweep->SetAttribute("WarmupIters", UintegerValue(cfg.warmupIters));
    sweep->SetAttribute("WarmupEverySize", BooleanValue(cfg.warmupEverySize));
    sweep->SetAttribute("Iters", UintegerValue(cfg.iters));
    sweep->SetAttribute("Barrier", TimeValue(cfg.barrier));
    return sweep;
}

/// \return the sweep's sizes: --min-bytes, x --factor, up to --max-bytes
std::vector<uint64_t>
SweepSizes(const SweepConfig& cfg)
{
    return MakeSweep(cfg)->GetSizes();
}

void
WriteResults(const SweepConfig& cfg,
             uint32_t ranks,
             const std::vector<CollectiveSweep::SizeResult>& res)
{
    std::map<uint64_t, double> measured;
    if (!cfg.measured.empty())
    {
        for (const auto& row : NcclTestsFormat::ParseFileOrAbort(cfg.measured))
        {
            measured[row.sizeBytes] = row.outOfPlace.busbwGBs;
        }
    }
    double factor = NcclTestsFormat::BusBwFactor(cfg.op, ranks);
    std::vector<NcclTestsRow> rows;
    std::ofstream csv(cfg.prefix + "-results.csv");
    FABRIC_INPUT_ERROR_IF(!csv, "cannot write " << cfg.prefix << "-results.csv");
    csv << "op,bytes,ranks,time_us,algbw_GBps,busbw_GBps,measured_busbw_GBps,algorithm,"
           "protocol,channels,nccl_predicted_us\n";
    for (const auto& sr : res)
    {
        const uint64_t bytes = sr.bytes;
        const Time t = sr.time;
        NcclTestsRow row;
        row.sizeBytes = bytes;
        row.count = bytes / 4;
        row.type = "float";
        row.redop = cfg.op == "allreduce" || cfg.op == "reducescatter" ? "sum" : "none";
        row.root = -1;
        row.outOfPlace.timeUs = t.GetSeconds() * 1e6;
        row.outOfPlace.algbwGBs = bytes / t.GetSeconds() / 1e9;
        row.outOfPlace.busbwGBs = row.outOfPlace.algbwGBs * factor;
        row.outOfPlace.wrong = -1;    // no data is moved, nothing to validate
        row.inPlace = row.outOfPlace; // same traffic on the wire in the model
        row.comment = sr.algorithm + "/" + sr.protocol + " " + std::to_string(sr.channels) + "ch";
        rows.push_back(row);
        csv << cfg.op << "," << bytes << "," << ranks << "," << row.outOfPlace.timeUs << ","
            << row.outOfPlace.algbwGBs << "," << row.outOfPlace.busbwGBs << ",";
        if (measured.count(bytes))
        {
            csv << measured[bytes];
        }
        csv << "," << sr.algorithm << "," << sr.protocol << "," << sr.channels << ","
            << sr.predictedUs << "\n";
    }
    std::ofstream txt(cfg.prefix + "-nccl.txt");
    for (std::ostream* os :
         {static_cast<std::ostream*>(&std::cout), static_cast<std::ostream*>(&txt)})
    {
        *os << "# ai-fabric simulation: " << cfg.op << " (" << cfg.algo << "), " << ranks
            << " ranks = " << cfg.servers << " servers x " << cfg.gpusPerServer << " GPUs, "
            << cfg.topology << ", ";
        if (cfg.transport == "uet")
        {
            *os << "transport=uet, cc=" << cfg.uetCc << ", ev=" << cfg.evStrategy;
        }
        else
        {
            *os << "cc=" << cfg.cc;
        }
        if (cfg.lb != "ecmp")
        {
            *os << ", lb=" << cfg.lb;
        }
        *os << ", algo " << cfg.algo << ", proto " << cfg.proto << ", channels "
            << (cfg.channels ? std::to_string(cfg.channels) : std::string("auto")) << "\n";
        NcclTestsFormat::Write(*os, rows);
    }
}

/**
 * Write <prefix>-config.csv (--plot-data): the run's configuration as key,value rows, and the
 * NIC bottleneck of busbw: every channel's ring crosses each server boundary once through one
 * NIC, so busbw <= min(channels, NICs per server) x a NIC's payload rate (an MTU of payload in
 * MTU + 82 bytes on the wire with RoCE, MTU + 122 with UET). Left empty where it does not apply
 * (one server, AlltoAll). With --transport=uet it adds the rows transport and ev_strategy.
 * \param cfg the configuration
 * \param topo the fabric
 */
void
WriteConfig(const SweepConfig& cfg, Ptr<FabricTopologyHelper> topo)
{
    std::ofstream out(cfg.prefix + "-config.csv");
    FABRIC_INPUT_ERROR_IF(!out, "cannot write " << cfg.prefix << "-config.csv");
    uint64_t nicBps = topo->GetLinkRate(FabricLinkTier::GPU_LEAF).GetBitRate();
    uint32_t nics = topo->GetGpusPerServer() * topo->GetNicPortsPerGpu();
    uint32_t used = cfg.channels ? std::min(cfg.channels, nics) : nics;
    const bool uet = cfg.transport == "uet";
    // Wire overhead of a full packet: RoCE 82 B, UET 122 B (PDS 12 + SES 44 instead of BTH 12
    // + ICRC 4), Ethernet, preamble and gap included.
    double payload = double(cfg.mtu) / (cfg.mtu + (uet ? 122 : 82));
    out << "key,value\n"
        << "op," << cfg.op << "\n"
        << "algo," << cfg.algo << "\n"
        << "proto," << cfg.proto << "\n"
        << "ranks," << topo->GetNRanks() << "\n"
        << "servers," << cfg.servers << "\n"
        << "gpus_per_server," << cfg.gpusPerServer << "\n"
        << "topology," << cfg.topology << "\n"
        << "cc," << (uet ? cfg.uetCc : cfg.cc) << "\n"
        << "channels," << cfg.channels << "\n"
        << "nics_per_server," << nics << "\n"
        << "nic_rate_bps," << nicBps << "\n"
        << "mtu," << cfg.mtu << "\n"
        << "bound_busbw_GBps,";
    if (cfg.servers > 1 && cfg.op != "alltoall")
    {
        out << used * double(nicBps) / 8 * payload / 1e9;
    }
    out << "\nbound_nics," << used << "\n"
        << "measured," << cfg.measured << "\n";
    if (uet)
    {
        out << "transport,uet\n"
            << "ev_strategy," << cfg.evStrategy << "\n";
    }
}

} // namespace

/**
 * Check the --measured log against the run before it starts: a log with a size twice is
 * ambiguous (refused; nccl-tests' rows of size 0 may repeat), a log with none of the sweep's sizes
 * compares nothing (refused), a log of another rank count is compared but said so on stderr. \param
 * cfg the configuration (measured non-empty, readable) \param ranks the run's rank count
 */
void
CheckMeasured(const SweepConfig& cfg, uint32_t ranks)
{
    std::vector<NcclTestsRow> rows = NcclTestsFormat::ParseFileOrAbort(cfg.measured);
    std::map<uint64_t, uint32_t> seen;
    for (const auto& r : rows)
    {
        // nccl-tests prints size 0 for every size below one element per rank (AllGather,
        // ReduceScatter): those rows say nothing and may repeat.
        FABRIC_INPUT_ERROR_IF(r.sizeBytes > 0 && ++seen[r.sizeBytes] == 2,
                              "--measured=" << cfg.measured << " has size " << r.sizeBytes
                                            << " B twice; give a log of one sweep");
    }
    uint32_t matching = 0;
    for (uint64_t s : SweepSizes(cfg))
    {
        matching += seen.count(s);
    }
    FABRIC_INPUT_ERROR_IF(matching == 0,
                          "--measured=" << cfg.measured
                                        << " has none of the sweep's sizes (--min-bytes="
                                        << cfg.minBytes << " .. --max-bytes=" << cfg.maxBytes
                                        << " x" << cfg.factor << "): nothing to compare");
    // nccl-tests lists one "#  Rank N ..." line per rank in its header.
    std::ifstream in(cfg.measured);
    uint32_t logRanks = 0;
    for (std::string line; std::getline(in, line);)
    {
        std::istringstream words(line);
        std::string hash;
        std::string word;
        if ((words >> hash >> word) && hash == "#" && word == "Rank")
        {
            ++logRanks;
        }
    }
    if (logRanks > 0 && logRanks != ranks)
    {
        std::cerr << "rail-allreduce: warning: --measured=" << cfg.measured << " was measured on "
                  << logRanks << " ranks, this run has " << ranks << "; busbw is compared anyway\n";
    }
}

/**
 * \brief Write the fabric view's CSVs: <prefix>-fabric.csv, -nic.csv and, with --plot-data,
 *        -links.csv.
 * \param cfg the configuration
 * \param view the view (merged over processes)
 */
void
WriteViews(const SweepConfig& cfg, const RailAllreduceView& view)
{
    std::ofstream fabric(cfg.prefix + "-fabric.csv");
    std::ofstream nic(cfg.prefix + "-nic.csv");
    FABRIC_INPUT_ERROR_IF(!fabric || !nic, "cannot write outputs with prefix " << cfg.prefix);
    view.WriteFabric(fabric);
    view.WriteNic(nic);
    if (cfg.plotData)
    {
        std::ofstream links(cfg.prefix + "-links.csv");
        FABRIC_INPUT_ERROR_IF(!links, "cannot write " << cfg.prefix << "-links.csv");
        view.WriteLinks(links);
    }
}

/// Sizes of the sweep done so far, for the progress line.
double
SweepFraction(CollectiveSweep* sweep, std::size_t total)
{
    return total ? double(sweep->GetSizesDone()) / total : 1.0;
}

/// A size's measured iterations start: the fabric view's snapshot.
void
SizeStarted(RailAllreduceView* view, uint64_t /* bytes */)
{
    view->Snapshot();
}

/// A size's measured iterations finished: the fabric view's counts, and a line at process 0.
void
SizeFinished(RailAllreduceView* view,
             Ptr<CollectiveCommunicator> comm,
             CollectiveOp op,
             uint64_t bytes)
{
    view->Measure(bytes);
    if (FabricMpi::GetSystemId() == 0)
    {
        const CollectiveExecution exec = comm->Choose(op, bytes);
        std::clog << "  " << bytes << " B done at " << Simulator::Now().As(Time::MS) << " ("
                  << exec.algorithmName << "/" << NcclProtocolName(exec.protocol) << ", "
                  << exec.channels << " channels)\n";
    }
}

/**
 * \brief Check what a run across MPI processes needs (exit 2 naming the flag otherwise):
 *        --barrier, a send completion the sender sees, and no per-node outputs (--order:
 *        FabricMpi::SelectEngine).
 * \param cfg the configuration
 * \param cmd the command line (which flags were given)
 */
void
CheckProcesses(const SweepConfig& cfg, const FabricCommandLine& cmd)
{
    if (FabricMpi::GetSize() == 1)
    {
        return;
    }
    const std::string across = " across " + std::to_string(FabricMpi::GetSize()) + " MPI processes";
    FABRIC_INPUT_ERROR_IF(!cfg.barrier.IsStrictlyPositive(),
                          "--barrier=" << cfg.barrier.As(Time::NS) << " is invalid" << across
                                       << "; give at least the lookahead between processes "
                                          "(the smallest delay of a cable between them), e.g. "
                                          "--barrier=2us");
    FABRIC_INPUT_ERROR_IF(cfg.sendCompletion == "delivery",
                          "--send-completion=delivery is invalid"
                              << across << "; use posted or acknowledged");
}

/// Most channels NCCL runs (its MAXCHANNELS); more would only slow the simulation.
constexpr uint32_t MAX_CHANNELS = 32;

/// Largest collective size the example accepts, bytes (1 TiB; real sweeps stop at a few GiB).
constexpr uint64_t MAX_COLLECTIVE_BYTES = 1ull << 40;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    SweepConfig cfg;
    FabricCommandLine cmd(__FILE__); // from here on, input errors exit 2 with one line
    FabricMpi::Enable(&argc, &argv); // MPI, when started by mpirun
    cmd.AddValue("servers", "Servers (nodes), >= 1", cfg.servers, 1);
    cmd.AddValue("gpus-per-server", "GPUs (and rails) per server, >= 1", cfg.gpusPerServer, 1);
    cmd.AddValue("spines", "Spine switches (0 = the SuperPOD default)", cfg.spines);
    cmd.AddValue("oversubscription",
                 "Leaf downlink/uplink bandwidth ratio (>= 1)",
                 cfg.oversubscription);
    cmd.AddValue("topology", "rail-optimized | rail-only | clos", cfg.topology);
    cmd.AddValue("cc",
                 "RoCE congestion control: dcqcn | none | dctcp | timely | swift | hpcc",
                 cfg.cc);
    cmd.AddValue("transport",
                 "roce (RoCEv2, PFC on priority 3) | uet (Ultra Ethernet: lossy priority 1, "
                 "trimming, spraying)",
                 cfg.transport);
    cmd.AddValue("uet-cc",
                 "UET congestion control: nscc | rccc (receiver credit) | both (NSCC beside "
                 "RCCC) | none",
                 cfg.uetCc);
    cmd.AddValue("ev-strategy",
                 "UET entropy (path) selection: reps | single | oblivious | bitmap | mixed",
                 cfg.evStrategy);
    cmd.AddValue("lb",
                 "Switch load balancing: " + SwitchHelper::GetLoadBalancerNamesText(),
                 cfg.lb);
    cmd.AddValue("op", "allreduce | allgather | reducescatter | alltoall", cfg.op);
    cmd.AddValue("algo",
                 "Algorithm (NCCL_ALGO): auto (NCCL's tuner per size) | ring | tree | "
                 "hierarchical | nvls (one server) | nvlstree (AllReduce)",
                 cfg.algo);
    cmd.AddValue("proto",
                 "Protocol (NCCL_PROTO): auto (NCCL's tuner per size) | ll | ll128 | simple",
                 cfg.proto);
    cmd.AddValue("channels",
                 "NCCL channels (rings/trees in parallel), 0..32; 0 = as NCCL chooses per size",
                 cfg.channels,
                 0,
                 MAX_CHANNELS);
    cmd.AddValue("qps-per-connection", "QPs per connection, 1..64", cfg.qpsPerConnection, 1, 64);
    cmd.AddValue("mtu", "RoCE path MTU (256..4096)", cfg.mtu, 256, 4096);
    cmd.AddSeed(cfg.seed, "Random seed (start PSNs, ECMP, UET EVs)");
    cmd.AddBytes("min-bytes",
                 "Smallest size (nccl-tests -b)",
                 cfg.minBytes,
                 1,
                 MAX_COLLECTIVE_BYTES);
    cmd.AddBytes("max-bytes",
                 "Largest size (nccl-tests -e)",
                 cfg.maxBytes,
                 1,
                 MAX_COLLECTIVE_BYTES);
    cmd.AddValue("factor",
                 "Size multiplier between steps (nccl-tests -f), >= 2 (1 only with "
                 "--min-bytes = --max-bytes)",
                 cfg.factor,
                 1);
    cmd.AddValue("warmup-iters",
                 "Warm-up iterations at the largest then the smallest size before the sweep, "
                 "excluded (nccl-tests -w)",
                 cfg.warmupIters);
    cmd.AddValue("warmup-every-size",
                 "Also run the warm-up iterations before every size (not nccl-tests: steadier "
                 "congestion-control state per size)",
                 cfg.warmupEverySize);
    cmd.AddValue("iters", "Measured iterations per size (nccl-tests -n), >= 1", cfg.iters, 1);
    cmd.AddValue("measured", "A real nccl-tests log to compare busbw with", cfg.measured);
    cmd.AddValue("prefix", "Output file prefix", cfg.prefix);
    cmd.AddValue("plot-data",
                 "Also write <prefix>-links.csv (utilization per link direction over the ports "
                 "that carried traffic) and <prefix>-config.csv (configuration, bottleneck) for "
                 "the plot script",
                 cfg.plotData);
    cmd.AddValue("pcap", "Capture rank 0's NIC port (use with small sizes)", cfg.pcap);
    FaultHelper::AddCommandLine(cmd, cfg.faults);
    FabricMonitor::AddCommandLine(cmd, cfg.monitor);
    cmd.AddValue("barrier",
                 "From a collective's last rank finishing to the next collective's start (a host "
                 "barrier's cost; 0 = at once). A run across MPI processes needs one of at least "
                 "the lookahead between them; > 0 also opens every collective's connections when "
                 "it is enqueued (CollectiveCommunicator PreConnect, RankContext)",
                 cfg.barrier);
    cmd.AddValue("send-completion",
                 "When a rank's send completes: delivery (at the receiver) | posted (handed to "
                 "the NIC) | acknowledged (CollectiveApplication SendCompletion; across MPI "
                 "processes posted or acknowledged)",
                 cfg.sendCompletion);
    cmd.AddValue("order",
                 "Event order, instead of --simulator/--scheduler: causal (the same results "
                 "sequentially and across MPI processes) | fast; needed across processes",
                 cfg.order);
    cmd.AddValue("scheduler",
                 "ns-3 event scheduler (same results with any; ns3::MapScheduler is ns-3's "
                 "default)",
                 cfg.scheduler);
    cmd.AddValue("simulator",
                 "ns-3 simulator engine (same results with ns3::DefaultSimulatorImpl, ns-3's "
                 "default; ns3::FabricSimulatorImpl runs fewer events)",
                 cfg.simulator);
    // The DCQCN firmware preset goes in before the attribute settings, so that explicit
    // --ns3::... values win over it.
    cmd.Parse(argc, argv, [&cfg]() {
        FabricTransportConfig::CheckTransport(cfg.transport, "--transport");
        RoceTransportPlugin::CheckCongestionControlName(cfg.cc, "--cc");
        if (cfg.transport != "uet" && cfg.cc == "dcqcn")
        {
            DcqcnCongestionOps::SetPresetDefaults("firmware");
        }
    });
    CheckProcesses(cfg, cmd);
    FabricMpi::SelectEngine(cmd, cfg.order, cfg.simulator, cfg.scheduler);
    FABRIC_INPUT_ERROR_IF(cfg.barrier.IsStrictlyNegative(),
                          "--barrier=" << cfg.barrier.As(Time::NS) << " is invalid; need >= 0");
    static const std::map<std::string, std::string> completions = {
        {"delivery", "Delivery"},
        {"posted", "Posted"},
        {"acknowledged", "Acknowledged"}};
    FABRIC_INPUT_ERROR_IF(!completions.count(cfg.sendCompletion),
                          "--send-completion=" << cfg.sendCompletion
                                               << " is invalid; use delivery, posted or "
                                                  "acknowledged");
    FABRIC_INPUT_ERROR_IF(cfg.maxBytes < cfg.minBytes,
                          "--min-bytes=" << cfg.minBytes << " / --max-bytes=" << cfg.maxBytes
                                         << " are invalid; need min <= max");
    FABRIC_INPUT_ERROR_IF(cfg.factor == 1 && cfg.minBytes != cfg.maxBytes,
                          "--factor=1 would repeat the first size; give --factor >= 2, or "
                          "--min-bytes = --max-bytes");
    ParseOp(cfg.op); // names a bad --op before anything is built
    SwitchHelper::CheckLoadBalancerName(cfg.lb, "--lb");
    FABRIC_INPUT_ERROR_IF(cfg.lb == "te",
                          "--lb=te is invalid here: traffic engineering plans a known flow matrix, "
                          "which the main job does not give its switches (examples/lb-compare "
                          "runs a ring AllReduce under a FabricTeController)");
    CollectiveCommunicator::AlgorithmChoice algoChoice;
    CollectiveCommunicator::ProtocolChoice protoChoice;
    FABRIC_INPUT_ERROR_IF(!CollectiveCommunicator::ParseAlgorithm(cfg.algo, &algoChoice),
                          "--algo=" << cfg.algo
                                    << " is invalid; valid values are auto, ring, tree, "
                                       "hierarchical, nvls, nvlstree");
    FABRIC_INPUT_ERROR_IF(!CollectiveCommunicator::ParseProtocol(cfg.proto, &protoChoice),
                          "--proto=" << cfg.proto
                                     << " is invalid; valid values are auto, ll, ll128, simple");
    FABRIC_INPUT_ERROR_IF(cfg.op != "allreduce" &&
                              algoChoice != CollectiveCommunicator::ALGORITHM_AUTO &&
                              algoChoice != CollectiveCommunicator::ALGORITHM_RING,
                          "--algo=" << cfg.algo << " applies to --op=allreduce only (other "
                                    << "collectives run the ring: use auto or ring)");
    UetTransportPlugin::CheckCongestionControlName(cfg.uetCc, "--uet-cc");
    UetTransportPlugin::CheckEvStrategy(cfg.evStrategy, "--ev-strategy");
    const bool uet = cfg.transport == "uet";
    FABRIC_INPUT_ERROR_IF(uet && cfg.qpsPerConnection != 1,
                          "--qps-per-connection " << cfg.qpsPerConnection
                                                  << " is invalid with --transport=uet; it must "
                                                     "be 1 (QPs are RoCE's; UET sprays one PDC "
                                                     "per connection, see --ev-strategy)");
    FABRIC_INPUT_ERROR_IF(uet && cmd.IsGiven("cc"),
                          "--cc applies to --transport=roce; with uet use --uet-cc");
    FABRIC_INPUT_ERROR_IF(!uet && (cmd.IsGiven("uet-cc") || cmd.IsGiven("ev-strategy")),
                          "--uet-cc and --ev-strategy apply to --transport=uet");
    for (const char* suffix : {"-nccl.txt", "-results.csv", "-fabric.csv", "-nic.csv"})
    {
        FabricCommandLine::CheckWritable(cfg.prefix + suffix, "--prefix=" + cfg.prefix);
    }
    if (!cfg.faults.empty())
    {
        FabricCommandLine::CheckWritable(cfg.prefix + "-faults.csv", "--prefix=" + cfg.prefix);
    }
    if (cfg.plotData)
    {
        FabricCommandLine::CheckWritable(cfg.prefix + "-links.csv", "--prefix=" + cfg.prefix);
        FabricCommandLine::CheckWritable(cfg.prefix + "-config.csv", "--prefix=" + cfg.prefix);
    }
    if (!cfg.measured.empty())
    {
        FABRIC_INPUT_ERROR_IF(!std::ifstream(cfg.measured).good(),
                              "--measured=" << cfg.measured
                                            << ": no such file, or it cannot be read; give the "
                                               "path of a real nccl-tests all_reduce_perf log "
                                               "(the project ships one: "
                                               "data/nccl-tests/h100-4x8-ib400g-all_reduce_perf."
                                               "txt)");
        CheckMeasured(cfg, cfg.servers * cfg.gpusPerServer);
    }

    auto wall0 = std::chrono::steady_clock::now();
    Ptr<FabricTransportConfig> transport = MakeTransportConfig(cfg);
    Ptr<FabricTopologyHelper> topo = BuildFabric(cfg, transport);
    Ptr<FaultHelper> faults = CreateObject<FaultHelper>();
    for (const std::string& f : cfg.faults)
    {
        faults->Add(f);
    }
    faults->Install(topo);                             // names a bad node or cable
    const bool writer = FabricMpi::GetSystemId() == 0; // the process that writes the outputs
    const Time lookahead = topo->GetPartition().GetLookahead();
    FABRIC_INPUT_ERROR_IF(FabricMpi::GetSize() > 1 && cfg.barrier < lookahead,
                          "--barrier=" << cfg.barrier.As(Time::NS)
                                       << " is below the lookahead between processes ("
                                       << lookahead.As(Time::NS) << "); give at least that");
    if (writer)
    {
        topo->Print(std::clog);
        faults->Print(std::clog);
        if (FabricMpi::GetSize() > 1)
        {
            std::clog << "processes " << FabricMpi::GetSize()
                      << " (partition: " << topo->GetPartition().GetCrossingCables()
                      << " cables between processes, lookahead " << lookahead.GetNanoSeconds()
                      << " ns)\n";
        }
    }
    if (uet && writer)
    {
        std::clog << "  transport: ";
        transport->Describe(std::clog);
        std::clog << "\n";
    }
    Ptr<PfcNetDevice> rank0Port = topo->GetNicCore(0)->GetPort(0);
    if (cfg.pcap && FabricMpi::IsLocal(rank0Port->GetNode()))
    {
        // Across processes only rank 0's process sees its frames (and writes the file).
        topo->GetPortHelper().EnablePcap(cfg.prefix, rank0Port, true);
    }

    CollectiveHelper coll;
    coll.SetTopology(topo);
    coll.SetTransportType(cfg.transport);
    coll.SetCommunicatorAttribute("Channels", UintegerValue(cfg.channels));
    coll.SetCommunicatorAttribute("Pxn", BooleanValue(cfg.topology == "rail-only"));
    coll.SetCommunicatorAttribute("Algorithm", EnumValue(algoChoice));
    coll.SetCommunicatorAttribute("Protocol", EnumValue(protoChoice));
    if (!uet)
    {
        coll.SetTransportAttribute("QpsPerConnection", UintegerValue(cfg.qpsPerConnection));
    }
    coll.SetApplicationAttribute("SendCompletion", StringValue(completions.at(cfg.sendCompletion)));
    if (cfg.barrier.IsStrictlyPositive())
    {
        // Collectives enqueued by the barrier's release: connections up front, ranks started
        // in their nodes' contexts (the same in every process of a run across processes).
        coll.SetCommunicatorAttribute("PreConnect", BooleanValue(true));
        coll.SetCommunicatorAttribute("RankContext", BooleanValue(true));
    }
    coll.AssignStreams(cfg.seed * 100);
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    if (writer)
    {
        comm->GetTuner()->Print(std::clog); // NCCL's TUNING table for this system
    }
    // A forced algorithm or protocol that cannot run the sweep fails here, before the run.
    const CollectiveOp op = ParseOp(cfg.op);
    Ptr<CollectiveSweep> sweep = MakeSweep(cfg);
    for (uint64_t s : sweep->GetSizes())
    {
        comm->Choose(op, s);
    }

    RailAllreduceView view(topo, MicroSeconds(20), uet, cfg.plotData);
    // Opt-in monitoring (--monitor=FILE): nothing is created or scheduled without it.
    Ptr<FabricMonitor> monitor = FabricMonitor::InstallIfEnabled(topo, cfg.monitor);
    sweep->SetCommunicator(comm, op);
    sweep->SetProcesses(topo->GetObject<FabricNoteChannel>(),
                        FabricMpi::GetSize(),
                        FabricMpi::GetSystemId());
    sweep->SetSizeStartedCallback(MakeBoundCallback(&SizeStarted, &view));
    sweep->SetSizeFinishedCallback(MakeBoundCallback(&SizeFinished, &view, comm, op));
    sweep->Start();
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet() && writer)
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("rail-allreduce");
        progress->SetFractionCallback(
            MakeBoundCallback(&SweepFraction, PeekPointer(sweep), sweep->GetSizes().size()));
        progress->Watch(topo->GetHealthMonitor());
    }
    const auto run0 = std::chrono::steady_clock::now();
    Simulator::Run();
    FabricMpi::ReportProcess(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count(),
        topo->GetObject<PfcRemoteExchange>());
    topo->GetHealthMonitor()->ReportEndOfRun(std::cerr); // lossless drops, stalls: loudly
    NS_ABORT_MSG_IF(sweep->HasFailed(), "the sweep stopped on a failed collective");

    const std::vector<CollectiveRecord> records = coll.GatherRecords(); // at process 0
    view.Merge();
    faults->Gather(); // the fault log's counts summed over processes
    if (monitor)
    {
        monitor->Gather(); // the monitor's rows, in the sequential order
    }
    if (writer)
    {
        WriteResults(cfg, topo->GetNRanks(), sweep->GetResults(records));
        WriteViews(cfg, view);
        if (cfg.plotData)
        {
            WriteConfig(cfg, topo);
        }
        if (!cfg.faults.empty())
        {
            faults->WriteCsv(cfg.prefix + "-faults.csv");
        }
        double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        std::clog << "rail-allreduce: simulated " << Simulator::Now().As(Time::MS) << " in " << wall
                  << " s wall; wrote " << cfg.prefix << "-nccl.txt, -results.csv, -fabric.csv, "
                  << "-nic.csv" << (monitor ? ", " + cfg.monitor : std::string()) << "\n";
    }
    const bool stalled = FabricMpi::Sum(topo->GetHealthMonitor()->IsStalled() ? 1 : 0) > 0;
    Simulator::Destroy();
    FabricMpi::Disable();
    if (stalled)
    {
        std::cerr << "rail-allreduce: the run stalled (diagnosis above); results cover the "
                     "sizes finished before the stall\n";
        return 3; // 2 is an input error (FabricInputError)
    }
    return 0;
}
