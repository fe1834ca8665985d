/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-topology.h"

#include "fabric-aggregate-counters.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-time.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/pfc-channel.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

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

namespace
{

/// Seconds elapsed since \p start (wall clock).
double
Since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A rate in bits/s as "400 Gb/s", "3.6 Tb/s", "51.2 Tb/s".
std::string
FormatRate(double bps)
{
    std::ostringstream os;
    os << std::setprecision(6);
    if (bps >= 1e12)
    {
        os << bps / 1e12 << " Tb/s";
    }
    else if (bps >= 1e9)
    {
        os << bps / 1e9 << " Gb/s";
    }
    else if (bps >= 1e6)
    {
        os << bps / 1e6 << " Mb/s";
    }
    else
    {
        os << bps << " b/s";
    }
    return os.str();
}

/// A delay as "150 ns", "1 us".
std::string
FormatDelay(Time t)
{
    std::ostringstream os;
    os << std::setprecision(4);
    double ns = t.ToDouble(Time::NS);
    if (ns >= 1000)
    {
        os << ns / 1000 << " us";
    }
    else
    {
        os << ns << " ns";
    }
    return os.str();
}

} // namespace

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
                              [](const std::string& s) { return "\"" + s + "\""; }));
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

// ---- build ---------------------------------------------------------------------------------

void
FabricTopologyHelper::MakeLink(FabricLinkTier tier, uint32_t globalA, uint32_t globalB)
{
    NetDeviceContainer d =
        m_tierHelper[size_t(tier)].Install(GlobalNode(globalA), GlobalNode(globalB));
    m_links.push_back(Link{globalA, globalB, d.Get(0)->GetIfIndex(), d.Get(1)->GetIfIndex(), tier});
    m_tierLinks[size_t(tier)]++;
}

