/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-input-error.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ClosTopologyHelper);

TypeId
ClosTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosTopologyHelper")
            .SetParent<FabricTopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<ClosTopologyHelper>()
            .AddAttribute("Hosts",
                          "Plain hosts: N > 0 builds N single-NIC hosts (Servers N, "
                          "GpusPerServer 1, NicPortsPerGpu 1, NvLink false: values set for "
                          "those are replaced; no NVSwitch or NVLink), ServersPerRack per ToR. "
                          "0 (default) = GPU servers as the common attributes say.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_hosts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Tiers",
                          "Switch tiers: 2 (ToR + spine, default) or 3 (ToR + pod aggregation "
                          "+ core).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_tiers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ServersPerRack",
                          "Servers per rack (>= 1); all their NIC ports go to the rack's ToR. "
                          "Default 4 (32 x 400 Gb/s down-ports with 8-GPU servers).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_serversPerRack),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TorPorts",
                          "Ports per ToR switch (>= 2). Default 64.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_torPorts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Oversubscription",
                          "ToR downlink bandwidth / uplink bandwidth (>= 1; default 1 = "
                          "non-blocking).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&ClosTopologyHelper::m_oversubscription),
                          MakeDoubleChecker<double>())
            .AddAttribute("Spines",
                          "Two tiers: number of spines; 0 (default) = the smallest divisor of "
                          "the ToR uplinks whose spines have enough ports.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_spines),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SpinePorts",
                          "Ports per spine (two tiers) or pod aggregation switch (three tiers), "
                          ">= 1. Default 64.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_spinePorts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RacksPerPod",
                          "Three tiers: racks per pod (>= 1). Default 8.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_racksPerPod),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SpinesPerPod",
                          "Three tiers: aggregation switches per pod; 0 (default) = the "
                          "smallest divisor of the ToR uplinks that fits SpinePorts.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_spinesPerPod),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SpineOversubscription",
                          "Three tiers: aggregation downlink / uplink bandwidth (>= 1; "
                          "default 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&ClosTopologyHelper::m_spineOversubscription),
                          MakeDoubleChecker<double>())
            .AddAttribute("Cores",
                          "Three tiers: core switches, a multiple of SpinesPerPod (one core "
                          "plane per aggregation index); 0 (default) = automatic.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_cores),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CorePorts",
                          "Three tiers: ports per core switch (>= 1). Default 64.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&ClosTopologyHelper::m_corePorts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LeafSpineDataRate",
                          "Rate of each ToR to spine/aggregation cable (> 0). Default 400 Gb/s.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&ClosTopologyHelper::m_leafSpineRate),
                          MakeDataRateChecker())
            .AddAttribute("LeafSpineDelay",
                          "Propagation delay of each ToR to spine cable (>= 0). Default 1 us.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosTopologyHelper::m_leafSpineDelay),
                          MakeTimeChecker())
            .AddAttribute("SpineCoreDataRate",
                          "Three tiers: rate of each aggregation to core cable (> 0). Default "
                          "400 Gb/s.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&ClosTopologyHelper::m_spineCoreRate),
                          MakeDataRateChecker())
            .AddAttribute("SpineCoreDelay",
                          "Three tiers: propagation delay of each aggregation to core cable "
                          "(>= 0). Default 1 us.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosTopologyHelper::m_spineCoreDelay),
                          MakeTimeChecker());
    return tid;
}

ClosTopologyHelper::ClosTopologyHelper()
    : m_hosts(0),
      m_tiers(2),
      m_serversPerRack(4),
      m_torPorts(64),
      m_oversubscription(1.0),
      m_spines(0),
      m_spinePorts(64),
      m_racksPerPod(8),
      m_spinesPerPod(0),
      m_spineOversubscription(1.0),
      m_cores(0),
      m_corePorts(64),
      m_leafSpineRate("400Gbps"),
      m_leafSpineDelay(MicroSeconds(1)),
      m_spineCoreRate("400Gbps"),
      m_spineCoreDelay(MicroSeconds(1)),
      m_torDown(0),
      m_torUp(0),
      m_spineDown(0),
      m_spineUp(0),
      m_aggPerPod(0),
      m_coresPerPlane(0)
{
}

void
ClosTopologyHelper::DoConfigure()
{
    if (m_hosts > 0)
    {
        m_servers = m_hosts;
        m_gpusPerServer = 1;
        m_portsPerGpu = 1;
        m_nvLink = false;
    }
}

uint32_t
ClosTopologyHelper::GetNHosts() const
{
    return m_hosts;
}

std::string
ClosTopologyHelper::GetKindName() const
{
    return m_tiers == 3 ? "clos (3-tier)" : "clos (2-tier)";
}

uint32_t
ClosTopologyHelper::GetNRacks() const
{
    return m_serversPerRack == 0 ? 0 : (m_servers + m_serversPerRack - 1) / m_serversPerRack;
}

uint32_t
ClosTopologyHelper::GetNPods() const
{
    if (m_tiers != 3 || m_racksPerPod == 0)
    {
        return 1;
    }
    return (GetNRacks() + m_racksPerPod - 1) / m_racksPerPod;
}

