/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcqcn-congestion-ops.h"
#include "ns3/dctcp-congestion-ops.h"
#include "ns3/enum.h"
#include "ns3/fabric-input-error.h"
#include "ns3/hpcc-congestion-ops.h"
#include "ns3/node.h"
#include "ns3/swift-congestion-ops.h"
#include "ns3/timely-congestion-ops.h"
#include "ns3/uinteger.h"

namespace ns3
{

RoceNicHelper::RoceNicHelper()
{
    m_nicFactory.SetTypeId("ns3::RoceNic");
}

namespace
{

/**
 * \param name a RoceNic attribute
 * \param value a value for it, or nullptr for the attribute's default
 * \return the value as the attribute's checker makes it valid (aborts, through the checker,
 *         on a value out of range)
 */
Ptr<AttributeValue>
RoceNicAttribute(const std::string& name, const AttributeValue* value)
{
    TypeId::AttributeInformation info;
    RoceNic::GetTypeId().LookupAttributeByName(name, &info);
    return value ? info.checker->CreateValidValue(*value) : info.initialValue->Copy();
}

} // namespace

void
RoceNicHelper::SetNicAttribute(std::string name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
    if (name == "Mtu")
    {
        m_mtu = DynamicCast<const UintegerValue>(RoceNicAttribute(name, &value))->Get();
    }
    else if (name == "Int")
    {
        m_int = DynamicCast<const BooleanValue>(RoceNicAttribute(name, &value))->Get();
    }
    else if (name == "IntMaxHops")
    {
        m_intMaxHops = DynamicCast<const UintegerValue>(RoceNicAttribute(name, &value))->Get();
    }
    else if (name == "DataDscp")
    {
        m_dataDscp = DynamicCast<const UintegerValue>(RoceNicAttribute(name, &value))->Get();
    }
}

uint8_t
RoceNicHelper::GetDataDscp() const
{
    return m_dataDscp.has_value()
               ? *m_dataDscp
               : DynamicCast<const UintegerValue>(RoceNicAttribute("DataDscp", nullptr))->Get();
}

uint32_t
RoceNicHelper::GetMtu() const
{
    if (m_mtu != 0)
    {
        return m_mtu;
    }
    return DynamicCast<const UintegerValue>(RoceNicAttribute("Mtu", nullptr))->Get();
}

uint32_t
RoceNicHelper::GetDeviceMtu() const
{
    const bool on = m_int.has_value()
                        ? *m_int
                        : DynamicCast<const BooleanValue>(RoceNicAttribute("Int", nullptr))->Get();
    const uint32_t hops =
        m_intMaxHops.has_value()
            ? *m_intMaxHops
            : DynamicCast<const UintegerValue>(RoceNicAttribute("IntMaxHops", nullptr))->Get();
    return RoceNic::GetDeviceMtuFor(GetMtu(), on ? hops : 0);
}

void
RoceNicHelper::SetCongestionControl(const std::string& cc)
{
    TypeId tid;
    if (cc == "none")
    {
        tid = FabricNoneCongestionOps::GetTypeId();
    }
    else if (cc == "dcqcn")
    {
        tid = DcqcnCongestionOps::GetTypeId();
    }
    else if (cc == "dctcp")
    {
        tid = DctcpCongestionOps::GetTypeId();
        m_nicFactory.Set("CongestionNotification", EnumValue(ROCE_NOTIFY_ACK_ECHO));
    }
    else if (cc == "timely")
    {
        tid = TimelyCongestionOps::GetTypeId();
        m_nicFactory.Set("AckInterval", UintegerValue(1));
    }
    else if (cc == "swift")
    {
        tid = SwiftCongestionOps::GetTypeId();
        m_nicFactory.Set("EchoHopCount", BooleanValue(true));
    }
    else if (cc == "hpcc")
    {
        tid = HpccCongestionOps::GetTypeId();
        m_nicFactory.Set("Int", BooleanValue(true));
        m_int = true;
        m_nicFactory.Set("AckInterval", UintegerValue(1));
    }
    else
    {
        FABRIC_INPUT_ERROR_IF(!TypeId::LookupByNameFailSafe(cc, &tid) ||
                                  !tid.IsChildOf(FabricCongestionOps::GetTypeId()),
                              "congestion control \""
                                  << cc
                                  << "\" is unknown; valid names are none, dcqcn, "
                                     "dctcp, timely, swift, hpcc, or the TypeId "
                                     "name of "
                                     "a FabricCongestionOps");
    }
    m_nicFactory.Set("CongestionControl", TypeIdValue(tid));
}

void
RoceNicHelper::SetRandomStartPsn(bool random)
{
    m_connector.SetRandomStartPsn(random);
}

Ptr<RoceNic>
RoceNicHelper::Install(Ptr<Node> node, Ptr<PfcNetDevice> port, Ipv4Address address)
{
    FABRIC_INPUT_ERROR_IF(!node, "RoceNicHelper::Install given a null node");
    FABRIC_INPUT_ERROR_IF(node->GetObject<RoceNic>(),
                          "RoceNicHelper::Install: node " << node->GetId()
                                                          << " already has a RoceNic");
    FABRIC_INPUT_ERROR_IF(!port || port->GetNode() != node,
                          "RoceNicHelper::Install: the port does not belong to node "
                              << node->GetId());
    Ptr<RoceNic> nic = m_nicFactory.Create<RoceNic>();
    nic->AddPort(port, address);
    node->AggregateObject(nic);
    return nic;
}

std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>>
RoceNicHelper::Connect(Ptr<RoceNic> a,
                       Ptr<RoceNic> b,
                       uint32_t nQps,
                       uint32_t portA,
                       uint32_t portB)
{
    return m_connector.Connect(a, b, nQps, portA, portB, "RoceNicHelper::Connect");
}

int64_t
RoceNicHelper::AssignStreams(int64_t stream)
{
    return m_connector.AssignStreams(stream);
}

RoceQpConnector&
RoceNicHelper::GetConnector()
{
    return m_connector;
}

} // namespace ns3
