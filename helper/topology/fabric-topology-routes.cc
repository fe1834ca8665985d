/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: FabricTopologyHelper's static routes and PFC deadlock detection.
 */
#include "fabric-topology.h"

#include "ns3/fabric-input-error.h"

namespace ns3
{

Ptr<PfcDeadlockDetector>
FabricTopologyHelper::EnableDeadlockDetection()
{
    CheckInstalled("EnableDeadlockDetection");
    if (!m_deadlockDetector)
    {
        m_deadlockDetector = CreateObject<PfcDeadlockDetector>();
        m_deadlockDetector->SetNodeNamer(MakeCallback(&FabricTopologyHelper::GetNodeName, this));
        m_deadlockDetector->Install(m_switches);
        m_deadlockDetector->Install(m_nvSwitches);
        m_deadlockDetector->Attach(m_monitor);
    }
    return m_deadlockDetector;
}

Ptr<PfcDeadlockDetector>
FabricTopologyHelper::GetDeadlockDetector() const
{
    return m_deadlockDetector;
}

const FabricRouteStats&
FabricTopologyHelper::SetStaticRoute(Ptr<Node> sw, Ptr<Node> dst, Ptr<Node> via)
{
    CheckInstalled("SetStaticRoute");
    const std::string what = GetInstanceTypeId().GetName() + "::SetStaticRoute: ";
    const uint32_t total = GetNRanks() + m_nvSwitches.GetN() + m_switches.GetN();
    auto globalIndex = [&](Ptr<Node> node, const char* role) {
        FABRIC_INPUT_ERROR_IF(
            !node || node->GetId() < m_firstNodeId || node->GetId() >= m_firstNodeId + total,
            what << "the " << role << " (node " << (node ? int64_t(node->GetId()) : -1)
                 << ") is not part of this fabric");
        return node->GetId() - m_firstNodeId;
    };
    const uint32_t swBase = GetNRanks() + m_nvSwitches.GetN();
    const uint32_t gSw = globalIndex(sw, "switch");
    const uint32_t gDst = globalIndex(dst, "destination");
    globalIndex(via, "next hop");
    const FabricNodeType swType = GlobalType(gSw);
    FABRIC_INPUT_ERROR_IF(swType != FabricNodeType::LEAF && swType != FabricNodeType::SPINE &&
                              swType != FabricNodeType::CORE,
                          what << GlobalName(gSw)
                               << " is not a scale-out switch; routes are pinned on leaves, "
                                  "spines or cores");

    std::vector<Ipv4Address> addresses;
    const FabricNodeType dstType = GlobalType(gDst);
    if (dstType == FabricNodeType::GPU)
    {
        for (uint32_t p = 0; p < m_portsPerGpu; ++p)
        {
            addresses.push_back(GetAddress(gDst, p));
        }
    }
    else if (dstType == FabricNodeType::LEAF)
    {
        for (uint32_t i = 0; i < m_attachLeaf.size(); ++i)
        {
            if (m_attachLeaf[i] == gDst - swBase)
            {
                addresses.push_back(GetAddress(i / m_portsPerGpu, i % m_portsPerGpu));
            }
        }
    }
    FABRIC_INPUT_ERROR_IF(addresses.empty(),
                          what << "the destination " << GlobalName(gDst)
                               << " is neither a GPU nor a leaf with NICs");

    std::vector<uint32_t> ports;
    for (uint32_t l : FindLinks(sw, via))
    {
        ports.push_back(m_links[l].a == gSw ? m_links[l].portA : m_links[l].portB);
    }
    FABRIC_INPUT_ERROR_IF(ports.empty(),
                          what << GlobalName(gSw) << " and " << GetNodeName(via->GetId())
                               << " are not cabled together; the next hop must be a neighbour "
                                  "of the switch");
    for (const auto& a : addresses)
    {
        m_routes->SetStaticRoute(gSw - swBase, a, ports);
    }
    return m_routes->Compute();
}

const FabricRouteStats&
FabricTopologyHelper::ClearStaticRoutes()
{
    CheckInstalled("ClearStaticRoutes");
    m_routes->ClearStaticRoutes();
    return m_routes->Compute();
}

} // namespace ns3
