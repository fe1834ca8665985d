/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-optimized-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-input-error.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RailOptimizedTopologyHelper);

TypeId
RailOptimizedTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailOptimizedTopologyHelper")
            .SetParent<FabricTopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<RailOptimizedTopologyHelper>()
            .AddAttribute("ServersPerSu",
                          "Server slots per scalable unit (>= 1); each leaf has one down-port "
                          "per slot. Default 32 (DGX H100 SuperPOD SU).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&RailOptimizedTopologyHelper::m_serversPerSu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Rails",
                          "Number of rails; 0 (default) = GpusPerServer. Rail i is NIC i of "
                          "every server, so a non-zero value must equal GpusPerServer.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RailOptimizedTopologyHelper::m_rails),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LeafPorts",
                          "Ports per leaf switch (>= 1). Default 64 (64 x 400 Gb/s, "
                          "DGX SuperPOD).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RailOptimizedTopologyHelper::m_leafPorts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Oversubscription",
                          "Leaf downlink bandwidth / uplink bandwidth (>= 1; 1 = non-blocking, "
                          "the default).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RailOptimizedTopologyHelper::m_oversubscription),
                          MakeDoubleChecker<double>())
            .AddAttribute("Spines",
                          "Number of spine switches; 0 (default) = the smallest divisor of the "
                          "leaf uplinks whose spines have enough ports (1/2/4 SU: 4/8/16 with "
                          "64-port spines, as published).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RailOptimizedTopologyHelper::m_spines),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SpinePorts",
                          "Ports per spine switch (>= 1). Default 64.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RailOptimizedTopologyHelper::m_spinePorts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LeafSpineDataRate",
                          "Rate of each leaf to spine cable (> 0). Default 400 Gb/s.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&RailOptimizedTopologyHelper::m_leafSpineRate),
                          MakeDataRateChecker())
            .AddAttribute("LeafSpineDelay",
                          "Propagation delay of each leaf to spine cable (>= 0). Default 1 us.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RailOptimizedTopologyHelper::m_leafSpineDelay),
                          MakeTimeChecker());
    return tid;
}

RailOptimizedTopologyHelper::RailOptimizedTopologyHelper()
    : m_serversPerSu(32),
      m_rails(0),
      m_leafPorts(64),
      m_oversubscription(1.0),
      m_spines(0),
      m_spinePorts(64),
      m_leafSpineRate("400Gbps"),
      m_leafSpineDelay(MicroSeconds(1)),
      m_uplinks(0),
      m_nSpinesPlanned(0)
{
}

std::string
RailOptimizedTopologyHelper::GetKindName() const
{
    return "rail-optimized";
}

uint32_t
RailOptimizedTopologyHelper::GetNRails() const
{
    return m_gpusPerServer;
}

uint32_t
RailOptimizedTopologyHelper::GetNScalableUnits() const
{
    return m_serversPerSu == 0 ? 0 : (m_servers + m_serversPerSu - 1) / m_serversPerSu;
}

uint32_t
RailOptimizedTopologyHelper::GetNLeavesPerRail() const
{
    return GetNScalableUnits() * m_portsPerGpu;
}

uint32_t
RailOptimizedTopologyHelper::GetLeafUplinks() const
{
    return m_uplinks;
}

Ptr<Node>
RailOptimizedTopologyHelper::GetLeaf(uint32_t rail, uint32_t i) const
{
    FABRIC_INPUT_ERROR_IF(rail >= GetNRails(),
                          "RailOptimizedTopologyHelper::GetLeaf: rail "
                              << rail << " does not exist (rails 0.." << GetNRails() - 1 << ")");
    FABRIC_INPUT_ERROR_IF(i >= GetNLeavesPerRail(),
                          "RailOptimizedTopologyHelper::GetLeaf: leaf "
                              << i << " of rail " << rail << " does not exist (0.."
                              << int64_t(GetNLeavesPerRail()) - 1
                              << ": SU x NicPortsPerGpu + plane)");
    return GetLeaf(i * GetNRails() + rail);
}