void
FabricTopologyHelper::Install()
{
    FABRIC_INPUT_ERROR_IF(m_installed,
                          GetInstanceTypeId().GetName()
                              << "::Install called twice; create a new helper for another fabric");
    auto start = std::chrono::steady_clock::now();
    DoConfigure();
    CheckCommon();
    // 0 = the port helper's Mtu; checked now, before anything is built.
    const uint32_t portMtu = m_portMtu != 0 || m_portMtuFromTransport ? GetPortMtu() : 0;
    WarnIgnoredPortDefaults();
    m_tierRate.fill(DataRate(0));
    m_tierDelay.fill(Time(0));
    m_tierLinks.fill(0);
    m_tierRate[size_t(FabricLinkTier::NVLINK)] = m_nvLinkRate;
    m_tierDelay[size_t(FabricLinkTier::NVLINK)] = m_nvLinkDelay;
    m_tierRate[size_t(FabricLinkTier::GPU_LEAF)] = m_gpuLinkRate;
    m_tierDelay[size_t(FabricLinkTier::GPU_LEAF)] = m_gpuLinkDelay;
    m_planned.clear();
    m_nLeaves = 0;
    m_leafOversubscription = 0;
    DoPlan();
    FABRIC_INPUT_ERROR_IF(m_nLeaves == 0,
                          GetInstanceTypeId().GetName() << ": DoPlan did not call SetSwitchCounts");

    const uint32_t nRanks = GetNRanks();
    const uint32_t k = m_portsPerGpu;
    m_attachLeaf.resize(uint64_t(nRanks) * k);
    m_attachPort.assign(uint64_t(nRanks) * k, 0);
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            uint32_t leaf = DoGetLeafIndex(r / m_gpusPerServer, r % m_gpusPerServer, p);
            FABRIC_INPUT_ERROR_IF(leaf >= m_nLeaves,
                                  GetInstanceTypeId().GetName()
                                      << ": rank " << r << " port " << p << " planned on leaf "
                                      << leaf << " of " << m_nLeaves);
            m_attachLeaf[uint64_t(r) * k + p] = leaf;
        }
    }

    // Refuse a plan that cannot fit before building any of it.
    const uint32_t nSwitches = m_nLeaves + m_nSpines + m_nCores;
    const uint32_t nNv = NvSwitchCount();
    const uint32_t nvPorts = m_nvLink ? 1 : 0;
    const uint64_t nNodes = uint64_t(nRanks) + nNv + nSwitches;
    const uint64_t nCables = uint64_t(nRanks) * (k + nvPorts) + m_planned.size();
    m_stats.estimatedBytes = EstimateMemoryBytes(nNodes, nCables, uint64_t(nSwitches) * nRanks * k);
    const uint64_t limit = m_memoryLimit > 0 ? m_memoryLimit : GetAvailableMemoryBytes();
    FABRIC_INPUT_ERROR_IF(
        limit > 0 && m_stats.estimatedBytes > limit,
        GetInstanceTypeId().GetName()
            << ": the planned fabric (" << nNodes << " nodes, " << nCables << " cables, "
            << nSwitches << " scale-out switches x " << nRanks * k
            << " NIC addresses of forwarding entries) needs an estimated "
            << m_stats.estimatedBytes / (1 << 20) << " MiB, more than the " << limit / (1 << 20)
            << " MiB " << (m_memoryLimit > 0 ? "of MemoryLimit" : "available on this machine")
            << "; plan fewer servers or switches (or raise MemoryLimit)");

    // Nodes: GPUs, NVSwitches, then leaves, spines, cores, with consecutive ids.
    auto t = std::chrono::steady_clock::now();
    m_gpus.Create(nRanks);
    m_nvSwitches.Create(nNv);
    m_switches.Create(nSwitches);
    m_firstNodeId = m_gpus.Get(0)->GetId();
    FABRIC_INPUT_ERROR_IF(m_switches.Get(nSwitches - 1)->GetId() !=
                              m_firstNodeId + nRanks + nNv + nSwitches - 1,
                          GetInstanceTypeId().GetName()
                              << ": node ids are not consecutive (nodes created concurrently?)");
    m_stats.nodesSeconds = Since(t);

    // Cables: per rank its scale-out ports then its NVLink port (so device index = NIC port
    // index, leaf ports follow server order and NVSwitch port = local index), then the
    // switch-to-switch cables in plan order.
    t = std::chrono::steady_clock::now();
    for (size_t i = 0; i < m_tierHelper.size(); ++i)
    {
        m_tierHelper[i] = m_portHelper;
        m_tierHelper[i].SetDeviceAttribute("DataRate", DataRateValue(m_tierRate[i]));
        m_tierHelper[i].SetChannelAttribute("Delay", TimeValue(m_tierDelay[i]));
        if (portMtu != 0)
        {
            m_tierHelper[i].SetDeviceAttribute("Mtu", UintegerValue(portMtu));
        }
    }
    const uint32_t swBase = nRanks + nNv;
    m_links.reserve(uint64_t(nRanks) * (k + nvPorts) + m_planned.size());
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            MakeLink(FabricLinkTier::GPU_LEAF, r, swBase + m_attachLeaf[uint64_t(r) * k + p]);
            m_attachPort[uint64_t(r) * k + p] = m_links.back().portB;
        }
        if (m_nvLink)
        {
            MakeLink(FabricLinkTier::NVLINK, r, nRanks + r / m_gpusPerServer);
        }
    }
    for (const auto& l : m_planned)
    {
        MakeLink(l.tier, swBase + l.a, swBase + l.b);
    }
    m_planned.clear();
    m_planned.shrink_to_fit();
    m_stats.linksSeconds = Since(t);

    t = std::chrono::steady_clock::now();
    for (uint32_t s = 0; s < nNv; ++s)
    {
        m_nvSwitchHelper.Install(m_nvSwitches.Get(s));
    }
    // Leaves, spines and cores each with the common helper plus their tier's settings.
    std::array<SwitchHelper, 3> tierSwitchHelper{GetTierSwitchHelper(FabricNodeType::LEAF),
                                                 GetTierSwitchHelper(FabricNodeType::SPINE),
                                                 GetTierSwitchHelper(FabricNodeType::CORE)};
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        const size_t tier = i < m_nLeaves ? 0 : (i < m_nLeaves + m_nSpines ? 1 : 2);
        tierSwitchHelper[tier].Install(m_switches.Get(i));
    }
    // Every switch port cabled to a NIC is a last-hop port: a packet trimmed on its way out
    // gets the MMU's LastHopTrimDscp (UET: NACK TRIMMED_LASTHOP instead of TRIMMED).
    for (const auto& l : m_links)
    {
        if (l.tier == FabricLinkTier::GPU_LEAF || l.tier == FabricLinkTier::NVLINK)
        {
            GlobalNode(l.b)->GetObject<FabricSwitch>()->SetLastHopPort(l.portB, true);
        }
    }
    m_stats.switchesSeconds = Since(t);

    t = std::chrono::steady_clock::now();
    m_nics.resize(nRanks);
    m_uetNics.resize(nRanks);
    m_cores.resize(nRanks);
    const std::vector<Ptr<FabricTransportPlugin>> transports = GetTransports();
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        Ptr<Node> gpu = m_gpus.Get(r);
        Ptr<FabricNic> core = FabricNic::GetOrCreate(gpu);
        for (uint32_t p = 0; p < k + nvPorts; ++p)
        {
            core->AddPort(DynamicCast<PfcNetDevice>(gpu->GetDevice(p)), GetAddress(r, p));
        }
        m_cores[r] = core;
        for (const auto& transport : transports)
        {
            transport->Install(gpu, core);
        }
        m_nics[r] = gpu->GetObject<RoceNic>();
        m_uetNics[r] = gpu->GetObject<UetNic>();
    }
    // A transport refuses, naming the switch, a switch it cannot work with (e.g. UET's trimmed
    // packets too short to recognize): now rather than mid-run. The hosts share their NIC
    // settings, so rank 0 speaks for all.
    for (const auto& transport : transports)
    {
        for (uint32_t i = 0; i < nSwitches && nRanks > 0; ++i)
        {
            transport->CheckSwitch(m_gpus.Get(0),
                                   m_switches.Get(i)->GetObject<FabricSwitch>(),
                                   GetInstanceTypeId().GetName() + ": " + SwitchName(i));
        }
        for (uint32_t sv = 0; sv < nNv && nRanks > 0; ++sv)
        {
            transport->CheckSwitch(m_gpus.Get(0),
                                   m_nvSwitches.Get(sv)->GetObject<FabricSwitch>(),
                                   GetInstanceTypeId().GetName() + ": nvswitch" +
                                       std::to_string(sv));
        }
    }
    m_stats.nicsSeconds = Since(t);

    m_monitor = CreateObject<FabricHealthMonitor>();
    m_monitor->Install(m_gpus);
    m_monitor->SetNodeNamer(MakeCallback(&FabricTopologyHelper::GetNodeName, this));

    t = std::chrono::steady_clock::now();
    m_installed = true;
    ComputeRoutes();
    m_stats.routesSeconds = Since(t);
    DoInstalled();
    m_stats.totalSeconds = Since(start);
}

