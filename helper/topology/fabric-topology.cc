/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricTopologyHelper, part 1 of 4: the attributes, the helpers of the parts (ports, switches,
 * transports) and the plan with its validation. Install() is in fabric-topology-install.cc,
 * the lookups and connections in fabric-topology-access.cc, the summary, exports and link
 * failures in fabric-topology-export.cc.
 */
#include "fabric-topology.h"

#include "fabric-aggregate-counters.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-time.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/pfc-channel.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(FabricTopologyHelper);

const char*
FabricNodeTypeName(FabricNodeType type)
{
    switch (type)
    {
    case FabricNodeType::GPU:
        return "gpu";
    case FabricNodeType::NVSWITCH:
        return "nvswitch";
    case FabricNodeType::LEAF:
        return "leaf";
    case FabricNodeType::SPINE:
        return "spine";
    case FabricNodeType::CORE:
        return "core";
    default:
        return "unknown";
    }
}

const char*
FabricLinkTierName(FabricLinkTier tier)
{
    switch (tier)
    {
    case FabricLinkTier::NVLINK:
        return "gpu-nvswitch";
    case FabricLinkTier::GPU_LEAF:
        return "gpu-leaf";
    case FabricLinkTier::LEAF_SPINE:
        return "leaf-spine";
    case FabricLinkTier::SPINE_CORE:
        return "spine-core";
    default:
        return "unknown";
    }
}

