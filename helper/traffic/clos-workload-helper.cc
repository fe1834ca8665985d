/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-workload-helper.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcqcn-congestion-ops.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/fabric-transport-config.h"
#include "ns3/flow-list.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <optional>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ClosWorkloadHelper);

namespace
{

/// \return the CDF: a shipped workload's name or a file path
FlowSizeCdf
LoadCdf(const std::string& workload)
{
    const auto names = FlowSizeCdf::GetShippedNames();
    if (std::find(names.begin(), names.end(), workload) != names.end())
    {
        return FlowSizeCdf::LoadShipped(workload);
    }
    return FlowSizeCdf::Load(workload); // aborts naming the file (and line) if not a CDF
}

} // namespace

TypeId
ClosWorkloadHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosWorkloadHelper")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<ClosWorkloadHelper>()
            .AddAttribute("Leaves",
                          "Leaf (ToR) switches, >= 1.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ClosWorkloadHelper::m_leaves),
                          MakeFabricUintegerChecker<uint32_t>("ns3::ClosWorkloadHelper::Leaves", 1))
            .AddAttribute(
                "HostsPerLeaf",
                "Hosts under each leaf, >= 1.",
                UintegerValue(16),
                MakeUintegerAccessor(&ClosWorkloadHelper::m_hostsPerLeaf),
                MakeFabricUintegerChecker<uint32_t>("ns3::ClosWorkloadHelper::HostsPerLeaf", 1))
            .AddAttribute("Spines",
                          "Spine switches, >= 1; each leaf has one uplink to each.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosWorkloadHelper::m_spines),
                          MakeFabricUintegerChecker<uint32_t>("ns3::ClosWorkloadHelper::Spines", 1))
            .AddAttribute("HostLinkDataRate",
                          "Host-leaf link rate (> 0).",
                          DataRateValue(DataRate("25Gbps")),
                          MakeDataRateAccessor(&ClosWorkloadHelper::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("FabricLinkDataRate",
                          "Leaf-spine link rate (> 0).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&ClosWorkloadHelper::m_fabricRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "Propagation delay of every link (>= 0).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosWorkloadHelper::m_delay),
                          MakeFabricTimeChecker("ns3::ClosWorkloadHelper::LinkDelay", Time(0)))
            .AddAttribute("Mtu",
                          "RoCE path MTU, payload bytes per packet (256, 512, 1024, 2048, "
                          "4096; RoceNic Mtu).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&ClosWorkloadHelper::m_mtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BufferSize",
                          "Shared buffer of each switch, bytes (SharedBufferMmu BufferSize).",
                          UintegerValue(4000000),
                          MakeUintegerAccessor(&ClosWorkloadHelper::m_buffer),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Alpha",
                          "Dynamic-threshold alpha of the shared buffer (SharedBufferMmu "
                          "Alpha).",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&ClosWorkloadHelper::m_alpha),
                          MakeFabricPositiveDoubleChecker("ns3::ClosWorkloadHelper::Alpha"))
            .AddAttribute("Kmin",
                          "ECN Kmin at 25 Gb/s, scaled with the port rate.",
                          QueueSizeValue(QueueSize("100KB")),
                          MakeQueueSizeAccessor(&ClosWorkloadHelper::m_kmin),
                          MakeQueueSizeChecker())
            .AddAttribute("Kmax",
                          "ECN Kmax at 25 Gb/s (>= Kmin), scaled with the port rate.",
                          QueueSizeValue(QueueSize("400KB")),
                          MakeQueueSizeAccessor(&ClosWorkloadHelper::m_kmax),
                          MakeQueueSizeChecker())
            .AddAttribute("Pmax",
                          "ECN marking probability at Kmax, [0, 1].",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&ClosWorkloadHelper::m_pmax),
                          MakeFabricDoubleChecker("ns3::ClosWorkloadHelper::Pmax", 0.0, 1.0))
            .AddAttribute("SpineBufferSize",
                          "Shared buffer of each spine, bytes; 0 (default) = BufferSize "
                          "(per-tier settings: FabricTopologyHelper::SetTierMmuAttribute).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosWorkloadHelper::m_spineBuffer),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("SpineKmin",
                          "ECN Kmin of the spines at 25 Gb/s, scaled with the port rate; 0 "
                          "(default) = Kmin.",
                          QueueSizeValue(QueueSize("0B")),
                          MakeQueueSizeAccessor(&ClosWorkloadHelper::m_spineKmin),
                          MakeQueueSizeChecker())
            .AddAttribute("SpineKmax",
                          "ECN Kmax of the spines at 25 Gb/s (>= their Kmin); 0 (default) = "
                          "Kmax.",
                          QueueSizeValue(QueueSize("0B")),
                          MakeQueueSizeAccessor(&ClosWorkloadHelper::m_spineKmax),
                          MakeQueueSizeChecker())
            .AddAttribute("SpinePmax",
                          "ECN marking probability of the spines at their Kmax, [0, 1]; -1 "
                          "(default) = Pmax.",
                          DoubleValue(-1),
                          MakeDoubleAccessor(&ClosWorkloadHelper::m_spinePmax),
                          MakeFabricDoubleChecker("ns3::ClosWorkloadHelper::SpinePmax", -1.0, 1.0))
            .AddAttribute("EcnMarkingPoint",
                          "Where switches decide ECN marks: Dequeue (default, as the "
                          "HPCC-lineage simulators) or Enqueue (WredEcnMarker MarkingPoint).",
                          EnumValue(WredEcnMarker::DEQUEUE),
                          compat::MakeEnumAccessor<WredEcnMarker::MarkingPoint>(
                              &ClosWorkloadHelper::m_markingPoint),
                          MakeEnumChecker(WredEcnMarker::ENQUEUE,
                                          "Enqueue",
                                          WredEcnMarker::DEQUEUE,
                                          "Dequeue"))
            .AddAttribute("CongestionControl",
                          "RoCE congestion control: dcqcn, none, dctcp, timely, swift, hpcc or a "
                          "TypeId name (RoceNicHelper::SetCongestionControl, which also sets "
                          "what the algorithm needs from the NICs, e.g. ECN echo on ACKs).",
                          StringValue("dcqcn"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_cc),
                          MakeStringChecker())
            .AddAttribute("Transport",
                          "roce (RoCEv2 NICs, PFC on priority 3; the default) or uet (Ultra "
                          "Ethernet NICs, FabricTransportConfig: lossy data class with "
                          "trimming, BDP-sized queues and ECN, UetCongestionControl, "
                          "EvStrategy; the NICs' Mtu is Mtu).",
                          StringValue("roce"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_transport),
                          MakeStringChecker())
            .AddAttribute("UetCongestionControl",
                          "With Transport uet: none, nscc, rccc or both "
                          "(FabricTransportConfig UetCongestionControl).",
                          StringValue("nscc"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_uetCc),
                          MakeStringChecker())
            .AddAttribute("EvStrategy",
                          "With Transport uet: single, oblivious, bitmap, reps or mixed "
                          "(FabricTransportConfig EvStrategy: packet spraying but single).",
                          StringValue("reps"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_evStrategy),
                          MakeStringChecker())
            .AddAttribute("LoadBalancer",
                          "Switch load balancing (SwitchHelper::SetLoadBalancerByName): " +
                              SwitchHelper::GetLoadBalancerNamesText() + ".",
                          StringValue("ecmp"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_loadBalancer),
                          MakeFabricChecker<StringValue>(MakeStringChecker(),
                                                         "ns3::ClosWorkloadHelper::LoadBalancer",
                                                         &SwitchHelper::IsLoadBalancerName,
                                                         SwitchHelper::GetLoadBalancerNamesText(),
                                                         [](const std::string& v) { return v; }))
            .AddAttribute("DcqcnPreset",
                          "DCQCN parameters: hpcc (g 1/256, 900 us timer, AI 50 Mb/s, HAI "
                          "100 Mb/s), firmware (ConnectX defaults), paper (Zhu et al. 2015) "
                          "or none (leave the defaults as they are).",
                          StringValue("hpcc"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_preset),
                          MakeStringChecker())
            .AddAttribute("Workload",
                          "Flow-size CDF: a shipped one (websearch, fb-hadoop, alistorage) or "
                          "a file in the same format.",
                          StringValue("websearch"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_workload),
                          MakeStringChecker())
            .AddAttribute("FlowFile",
                          "Replay this flow list (\"src dst size_bytes start_ns\" per line, "
                          "FlowList) instead of the Poisson workload; empty (default): Poisson "
                          "arrivals from Workload at Load for Duration.",
                          StringValue(""),
                          MakeStringAccessor(&ClosWorkloadHelper::m_flowFile),
                          MakeStringChecker())
            .AddAttribute("Load",
                          "Offered load, (0, 1], of LoadBase.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&ClosWorkloadHelper::m_load),
                          MakeFabricPositiveDoubleChecker("ns3::ClosWorkloadHelper::Load", 1.0))
            .AddAttribute("LoadBase",
                          "What Load is a fraction of: fabric (each host's share of its "
                          "leaf's uplinks, host rate / oversubscription) or host (the host "
                          "link rate).",
                          StringValue("fabric"),
                          MakeStringAccessor(&ClosWorkloadHelper::m_loadBase),
                          MakeStringChecker())
            .AddAttribute(
                "Duration",
                "Flows arrive during this time from 0; the run goes on until they "
                "complete (> 0).",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&ClosWorkloadHelper::m_duration),
                MakeFabricTimeChecker("ns3::ClosWorkloadHelper::Duration", NanoSeconds(1)))
            .AddAttribute(
                "TimelineDelay",
                "From the last flow's completion to the queue timeline's last row (the "
                "timeline samples on until then; the queue histograms stop at the completion), "
                ">= 0; across MPI processes a timeline needs at least the lookahead between "
                "them (a run of one process with the same delay writes the same rows).",
                TimeValue(Time(0)),
                MakeTimeAccessor(&ClosWorkloadHelper::m_timelineDelay),
                MakeFabricTimeChecker("ns3::ClosWorkloadHelper::TimelineDelay", Time(0)));
    return tid;
}

