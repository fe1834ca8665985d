/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-nic-helper.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <map>

namespace ns3
{

UetNicHelper::UetNicHelper()
{
    m_nicFactory.SetTypeId(UetNic::GetTypeId());
}

void
UetNicHelper::SetNicAttribute(std::string name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
    if (name == "Mtu")
    {
        TypeId::AttributeInformation info;
        UetNic::GetTypeId().LookupAttributeByName("Mtu", &info);
        m_mtu = DynamicCast<const UintegerValue>(info.checker->CreateValidValue(value))->Get();
    }
    if (name == "CongestionControl")
    {
        m_ccTypeId = DynamicCast<const TypeIdValue>(value.Copy())->Get();
        m_ccSet = true;
    }
    if (name == "DataDscp")
    {
        TypeId::AttributeInformation info;
        UetNic::GetTypeId().LookupAttributeByName("DataDscp", &info);
        m_dataDscp = DynamicCast<const UintegerValue>(info.checker->CreateValidValue(value))->Get();
    }
}

uint8_t
UetNicHelper::GetDataDscp() const
{
    if (m_dataDscp.has_value())
    {
        return *m_dataDscp;
    }
    TypeId::AttributeInformation info;
    UetNic::GetTypeId().LookupAttributeByName("DataDscp", &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

uint32_t
UetNicHelper::GetMtu() const
{
    if (m_mtu != 0)
    {
        return m_mtu;
    }
    TypeId::AttributeInformation info;
    UetNic::GetTypeId().LookupAttributeByName("Mtu", &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

uint32_t
UetNicHelper::GetMinTrimBytes() const
{
    // Without creating a NIC (that would take a random stream and shift every later one).
    TypeId cc = m_ccTypeId;
    if (!m_ccSet)
    {
        TypeId::AttributeInformation info;
        UetNic::GetTypeId().LookupAttributeByName("CongestionControl", &info);
        cc = DynamicCast<const TypeIdValue>(info.initialValue)->Get();
    }
    return UetNic::GetMinTrimBytesFor(cc);
}

Ptr<UetNic>
UetNicHelper::Install(Ptr<Node> node, Ptr<PfcNetDevice> port, Ipv4Address address)
{
    FABRIC_INPUT_ERROR_IF(!node, "UetNicHelper::Install given a null node");
    FABRIC_INPUT_ERROR_IF(node->GetObject<UetNic>(),
                          "UetNicHelper::Install: node " << node->GetId()
                                                         << " already has a UetNic");
    FABRIC_INPUT_ERROR_IF(!port || port->GetNode() != node,
                          "UetNicHelper::Install: the port does not belong to node "
                              << node->GetId());
    Ptr<UetNic> nic = m_nicFactory.Create<UetNic>();
    nic->AddPort(port, address);
    node->AggregateObject(nic);
    m_nics.push_back(nic);
    return nic;
}

std::vector<Ptr<UetEndpoint>>
UetNicHelper::CreateEndpoints(const std::vector<Ptr<Node>>& nodes,
                              uint32_t jobId,
                              uint16_t resources)
{
    std::vector<Ptr<UetEndpoint>> eps;
    std::map<UetNic*, uint16_t> perNic;
    for (uint32_t r = 0; r < nodes.size(); ++r)
    {
        FABRIC_INPUT_ERROR_IF(!nodes[r],
                              "UetNicHelper::CreateEndpoints: the node of rank " << r
                                                                                 << " is null");
        Ptr<UetNic> nic = nodes[r]->GetObject<UetNic>();
        FABRIC_INPUT_ERROR_IF(!nic,
                              "UetNicHelper::CreateEndpoints: the node of rank "
                                  << r << " (node " << nodes[r]->GetId()
                                  << ") has no UetNic (install one with UetNicHelper)");
        uint16_t pid = perNic[PeekPointer(nic)]++;
        eps.push_back(nic->CreateEndpoint(jobId, pid, 0, resources));
    }
    return eps;
}

int64_t
UetNicHelper::AssignStreams(int64_t stream)
{
    for (uint32_t i = 0; i < m_nics.size(); ++i)
    {
        m_nics[i]->AssignStreams(stream + i);
    }
    return static_cast<int64_t>(m_nics.size());
}

void
UetNicHelper::CheckSwitchTrimming(Ptr<const UetNic> nic,
                                  Ptr<const FabricSwitch> sw,
                                  const std::string& name)
{
    FABRIC_INPUT_ERROR_IF(
        !nic || !sw || nic->GetNPorts() == 0,
        "UetNicHelper::CheckSwitchTrimming needs a UetNic with a port and a switch");
    Ptr<SharedBufferMmu> mmu = sw->GetMmu();
    if (!mmu || !mmu->IsTrimEnabled(nic->GetDataPriority(0)))
    {
        return; // UET's packets are never trimmed there
    }
    nic->CheckSwitchTrimming(name,
                             mmu->GetTrimSize(),
                             static_cast<uint8_t>(mmu->GetTrimDscp()),
                             static_cast<uint8_t>(mmu->GetLastHopTrimDscp()));
}

} // namespace ns3