TypeId
FabricTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute("Servers",
                          "Number of servers (>= 1). Default 32: one DGX H100 SuperPOD "
                          "scalable unit.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&FabricTopologyHelper::m_servers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GpusPerServer",
                          "GPUs per server (>= 1); GPU i of a server uses rail i. Default 8 "
                          "(DGX H100).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricTopologyHelper::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NicPortsPerGpu",
                          "Scale-out NIC ports per GPU (>= 1): 1 = one single-port NIC per "
                          "GPU (DGX H100 ConnectX-7); 2 = dual-port NIC cabled to two leaves "
                          "(planes). The NVLink port comes after them.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FabricTopologyHelper::m_portsPerGpu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GpuLinkDataRate",
                          "Rate of each GPU NIC port to leaf cable (> 0). Default 400 Gb/s "
                          "(ConnectX-7, DGX H100).",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&FabricTopologyHelper::m_gpuLinkRate),
                          MakeDataRateChecker())
            .AddAttribute("GpuLinkDelay",
                          "Propagation delay of each GPU to leaf cable (>= 0). Default 1 us, "
                          "the usual data-center simulation setting (HPCC, Li et al. 2019); "
                          "a 5-50 m cable is 25-250 ns plus PHY/FEC latency.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&FabricTopologyHelper::m_gpuLinkDelay),
                          MakeTimeChecker())
            .AddAttribute("NvLinkDataRate",
                          "Data rate of each GPU to NVSwitch link, per direction (> 0). "
                          "Default 2966.4 Gb/s = 370.8 GB/s per GPU: what an H100 sustains "
                          "over its 18 NVLink 4 links, 20.6 GB/s each in NCCL's sm90 "
                          "topology model (the 450 GB/s signalling rate carries flit "
                          "overhead); the 8-GPU ring's measured ceiling.",
                          DataRateValue(DataRate("2966.4Gbps")),
                          MakeDataRateAccessor(&FabricTopologyHelper::m_nvLinkRate),
                          MakeDataRateChecker())
            .AddAttribute("NvLinkDelay",
                          "One-way latency of each GPU to NVSwitch hop (>= 0). Default 150 ns: "
                          "an assumption (no published per-hop figure); a GPU to GPU transfer "
                          "crosses two hops plus the NVSwitch ProcessingDelay.",
                          TimeValue(NanoSeconds(150)),
                          MakeTimeAccessor(&FabricTopologyHelper::m_nvLinkDelay),
                          MakeTimeChecker())
            .AddAttribute("ScaleOutNetwork",
                          "Base of the scale-out NIC port addresses: port p of rank r is "
                          "base + 1 + r x NicPortsPerGpu + p (default 10.0.0.0, a /9).",
                          Ipv4AddressValue(Ipv4Address("10.0.0.0")),
                          MakeIpv4AddressAccessor(&FabricTopologyHelper::m_scaleOutNet),
                          MakeIpv4AddressChecker())
            .AddAttribute("NvLinkNetwork",
                          "Base of the NVLink port addresses: rank r is base + 1 + r "
                          "(default 10.128.0.0, a /9). Must not overlap the scale-out range.",
                          Ipv4AddressValue(Ipv4Address("10.128.0.0")),
                          MakeIpv4AddressAccessor(&FabricTopologyHelper::m_nvLinkNet),
                          MakeIpv4AddressChecker())
            .AddAttribute("NvLink",
                          "Give every server an NVSwitch and every GPU an NVLink port cabled "
                          "to it (default true). false: plain hosts, only the NicPortsPerGpu "
                          "scale-out ports; GPUs of one server talk through their leaf.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricTopologyHelper::m_nvLink),
                          MakeBooleanChecker())
            .AddAttribute("PortMtu",
                          "Mtu (largest IPv4 packet, bytes, 68..9216) of every port, NIC and "
                          "switch; the switches size their PFC headroom for frames of it. 0 "
                          "(default) = the port helper's ns3::PfcNetDevice::Mtu (9000 unless "
                          "changed). Must carry the transports' packets (see "
                          "PortMtuFromTransport); Install() aborts naming both otherwise.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricTopologyHelper::m_portMtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PortMtuFromTransport",
                          "true: every port's Mtu is the largest IPv4 packet the installed "
                          "transports send (RoCE path MTU + 64 B, UET Mtu + 88 B; e.g. 1088 B "
                          "for RoceNic Mtu 1024), so switch headroom is sized for the frames "
                          "the fabric carries. Ignored when PortMtu is set. Default false "
                          "(the port helper's Mtu).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricTopologyHelper::m_portMtuFromTransport),
                          MakeBooleanChecker())
            .AddAttribute("MemoryLimit",
                          "Most memory, bytes, the planned fabric may need (estimated before "
                          "anything is built, see EstimateMemoryBytes); a larger plan is "
                          "refused with the estimate. 0 = the memory available on this "
                          "machine (MemAvailable).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricTopologyHelper::m_memoryLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Transports",
                          "Transports Install() puts on every GPU's NIC core, by their "
                          "FabricTransportPlugin names joined by '+': \"roce\" (a RoceNic, "
                          "GetNicHelper()), \"uet\" (an Ultra Ethernet UetNic, "
                          "GetUetNicHelper()), \"roce+uet\" (both on the same core), or any "
                          "registered plug-in.",
                          StringValue("roce"),
                          MakeStringAccessor(&FabricTopologyHelper::m_transports),
                          MakeFabricChecker<StringValue>(
                              MakeStringChecker(),
                              "ns3::FabricTopologyHelper::Transports",
                              &FabricTransportPlugin::IsValidList,
                              "registered transport plug-ins joined by '+', each once (roce, "
                              "uet, roce+uet, ...)",
                              [](const std::string& s) { return "\"" + s + "\""; }))
            .AddAttribute("Systems",
                          "MPI processes (ns-3 systems) the fabric is split into "
                          "(FabricPartition, PartitionBy): 0 (default) = one per process of "
                          "the MPI run (1 without MPI). Any other value must equal the run's "
                          "number of processes.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricTopologyHelper::m_systems),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "PartitionBy",
                "Which cables may cross between MPI processes: Leaf (groups of "
                "leaves with their servers; leaf-spine and spine-core cables cross) "
                "or Pod (three-tier fabrics: pods with their spines; only spine-core "
                "cables cross). GPU-leaf and NVLink cables never cross.",
                EnumValue(PARTITION_BY_LEAF),
                compat::MakeEnumAccessor<FabricPartitionBy>(&FabricTopologyHelper::m_partitionBy),
                MakeEnumChecker(PARTITION_BY_LEAF, "Leaf", PARTITION_BY_POD, "Pod"))
            .AddAttribute("DeadlockDetection",
                          "Install() watches every switch for PFC deadlocks "
                          "(EnableDeadlockDetection(); ns3::PfcDeadlockDetector attributes). "
                          "Default false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricTopologyHelper::m_deadlockDetection),
                          MakeBooleanChecker())
            .AddTraceSource("LinkState",
                            "A cable was cut or restored with SetLinkUp (after the routes were "
                            "recomputed): link index, up.",
                            MakeTraceSourceAccessor(&FabricTopologyHelper::m_linkStateTrace),
                            "ns3::FabricTopologyHelper::LinkStateCallback");
    return tid;
}

