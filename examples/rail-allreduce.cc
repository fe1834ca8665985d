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
 * tools/plots/plot_fabric_monitor.py; off by default.
 * --measured=FILE reads a real all_reduce_perf log (nccl-tests text format) and puts its
 * busbw next to the simulated one. tools/plots/plot_rail_allreduce.py draws the figures (with
 * the --plot-data files when present: the bottleneck, a caption, and utilization over busy
 * ports only, so that idle ports do not dilute busy ones).
 */

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
};

/// One tier of switches whose counters are reported together.
struct Element
{
    std::string name;                        //!< e.g. "rail0", "spine3", "nvswitch"
    std::vector<Ptr<FabricSwitch>> switches; //!< its switches
    uint64_t txBytes{0};                     //!< snapshot
    uint64_t pauses{0};                      //!< snapshot
    uint64_t marks{0};                       //!< snapshot
    uint64_t drops{0};                       //!< snapshot
    uint64_t trims{0};                       //!< snapshot
    uint64_t maxQueue{0};                    //!< max egress queue (bytes) since the snapshot
    double capacityBps{0};                   //!< sum of port rates
    std::vector<uint64_t> portTx;            //!< per port (switch by switch): snapshot
};

/// The switch ports that send in one direction of one link tier (e.g. leaf ports to GPUs).
struct LinkDirection
{
    std::string name;                     //!< "<switch type>><peer type>", e.g. "leaf>gpu"
    std::vector<Ptr<PfcNetDevice>> ports; //!< its ports
    std::vector<uint64_t> txBytes;        //!< per port: snapshot of the bytes sent
};

/// Collects the fabric's view between two snapshots.
class FabricView
{
  public:
    FabricView(Ptr<FabricTopologyHelper> topo, Time sample, bool uet)
        : m_topo(topo),
          m_sample(sample),
          m_uet(uet)
    {
        auto sw = [](Ptr<Node> n) { return n->GetObject<FabricSwitch>(); };
        auto rail = DynamicCast<RailOptimizedTopologyHelper>(topo);
        if (rail)
        {
            uint32_t perRail = topo->GetNLeaves() / topo->GetGpusPerServer();
            for (uint32_t r = 0; r < topo->GetGpusPerServer(); ++r)
            {
                Element e;
                e.name = "rail" + std::to_string(r);
                for (uint32_t i = 0; i < perRail; ++i)
                {
                    e.switches.push_back(sw(rail->GetLeaf(r, i)));
                }
                m_elements.push_back(e);
            }
        }
        else
        {
            Element e;
            e.name = "leaf";
            for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
            {
                e.switches.push_back(sw(topo->GetLeaf(i)));
            }
            m_elements.push_back(e);
        }
        for (uint32_t i = 0; i < topo->GetNSpines(); ++i)
        {
            Element e;
            e.name = "spine" + std::to_string(i);
            e.switches.push_back(sw(topo->GetSpine(i)));
            m_elements.push_back(e);
        }
        Element nv;
        nv.name = "nvswitch";
        for (uint32_t s = 0; s < topo->GetNNvSwitches(); ++s)
        {
            nv.switches.push_back(sw(topo->GetNvSwitch(s)));
        }
        m_elements.push_back(nv);
        for (auto& e : m_elements)
        {
            for (auto& s : e.switches)
            {
                for (uint32_t p = 0; p < s->GetNPorts(); ++p)
                {
                    e.capacityBps += double(s->GetPort(p)->GetDataRate().GetBitRate());
                    AddToDirection(topo->GetNodeType(s->GetObject<Node>()), s->GetPort(p));
                }
            }
        }
    }

    /**
     * \brief Also write per-direction link utilization rows (the --plot-data links CSV).
     * \param links the stream, with its header already written (null: no rows)
     */
    void SetLinksCsv(std::ostream* links)
    {
        m_links = links;
    }

