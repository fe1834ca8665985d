/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-only-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RailOnlyTopologyHelper);

TypeId
RailOnlyTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailOnlyTopologyHelper")
            .SetParent<FabricTopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<RailOnlyTopologyHelper>()
            .AddAttribute("Rails",
                          "Number of rails; 0 (default) = GpusPerServer. Rail i is NIC i of "
                          "every server, so a non-zero value must equal GpusPerServer.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RailOnlyTopologyHelper::m_rails),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LeafPorts",
                          "Ports per rail leaf (>= 1); all are down-ports, so at most LeafPorts "
                          "servers. Default 64.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RailOnlyTopologyHelper::m_leafPorts),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RailOnlyTopologyHelper::RailOnlyTopologyHelper()
    : m_rails(0),
      m_leafPorts(64)
{
}

std::string
RailOnlyTopologyHelper::GetKindName() const
{
    return "rail-only";
}

uint32_t
RailOnlyTopologyHelper::GetNRails() const
{
    return m_gpusPerServer;
}

Ptr<Node>
RailOnlyTopologyHelper::GetLeaf(uint32_t rail, uint32_t plane) const
{
    FABRIC_INPUT_ERROR_IF(rail >= GetNRails(),
                          "RailOnlyTopologyHelper::GetLeaf: rail "
                              << rail << " does not exist (rails 0.." << GetNRails() - 1 << ")");
    FABRIC_INPUT_ERROR_IF(plane >= m_portsPerGpu,
                          "RailOnlyTopologyHelper::GetLeaf: plane "
                              << plane << " does not exist (planes 0.." << m_portsPerGpu - 1
                              << ")");
    return GetLeaf(plane * GetNRails() + rail);
}

uint32_t
RailOnlyTopologyHelper::GetRelayRank(uint32_t srcRank, uint32_t dstRank) const
{
    CheckRank(srcRank, "GetRelayRank");
    CheckRank(dstRank, "GetRelayRank");
    return (srcRank / m_gpusPerServer) * m_gpusPerServer + dstRank % m_gpusPerServer;
}

void
RailOnlyTopologyHelper::DoPlan()
{
    const std::string name = "RailOnlyTopologyHelper";
    FABRIC_INPUT_ERROR_IF(m_rails != 0 && m_rails != m_gpusPerServer,
                          name << ": Rails=" << m_rails << " but GpusPerServer=" << m_gpusPerServer
                               << ": rail i is NIC i of every server, so Rails must equal the NICs "
                                  "per server ("
                               << m_gpusPerServer << ", or 0 for automatic)");
    FABRIC_INPUT_ERROR_IF(m_leafPorts == 0, name << ": LeafPorts=0 is invalid; need >= 1");
    FABRIC_INPUT_ERROR_IF(m_servers > m_leafPorts,
                          name << ": Servers=" << m_servers
                               << " do not fit LeafPorts=" << m_leafPorts
                               << ": a rail-only fabric has no spine, so the rail-i port of every "
                                  "server goes to the one rail-i leaf; use Servers <= "
                               << m_leafPorts << ", raise LeafPorts to >= " << m_servers
                               << ", or use RailOptimizedTopologyHelper");
    SetSwitchCounts(m_portsPerGpu * m_gpusPerServer, 0, 0);
}

uint32_t
RailOnlyTopologyHelper::DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const
{
    return port * m_gpusPerServer + local;
}

void
RailOnlyTopologyHelper::DoCheckConnect(uint32_t rankA, uint32_t rankB) const
{
    uint32_t railA = rankA % m_gpusPerServer;
    uint32_t railB = rankB % m_gpusPerServer;
    FABRIC_INPUT_ERROR_IF(
        railA != railB,
        "RailOnlyTopologyHelper::Connect: rank "
            << rankA << " (rail " << railA << ") and rank " << rankB << " (rail " << railB
            << ") are on different rails and servers; a rail-only fabric "
            << "has no path between rails, so a direct NIC-to-NIC QP is impossible. "
            << "Relay via GetRelayRank(" << rankA << ", " << rankB
            << ") = " << GetRelayRank(rankA, rankB) << ": Connect(" << rankA << ", "
            << GetRelayRank(rankA, rankB) << ") over NVLink, then Connect("
            << GetRelayRank(rankA, rankB) << ", " << rankB << ") over rail " << railB);
}

bool
RailOnlyTopologyHelper::DoRequiresFullReach() const
{
    return false;
}

void
RailOnlyTopologyHelper::DoPrintShape(std::ostream& os) const
{
    os << "  " << GetNRails() << " rails x " << m_portsPerGpu << " plane(s), one leaf each ("
       << m_servers << " of " << m_leafPorts
       << " ports down, no spine; cross-rail traffic relays over NVLink)\n";
}

} // namespace ns3