FabricTopologyHelper::FabricTopologyHelper()
    : m_servers(32),
      m_gpusPerServer(8),
      m_portsPerGpu(1),
      m_gpuLinkRate("400Gbps"),
      m_gpuLinkDelay(MicroSeconds(1)),
      m_nvLinkRate("2966.4Gbps"),
      m_nvLinkDelay(NanoSeconds(150)),
      m_scaleOutNet("10.0.0.0"),
      m_nvLinkNet("10.128.0.0"),
      m_nvLink(true),
      m_portMtu(0),
      m_portMtuFromTransport(false),
      m_transports("roce"),
      m_deadlockDetection(false),
      m_systems(0),
      m_partitionBy(PARTITION_BY_LEAF),
      m_tierLinks{},
      m_nLeaves(0),
      m_nSpines(0),
      m_nCores(0),
      m_leafOversubscription(0),
      m_firstNodeId(0),
      m_installed(false),
      m_memoryLimit(0)
{
    // NVLink is not an Ethernet hop: NVSwitches add no HPCC INT record (FabricSwitch
    // InBandTelemetry), so HPCC runs on fabrics with NVLink-rate links.
    m_nvSwitchHelper.SetSwitchAttribute("InBandTelemetry", BooleanValue(false));
    // The default transports' plug-ins exist from the start, as their NIC helpers always did
    // (a RoCE QP connector draws a random stream number when it is made).
    GetTransports();
}

FabricTopologyHelper::~FabricTopologyHelper() = default;

void
FabricTopologyHelper::DoDispose()
{
    m_nics.clear();
    m_uetNics.clear();
    m_cores.clear();
    if (m_deadlockDetector)
    {
        m_deadlockDetector->Dispose();
        m_deadlockDetector = nullptr;
    }
    if (m_monitor)
    {
        m_monitor->Dispose();
        m_monitor = nullptr;
    }
    if (m_routes)
    {
        m_routes->Dispose();
        m_routes = nullptr;
    }
    m_gpus = NodeContainer();
    m_nvSwitches = NodeContainer();
    m_switches = NodeContainer();
    Object::DoDispose();
}

PfcHelper&
FabricTopologyHelper::GetPortHelper()
{
    return m_portHelper;
}

SwitchHelper&
FabricTopologyHelper::GetSwitchHelper()
{
    return m_switchHelper;
}

SwitchHelper&
FabricTopologyHelper::GetNvSwitchHelper()
{
    return m_nvSwitchHelper;
}

RoceNicHelper&
FabricTopologyHelper::GetNicHelper()
{
    return DynamicCast<RoceTransportPlugin>(
               m_transportSet.GetOfType(RoceTransportPlugin::GetTypeId()))
        ->GetNicHelper();
}

UetNicHelper&
FabricTopologyHelper::GetUetNicHelper()
{
    return DynamicCast<UetTransportPlugin>(
               m_transportSet.GetOfType(UetTransportPlugin::GetTypeId()))
        ->GetNicHelper();
}

Ptr<FabricTransportPlugin>
FabricTopologyHelper::GetTransport(const std::string& name) const
{
    return m_transportSet.Get(name, GetInstanceTypeId().GetName() + "::GetTransport: transport");
}