void
FabricTopologyHelper::DoInstalled()
{
}

FabricAggregateCounters
FabricTopologyHelper::GetAggregateCounters() const
{
    CheckInstalled("GetAggregateCounters");
    FabricAggregateCounters sums;
    auto addPorts = [](FabricTierCounters& c, Ptr<Node> node) {
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (auto port = DynamicCast<PfcNetDevice>(node->GetDevice(d)))
            {
                c.AddPort(*port);
            }
        }
    };
    FabricTierCounters& hosts = sums.tiers[size_t(FabricNodeType::GPU)];
    const std::vector<Ptr<FabricTransportPlugin>> transports = GetTransports();
    for (uint32_t r = 0; r < m_gpus.GetN(); ++r)
    {
        hosts.nodes++;
        addPorts(hosts, m_gpus.Get(r));
        FabricTransportCounters t;
        for (const auto& transport : transports)
        {
            transport->AddCounters(m_gpus.Get(r), t);
        }
        hosts.AddNic(*m_cores[r], t);
    }
    auto addSwitch = [&addPorts](FabricTierCounters& c, Ptr<Node> node) {
        c.nodes++;
        addPorts(c, node);
        c.AddSwitch(*node->GetObject<FabricSwitch>());
    };
    for (uint32_t s = 0; s < m_nvSwitches.GetN(); ++s)
    {
        addSwitch(sums.tiers[size_t(FabricNodeType::NVSWITCH)], m_nvSwitches.Get(s));
    }
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        const FabricNodeType type = i < m_nLeaves               ? FabricNodeType::LEAF
                                    : i < m_nLeaves + m_nSpines ? FabricNodeType::SPINE
                                                                : FabricNodeType::CORE;
        addSwitch(sums.tiers[size_t(type)], m_switches.Get(i));
    }
    for (const auto& tier : sums.tiers)
    {
        sums.total.Add(tier);
    }
    return sums;
}

void
FabricTopologyHelper::ComputeRoutes()
{
    const uint32_t nRanks = GetNRanks();
    const uint32_t nSw = m_switches.GetN();
    const uint32_t nNv = m_nvSwitches.GetN();
    const uint32_t swBase = nRanks + nNv;

    // Route computer switches: the scale-out switches by index, then the NVSwitches by server.
    m_routes = CreateObject<FabricRouteComputer>();
    for (uint32_t s = 0; s < nSw; ++s)
    {
        m_routes->AddSwitch(m_switches.Get(s)->GetObject<FabricSwitch>()->GetForwardingTable(),
                            SwitchName(s));
    }
    for (uint32_t server = 0; server < nNv; ++server)
    {
        m_routes->AddSwitch(
            m_nvSwitches.Get(server)->GetObject<FabricSwitch>()->GetForwardingTable(),
            "nvswitch" + std::to_string(server));
    }
    // Every cable, in order, so that route computer link i is cable i: NIC ports are hosts
    // (GPU device index = NIC port index), switch-to-switch cables are switch links.
    for (const auto& l : m_links)
    {
        switch (l.tier)
        {
        case FabricLinkTier::GPU_LEAF:
            m_routes->AddHostLink(l.b - swBase, l.portB, GetAddress(l.a, l.portA));
            break;
        case FabricLinkTier::NVLINK:
            m_routes->AddHostLink(nSw + (l.b - nRanks), l.portB, GetAddress(l.a, l.portA));
            break;
        default:
            m_routes->AddSwitchLink(l.a - swBase, l.portA, l.b - swBase, l.portB);
            break;
        }
    }
    const FabricRouteStats& st = m_routes->Compute();

    if (DoRequiresFullReach())
    {
        // Every leaf with GPUs must reach every other such leaf: all in the first one's
        // component.
        std::vector<bool> hasHosts(m_nLeaves, false);
        for (uint32_t leaf : m_attachLeaf)
        {
            hasHosts[leaf] = true;
        }
        uint32_t first = 0;
        while (!hasHosts[first])
        {
            ++first;
        }
        for (uint32_t b = first + 1; b < m_nLeaves; ++b)
        {
            FABRIC_INPUT_ERROR_IF(hasHosts[b] && !m_routes->IsConnected(first, b),
                                  GetInstanceTypeId().GetName()
                                      << ": " << SwitchName(first) << " cannot reach "
                                      << SwitchName(b) << " (the planned fabric is disconnected)");
        }
    }
    m_stats.routes = st.routes;
    m_stats.forwardingTableBytes = st.forwardingTableBytes;
}