    /// Start of a measured interval.
    void Snapshot()
    {
        m_start = Simulator::Now();
        for (auto& e : m_elements)
        {
            Totals(e, e.txBytes, e.pauses, e.marks, e.drops, e.trims);
            e.maxQueue = 0;
            e.portTx.clear();
            for (const auto& sw : e.switches)
            {
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                {
                    e.portTx.push_back(PortTxBytes(sw->GetPort(p)));
                }
            }
        }
        m_nic = NicTotals();
        for (auto& d : m_directions)
        {
            for (std::size_t i = 0; i < d.ports.size(); ++i)
            {
                d.txBytes[i] = PortTxBytes(d.ports[i]);
            }
        }
        m_event.Cancel();
        m_event = Simulator::Schedule(m_sample, &FabricView::Sample, this);
    }

    /// End of a measured interval: append rows for \p bytes.
    void Report(uint64_t bytes, std::ostream& fabric, std::ostream& nic)
    {
        m_event.Cancel();
        double seconds = (Simulator::Now() - m_start).GetSeconds();
        for (auto& e : m_elements)
        {
            uint64_t tx;
            uint64_t pauses;
            uint64_t marks;
            uint64_t drops;
            uint64_t trims;
            Totals(e, tx, pauses, marks, drops, trims);
            double util = seconds > 0 ? (tx - e.txBytes) * 8.0 / (e.capacityBps * seconds) : 0;
            // Over the ports that sent anything: idle uplinks do not dilute busy ports.
            double activeBytes = 0;
            double activeBps = 0;
            std::size_t i = 0;
            for (const auto& sw : e.switches)
            {
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p, ++i)
                {
                    uint64_t sent = PortTxBytes(sw->GetPort(p)) - e.portTx[i];
                    if (sent > 0)
                    {
                        activeBytes += sent;
                        activeBps += double(sw->GetPort(p)->GetDataRate().GetBitRate());
                    }
                }
            }
            double active =
                seconds > 0 && activeBps > 0 ? activeBytes * 8 / (activeBps * seconds) : 0;
            fabric << bytes << "," << e.name << "," << util << "," << active << "," << e.maxQueue
                   << "," << pauses - e.pauses << "," << marks - e.marks << "," << drops - e.drops;
            if (m_uet)
            {
                fabric << "," << trims - e.trims;
            }
            fabric << "\n";
        }
        NicSnapshot now = NicTotals();
        if (m_uet)
        {
            nic << bytes << "," << now.uet.trimNacksReceived - m_nic.uet.trimNacksReceived << ","
                << now.uet.nacksReceived - m_nic.uet.nacksReceived << ","
                << now.uet.retransmissions - m_nic.uet.retransmissions << ","
                << now.uet.rtoExpirations - m_nic.uet.rtoExpirations << ","
                << now.uet.ceReceived - m_nic.uet.ceReceived << ",";
        }
        else
        {
            nic << bytes << "," << now.qp.cnpsTx - m_nic.qp.cnpsTx << ","
                << now.qp.retransmittedPackets - m_nic.qp.retransmittedPackets << ","
                << now.qp.timeouts - m_nic.qp.timeouts << "," << now.qp.naksRx - m_nic.qp.naksRx
                << ",";
        }
        nic << now.pausesSent - m_nic.pausesSent << "," << now.pausesReceived - m_nic.pausesReceived
            << "," << (now.paused - m_nic.paused).GetSeconds() * 1e6 << "\n";
        if (m_links)
        {
            ReportDirections(bytes, seconds);
        }
    }

  private:
    /**
     * \brief File a switch port under its direction "<switch type>><peer type>".
     * \param switchType the type of the switch that owns the port
     * \param port the port
     */
    void AddToDirection(FabricNodeType switchType, Ptr<PfcNetDevice> port)
    {
        Ptr<Channel> channel = port->GetChannel();
        Ptr<NetDevice> peer =
            channel->GetDevice(0) == port ? channel->GetDevice(1) : channel->GetDevice(0);
        std::string name = std::string(FabricNodeTypeName(switchType)) + ">" +
                           FabricNodeTypeName(m_topo->GetNodeType(peer->GetNode()));
        auto it = std::find_if(m_directions.begin(),
                               m_directions.end(),
                               [&name](const LinkDirection& d) { return d.name == name; });
        if (it == m_directions.end())
        {
            it = m_directions.insert(m_directions.end(), LinkDirection{name, {}, {}});
        }
        it->ports.push_back(port);
        it->txBytes.push_back(0);
    }

    /**
     * \param port a port
     * \return the bytes it has sent so far, all priorities
     */
    static uint64_t PortTxBytes(Ptr<PfcNetDevice> port)
    {
        uint64_t tx = 0;
        for (uint64_t b : port->GetCounters().txBytes)
        {
            tx += b;
        }
        return tx;
    }

    /**
     * \brief Rows of the links CSV: utilization over the ports that carried traffic, and the
     *        busiest port's.
     * \param bytes the collective size the interval measured
     * \param seconds the interval's length
     */
    void ReportDirections(uint64_t bytes, double seconds)
    {
        for (const auto& d : m_directions)
        {
            uint32_t active = 0;
            double sum = 0;
            double max = 0;
            for (std::size_t i = 0; i < d.ports.size(); ++i)
            {
                uint64_t tx = PortTxBytes(d.ports[i]) - d.txBytes[i];
                double rate = double(d.ports[i]->GetDataRate().GetBitRate());
                double util = seconds > 0 ? tx * 8.0 / (rate * seconds) : 0;
                if (tx > 0)
                {
                    ++active;
                    sum += util;
                    max = std::max(max, util);
                }
            }
            *m_links << bytes << "," << d.name << "," << d.ports.size() << "," << active << ","
                     << (active ? sum / active : 0) << "," << max << "\n";
        }
    }

    void Totals(const Element& e,
                uint64_t& tx,
                uint64_t& pauses,
                uint64_t& marks,
                uint64_t& drops,
                uint64_t& trims) const
    {
        tx = pauses = marks = drops = trims = 0;
        for (const auto& s : e.switches)
        {
            for (uint32_t p = 0; p < s->GetNPorts(); ++p)
            {
                const PfcPortCounters& c = s->GetPort(p)->GetCounters();
                for (uint8_t q = 0; q < 8; ++q)
                {
                    tx += c.txBytes[q];
                    pauses += c.pauseTx[q];
                }
                marks += s->GetCounters().ecnMarks[p];
            }
            for (auto d : s->GetCounters().drops)
            {
                drops += d;
            }
            trims += s->GetCounters().GetTrims();
        }
    }

    /// NIC totals: QP (RoCE) or UET counters and the PFC frames of the NIC ports (host-side
    /// PFC).
    struct NicSnapshot
    {
        RoceQpCounters qp;
        UetNicCounters uet;
        uint64_t pausesSent{0};     // PFC pauses the NICs sent (their receive side was full)
        uint64_t pausesReceived{0}; // PFC pauses the NICs received (from leaves, NVSwitches)
        Time paused;                // time NIC ports spent paused by their peer
    };

    NicSnapshot NicTotals() const
    {
        NicSnapshot t;
        for (uint32_t r = 0; r < m_topo->GetNRanks(); ++r)
        {
            if (m_uet)
            {
                const UetNicCounters& u = m_topo->GetUetNic(r)->GetCounters();
                t.uet.trimNacksReceived += u.trimNacksReceived;
                t.uet.nacksReceived += u.nacksReceived;
                t.uet.retransmissions += u.retransmissions;
                t.uet.rtoExpirations += u.rtoExpirations;
                t.uet.ceReceived += u.ceReceived;
            }
            else
            {
                RoceQpCounters c = m_topo->GetNic(r)->GetTotalQpCounters();
                t.qp.cnpsTx += c.cnpsTx;
                t.qp.retransmittedPackets += c.retransmittedPackets;
                t.qp.timeouts += c.timeouts;
                t.qp.naksRx += c.naksRx;
            }
            Ptr<FabricNic> core = m_topo->GetNicCore(r);
            for (uint32_t p = 0; p < core->GetNPorts(); ++p)
            {
                const PfcPortCounters& pc = core->GetPort(p)->GetCounters();
                for (uint8_t q = 0; q < 8; ++q)
                {
                    t.pausesSent += pc.pauseTx[q];
                    t.pausesReceived += pc.pauseRx[q];
                    t.paused += pc.pausedTime[q];
                }
            }
        }
        return t;
    }

    void Sample()
    {
        for (auto& e : m_elements)
        {
            for (const auto& s : e.switches)
            {
                for (uint32_t p = 0; p < s->GetNPorts(); ++p)
                {
                    e.maxQueue = std::max(e.maxQueue, s->GetMmu()->GetEgressPortBytes(p));
                }
            }
        }
        m_event = Simulator::Schedule(m_sample, &FabricView::Sample, this);
    }

    Ptr<FabricTopologyHelper> m_topo;
    Time m_sample;
    bool m_uet; //!< the NICs are UET (else RoCE)
    std::vector<Element> m_elements;
    Time m_start;
    NicSnapshot m_nic;
    EventId m_event;
    std::vector<LinkDirection> m_directions; //!< switch ports by link direction
    std::ostream* m_links{nullptr};          //!< --plot-data links CSV, if asked for
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