std::vector<Ptr<FabricTransportPlugin>>
FabricTopologyHelper::GetTransports() const
{
    return m_transportSet.Select(m_transports, GetInstanceTypeId().GetName() + "::Transports");
}

std::size_t
FabricTopologyHelper::TierIndex(FabricNodeType tier, const char* what) const
{
    FABRIC_INPUT_ERROR_IF(tier != FabricNodeType::LEAF && tier != FabricNodeType::SPINE &&
                              tier != FabricNodeType::CORE,
                          GetInstanceTypeId().GetName()
                              << "::" << what << ": tier " << FabricNodeTypeName(tier)
                              << " has no switch settings; valid tiers are leaf, spine, core "
                                 "(NVSwitches: GetNvSwitchHelper())");
    return size_t(tier) - size_t(FabricNodeType::LEAF);
}

void
FabricTopologyHelper::SetTierSwitchAttribute(FabricNodeType tier,
                                             std::string name,
                                             const AttributeValue& value)
{
    m_tierSwitchSettings[TierIndex(tier, "SetTierSwitchAttribute")].Set(SwitchSettings::SWITCH,
                                                                        name,
                                                                        value);
}

void
FabricTopologyHelper::SetTierMmuAttribute(FabricNodeType tier,
                                          std::string name,
                                          const AttributeValue& value)
{
    m_tierSwitchSettings[TierIndex(tier, "SetTierMmuAttribute")].Set(SwitchSettings::MMU,
                                                                     name,
                                                                     value);
}

void
FabricTopologyHelper::SetTierEcnAttribute(FabricNodeType tier,
                                          std::string name,
                                          const AttributeValue& value)
{
    m_tierSwitchSettings[TierIndex(tier, "SetTierEcnAttribute")].Set(SwitchSettings::ECN,
                                                                     name,
                                                                     value);
}

SwitchHelper
FabricTopologyHelper::GetTierSwitchHelper(FabricNodeType tier) const
{
    SwitchHelper helper = m_switchHelper;
    m_tierSwitchSettings[TierIndex(tier, "GetTierSwitchHelper")].ApplyTo(helper);
    return helper;
}

uint32_t
FabricTopologyHelper::TransportDeviceMtu() const
{
    uint32_t mtu = 0;
    for (const auto& t : GetTransports())
    {
        mtu = std::max(mtu, t->GetDeviceMtu());
    }
    return mtu;
}

uint32_t
FabricTopologyHelper::GetPortMtu() const
{
    const std::string name = GetInstanceTypeId().GetName();
    if (m_portMtu != 0)
    {
        FABRIC_INPUT_ERROR_IF(m_portMtu < 68 || m_portMtu > 9216,
                              name << ": PortMtu=" << m_portMtu
                                   << " is invalid; valid range is 68..9216 bytes (0 = the port "
                                      "helper's ns3::PfcNetDevice::Mtu)");
        const uint32_t need = TransportDeviceMtu();
        FABRIC_INPUT_ERROR_IF(
            m_portMtu < need,
            name << ": PortMtu=" << m_portMtu << " cannot carry the packets of the " << m_transports
                 << " NICs (largest IPv4 packet " << need << " B); use PortMtu >= " << need
                 << " or PortMtuFromTransport=true");
        return m_portMtu;
    }
    if (m_portMtuFromTransport)
    {
        return TransportDeviceMtu();
    }
    if (m_installed)
    {
        return m_gpus.Get(0)->GetDevice(0)->GetMtu();
    }
    TypeId::AttributeInformation info;
    PfcNetDevice::GetTypeId().LookupAttributeByName("Mtu", &info);
    return static_cast<uint32_t>(DynamicCast<const UintegerValue>(info.initialValue)->Get());
}

// ---- planning API --------------------------------------------------------------------------