uint64_t
FabricTopologyHelper::EstimateMemoryBytes(uint64_t nNodes,
                                          uint64_t nCables,
                                          uint64_t nForwardingEntries)
{
    constexpr uint64_t BASE = 18ull << 20;
    constexpr uint64_t PER_CABLE = 20ull << 10;
    constexpr uint64_t PER_NODE = 4ull << 10;
    constexpr uint64_t PER_ENTRY = 8;
    return BASE + PER_CABLE * nCables + PER_NODE * nNodes + PER_ENTRY * nForwardingEntries;
}

uint64_t
FabricTopologyHelper::GetAvailableMemoryBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
    {
        if (key == "MemAvailable:")
        {
            return kib * 1024;
        }
    }
    long pages = sysconf(_SC_PHYS_PAGES);
    long pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
}

bool
FabricTopologyHelper::IsInstalled() const
{
    return m_installed;
}

void
FabricTopologyHelper::DoCheckConnect(uint32_t rankA, uint32_t rankB) const
{
}

bool
FabricTopologyHelper::DoRequiresFullReach() const
{
    return true;
}

// ---- accessors -----------------------------------------------------------------------------

uint32_t
FabricTopologyHelper::GetNServers() const
{
    return m_servers;
}

uint32_t
FabricTopologyHelper::GetGpusPerServer() const
{
    return m_gpusPerServer;
}

uint32_t
FabricTopologyHelper::GetNRanks() const
{
    return m_servers * m_gpusPerServer;
}

uint32_t
FabricTopologyHelper::GetNicPortsPerGpu() const
{
    return m_portsPerGpu;
}

uint32_t
FabricTopologyHelper::GetNvLinkPort() const
{
    FABRIC_INPUT_ERROR_IF(
        !m_nvLink,
        GetInstanceTypeId().GetName()
            << "::GetNvLinkPort: NvLink=false, the GPUs have no NVLink port (ports 0.."
            << int64_t(m_portsPerGpu) - 1 << " are scale-out)");
    return m_portsPerGpu;
}

bool
FabricTopologyHelper::HasNvLink() const
{
    return m_nvLink;
}

uint32_t
FabricTopologyHelper::NvSwitchCount() const
{
    return m_nvLink ? m_servers : 0;
}

void
FabricTopologyHelper::DoConfigure()
{
}

uint32_t
FabricTopologyHelper::GetRankOf(uint32_t server, uint32_t local) const
{
    FABRIC_INPUT_ERROR_IF(server >= m_servers,
                          GetInstanceTypeId().GetName()
                              << ": server " << server << " does not exist (servers 0.."
                              << int64_t(m_servers) - 1 << ")");
    FABRIC_INPUT_ERROR_IF(local >= m_gpusPerServer,
                          GetInstanceTypeId().GetName()
                              << ": local GPU " << local << " does not exist (GPUs per server 0.."
                              << int64_t(m_gpusPerServer) - 1 << ")");
    return server * m_gpusPerServer + local;
}

uint32_t
FabricTopologyHelper::GetServerOf(uint32_t rank) const
{
    CheckRank(rank, "GetServerOf");
    return rank / m_gpusPerServer;
}

uint32_t
FabricTopologyHelper::GetLocalOf(uint32_t rank) const
{
    CheckRank(rank, "GetLocalOf");
    return rank % m_gpusPerServer;
}

Ptr<Node>
FabricTopologyHelper::GetGpu(uint32_t server, uint32_t local) const
{
    uint32_t rank = GetRankOf(server, local);
    CheckInstalled("GetGpu");
    return m_gpus.Get(rank);
}

Ptr<Node>
FabricTopologyHelper::GetRank(uint32_t rank) const
{
    CheckRank(rank, "GetRank");
    CheckInstalled("GetRank");
    return m_gpus.Get(rank);
}

NodeContainer
FabricTopologyHelper::GetGpus() const
{
    CheckInstalled("GetGpus");
    return m_gpus;
}

std::vector<Ptr<FabricSwitch>>
FabricTopologyHelper::GetScaleOutSwitches() const
{
    CheckInstalled("GetScaleOutSwitches");
    std::vector<Ptr<FabricSwitch>> v;
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        v.push_back(m_switches.Get(i)->GetObject<FabricSwitch>());
    }
    return v;
}

DataRate
FabricTopologyHelper::GetHostLinkRate() const
{
    return GetLinkRate(FabricLinkTier::GPU_LEAF);
}

Ptr<RoceNic>
FabricTopologyHelper::GetNic(uint32_t rank) const
{
    CheckRank(rank, "GetNic");
    CheckInstalled("GetNic");
    FABRIC_INPUT_ERROR_IF(!m_nics[rank],
                          GetInstanceTypeId().GetName()
                              << "::GetNic: rank " << rank << " has no RoceNic (Transports=\""
                              << m_transports
                              << "\"; set it to \"roce\" or \"roce+uet\" before Install())");
    return m_nics[rank];
}

Ptr<UetNic>
FabricTopologyHelper::GetUetNic(uint32_t rank) const
{
    CheckRank(rank, "GetUetNic");
    CheckInstalled("GetUetNic");
    FABRIC_INPUT_ERROR_IF(!m_uetNics[rank],
                          GetInstanceTypeId().GetName()
                              << "::GetUetNic: rank " << rank << " has no UetNic (Transports=\""
                              << m_transports
                              << "\"; set it to \"uet\" or \"roce+uet\" before Install())");
    return m_uetNics[rank];
}

