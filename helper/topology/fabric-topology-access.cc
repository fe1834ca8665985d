/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricTopologyHelper, part 3 of 4: lookups of the installed fabric (ranks, switches,
 * ports, addresses, NICs, transports) and QP connections.
 */
#include "fabric-aggregate-counters.h"
#include "fabric-topology.h"

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
    else if (index < nRanks + NvSwitchCount())
    {
        os << "nvswitch" << index - nRanks;
    }
    else
    {
        os << SwitchName(index - nRanks - NvSwitchCount());
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
} // namespace ns3