void
FabricTopologyHelper::SetSwitchCounts(uint32_t nLeaves, uint32_t nSpines, uint32_t nCores)
{
    FABRIC_INPUT_ERROR_IF(nLeaves == 0, GetInstanceTypeId().GetName() << ": the plan has no leaf");
    m_nLeaves = nLeaves;
    m_nSpines = nSpines;
    m_nCores = nCores;
}

void
FabricTopologyHelper::SetTier(FabricLinkTier tier,
                              DataRate rate,
                              Time delay,
                              const std::string& attribute)
{
    FABRIC_INPUT_ERROR_IF(rate.GetBitRate() == 0,
                          GetInstanceTypeId().GetName()
                              << ": " << attribute << "=0bps is invalid; a link needs a rate > 0");
    FABRIC_INPUT_ERROR_IF(delay.IsStrictlyNegative(),
                          GetInstanceTypeId().GetName()
                              << ": the " << FabricLinkTierName(tier) << " delay " << delay
                              << " is invalid; it must be >= 0");
    m_tierRate[size_t(tier)] = rate;
    m_tierDelay[size_t(tier)] = delay;
}

void
FabricTopologyHelper::AddFabricLink(uint32_t a, uint32_t b, FabricLinkTier tier)
{
    uint32_t n = m_nLeaves + m_nSpines + m_nCores;
    FABRIC_INPUT_ERROR_IF(a >= n || b >= n || a == b,
                          GetInstanceTypeId().GetName() << ": planned link " << a << "-" << b
                                                        << " names a switch outside 0.." << n - 1);
    m_planned.push_back(PlannedLink{a, b, tier});
}

void
FabricTopologyHelper::SetLeafCapacity(double down, double up)
{
    m_leafOversubscription = up > 0 ? down / up : 0.0;
}

uint32_t
FabricTopologyHelper::UplinksFor(uint32_t down,
                                 DataRate downRate,
                                 DataRate upRate,
                                 double oversubscription)
{
    if (down == 0)
    {
        return 0;
    }
    double up = double(down) * double(downRate.GetBitRate()) /
                (oversubscription * double(upRate.GetBitRate()));
    // Tolerate rounding of exact ratios (e.g. 32 x 400G / (1 x 400G) = 32.000000001).
    auto n = static_cast<uint64_t>(std::ceil(up - 1e-9));
    return static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(n, UINT32_MAX)));
}

uint32_t
FabricTopologyHelper::PlanUpperTier(uint32_t requested,
                                    const std::string& countAttr,
                                    uint32_t uplinks,
                                    uint32_t nLower,
                                    const std::string& lowerName,
                                    uint32_t upperPorts,
                                    const std::string& portsAttr) const
{
    std::string name = GetInstanceTypeId().GetName();
    FABRIC_INPUT_ERROR_IF(uplinks == 0, name << ": no uplinks to spread over " << countAttr);
    // Smallest divisor of the uplinks whose switches have enough ports.
    uint32_t fit = 0;
    for (uint32_t d = 1; d <= uplinks && fit == 0; ++d)
    {
        if (uplinks % d == 0 && uint64_t(nLower) * (uplinks / d) <= upperPorts)
        {
            fit = d;
        }
    }
    if (requested == 0)
    {
        FABRIC_INPUT_ERROR_IF(fit == 0,
                              name << ": no " << countAttr << " count fits: " << nLower << " "
                                   << lowerName << " x " << uplinks << " uplinks must reach every "
                                   << "upper switch, so each needs at least " << nLower
                                   << " ports, but " << portsAttr << "=" << upperPorts << "; raise "
                                   << portsAttr << " to >= " << nLower << " or use at most "
                                   << upperPorts << " " << lowerName);
        return fit;
    }
    FABRIC_INPUT_ERROR_IF(uplinks % requested != 0,
                          name << ": " << countAttr << "=" << requested
                               << " cannot take the uplinks evenly: each of the " << nLower << " "
                               << lowerName << " has " << uplinks << " uplinks, so " << countAttr
                               << " must divide " << uplinks << " (" << Divisors(uplinks) << ")");
    uint64_t need = uint64_t(nLower) * (uplinks / requested);
    if (need > upperPorts)
    {
        std::ostringstream hint;
        if (fit != 0)
        {
            hint << "use " << countAttr << "=" << fit << " or ";
        }
        hint << "raise " << portsAttr << " to >= " << need;
        FABRIC_INPUT_ERROR(name << ": too few ports: " << countAttr << "=" << requested
                                << " would need " << need << " ports each (" << nLower << " "
                                << lowerName << " x " << uplinks / requested << " cables) but "
                                << portsAttr << "=" << upperPorts << "; " << hint.str());
    }
    return requested;
}