Ptr<FabricNic>
FabricTopologyHelper::GetNicCore(uint32_t rank) const
{
    CheckRank(rank, "GetNicCore");
    CheckInstalled("GetNicCore");
    return m_cores[rank];
}

Ipv4Address
FabricTopologyHelper::GetAddress(uint32_t rank, uint32_t port) const
{
    CheckRank(rank, "GetAddress");
    FABRIC_INPUT_ERROR_IF(!m_nvLink && port == m_portsPerGpu,
                          GetInstanceTypeId().GetName()
                              << "::GetAddress: port " << port
                              << " does not exist: NvLink=false, the GPUs have only the scale-out "
                                 "ports 0.."
                              << m_portsPerGpu - 1);
    FABRIC_INPUT_ERROR_IF(port > m_portsPerGpu,
                          GetInstanceTypeId().GetName()
                              << "::GetAddress: port " << port << " does not exist (ports 0.."
                              << m_portsPerGpu << ": " << m_portsPerGpu
                              << " scale-out then the NVLink port)");
    if (port == m_portsPerGpu)
    {
        return Ipv4Address(m_nvLinkNet.Get() + 1 + rank);
    }
    return Ipv4Address(m_scaleOutNet.Get() + 1 + rank * m_portsPerGpu + port);
}

Ptr<Node>
FabricTopologyHelper::GetNvSwitch(uint32_t server) const
{
    FABRIC_INPUT_ERROR_IF(server >= m_servers,
                          GetInstanceTypeId().GetName()
                              << "::GetNvSwitch: server " << server
                              << " does not exist (servers 0.." << int64_t(m_servers) - 1 << ")");
    CheckInstalled("GetNvSwitch");
    FABRIC_INPUT_ERROR_IF(!m_nvLink,
                          GetInstanceTypeId().GetName()
                              << "::GetNvSwitch: NvLink=false, the servers have no NVSwitch");
    return m_nvSwitches.Get(server);
}

uint32_t
FabricTopologyHelper::GetNNvSwitches() const
{
    return m_installed ? m_nvSwitches.GetN() : 0;
}

Ptr<Node>
FabricTopologyHelper::GetLeaf(uint32_t i) const
{
    CheckInstalled("GetLeaf");
    FABRIC_INPUT_ERROR_IF(i >= m_nLeaves,
                          GetInstanceTypeId().GetName()
                              << "::GetLeaf: leaf " << i << " does not exist (leaves 0.."
                              << int64_t(m_nLeaves) - 1 << ")");
    return m_switches.Get(i);
}

uint32_t
FabricTopologyHelper::GetNLeaves() const
{
    return m_nLeaves;
}

Ptr<Node>
FabricTopologyHelper::GetSpine(uint32_t i) const
{
    CheckInstalled("GetSpine");
    FABRIC_INPUT_ERROR_IF(i >= m_nSpines,
                          GetInstanceTypeId().GetName()
                              << "::GetSpine: spine " << i << " does not exist (the fabric has "
                              << m_nSpines << " spines)");
    return m_switches.Get(m_nLeaves + i);
}

uint32_t
FabricTopologyHelper::GetNSpines() const
{
    return m_nSpines;
}

Ptr<Node>
FabricTopologyHelper::GetCore(uint32_t i) const
{
    CheckInstalled("GetCore");
    FABRIC_INPUT_ERROR_IF(i >= m_nCores,
                          GetInstanceTypeId().GetName()
                              << "::GetCore: core " << i << " does not exist (the fabric has "
                              << m_nCores << " cores)");
    return m_switches.Get(m_nLeaves + m_nSpines + i);
}

uint32_t
FabricTopologyHelper::GetNCores() const
{
    return m_nCores;
}

Ptr<Node>
FabricTopologyHelper::GetLeafOf(uint32_t rank, uint32_t port) const
{
    CheckRank(rank, "GetLeafOf");
    CheckInstalled("GetLeafOf");
    FABRIC_INPUT_ERROR_IF(port >= m_portsPerGpu,
                          GetInstanceTypeId().GetName()
                              << "::GetLeafOf: port " << port << " is not a scale-out port (0.."
                              << m_portsPerGpu - 1 << ")");
    return m_switches.Get(m_attachLeaf[uint64_t(rank) * m_portsPerGpu + port]);
}

Ptr<FabricHealthMonitor>
FabricTopologyHelper::GetHealthMonitor() const
{
    CheckInstalled("GetHealthMonitor");
    return m_monitor;
}

std::string
FabricTopologyHelper::GetNodeName(uint32_t nodeId) const
{
    uint32_t total = GetNRanks() + m_nvSwitches.GetN() + m_switches.GetN();
    if (!m_installed || nodeId < m_firstNodeId || nodeId >= m_firstNodeId + total)
    {
        return "node " + std::to_string(nodeId);
    }
    return GlobalName(nodeId - m_firstNodeId);
}