ClosWorkloadHelper::ClosWorkloadHelper()
    : m_clos(CreateObject<ClosTopologyHelper>()),
      m_markingPoint(WredEcnMarker::DEQUEUE)
{
}

ClosWorkloadHelper::~ClosWorkloadHelper() = default;

void
ClosWorkloadHelper::DoDispose()
{
    m_runner.reset();
    m_queues = nullptr;
    m_timeline = nullptr;
    m_generator = nullptr;
    m_source = nullptr;
    m_clos = nullptr;
    Object::DoDispose();
}

Ptr<ClosTopologyHelper>
ClosWorkloadHelper::GetTopology() const
{
    return m_clos;
}

void
ClosWorkloadHelper::Install()
{
    FABRIC_INPUT_ERROR_IF(m_runner, "ClosWorkloadHelper::Install called twice");
    FABRIC_INPUT_ERROR_IF(m_kmin.GetValue() > m_kmax.GetValue(),
                          "ClosWorkloadHelper: Kmin=" << m_kmin << " is above Kmax=" << m_kmax
                                                      << "; valid is Kmin <= Kmax");
    const QueueSize spineKmin = m_spineKmin.GetValue() != 0 ? m_spineKmin : m_kmin;
    const QueueSize spineKmax = m_spineKmax.GetValue() != 0 ? m_spineKmax : m_kmax;
    FABRIC_INPUT_ERROR_IF(spineKmin.GetValue() > spineKmax.GetValue(),
                          "ClosWorkloadHelper: the spines' Kmin "
                              << spineKmin << " is above their Kmax " << spineKmax
                              << " (SpineKmin, SpineKmax; 0 = Kmin, "
                                 "Kmax); valid is Kmin <= Kmax");
    FABRIC_INPUT_ERROR_IF(m_spinePmax < 0 && m_spinePmax != -1,
                          "ClosWorkloadHelper: SpinePmax="
                              << m_spinePmax
                              << " is invalid; valid values are [0, 1] "
                                 "and -1 (= Pmax)");
    FABRIC_INPUT_ERROR_IF(m_loadBase != "fabric" && m_loadBase != "host",
                          "ClosWorkloadHelper: LoadBase="
                              << m_loadBase
                              << " is invalid; valid values are fabric, "
                                 "host");
    FABRIC_INPUT_ERROR_IF(m_hostRate.GetBitRate() == 0 || m_fabricRate.GetBitRate() == 0,
                          "ClosWorkloadHelper: HostLinkDataRate="
                              << m_hostRate << ", FabricLinkDataRate=" << m_fabricRate
                              << " are invalid; both must be > 0");
    const std::string me = "ns3::ClosWorkloadHelper::";
    FabricTransportConfig::CheckTransport(m_transport, me + "Transport");
    UetTransportPlugin::CheckCongestionControlName(m_uetCc, me + "UetCongestionControl");
    UetTransportPlugin::CheckEvStrategy(m_evStrategy, me + "EvStrategy");
    FABRIC_INPUT_ERROR_IF(m_preset != "hpcc" && m_preset != "firmware" && m_preset != "paper" &&
                              m_preset != "none",
                          "ns3::ClosWorkloadHelper::DcqcnPreset=" << m_preset
                                                                  << " is invalid; valid values "
                                                                     "are hpcc, firmware, paper, "
                                                                     "none");
    Ptr<FabricTransportPlugin> transport = m_clos->GetTransport(m_transport);
    transport->CheckMtu(m_mtu, me + "Mtu");
    const uint32_t hosts = m_leaves * m_hostsPerLeaf;
    uint64_t fileFlows = 0;
    if (!m_flowFile.empty())
    {
        fileFlows = CheckFlowFile(m_flowFile, hosts);
    }
    const FlowSizeCdf cdf = m_flowFile.empty() ? LoadCdf(m_workload) : FlowSizeCdf();
    if (m_preset == "hpcc")
    {
        Config::SetDefault("ns3::DcqcnCongestionOps::G", DoubleValue(1.0 / 256));
        Config::SetDefault("ns3::DcqcnCongestionOps::RateIncreaseTimer",
                           TimeValue(MicroSeconds(900)));
        Config::SetDefault("ns3::DcqcnCongestionOps::RateAi", DataRateValue(DataRate("50Mbps")));
        Config::SetDefault("ns3::DcqcnCongestionOps::RateHai", DataRateValue(DataRate("100Mbps")));
    }
    else if (m_preset != "none")
    {
        DcqcnCongestionOps::SetPresetDefaults(m_preset); // aborts naming a bad preset
    }

    // Plain hosts (one NIC, no NVLink), one uplink from each leaf to each spine.
    m_clos->SetAttribute("Hosts", UintegerValue(m_leaves * m_hostsPerLeaf));
    m_clos->SetAttribute("ServersPerRack", UintegerValue(m_hostsPerLeaf));
    // Switch ports carry the NICs' largest packet: headroom sized for them, not 9 KB frames.
    m_clos->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    m_clos->SetAttribute("GpuLinkDataRate", DataRateValue(m_hostRate));
    m_clos->SetAttribute("GpuLinkDelay", TimeValue(m_delay));
    m_clos->SetAttribute("LeafSpineDataRate", DataRateValue(m_fabricRate));
    m_clos->SetAttribute("LeafSpineDelay", TimeValue(m_delay));
    m_clos->SetAttribute("Spines", UintegerValue(m_spines));
    const double down = double(m_hostsPerLeaf) * double(m_hostRate.GetBitRate());
    const double up = double(m_spines) * double(m_fabricRate.GetBitRate());
    m_clos->SetAttribute("Oversubscription", DoubleValue(std::max(1.0, down / up)));
    SwitchHelper& sw = m_clos->GetSwitchHelper();
    FABRIC_INPUT_ERROR_IF(m_loadBalancer == "te",
                          "ns3::ClosWorkloadHelper::LoadBalancer=te is invalid here: traffic "
                          "engineering plans a known flow matrix, and a Poisson flow workload has "
                          "none (examples/lb-compare plans collectives and permutations; a script "
                          "can give a FabricTeController its demands)");
    sw.SetLoadBalancerByName(m_loadBalancer, "ns3::ClosWorkloadHelper::LoadBalancer");
    sw.SetMmuAttribute("BufferSize", UintegerValue(m_buffer));
    sw.SetMmuAttribute("Alpha", DoubleValue(m_alpha));
    sw.SetEcnAttribute("Kmin", QueueSizeValue(m_kmin));
    sw.SetEcnAttribute("Kmax", QueueSizeValue(m_kmax));
    sw.SetEcnAttribute("Pmax", DoubleValue(m_pmax));
    sw.SetEcnAttribute("MarkingPoint", EnumValue(m_markingPoint));
    if (m_spineBuffer != 0)
    {
        m_clos->SetTierMmuAttribute(FabricNodeType::SPINE,
                                    "BufferSize",
                                    UintegerValue(m_spineBuffer));
    }
    if (m_spineKmin.GetValue() != 0 || m_spineKmax.GetValue() != 0 || m_spinePmax >= 0)
    {
        m_clos->SetTierEcnAttribute(FabricNodeType::SPINE, "Kmin", QueueSizeValue(spineKmin));
        m_clos->SetTierEcnAttribute(FabricNodeType::SPINE, "Kmax", QueueSizeValue(spineKmax));
        m_clos->SetTierEcnAttribute(FabricNodeType::SPINE,
                                    "Pmax",
                                    DoubleValue(m_spinePmax >= 0 ? m_spinePmax : m_pmax));
    }
    // RoCE: this helper's CongestionControl (a short name or any TypeId) on the topology's
    // default fabric; another transport: its plug-in's fabric set-up (FabricTransportConfig),
    // for UET with this helper's UetCongestionControl and EvStrategy.
    Ptr<FabricTransportConfig> config;
    if (Ptr<RoceTransportPlugin> roce = DynamicCast<RoceTransportPlugin>(transport))
    {
        RoceNicHelper& nic = roce->GetNicHelper();
        nic.SetCongestionControl(m_cc); // aborts naming an unknown algorithm
        nic.SetNicAttribute("Mtu", UintegerValue(m_mtu));
        nic.SetNicAttribute("AckInterval", UintegerValue(1));
        nic.AssignStreams(1);
    }
    else
    {
        config = CreateObject<FabricTransportConfig>();
        config->SetAttribute("Transport", StringValue(m_transport));
        Ptr<UetTransportPlugin> uet = DynamicCast<UetTransportPlugin>(transport);
        if (uet)
        {
            config->SetTransportAttribute("CongestionControl", StringValue(m_uetCc));
            config->SetTransportAttribute("EvStrategy", StringValue(m_evStrategy));
        }
        config->Configure(m_clos);
        if (uet)
        {
            uet->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(m_mtu));
        }
    }
    m_clos->Install();
    if (config)
    {
        config->Finish(m_clos);
    }

    const double share = m_loadBase == "host" ? 1.0 : std::min(1.0, up / down);
    m_loadBaseRate = DataRate(static_cast<uint64_t>(share * double(m_hostRate.GetBitRate())));
    if (m_flowFile.empty())
    {
        m_generator = CreateObject<FlowArrivalGenerator>();
        m_generator->SetAttribute("Load", DoubleValue(m_load));
        m_generator->SetAttribute("HostLinkRate", DataRateValue(m_loadBaseRate));
        m_generator->SetAttribute("StopTime", TimeValue(m_duration));
        m_generator->SetFlowSizeCdf(cdf);
        m_generator->SetNHosts(m_clos->GetNRanks());
        m_generator->AssignStreams(100);
        m_source = m_generator;
        m_expectedFlows = m_generator->GetArrivalRate() * m_duration.GetSeconds();
    }
    else
    {
        auto reader = CreateObject<FlowListReader>();
        reader->Open(m_flowFile);
        m_source = reader;
        m_expectedFlows = double(fileFlows);
    }
    m_runner = std::make_unique<FlowWorkloadRunner>(m_clos, m_source);
    m_runner->SetTransport(m_transport);
    m_queues = CreateObject<SwitchQueueSampler>();
    for (uint32_t i = 0; i < m_clos->GetNLeaves(); ++i)
    {
        m_queues->AddSwitch(m_clos->GetLeaf(i)->GetObject<FabricSwitch>(), "leaf");
    }
    for (uint32_t i = 0; i < m_clos->GetNSpines(); ++i)
    {
        m_queues->AddSwitch(m_clos->GetSpine(i)->GetObject<FabricSwitch>(), "spine");
    }
    if (m_timeline)
    {
        m_queues->SetTimelineStream(m_timeline);
    }
    m_runner->SetFinishedCallback(MakeCallback(&SwitchQueueSampler::Stop, m_queues));
    if (m_timelineDelay.IsStrictlyPositive())
    {
        m_runner->SetEndDelay(m_timelineDelay,
                              MakeCallback(&SwitchQueueSampler::EndHistograms, m_queues));
    }
    // Across MPI processes the last flow may finish in another process: samples from the
    // arrivals' end on wait until Gather() knows where.
    m_runner->SetArrivalsEndCallback(MakeCallback(&SwitchQueueSampler::Hold, m_queues));
}