/// \return the sweep's sizes: --min-bytes, x --factor, up to --max-bytes
std::vector<uint64_t>
SweepSizes(const SweepConfig& cfg)
{
    std::vector<uint64_t> sizes;
    for (uint64_t s = cfg.minBytes; s <= cfg.maxBytes; s *= cfg.factor)
    {
        sizes.push_back(s);
        if (cfg.factor == 1 || s > cfg.maxBytes / cfg.factor)
        {
            break; // the next size would pass --max-bytes (or wrap around)
        }
    }
    return sizes;
}

/// The measured result of one size: mean time and how NCCL's model ran it.
struct SizeResult
{
    uint64_t bytes{0};     //!< size
    Time time;             //!< mean time of the measured iterations
    std::string algorithm; //!< schedule ("ring", "tree", ...)
    std::string protocol;  //!< "LL", "LL128", "Simple"
    uint32_t channels{0};  //!< channels
    double predictedUs{0}; //!< NCCL's predicted time
};

/// Runs the sweep: for each size, warm-ups then measured iterations, one after the other.
class Sweep
{
  public:
    Sweep(const SweepConfig& cfg, Ptr<CollectiveCommunicator> comm, FabricView& view)
        : m_cfg(cfg),
          m_comm(comm),
          m_view(view),
          m_op(ParseOp(cfg.op))
    {
        m_sizes = SweepSizes(cfg);
        // nccl-tests (TimeTest): warm-up iterations at the largest size, then at the smallest.
        m_prologue.insert(m_prologue.end(), cfg.warmupIters, m_sizes.back());
        m_prologue.insert(m_prologue.end(), cfg.warmupIters, m_sizes.front());
        m_fabric.open(cfg.prefix + "-fabric.csv");
        m_nic.open(cfg.prefix + "-nic.csv");
        FABRIC_INPUT_ERROR_IF(!m_fabric || !m_nic,
                              "cannot write outputs with prefix " << cfg.prefix);
        if (cfg.plotData)
        {
            m_links.open(cfg.prefix + "-links.csv");
            FABRIC_INPUT_ERROR_IF(!m_links, "cannot write " << cfg.prefix << "-links.csv");
            m_links << "bytes,direction,ports,active_ports,active_utilization,max_utilization\n";
            m_view.SetLinksCsv(&m_links);
        }
        const bool uet = cfg.transport == "uet";
        m_fabric << "bytes,element,utilization,active_utilization,max_queue_bytes,pfc_pauses,"
                    "ecn_marks,drops"
                 << (uet ? ",trims\n" : "\n");
        m_nic << (uet ? "bytes,trim_nacks,nacks,retransmitted_packets,timeouts,ce_received,"
                      : "bytes,cnps,retransmitted_packets,timeouts,naks,")
              << "nic_pfc_pauses_sent,nic_pfc_pauses_received,nic_paused_us\n";
    }