FabricNodeType
FabricTopologyHelper::GetNodeType(Ptr<const Node> node) const
{
    CheckInstalled("GetNodeType");
    uint32_t total = GetNRanks() + m_nvSwitches.GetN() + m_switches.GetN();
    FABRIC_INPUT_ERROR_IF(!node || node->GetId() < m_firstNodeId ||
                              node->GetId() >= m_firstNodeId + total,
                          GetInstanceTypeId().GetName()
                              << "::GetNodeType: node " << (node ? int64_t(node->GetId()) : -1)
                              << " is not part of this fabric");
    return GlobalType(node->GetId() - m_firstNodeId);
}

Ptr<Node>
FabricTopologyHelper::GlobalNode(uint32_t index) const
{
    uint32_t nRanks = GetNRanks();
    if (index < nRanks)
    {
        return m_gpus.Get(index);
    }
    const uint32_t nNv = m_nvSwitches.GetN();
    if (index < nRanks + nNv)
    {
        return m_nvSwitches.Get(index - nRanks);
    }
    return m_switches.Get(index - nRanks - nNv);
}

FabricNodeType
FabricTopologyHelper::GlobalType(uint32_t index) const
{
    uint32_t nRanks = GetNRanks();
    if (index < nRanks)
    {
        return FabricNodeType::GPU;
    }
    const uint32_t nNv = m_nvSwitches.GetN();
    if (index < nRanks + nNv)
    {
        return FabricNodeType::NVSWITCH;
    }
    uint32_t s = index - nRanks - nNv;
    if (s < m_nLeaves)
    {
        return FabricNodeType::LEAF;
    }
    return s < m_nLeaves + m_nSpines ? FabricNodeType::SPINE : FabricNodeType::CORE;
}

std::string
FabricTopologyHelper::GlobalName(uint32_t index) const
{
    uint32_t nRanks = GetNRanks();
    std::ostringstream os;
    if (index < nRanks)
    {
        os << "gpu" << index;
    }
    else if (index < nRanks + m_nvSwitches.GetN())
    {
        os << "nvswitch" << index - nRanks;
    }
    else
    {
        os << SwitchName(index - nRanks - m_nvSwitches.GetN());
    }
    return os.str();
}

// ---- connections ---------------------------------------------------------------------------

std::vector<FabricTopologyHelper::QpPair>
FabricTopologyHelper::Connect(uint32_t rankA, uint32_t rankB, uint32_t nQps)
{
    CheckInstalled("Connect");
    CheckRank(rankA, "Connect");
    CheckRank(rankB, "Connect");
    FABRIC_INPUT_ERROR_IF(rankA == rankB,
                          GetInstanceTypeId().GetName() << "::Connect: rankA == rankB == " << rankA
                                                        << "; a QP connects two different GPUs");
    FABRIC_INPUT_ERROR_IF(nQps == 0,
                          GetInstanceTypeId().GetName()
                              << "::Connect: nQps=0 is invalid; need >= 1");
    if (m_nvLink && rankA / m_gpusPerServer == rankB / m_gpusPerServer)
    {
        uint32_t nv = GetNvLinkPort();
        return GetNicHelper().Connect(GetNic(rankA), GetNic(rankB), nQps, nv, nv);
    }
    DoCheckConnect(rankA, rankB);
    std::vector<QpPair> pairs;
    pairs.reserve(nQps);
    for (uint32_t j = 0; j < nQps; ++j)
    {
        uint32_t plane = j % m_portsPerGpu;
        auto p = GetNicHelper().Connect(GetNic(rankA), GetNic(rankB), 1, plane, plane);
        pairs.push_back(p[0]);
    }
    return pairs;
}

std::pair<uint32_t, uint32_t>
FabricTopologyHelper::GetConnectionPorts(uint32_t rankA, uint32_t rankB, uint32_t index) const
{
    CheckRank(rankA, "GetConnectionPorts");
    CheckRank(rankB, "GetConnectionPorts");
    FABRIC_INPUT_ERROR_IF(rankA == rankB,
                          GetInstanceTypeId().GetName()
                              << "::GetConnectionPorts: rankA == rankB == " << rankA
                              << "; a connection joins two different GPUs");
    if (m_nvLink && rankA / m_gpusPerServer == rankB / m_gpusPerServer)
    {
        return {GetNvLinkPort(), GetNvLinkPort()};
    }
    DoCheckConnect(rankA, rankB);
    uint32_t plane = index % m_portsPerGpu;
    return {plane, plane};
}

// ---- summary and export --------------------------------------------------------------------

uint64_t
FabricTopologyHelper::GetNLinks(FabricLinkTier tier) const
{
    FABRIC_INPUT_ERROR_IF(tier >= FabricLinkTier::COUNT,
                          GetInstanceTypeId().GetName() << "::GetNLinks: invalid tier");
    return m_tierLinks[size_t(tier)];
}

DataRate
FabricTopologyHelper::GetLinkRate(FabricLinkTier tier) const
{
    FABRIC_INPUT_ERROR_IF(tier >= FabricLinkTier::COUNT,
                          GetInstanceTypeId().GetName() << "::GetLinkRate: invalid tier");
    return m_tierLinks[size_t(tier)] > 0 ? m_tierRate[size_t(tier)] : DataRate(0);
}