void
RailOptimizedTopologyHelper::DoPlan()
{
    const std::string name = "RailOptimizedTopologyHelper";
    FABRIC_INPUT_ERROR_IF(m_rails != 0 && m_rails != m_gpusPerServer,
                          name << ": Rails=" << m_rails << " but GpusPerServer=" << m_gpusPerServer
                               << ": rail i is NIC i of every server, so Rails must equal the NICs "
                                  "per server ("
                               << m_gpusPerServer << ", or 0 for automatic)");
    FABRIC_INPUT_ERROR_IF(m_serversPerSu == 0,
                          name << ": ServersPerSu=0 is invalid; a scalable unit needs >= 1 server "
                                  "slot (DGX SuperPOD: 32)");
    FABRIC_INPUT_ERROR_IF(m_leafPorts == 0, name << ": LeafPorts=0 is invalid; need >= 2");
    FABRIC_INPUT_ERROR_IF(m_spinePorts == 0, name << ": SpinePorts=0 is invalid; need >= 1");
    FABRIC_INPUT_ERROR_IF(!(m_oversubscription >= 1.0),
                          name << ": Oversubscription=" << m_oversubscription
                               << " is invalid: it is leaf downlink / uplink bandwidth and must be "
                                  ">= 1 (1 = non-blocking)");
    SetTier(FabricLinkTier::LEAF_SPINE, m_leafSpineRate, m_leafSpineDelay, "LeafSpineDataRate");

    const uint32_t down = m_serversPerSu;
    m_uplinks = UplinksFor(down, m_gpuLinkRate, m_leafSpineRate, m_oversubscription);
    if (uint64_t(down) + m_uplinks > m_leafPorts)
    {
        uint32_t maxServers = 0;
        for (uint32_t d = 1; d < m_leafPorts; ++d)
        {
            if (d + UplinksFor(d, m_gpuLinkRate, m_leafSpineRate, m_oversubscription) <=
                m_leafPorts)
            {
                maxServers = d;
            }
        }
        FABRIC_INPUT_ERROR(name << ": ServersPerSu=" << m_serversPerSu
                                << " does not fit LeafPorts=" << m_leafPorts << ": each leaf needs "
                                << down << " down-ports (one per server of its SU) + " << m_uplinks
                                << " uplinks at Oversubscription=" << m_oversubscription
                                << "; at most " << maxServers
                                << " servers per SU fit (or raise LeafPorts / Oversubscription)");
    }
    SetLeafCapacity(double(down) * m_gpuLinkRate.GetBitRate(),
                    double(m_uplinks) * m_leafSpineRate.GetBitRate());
    const uint32_t rails = m_gpusPerServer;
    const uint32_t nLeaves = GetNScalableUnits() * m_portsPerGpu * rails;
    m_nSpinesPlanned =
        PlanUpperTier(m_spines, "Spines", m_uplinks, nLeaves, "leaves", m_spinePorts, "SpinePorts");
    SetSwitchCounts(nLeaves, m_nSpinesPlanned, 0);
    const uint32_t perSpine = m_uplinks / m_nSpinesPlanned;
    for (uint32_t leaf = 0; leaf < nLeaves; ++leaf)
    {
        for (uint32_t m = 0; m < perSpine; ++m)
        {
            for (uint32_t s = 0; s < m_nSpinesPlanned; ++s)
            {
                AddFabricLink(leaf, nLeaves + s, FabricLinkTier::LEAF_SPINE);
            }
        }
    }
}

uint32_t
RailOptimizedTopologyHelper::DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const
{
    uint32_t su = server / m_serversPerSu;
    return (su * m_portsPerGpu + port) * m_gpusPerServer + local;
}

void
RailOptimizedTopologyHelper::DoPrintShape(std::ostream& os) const
{
    os << "  " << GetNRails() << " rails x " << m_portsPerGpu << " plane(s), "
       << GetNScalableUnits() << " scalable unit(s) of " << m_serversPerSu
       << " server slots; leaf: " << m_serversPerSu << " down + " << m_uplinks << " up of "
       << m_leafPorts << " ports; " << m_nSpinesPlanned << " spines of " << m_spinePorts
       << " ports (" << (m_nSpinesPlanned ? m_uplinks / m_nSpinesPlanned : 0)
       << " cable(s) to each leaf)\n";
}

} // namespace ns3
