/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-partition.h"

#include "fabric-topology.h"
#include "fabric-union-find.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"

#include <numeric>

namespace ns3
{

FabricPartition::FabricPartition(uint32_t nNodes,
                                 uint32_t nGpus,
                                 const std::vector<Cable>& cables,
                                 FabricPartitionBy by,
                                 uint32_t systems,
                                 const Namer& namer)
    : m_systems(systems)
{
    FABRIC_INPUT_ERROR_IF(systems == 0, "FabricPartition: Systems 0; it must be >= 1");
    FABRIC_INPUT_ERROR_IF(nGpus == 0 || nGpus > nNodes,
                          "FabricPartition: " << nGpus << " GPUs among " << nNodes
                                              << " nodes; there must be 1.." << nNodes);
    bool threeTiers = false;
    for (const auto& c : cables)
    {
        NS_ABORT_MSG_IF(c.a >= nNodes || c.b >= nNodes,
                        "FabricPartition: cable " << c.a << "-" << c.b << " outside the " << nNodes
                                                  << " nodes");
        threeTiers |= c.tier == FabricLinkTier::SPINE_CORE;
    }
    // Units: what is left connected once the cables allowed to cross are removed, numbered in
    // the order of their first node (GPUs are the first indices, so units with GPUs come first).
    FabricUnionFind sets(nNodes);
    for (const auto& c : cables)
    {
        const bool crossable =
            c.tier == FabricLinkTier::SPINE_CORE ||
            (c.tier == FabricLinkTier::LEAF_SPINE && !(by == PARTITION_BY_POD && threeTiers));
        if (!crossable)
        {
            sets.Union(c.a, c.b);
        }
    }
    std::vector<uint32_t> unitOf;
    const uint32_t units = sets.Label(unitOf);
    std::vector<bool> unitHasGpu(units, false);
    for (uint32_t n = 0; n < nGpus; ++n)
    {
        unitHasGpu[unitOf[n]] = true;
    }
    std::vector<uint32_t> systemOfUnit(unitHasGpu.size());
    m_gpuUnits = 0;
    for (bool g : unitHasGpu)
    {
        m_gpuUnits += g ? 1 : 0;
    }
    FABRIC_INPUT_ERROR_IF(
        systems > m_gpuUnits,
        "Systems " << systems << " is more than the " << m_gpuUnits
                   << " units this fabric can be split into by "
                   << (by == PARTITION_BY_POD ? "pod" : "leaf")
                   << " (a unit is a group of servers with the leaves they attach to); use 1.."
                   << m_gpuUnits << " processes");
    uint32_t gpuUnit = 0;
    uint32_t switchUnit = 0;
    for (size_t u = 0; u < unitHasGpu.size(); ++u)
    {
        if (unitHasGpu[u])
        {
            systemOfUnit[u] = static_cast<uint32_t>(uint64_t(gpuUnit++) * systems / m_gpuUnits);
        }
        else
        {
            systemOfUnit[u] = switchUnit++ % systems;
        }
    }
    m_systemOfNode.resize(nNodes);
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        m_systemOfNode[n] = systemOfUnit[unitOf[n]];
    }
    CheckCables(cables, namer);
}

FabricPartition::FabricPartition(const std::vector<uint32_t>& systemOfNode,
                                 const std::vector<Cable>& cables,
                                 uint32_t systems,
                                 const Namer& namer)
    : m_systems(systems),
      m_systemOfNode(systemOfNode)
{
    FABRIC_INPUT_ERROR_IF(systems == 0, "FabricPartition: Systems 0; it must be >= 1");
    std::vector<uint32_t> count(systems, 0);
    for (uint32_t n = 0; n < systemOfNode.size(); ++n)
    {
        FABRIC_INPUT_ERROR_IF(systemOfNode[n] >= systems,
                              "FabricPartition: " << namer(n) << " is assigned system "
                                                  << systemOfNode[n] << "; systems are 0.."
                                                  << systems - 1);
        count[systemOfNode[n]]++;
    }
    for (uint32_t s = 0; s < systems; ++s)
    {
        FABRIC_INPUT_ERROR_IF(count[s] == 0,
                              "FabricPartition: system " << s << " of " << systems
                                                         << " has no node");
    }
    for (const auto& c : cables)
    {
        FABRIC_INPUT_ERROR_IF(c.a >= systemOfNode.size() || c.b >= systemOfNode.size(),
                              "FabricPartition: the assignment has "
                                  << systemOfNode.size() << " nodes; a cable joins nodes " << c.a
                                  << " and " << c.b);
    }
    CheckCables(cables, namer);
}

void
FabricPartition::CheckCables(const std::vector<Cable>& cables, const Namer& namer)
{
    m_crossing = 0;
    m_lookahead = Time(0);
    m_systemLookahead.assign(m_systems, Time(0));
    for (const auto& c : cables)
    {
        const uint32_t sa = m_systemOfNode[c.a];
        const uint32_t sb = m_systemOfNode[c.b];
        if (sa == sb)
        {
            continue;
        }
        FABRIC_INPUT_ERROR_IF(c.tier == FabricLinkTier::NVLINK ||
                                  c.tier == FabricLinkTier::GPU_LEAF,
                              "the " << FabricLinkTierName(c.tier) << " cable " << namer(c.a) << "-"
                                     << namer(c.b) << " joins systems " << sa << " and " << sb
                                     << "; NVLink and host cables must stay inside one "
                                        "process (only switch-to-switch cables may cross)");
        FABRIC_INPUT_ERROR_IF(!c.delay.IsStrictlyPositive(),
                              "the " << FabricLinkTierName(c.tier) << " cable " << namer(c.a) << "-"
                                     << namer(c.b) << " joins systems " << sa << " and " << sb
                                     << " with a delay of " << c.delay.GetNanoSeconds()
                                     << " ns; a cable between processes needs a delay > 0 "
                                        "(ns-3's distributed engine takes it as its lookahead)");
        if (m_crossing == 0 || c.delay < m_lookahead)
        {
            m_lookahead = c.delay;
        }
        for (uint32_t s : {sa, sb})
        {
            if (m_systemLookahead[s].IsZero() || c.delay < m_systemLookahead[s])
            {
                m_systemLookahead[s] = c.delay;
            }
        }
        m_crossing++;
    }
}

uint32_t
FabricPartition::GetSystems() const
{
    return m_systems;
}

uint32_t
FabricPartition::GetSystem(uint32_t node) const
{
    NS_ABORT_MSG_IF(node >= m_systemOfNode.size(),
                    "FabricPartition::GetSystem(" << node << "): " << m_systemOfNode.size()
                                                  << " nodes");
    return m_systemOfNode[node];
}

const std::vector<uint32_t>&
FabricPartition::GetSystemOfNode() const
{
    return m_systemOfNode;
}

uint32_t
FabricPartition::GetGpuUnits() const
{
    return m_gpuUnits;
}

uint32_t
FabricPartition::GetCrossingCables() const
{
    return m_crossing;
}

Time
FabricPartition::GetLookahead() const
{
    return m_lookahead;
}

Time
FabricPartition::GetLookahead(uint32_t system) const
{
    NS_ABORT_MSG_IF(system >= m_systems,
                    "FabricPartition::GetLookahead(" << system << "): systems are 0.."
                                                     << m_systems - 1);
    return m_systemLookahead[system];
}

uint32_t
FabricPartition::GetNodeCount(uint32_t system) const
{
    uint32_t n = 0;
    for (uint32_t s : m_systemOfNode)
    {
        n += s == system ? 1 : 0;
    }
    return n;
}

} // namespace ns3