Time
FabricTopologyHelper::GetLinkDelay(FabricLinkTier tier) const
{
    FABRIC_INPUT_ERROR_IF(tier >= FabricLinkTier::COUNT,
                          GetInstanceTypeId().GetName() << "::GetLinkDelay: invalid tier");
    return m_tierLinks[size_t(tier)] > 0 ? m_tierDelay[size_t(tier)] : Time(0);
}

Time
FabricTopologyHelper::GetMaxUnloadedRtt(uint32_t dataFrameBytes, uint32_t ackFrameBytes) const
{
    CheckInstalled("GetMaxUnloadedRtt");
    // A frame reaches the next hop (preamble + frame) x 8 / rate after it starts, plus the
    // cable's delay (PfcNetDevice); switches add their ProcessingDelay, NICs nothing.
    int64_t ps = 0;
    uint32_t cables = 0;
    for (FabricLinkTier tier :
         {FabricLinkTier::GPU_LEAF, FabricLinkTier::LEAF_SPINE, FabricLinkTier::SPINE_CORE})
    {
        if (GetNLinks(tier) == 0)
        {
            continue;
        }
        ps +=
            2 * CableRoundTrip(GetLinkRate(tier), GetLinkDelay(tier), dataFrameBytes, ackFrameBytes)
                    .GetPicoSeconds(); // up and down
        cables += 2;
    }
    TimeValue latency;
    GetLeaf(0)->GetObject<FabricSwitch>()->GetAttribute("ProcessingDelay", latency);
    ps += latency.Get().GetPicoSeconds() * 2 * (cables - 1);
    return PicoSeconds(ps);
}

Time
FabricTopologyHelper::CableRoundTrip(DataRate rate,
                                     Time delay,
                                     uint32_t dataFrameBytes,
                                     uint32_t ackFrameBytes)
{
    // A frame reaches the next hop (preamble + frame) x 8 / rate after it starts, plus the
    // cable's delay (PfcNetDevice): a data frame one way, its ACK the other.
    return BytesTxTime(PfcNetDevice::PREAMBLE_BYTES + dataFrameBytes, rate) +
           BytesTxTime(PfcNetDevice::PREAMBLE_BYTES + ackFrameBytes, rate) + 2 * delay;
}

uint64_t
FabricTopologyHelper::GetBisectionBandwidth() const
{
    uint64_t best = std::numeric_limits<uint64_t>::max();
    for (auto tier :
         {FabricLinkTier::GPU_LEAF, FabricLinkTier::LEAF_SPINE, FabricLinkTier::SPINE_CORE})
    {
        uint64_t n = m_tierLinks[size_t(tier)];
        if (n > 0)
        {
            best = std::min<uint64_t>(best, n * m_tierRate[size_t(tier)].GetBitRate() / 2);
        }
    }
    return best == std::numeric_limits<uint64_t>::max() ? 0 : best;
}

double
FabricTopologyHelper::GetOversubscription() const
{
    return m_leafOversubscription;
}

void
FabricTopologyHelper::Print(std::ostream& os) const
{
    os << GetKindName() << " fabric: " << GetNRanks() << " GPUs = " << m_servers << " servers x "
       << m_gpusPerServer << " GPUs, " << m_portsPerGpu << " NIC port(s) per GPU"
       << (m_installed ? "" : " (not installed)") << "\n";
    DoPrintShape(os);
    os << "  switches: " << (m_installed ? m_nvSwitches.GetN() : 0) << " NVSwitch, " << m_nLeaves
       << " leaf, " << m_nSpines << " spine";
    if (m_nCores > 0)
    {
        os << ", " << m_nCores << " core";
    }
    os << " (" << m_nLeaves + m_nSpines + m_nCores << " scale-out)\n";
    os << "  links:";
    bool first = true;
    for (size_t i = 0; i < size_t(FabricLinkTier::COUNT); ++i)
    {
        if (m_tierLinks[i] == 0)
        {
            continue;
        }
        os << (first ? " " : ", ") << m_tierLinks[i] << " " << FabricLinkTierName(FabricLinkTier(i))
           << " @ " << FormatRate(m_tierRate[i].GetBitRate()) << " " << FormatDelay(m_tierDelay[i]);
        first = false;
    }
    os << (first ? " none\n" : "\n");
    uint64_t bisection = GetBisectionBandwidth();
    os << "  bisection bandwidth: " << FormatRate(double(bisection)) << " (" << bisection
       << " bit/s)\n";
    double o = GetOversubscription();
    os << "  oversubscription: ";
    if (o > 0)
    {
        os << std::setprecision(4) << o << ":1 (leaf down/up bandwidth, all slots filled)\n";
    }
    else
    {
        os << "n/a (no leaf uplinks)\n";
    }
}

std::ostream&
operator<<(std::ostream& os, const FabricTopologyHelper& topology)
{
    topology.Print(os);
    return os;
}