void
ClosWorkloadHelper::Gather()
{
    FABRIC_INPUT_ERROR_IF(!m_runner, "ClosWorkloadHelper::Gather before Install");
    if (FabricMpi::GetSize() == 1)
    {
        return;
    }
    m_runner->Gather();
    uint64_t ts = 0;
    const CausalKey end = m_runner->GetEnd(&ts);
    m_queues->Settle(ts, end);
    m_queues->Gather();
}

void
ClosWorkloadHelper::SetTimelineStream(std::ostream* os)
{
    m_timeline = os;
    if (m_queues)
    {
        m_queues->SetTimelineStream(os);
    }
}

Ptr<SwitchQueueSampler>
ClosWorkloadHelper::GetQueueSampler() const
{
    return m_queues;
}

void
ClosWorkloadHelper::Start()
{
    FABRIC_INPUT_ERROR_IF(!m_runner, "ClosWorkloadHelper::Start before Install");
    m_queues->Start();
    m_runner->Start();
}

FlowWorkloadRunner&
ClosWorkloadHelper::GetRunner()
{
    FABRIC_INPUT_ERROR_IF(!m_runner, "ClosWorkloadHelper::GetRunner before Install");
    return *m_runner;
}

Ptr<FlowArrivalGenerator>
ClosWorkloadHelper::GetGenerator() const
{
    return m_generator;
}

double
ClosWorkloadHelper::GetExpectedFlows() const
{
    return m_expectedFlows;
}

uint64_t
ClosWorkloadHelper::CheckFlowFile(const std::string& path, uint32_t hosts)
{
    std::ifstream in(path);
    FABRIC_INPUT_ERROR_IF(!in,
                          "ns3::ClosWorkloadHelper::FlowFile: cannot read flow list file '" << path
                                                                                            << "'");
    FlowListParser parser(path);
    uint64_t flows = 0;
    std::string line;
    while (std::getline(in, line))
    {
        std::optional<FlowSpec> flow;
        std::string error;
        FABRIC_INPUT_ERROR_IF(!parser.ParseLine(line, flow, error), error);
        if (!flow)
        {
            continue;
        }
        FABRIC_INPUT_ERROR_IF(flow->src >= hosts || flow->dst >= hosts,
                              path << ":" << parser.GetLine() << ": host "
                                   << std::max(flow->src, flow->dst) << " is not in the fabric ("
                                   << hosts << " hosts: 0.." << hosts - 1 << ")");
        ++flows;
    }
    return flows;
}

DataRate
ClosWorkloadHelper::GetLoadBaseRate() const
{
    return m_loadBaseRate;
}

} // namespace ns3