    void Start()
    {
        Next();
    }

    /// Per size: mean time of the measured iterations and the algorithm/protocol used.
    const std::vector<SizeResult>& Results() const
    {
        return m_results;
    }

    bool Failed() const
    {
        return m_failed;
    }

  private:
    /**
     * Done: stop the simulation (timers, e.g. the PFC refresh of a stalled NIC, must not go
     * on). A collective completes when its data has arrived, an ACK before the sender's
     * transport completes its last operations (RoCE WRITEs, UET PDCs), so wait for the NICs to
     * have nothing pending first: a finished run leaves nothing for the health monitor to
     * report.
     */
    void StopWhenIdle()
    {
        for (uint32_t r = 0; r < m_comm->GetSize(); ++r)
        {
            if (m_comm->GetApplication(r)
                    ->GetNode()
                    ->GetObject<FabricNic>()
                    ->GetPendingOperations() > 0)
            {
                Simulator::Schedule(MicroSeconds(1), &Sweep::StopWhenIdle, this);
                return;
            }
        }
        Simulator::Stop();
    }

    /// Warm-up iterations of the current size (beyond nccl-tests' prologue).
    uint32_t Warmups() const
    {
        return m_cfg.warmupEverySize ? m_cfg.warmupIters : 0;
    }

    /// \return true (after reporting it) if \p rec failed
    bool CheckFailed(const CollectiveRecord& rec)
    {
        if (rec.failed)
        {
            std::cerr << "collective failed at rank " << rec.failedRank << " step "
                      << rec.failedStep << ": " << rec.reason << "\n";
            m_failed = true;
        }
        return rec.failed;
    }