uint32_t
ClosTopologyHelper::GetNTiers() const
{
    return m_tiers;
}

uint32_t
ClosTopologyHelper::GetTorUplinks() const
{
    return m_torUp;
}

Ptr<Node>
ClosTopologyHelper::GetTor(uint32_t rack) const
{
    FABRIC_INPUT_ERROR_IF(rack >= GetNRacks(),
                          "ClosTopologyHelper::GetTor: rack "
                              << rack << " does not exist (racks 0.." << int64_t(GetNRacks()) - 1
                              << ")");
    return GetLeaf(rack);
}

void
ClosTopologyHelper::DoPlan()
{
    const std::string name = "ClosTopologyHelper";
    FABRIC_INPUT_ERROR_IF(
        m_tiers != 2 && m_tiers != 3,
        name << ": Tiers=" << m_tiers
             << " is invalid; use 2 (ToR + spine) or 3 (ToR + aggregation + core)");
    FABRIC_INPUT_ERROR_IF(m_serversPerRack == 0,
                          name << ": ServersPerRack=0 is invalid; a rack needs >= 1 server");
    FABRIC_INPUT_ERROR_IF(m_torPorts == 0, name << ": TorPorts=0 is invalid; need >= 2");
    FABRIC_INPUT_ERROR_IF(m_spinePorts == 0, name << ": SpinePorts=0 is invalid; need >= 1");
    FABRIC_INPUT_ERROR_IF(
        !(m_oversubscription >= 1.0),
        name << ": Oversubscription=" << m_oversubscription
             << " is invalid: it is ToR downlink / uplink bandwidth and must be >= 1 "
                "(1 = non-blocking)");
    SetTier(FabricLinkTier::LEAF_SPINE, m_leafSpineRate, m_leafSpineDelay, "LeafSpineDataRate");

    const uint32_t perServer = m_gpusPerServer * m_portsPerGpu;
    const uint64_t down64 = uint64_t(m_serversPerRack) * perServer;
    m_torDown = static_cast<uint32_t>(std::min<uint64_t>(down64, UINT32_MAX));
    m_torUp = UplinksFor(m_torDown, m_gpuLinkRate, m_leafSpineRate, m_oversubscription);
    if (down64 + m_torUp > m_torPorts)
    {
        uint32_t maxServers = 0;
        for (uint32_t s = 1; uint64_t(s) * perServer < m_torPorts; ++s)
        {
            uint32_t d = s * perServer;
            if (d + UplinksFor(d, m_gpuLinkRate, m_leafSpineRate, m_oversubscription) <= m_torPorts)
            {
                maxServers = s;
            }
        }
        FABRIC_INPUT_ERROR(name << ": ServersPerRack=" << m_serversPerRack
                                << " does not fit TorPorts=" << m_torPorts << ": the ToR needs "
                                << m_torDown << " down-ports + " << m_torUp
                                << " uplinks at Oversubscription=" << m_oversubscription
                                << "; at most " << maxServers
                                << " servers per rack fit (or raise TorPorts / Oversubscription)");
    }
    SetLeafCapacity(double(m_torDown) * m_gpuLinkRate.GetBitRate(),
                    double(m_torUp) * m_leafSpineRate.GetBitRate());
    const uint32_t nRacks = GetNRacks();

    if (m_tiers == 2)
    {
        uint32_t nSpines =
            PlanUpperTier(m_spines, "Spines", m_torUp, nRacks, "ToRs", m_spinePorts, "SpinePorts");
        SetSwitchCounts(nRacks, nSpines, 0);
        for (uint32_t t = 0; t < nRacks; ++t)
        {
            for (uint32_t m = 0; m < m_torUp / nSpines; ++m)
            {
                for (uint32_t s = 0; s < nSpines; ++s)
                {
                    AddFabricLink(t, nRacks + s, FabricLinkTier::LEAF_SPINE);
                }
            }
        }
        return;
    }

    FABRIC_INPUT_ERROR_IF(m_racksPerPod == 0,
                          name << ": RacksPerPod=0 is invalid; a pod needs >= 1 rack");
    FABRIC_INPUT_ERROR_IF(m_corePorts == 0, name << ": CorePorts=0 is invalid; need >= 1");
    FABRIC_INPUT_ERROR_IF(
        !(m_spineOversubscription >= 1.0),
        name << ": SpineOversubscription=" << m_spineOversubscription
             << " is invalid: it is aggregation downlink / uplink bandwidth and must "
                "be >= 1 (1 = non-blocking)");
    SetTier(FabricLinkTier::SPINE_CORE, m_spineCoreRate, m_spineCoreDelay, "SpineCoreDataRate");
    const uint32_t nPods = GetNPods();
    auto fits = [this](uint32_t agg) {
        uint32_t d = m_racksPerPod * (m_torUp / agg);
        return uint64_t(d) +
                   UplinksFor(d, m_leafSpineRate, m_spineCoreRate, m_spineOversubscription) <=
               m_spinePorts;
    };
    uint32_t fit = 0;
    for (uint32_t a = 1; a <= m_torUp && fit == 0; ++a)
    {
        if (m_torUp % a == 0 && fits(a))
        {
            fit = a;
        }
    }
    if (m_spinesPerPod == 0)
    {
        FABRIC_INPUT_ERROR_IF(fit == 0,
                              name << ": no SpinesPerPod fits: RacksPerPod=" << m_racksPerPod
                                   << " ToRs with " << m_torUp << " uplinks each need aggregation "
                                   << "switches with >= " << m_racksPerPod
                                   << " down-ports plus uplinks, but SpinePorts=" << m_spinePorts
                                   << "; lower RacksPerPod or raise SpinePorts");
        m_aggPerPod = fit;
    }
    else
    {
        FABRIC_INPUT_ERROR_IF(m_torUp % m_spinesPerPod != 0,
                              name << ": SpinesPerPod=" << m_spinesPerPod
                                   << " cannot take the ToR uplinks evenly: each ToR has "
                                   << m_torUp << " uplinks, so SpinesPerPod must divide " << m_torUp
                                   << " (" << Divisors(m_torUp) << ")");
        FABRIC_INPUT_ERROR_IF(
            !fits(m_spinesPerPod),
            name << ": too few ports: SpinesPerPod=" << m_spinesPerPod
                 << " gives each aggregation switch " << m_racksPerPod * (m_torUp / m_spinesPerPod)
                 << " down-ports plus uplinks, more than SpinePorts=" << m_spinePorts
                 << (fit ? "; use SpinesPerPod=" + std::to_string(fit) : "")
                 << "; or raise SpinePorts / lower RacksPerPod");
        m_aggPerPod = m_spinesPerPod;
    }
    m_spineDown = m_racksPerPod * (m_torUp / m_aggPerPod);
    m_spineUp = UplinksFor(m_spineDown, m_leafSpineRate, m_spineCoreRate, m_spineOversubscription);
    FABRIC_INPUT_ERROR_IF(m_cores != 0 && m_cores % m_aggPerPod != 0,
                          name << ": Cores=" << m_cores << " must be a multiple of SpinesPerPod="
                               << m_aggPerPod << " (one core plane per aggregation index), e.g. "
                               << m_aggPerPod * ((m_cores + m_aggPerPod - 1) / m_aggPerPod));
    m_coresPerPlane = PlanUpperTier(m_cores / m_aggPerPod,
                                    "Cores/SpinesPerPod",
                                    m_spineUp,
                                    nPods,
                                    "pods",
                                    m_corePorts,
                                    "CorePorts");
    const uint32_t nSpines = nPods * m_aggPerPod;
    const uint32_t nCores = m_aggPerPod * m_coresPerPlane;
    SetSwitchCounts(nRacks, nSpines, nCores);
    for (uint32_t t = 0; t < nRacks; ++t)
    {
        uint32_t pod = t / m_racksPerPod;
        for (uint32_t m = 0; m < m_torUp / m_aggPerPod; ++m)
        {
            for (uint32_t j = 0; j < m_aggPerPod; ++j)
            {
                AddFabricLink(t, nRacks + pod * m_aggPerPod + j, FabricLinkTier::LEAF_SPINE);
            }
        }
    }
    for (uint32_t pod = 0; pod < nPods; ++pod)
    {
        for (uint32_t j = 0; j < m_aggPerPod; ++j)
        {
            for (uint32_t m = 0; m < m_spineUp / m_coresPerPlane; ++m)
            {
                for (uint32_t c = 0; c < m_coresPerPlane; ++c)
                {
                    AddFabricLink(nRacks + pod * m_aggPerPod + j,
                                  nRacks + nSpines + j * m_coresPerPlane + c,
                                  FabricLinkTier::SPINE_CORE);
                }
            }
        }
    }
}

uint32_t
ClosTopologyHelper::DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const
{
    return server / m_serversPerRack;
}

void
ClosTopologyHelper::DoPrintShape(std::ostream& os) const
{
    os << "  " << GetNRacks() << " racks of " << m_serversPerRack << " servers; ToR: " << m_torDown
       << " down + " << m_torUp << " up of " << m_torPorts << " ports";
    if (m_tiers == 3)
    {
        double ratio = double(m_spineDown) * m_leafSpineRate.GetBitRate() /
                       (double(m_spineUp) * m_spineCoreRate.GetBitRate());
        os << "; " << GetNPods() << " pod(s) of " << m_racksPerPod << " racks with " << m_aggPerPod
           << " aggregation switches each (" << m_spineDown << " down + " << m_spineUp << " up of "
           << m_spinePorts << " ports, oversubscription " << ratio << ":1); " << m_aggPerPod
           << " core plane(s) of " << m_coresPerPlane << " cores of " << m_corePorts << " ports";
    }
    else
    {
        os << "; " << GetNSpines() << " spines of " << m_spinePorts << " ports ("
           << (GetNSpines() ? m_torUp / GetNSpines() : 0) << " cable(s) to each ToR)";
    }
    os << "\n";
}

} // namespace ns3
