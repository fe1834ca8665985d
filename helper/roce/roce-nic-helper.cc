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
    : m_randomPsn(true)
{
    m_nicFactory.SetTypeId("ns3::RoceNic");
    m_psnRng = CreateObject<UniformRandomVariable>();
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
        tid = RoceNoneCongestionOps::GetTypeId();
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
                                  !tid.IsChildOf(RoceCongestionOps::GetTypeId()),
                              "congestion control \""
                                  << cc
                                  << "\" is unknown; valid names are none, dcqcn, "
                                     "dctcp, timely, swift, hpcc, or the TypeId "
                                     "name of "
                                     "a RoceCongestionOps");
    }
    m_nicFactory.Set("CongestionControl", TypeIdValue(tid));
}

void
RoceNicHelper::SetRandomStartPsn(bool random)
{
    m_randomPsn = random;
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
    FABRIC_INPUT_ERROR_IF(!a || !b, "RoceNicHelper::Connect: a NIC is null (unknown NIC)");
    FABRIC_INPUT_ERROR_IF(a->GetNPorts() == 0 || b->GetNPorts() == 0,
                          "RoceNicHelper::Connect: a NIC has no ports (install it with "
                          "RoceNicHelper::Install first)");
    FABRIC_INPUT_ERROR_IF(nQps == 0, "RoceNicHelper::Connect: nQps must be >= 1");
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> pairs;
    for (uint32_t i = 0; i < nQps; ++i)
    {
        Ptr<RoceQueuePair> qa = a->CreateQp(portA);
        Ptr<RoceQueuePair> qb = b->CreateQp(portB);
        uint32_t psnA = m_randomPsn ? m_psnRng->GetInteger(0, 0xffffff) : 0;
        uint32_t psnB = m_randomPsn ? m_psnRng->GetInteger(0, 0xffffff) : 0;
        // Entropy: the RoCE convention of a UDP source port in 49152..65535 per QP.
        auto entropy = [](uint32_t qpn, uint32_t other) {
            return static_cast<uint16_t>(49152 + ((qpn * 2654435761u) ^ other) % 16384);
        };
        qa->Connect(b->GetAddress(portB),
                    qb->GetQpn(),
                    psnA,
                    psnB,
                    entropy(qa->GetQpn(), qb->GetQpn()));
        qb->Connect(a->GetAddress(portA),
                    qa->GetQpn(),
                    psnB,
                    psnA,
                    entropy(qb->GetQpn(), qa->GetQpn()));
        pairs.emplace_back(qa, qb);
    }
    return pairs;
}

int64_t
RoceNicHelper::AssignStreams(int64_t stream)
{
    m_psnRng->SetStream(stream);
    return 1;
}

} // namespace ns3