std::string
FabricTopologyHelper::Divisors(uint32_t n)
{
    std::ostringstream os;
    bool first = true;
    for (uint32_t d = 1; d <= n; ++d)
    {
        if (n % d == 0)
        {
            os << (first ? "" : ", ") << d;
            first = false;
        }
    }
    return os.str();
}

std::string
FabricTopologyHelper::SwitchName(uint32_t index) const
{
    std::ostringstream os;
    if (index < m_nLeaves)
    {
        os << "leaf" << index;
    }
    else if (index < m_nLeaves + m_nSpines)
    {
        os << "spine" << index - m_nLeaves;
    }
    else
    {
        os << "core" << index - m_nLeaves - m_nSpines;
    }
    return os.str();
}

// ---- validation ----------------------------------------------------------------------------

void
FabricTopologyHelper::CheckInstalled(const char* what) const
{
    FABRIC_INPUT_ERROR_IF(!m_installed,
                          GetInstanceTypeId().GetName()
                              << "::" << what
                              << " called before Install(); build the fabric first");
}

void
FabricTopologyHelper::CheckRank(uint32_t rank, const char* what) const
{
    FABRIC_INPUT_ERROR_IF(rank >= GetNRanks(),
                          GetInstanceTypeId().GetName()
                              << "::" << what << ": rank " << rank << " does not exist (ranks 0.."
                              << int64_t(GetNRanks()) - 1 << ")");
}

void
FabricTopologyHelper::CheckCommon() const
{
    std::string name = GetInstanceTypeId().GetName();
    FABRIC_INPUT_ERROR_IF(m_servers == 0,
                          name << ": Servers=0 is invalid; a fabric needs at least 1 server");
    FABRIC_INPUT_ERROR_IF(m_gpusPerServer == 0,
                          name << ": GpusPerServer=0 is invalid; a server needs at least 1 GPU "
                                  "(DGX H100: 8)");
    FABRIC_INPUT_ERROR_IF(m_portsPerGpu == 0,
                          name << ": NicPortsPerGpu=0 is invalid; every GPU needs at least 1 "
                                  "scale-out NIC port (1 = single-port, 2 = dual-port)");
    FABRIC_INPUT_ERROR_IF(
        m_gpuLinkRate.GetBitRate() == 0,
        name << ": GpuLinkDataRate=0bps is invalid; it must be > 0 (e.g. 400Gbps)");
    FABRIC_INPUT_ERROR_IF(
        m_nvLinkRate.GetBitRate() == 0,
        name << ": NvLinkDataRate=0bps is invalid; it must be > 0 (e.g. 3600Gbps)");
    FABRIC_INPUT_ERROR_IF(m_gpuLinkDelay.IsStrictlyNegative(),
                          name << ": GpuLinkDelay=" << m_gpuLinkDelay
                               << " is invalid; it must be >= 0");
    FABRIC_INPUT_ERROR_IF(m_nvLinkDelay.IsStrictlyNegative(),
                          name << ": NvLinkDelay=" << m_nvLinkDelay
                               << " is invalid; it must be >= 0");
    uint64_t ranks = uint64_t(m_servers) * m_gpusPerServer;
    uint64_t ports = ranks * m_portsPerGpu;
    FABRIC_INPUT_ERROR_IF(
        ports > SwitchForwardingTable::MAX_SPAN,
        name << ": Servers=" << m_servers << " x GpusPerServer=" << m_gpusPerServer
             << " x NicPortsPerGpu=" << m_portsPerGpu << " = " << ports << " NIC ports exceed the "
             << SwitchForwardingTable::MAX_SPAN << " addresses a forwarding table can span");
    uint64_t so0 = uint64_t(m_scaleOutNet.Get()) + 1;
    uint64_t so1 = so0 + ports; // one past the last
    uint64_t nv0 = uint64_t(m_nvLinkNet.Get()) + 1;
    uint64_t nv1 = nv0 + ranks;
    FABRIC_INPUT_ERROR_IF(so1 > (1ull << 32) || (m_nvLink && nv1 > (1ull << 32)),
                          name << ": the address ranges run past 255.255.255.255; lower "
                                  "ScaleOutNetwork/NvLinkNetwork");
    FABRIC_INPUT_ERROR_IF(
        m_nvLink && so0 < nv1 && nv0 < so1,
        name << ": ScaleOutNetwork=" << m_scaleOutNet << " (" << ports
             << " addresses) overlaps NvLinkNetwork=" << m_nvLinkNet << " (" << ranks
             << " addresses); choose disjoint ranges, e.g. 10.0.0.0 and 10.128.0.0");
}