void
FabricTopologyHelper::WriteLinksCsv(const std::string& path) const
{
    CheckInstalled("WriteLinksCsv");
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteLinksCsv: cannot open \"" << path << "\" for writing");
    out << "node_a,type_a,port_a,node_b,type_b,port_b,rate_bps,delay_ns\n";
    for (const auto& l : m_links)
    {
        out << GlobalName(l.a) << "," << FabricNodeTypeName(GlobalType(l.a)) << "," << l.portA
            << "," << GlobalName(l.b) << "," << FabricNodeTypeName(GlobalType(l.b)) << ","
            << l.portB << "," << m_tierRate[size_t(l.tier)].GetBitRate() << ","
            << m_tierDelay[size_t(l.tier)].ToDouble(Time::NS) << "\n";
    }
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteLinksCsv: write to \"" << path << "\" failed");
}

void
FabricTopologyHelper::WriteDot(const std::string& path) const
{
    CheckInstalled("WriteDot");
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteDot: cannot open \"" << path << "\" for writing");
    static const char* shapes[] = {"box", "hexagon", "ellipse", "ellipse", "ellipse"};
    static const char* colors[] = {"palegreen", "khaki", "lightblue", "lightsalmon", "plum"};
    out << "graph fabric {\n  graph [overlap=false];\n  node [style=filled];\n";
    uint32_t total = GetNRanks() + m_nvSwitches.GetN() + m_switches.GetN();
    for (uint32_t i = 0; i < total; ++i)
    {
        auto type = size_t(GlobalType(i));
        out << "  \"" << GlobalName(i) << "\" [shape=" << shapes[type]
            << ", fillcolor=" << colors[type] << "];\n";
    }
    for (const auto& l : m_links)
    {
        out << "  \"" << GlobalName(l.a) << "\" -- \"" << GlobalName(l.b) << "\" [label=\""
            << FormatRate(m_tierRate[size_t(l.tier)].GetBitRate()) << "\", taillabel=\"" << l.portA
            << "\", headlabel=\"" << l.portB << "\"];\n";
    }
    out << "}\n";
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteDot: write to \"" << path << "\" failed");
}

// ---- links and failures --------------------------------------------------------------------

uint32_t
FabricTopologyHelper::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

void
FabricTopologyHelper::CheckLink(uint32_t link, const char* what) const
{
    CheckInstalled(what);
    FABRIC_INPUT_ERROR_IF(link >= m_links.size(),
                          GetInstanceTypeId().GetName()
                              << "::" << what << ": link " << link << " does not exist (links 0.."
                              << int64_t(m_links.size()) - 1 << ")");
}

std::vector<uint32_t>
FabricTopologyHelper::FindLinks(Ptr<const Node> a, Ptr<const Node> b) const
{
    GetNodeType(a); // aborts unless installed and part of this fabric
    GetNodeType(b);
    uint32_t ga = a->GetId() - m_firstNodeId;
    uint32_t gb = b->GetId() - m_firstNodeId;
    std::vector<uint32_t> found;
    for (uint32_t i = 0; i < m_links.size(); ++i)
    {
        const Link& l = m_links[i];
        if ((l.a == ga && l.b == gb) || (l.a == gb && l.b == ga))
        {
            found.push_back(i);
        }
    }
    return found;
}

Ptr<PfcChannel>
FabricTopologyHelper::GetLinkChannel(uint32_t link) const
{
    CheckLink(link, "GetLinkChannel");
    const Link& l = m_links[link];
    return DynamicCast<PfcNetDevice>(GlobalNode(l.a)->GetDevice(l.portA))->GetPfcChannel();
}

Ptr<FabricRouteComputer>
FabricTopologyHelper::GetRouteComputer() const
{
    CheckInstalled("GetRouteComputer");
    return m_routes;
}

const FabricRouteStats&
FabricTopologyHelper::SetLinkUp(uint32_t link, bool up)
{
    CheckLink(link, "SetLinkUp");
    Ptr<PfcChannel> channel = GetLinkChannel(link);
    channel->SetLinkUp(up);
    // The switches at either end see their port's liveness (load balancing skips a down port
    // at once, before and beside the recomputed routes).
    for (std::size_t d = 0; d < channel->GetNDevices(); ++d)
    {
        Ptr<PfcNetDevice> dev = channel->GetPfcDevice(d);
        Ptr<FabricSwitch> sw = dev->GetNode()->GetObject<FabricSwitch>();
        for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
        {
            if (sw->GetPort(p) == dev)
            {
                sw->SetPortUp(p, up);
            }
        }
    }
    m_routes->SetLinkUp(link, up);
    return m_routes->Compute();
}

void
FabricTopologyHelper::SetLinkDataRate(uint32_t link, DataRate rate)
{
    CheckLink(link, "SetLinkDataRate");
    FABRIC_INPUT_ERROR_IF(rate.GetBitRate() == 0,
                          GetInstanceTypeId().GetName()
                              << "::SetLinkDataRate: link " << link << " rate " << rate
                              << " is invalid; it must be > 0 bit/s (use SetLinkUp(" << link
                              << ", false) to cut the cable)");
    Ptr<PfcChannel> channel = GetLinkChannel(link);
    for (std::size_t d = 0; d < channel->GetNDevices(); ++d)
    {
        channel->GetPfcDevice(d)->SetDataRate(rate);
    }
}

const FabricBuildStats&
FabricTopologyHelper::GetBuildStats() const
{
    return m_stats;
}

} // namespace ns3