    void WarmedUp(const CollectiveRecord& rec)
    {
        if (!CheckFailed(rec))
        {
            m_prologue.pop_front();
            Next();
        }
    }

    void Next()
    {
        if (!m_prologue.empty())
        {
            m_comm->Enqueue(m_op, m_prologue.front(), 0, MakeCallback(&Sweep::WarmedUp, this));
            return;
        }
        if (m_index >= m_sizes.size())
        {
            StopWhenIdle();
            return;
        }
        uint64_t bytes = m_sizes[m_index];
        bool measured = m_iter >= Warmups();
        if (measured && m_iter == Warmups())
        {
            m_view.Snapshot();
            m_sum = Time(0);
        }
        m_comm->Enqueue(m_op, bytes, 0, MakeCallback(&Sweep::Done, this));
    }

    void Done(const CollectiveRecord& rec)
    {
        if (CheckFailed(rec))
        {
            return;
        }
        if (m_iter >= Warmups())
        {
            m_sum += rec.GetDuration();
        }
        if (++m_iter == Warmups() + m_cfg.iters)
        {
            uint64_t bytes = m_sizes[m_index];
            m_view.Report(bytes, m_fabric, m_nic);
            SizeResult r;
            r.bytes = bytes;
            r.time = m_sum / int64_t(m_cfg.iters);
            r.algorithm = rec.algorithm;
            r.protocol = rec.protocol;
            r.channels = rec.channels;
            r.predictedUs = m_comm->Choose(m_op, bytes).predictedUs; // what this size ran
            m_results.push_back(r);
            std::clog << "  " << bytes << " B done at " << Simulator::Now().As(Time::MS) << " ("
                      << r.algorithm << "/" << r.protocol << ", " << r.channels << " channels)\n";
            m_iter = 0;
            ++m_index;
        }
        Next();
    }