void
FabricTopologyHelper::WarnIgnoredPlacement() const
{
    TypeId::AttributeInformation info;
    const auto transports = GetTransports();
    const bool roce = std::any_of(transports.begin(), transports.end(), [](const auto& t) {
        return t->GetInstanceTypeId() == RoceTransportPlugin::GetTypeId();
    });
    if (roce || !RoceNic::GetTypeId().LookupAttributeByName("OutOfOrderWindow", &info) ||
        info.initialValue->SerializeToString(info.checker) ==
            info.originalInitialValue->SerializeToString(info.checker))
    {
        return;
    }
    std::cerr << "ai-fabric warning: " << GetInstanceTypeId().GetName()
              << ": ns3::RoceNic::OutOfOrderWindow="
              << info.initialValue->SerializeToString(info.checker)
              << " is ignored: this fabric has no RoCE NICs (Transports=" << m_transports
              << "), and Ultra Ethernet's RUD delivers out-of-order packets by design\n";
}

void
FabricTopologyHelper::WarnIgnoredPortDefaults() const
{
    // (class, attribute, suffix of this helper's attributes that set it per tier)
    static const std::array<std::array<const char*, 3>, 2> perTier = {
        {{"ns3::PfcNetDevice", "DataRate", "DataRate"}, {"ns3::PfcChannel", "Delay", "Delay"}}};
    for (const auto& [cls, attr, suffix] : perTier)
    {
        TypeId::AttributeInformation info;
        if (!TypeId::LookupByName(cls).LookupAttributeByName(attr, &info))
        {
            continue;
        }
        if (info.initialValue->SerializeToString(info.checker) ==
            info.originalInitialValue->SerializeToString(info.checker))
        {
            continue;
        }
        auto time = DynamicCast<const TimeValue>(info.initialValue);
        const std::string now = time ? FabricFormatTime(time->Get())
                                     : info.initialValue->SerializeToString(info.checker);
        // The attributes of this helper and its parents that set it, e.g. GpuLinkDataRate.
        std::ostringstream tiers;
        const std::string end(suffix);
        for (TypeId t = GetInstanceTypeId(); t != Object::GetTypeId(); t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                const std::string& name = t.GetAttribute(i).name;
                if (name.size() > end.size() &&
                    name.compare(name.size() - end.size(), end.size(), end) == 0)
                {
                    tiers << (tiers.tellp() > 0 ? ", " : "") << t.GetAttributeFullName(i);
                }
            }
        }
        std::cerr << "ai-fabric warning: " << GetInstanceTypeId().GetName() << ": " << cls
                  << "::" << attr << "=" << now << " is ignored: the topology sets every "
                  << (end == "Delay" ? "cable's delay" : "port's rate") << " per link tier; set "
                  << tiers.str() << " instead\n";
    }
}

} // namespace ns3