    const SweepConfig& m_cfg;
    Ptr<CollectiveCommunicator> m_comm;
    FabricView& m_view;
    CollectiveOp m_op;
    std::vector<uint64_t> m_sizes;
    std::deque<uint64_t> m_prologue; //!< nccl-tests' warm-up sizes still to run
    std::size_t m_index{0};
    uint32_t m_iter{0};
    Time m_sum;
    std::vector<SizeResult> m_results;
    std::ofstream m_fabric;
    std::ofstream m_nic;
    std::ofstream m_links;
    bool m_failed{false};
};

void
WriteResults(const SweepConfig& cfg, uint32_t ranks, const std::vector<SizeResult>& res)
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

/// Sizes of the sweep done so far, for the progress line.
double
SweepFraction(const std::vector<SizeResult>* done, std::size_t total)
{
    return total ? double(done->size()) / total : 1.0;
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
    FabricCommandLine cmd(__FILE__);
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
    SetSimulatorImpl(cfg.simulator);  // names a bad --simulator
    SetEventScheduler(cfg.scheduler); // names a bad --scheduler
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
    faults->Install(topo); // names a bad node or cable
    topo->Print(std::clog);
    faults->Print(std::clog);
    if (uet)
    {
        std::clog << "  transport: ";
        transport->Describe(std::clog);
        std::clog << "\n";
    }
    if (cfg.pcap)
    {
        topo->GetPortHelper().EnablePcap(cfg.prefix, topo->GetNicCore(0)->GetPort(0), true);
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
    coll.AssignStreams(cfg.seed * 100);
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    comm->GetTuner()->Print(std::clog); // NCCL's TUNING table for this system
    // A forced algorithm or protocol that cannot run the sweep fails here, before the run.
    for (uint64_t s : SweepSizes(cfg))
    {
        comm->Choose(ParseOp(cfg.op), s);
    }

    FabricView view(topo, MicroSeconds(20), uet);
    // Opt-in monitoring (--monitor=FILE): nothing is created or scheduled without it.
    Ptr<FabricMonitor> monitor = FabricMonitor::InstallIfEnabled(topo, cfg.monitor);
    Sweep sweep(cfg, comm, view);
    sweep.Start();
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("rail-allreduce");
        progress->SetFractionCallback(
            MakeBoundCallback(&SweepFraction, &sweep.Results(), SweepSizes(cfg).size()));
        progress->Watch(topo->GetHealthMonitor());
    }
    Simulator::Run();
    topo->GetHealthMonitor()->ReportEndOfRun(std::cerr); // lossless drops, stalls: loudly
    NS_ABORT_MSG_IF(sweep.Failed(), "the sweep stopped on a failed collective");

    WriteResults(cfg, topo->GetNRanks(), sweep.Results());
    if (cfg.plotData)
    {
        WriteConfig(cfg, topo);
    }
    if (!cfg.faults.empty())
    {
        faults->WriteCsv(cfg.prefix + "-faults.csv");
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    std::clog << "rail-allreduce: simulated " << Simulator::Now().As(Time::MS) << " in " << wall
              << " s wall; wrote " << cfg.prefix << "-nccl.txt, -results.csv, -fabric.csv, "
              << "-nic.csv" << (monitor ? ", " + cfg.monitor : std::string()) << "\n";
    bool stalled = topo->GetHealthMonitor()->IsStalled();
    Simulator::Destroy();
    if (stalled)
    {
        std::cerr << "rail-allreduce: the run stalled (diagnosis above); results cover the "
                     "sizes finished before the stall\n";
        return 3; // 2 is an input error (FabricInputError)
    }
    return 0;
}
